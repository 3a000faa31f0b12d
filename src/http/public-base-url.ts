// The base of the absolute URLs Switchyard writes (the `Link` header of the activity log):
// SWITCHYARD_PUBLIC_URL when set, else the request's scheme and host. Those come from the
// X-Forwarded-* headers only when the peer is a configured proxy (app.ts, trustProxy), and
// are used only when they are what a URL may hold: `http` or `https`, and a host name or
// address with an optional port. Anything else was an injection (`X-Forwarded-Proto:
// https://evil.example/>; rel="prev"; x="` wrote a whole link into `Link`): a 422.
import type { FastifyRequest } from 'fastify';
import { validationError } from '../errors.ts';

const SCHEMES = new Set(['http', 'https']);
// LDH labels, an IPv4 address, or a bracketed IPv6 address; then an optional port.
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*\.?|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/i;

export function requestBaseUrl(request: FastifyRequest, publicUrl: string | undefined): URL {
  if (publicUrl !== undefined) return new URL(publicUrl);
  const scheme = (request.protocol ?? '').trim().toLowerCase();
  const host = request.host.trim();
  const forwarded = request.headers['x-forwarded-proto'] !== undefined || request.headers['x-forwarded-host'] !== undefined;
  const where = forwarded ? 'x-forwarded-proto' : 'host';
  if (!SCHEMES.has(scheme)) throw validationError(['header', where], 'must be http or https', 'url_invalid');
  if (!HOST.test(host) || host.length > 260) throw validationError(['header', forwarded ? 'x-forwarded-host' : 'host'], 'must be a host name or address, with an optional port', 'url_invalid');
  return new URL(`${scheme}://${host}`);
}

/** `base` joined with a path whose segments are encoded here: never pasted as text. */
export function absoluteUrl(base: URL, segments: readonly string[]): URL {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${segments.map(encodeURIComponent).join('/')}`;
  return url;
}

// Hosting-platform webhook signatures (DESIGN.md §4): `X-Hub-Signature-256` is "sha256=" and the
// hex HMAC-SHA256 of the raw body under the shared secret. Compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

export function signBody(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** False when no secret is configured: an unsigned installation must not accept webhooks. */
export function signatureMatches(secret: string | undefined, body: Buffer, header: string | undefined): boolean {
  if (!secret || header === undefined) return false;
  const given = SIGNATURE.exec(header.trim())?.[1];
  if (!given) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

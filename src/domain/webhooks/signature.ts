// Hosting-platform webhook signatures (DESIGN.md §4): `X-Hub-Signature-256` is "sha256=" and the
// hex HMAC-SHA256 of the raw body under the shared secret. Compared in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

export function signBody(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * The 32 bytes a well-formed header names, or undefined: then the delivery is refused from its
 * headers alone, before a byte of its body is read. Undefined too when no secret is configured:
 * an unsigned installation must not accept webhooks.
 */
export function claimedSignature(secret: string | undefined, header: string | undefined): Buffer | undefined {
  if (!secret || header === undefined) return undefined;
  const given = SIGNATURE.exec(header.trim())?.[1];
  return given === undefined ? undefined : Buffer.from(given, 'hex');
}

/** Whether `digest` (the HMAC of the body, computed as it streamed in) is the one claimed. */
export function digestMatches(claimed: Buffer, digest: Buffer): boolean {
  return timingSafeEqual(claimed, digest);
}

export function signatureMatches(secret: string | undefined, body: Buffer, header: string | undefined): boolean {
  const claimed = claimedSignature(secret, header);
  return claimed !== undefined && digestMatches(claimed, createHmac('sha256', secret!).update(body).digest());
}

// Application keys (DESIGN.md §3): "swy_" + 256 random bits, shown once, stored as SHA-256.
// A fast hash is enough: the secret is random, so there is nothing to brute-force.
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'swy_';
export type KeyScope = 'admin' | 'ci';

export function generateKeySecret(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function looksLikeApplicationKey(token: string): boolean {
  return token.startsWith(KEY_PREFIX);
}

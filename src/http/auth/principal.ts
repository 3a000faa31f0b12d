// Who is calling: the three credential schemes of DESIGN.md §3, identified from the
// Authorization header alone (rights are checked later, against the path).
import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../../errors.ts';
import { hashKeySecret, looksLikeApplicationKey } from '../../domain/application-key.ts';
import type { ApplicationKey, ApplicationKeyQueries } from '../../storage/queries/application-keys.ts';
import type { HostingApi, HostingUser } from '../../hosting/hosting-api.ts';

export type Principal =
  | { kind: 'service' }
  | { kind: 'admin_key' | 'ci_key'; key: ApplicationKey }
  | { kind: 'hosting'; token: string; user: HostingUser };

export type CredentialKind = Principal['kind'];

export interface CredentialDeps {
  serviceToken: string | undefined;
  keys: ApplicationKeyQueries;
  hosting: HostingApi;
}

const BEARER = /^Bearer +([\x21-\x7e]+) *$/i;

export function bearerToken(header: string | undefined): string {
  const match = header === undefined ? null : BEARER.exec(header);
  if (!match?.[1]) throw new ApiError('missing_credential');
  return match[1];
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time comparison: both sides are hashed first so lengths never leak. */
export function isServiceToken(token: string, serviceToken: string | undefined): boolean {
  return serviceToken !== undefined && timingSafeEqual(digest(token), digest(serviceToken));
}

export function credentialKind(token: string, serviceToken: string | undefined): 'service' | 'key' | 'hosting' {
  if (isServiceToken(token, serviceToken)) return 'service';
  return looksLikeApplicationKey(token) ? 'key' : 'hosting';
}

/** `clientAddress` is charged for hosting tokens the platform must be asked about (hosting-api.ts). */
export async function identify(token: string, deps: CredentialDeps, accepts: readonly CredentialKind[], clientAddress?: string): Promise<Principal> {
  const kind = credentialKind(token, deps.serviceToken);
  if (kind === 'service') {
    if (!accepts.includes('service')) throw new ApiError('scheme_not_accepted');
    return { kind: 'service' };
  }
  if (kind === 'key') {
    const key = await deps.keys.findBySecretHash(hashKeySecret(token));
    if (!key || key.revokedAt !== null) throw new ApiError('invalid_credential');
    const keyKind = key.scope === 'admin' ? 'admin_key' : 'ci_key';
    if (!accepts.includes(keyKind)) throw new ApiError('scheme_not_accepted');
    return { kind: keyKind, key };
  }
  if (!accepts.includes('hosting')) throw new ApiError('scheme_not_accepted');
  const user = await deps.hosting.user(token, clientAddress);
  if (!user) throw new ApiError('invalid_credential');
  return { kind: 'hosting', token, user };
}

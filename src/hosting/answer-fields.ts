// Reading fields of the platform's JSON answers strictly. Whatever the platform sends is input
// like any other: an id that is not an exact 64-bit integer, a login GitHub would not issue, a
// sha that is not 40 hex digits is an invalid answer (HostingFailure 'invalid_answer'), never a
// value passed on to storage or a crash further in.
import { INT64_MAX } from '../domain/int64.ts';
import { HostingFailure } from './hosting-failure.ts';

// GitHub logins: letters, digits, hyphens (and underscores for managed users), at most 39,
// starting with a letter or digit; an app's bot adds "[bot]".
const LOGIN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,38}(?:\[bot\])?$/;
const SHA = /^[0-9a-fA-F]{40}$/;
const UNKEEPABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function invalid(what: string): HostingFailure {
  return new HostingFailure('invalid_answer', `The hosting platform answered with an invalid ${what}.`);
}

export function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid(what);
  return value as Record<string, unknown>;
}

/**
 * An id or number: a positive 64-bit integer. The JSON parser gives numbers up to 2^53 and
 * bigint beyond; a number that is not a safe integer has already lost digits.
 */
export function int64Of(value: unknown, what: string): bigint {
  let parsed: bigint | undefined;
  if (typeof value === 'bigint') parsed = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) parsed = BigInt(value);
  else if (typeof value === 'string' && /^[0-9]{1,19}$/.test(value)) parsed = BigInt(value);
  if (parsed === undefined || parsed < 0n || parsed > INT64_MAX) throw invalid(what);
  return parsed;
}

export function countOf(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw invalid(what);
  return value;
}

/** A string that storage and logs can keep as it is: no U+0000, no unpaired surrogate. */
export function stringOf(value: unknown, what: string): string {
  if (typeof value !== 'string' || UNKEEPABLE.test(value)) throw invalid(what);
  return value;
}

export function nullableStringOf(value: unknown, what: string): string | null {
  return value === null || value === undefined ? null : stringOf(value, what);
}

export function loginOf(value: unknown, what = 'login'): string {
  if (typeof value !== 'string' || !LOGIN.test(value)) throw invalid(what);
  return value;
}

export function shaOf(value: unknown, what = 'commit sha'): string {
  if (typeof value !== 'string' || !SHA.test(value)) throw invalid(what);
  return value.toLowerCase();
}

export function oneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) throw invalid(what);
  return value as T;
}

// Pull request numbers and other platform ids are 64-bit: they travel as bigint end to end and
// are never rounded through a JS number.
import { Type, type TUnsafe } from '@sinclair/typebox';

export const INT64_MAX = 9223372036854775807n;

/** Parses a decimal string of an integer from 0 to INT64_MAX, or returns undefined. */
export function parseUint64(text: string): bigint | undefined {
  if (!/^[0-9]{1,64}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value <= INT64_MAX ? value : undefined;
}

/**
 * A non-negative 64-bit integer. Documented as `integer`/`int64`; validated by the `int64`
 * keyword of our Ajv instances (src/validation/validators.ts), which turns the value into a bigint.
 */
export function Int64(options: { description?: string; examples?: number[] } = {}): TUnsafe<bigint> {
  return Type.Unsafe<bigint>({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    maximum: Number(INT64_MAX),
    ...options,
  });
}

/** Orders non-negative integers written in decimal without leading zeros (ids, pull request numbers) without parsing them. */
export function compareDecimal(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

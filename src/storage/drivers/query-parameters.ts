// Query parameters are turned into text (or bytes) here, once for both backends, so a value means
// the same on PGlite and PostgreSQL whatever each driver would otherwise do with it.
import { stringifyJson } from '../../json/exact-json.ts';
import { formatArrayLiteral } from './array-literal.ts';

/**
 * bigint → decimal string; Date → ISO 8601 in UTC; JS array → array literal; Uint8Array/Buffer →
 * unchanged (bytea); other objects → exact JSON text (bigint stays an integer). null/undefined → NULL.
 */
export function serializeParameter(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'object') return value;
  if (value instanceof Date) return timestampText(value);
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return formatArrayLiteral(value, formatArrayElement);
  return stringifyJson(value);
}

/**
 * A Date as PostgreSQL timestamp input. toISOString() only for years 1 to 9999: found by the fuzzer (test/fuzz), a
 * date-time such as 0001-01-01T00:00:00+01:00 is an instant of year 0, which toISOString writes
 * as "0000-…" (and years past 9999 as "+010000-…"), input PostgreSQL refuses (a 500). Its own
 * notation counts years from 1 with an era: year 0 is 1 BC.
 */
function timestampText(date: Date): string {
  const iso = date.toISOString();
  const year = date.getUTCFullYear();
  if (year >= 1 && year <= 9999) return iso;
  const time = iso.slice(iso.indexOf('T') + 1, -1);
  const day = `${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;
  return `${String(year > 0 ? year : 1 - year).padStart(4, '0')}-${day} ${time}+00${year > 0 ? '' : ' BC'}`;
}

export function serializeParameters(values: readonly unknown[]): unknown[] {
  return values.map(serializeParameter);
}

function formatArrayElement(value: unknown): string {
  if (ArrayBuffer.isView(value)) {
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  }
  return String(serializeParameter(value));
}

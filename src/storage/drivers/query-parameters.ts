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
  if (value instanceof Date) return value.toISOString();
  if (ArrayBuffer.isView(value)) return value;
  if (Array.isArray(value)) return formatArrayLiteral(value, formatArrayElement);
  return stringifyJson(value);
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

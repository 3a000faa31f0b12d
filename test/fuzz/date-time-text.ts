// RFC 3339 date-times as the API takes them: any offset, optional fraction, `T`/`t`/space and
// `Z`/`z`, for instants that UTC writes with a four-digit year (docs/errors.md `format`). Also
// the other side: texts that look like date-times and are not.
import fc from 'fast-check';

export const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
export const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

const two = (n: number) => String(n).padStart(2, '0');

function wallClock(date: Date): string {
  return `${String(date.getUTCFullYear()).padStart(4, '0')}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
}

/** `instant` written at `offsetMinutes` east of UTC; undefined when the wall clock leaves 0000-9999. */
export function formatDateTime(instant: number, offsetMinutes: number, style: { t?: string; z?: string; fraction?: string } = {}): string | undefined {
  const wall = new Date(instant + offsetMinutes * 60_000);
  const year = wall.getUTCFullYear();
  if (!Number.isFinite(wall.getTime()) || year < 0 || year > 9999) return undefined;
  const time = `${two(wall.getUTCHours())}:${two(wall.getUTCMinutes())}:${two(wall.getUTCSeconds())}`;
  const fraction = style.fraction ?? `.${String(wall.getUTCMilliseconds()).padStart(3, '0')}`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const zone = offsetMinutes === 0 && style.z !== '+00:00' ? (style.z ?? 'Z') : `${sign}${two(Math.floor(Math.abs(offsetMinutes) / 60))}:${two(Math.abs(offsetMinutes) % 60)}`;
  return `${wallClock(wall)}${style.t ?? 'T'}${time}${fraction}${zone}`;
}

const offsets = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }) });
const styles = fc.record({
  t: fc.constantFrom('T', 'T', 't', ' '),
  z: fc.constantFrom('Z', 'Z', 'z', '+00:00'),
  fraction: fc.constantFrom(undefined, '', '.5', '.123456789'),
});

/** Instants from `min` to `max` (ms since the epoch), as date-time texts. */
export function dateTimeText(min = EARLIEST, max = LATEST): fc.Arbitrary<string> {
  const instant = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: Math.max(min, Date.now() - 86_400_000 * 30), max: Math.min(max, Date.now()) }) }, { weight: 1, arbitrary: fc.integer({ min, max }) });
  return fc
    .tuple(instant, offsets, styles)
    .map(([at, offset, style]) => formatDateTime(at, offset, style))
    .filter((text): text is string => text !== undefined && parsesWithin(text, min, max));
}

const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|[+-](\d\d):(\d\d))$/;

/** The instant a date-time text names (truncated to the millisecond), or undefined. */
export function instantOf(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  date.setUTCHours(hour, minute, second, Number((m[7] ?? '.0').slice(1, 4).padEnd(3, '0')));
  const offset = m[8]!.toUpperCase() === 'Z' ? 0 : (m[8]!.startsWith('-') ? -1 : 1) * (Number(m[9]) * 60 + Number(m[10]));
  if (Number(m[9] ?? 0) > 23 || Number(m[10] ?? 0) > 59) return undefined;
  return date.getTime() - offset * 60_000;
}

function parsesWithin(text: string, min: number, max: number): boolean {
  const at = instantOf(text);
  return at !== undefined && at >= min && at <= max;
}

/** Looks like a date-time, is not one the API accepts. */
export const INVALID_DATE_TIMES = [
  '2024-02-30T00:00:00Z',
  '2023-02-29T12:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-00-10T00:00:00Z',
  '2024-05-01T24:00:00Z',
  '2024-05-01T12:60:00Z',
  '2024-05-01T12:00:61Z',
  '2024-05-01T12:00:00',
  '2024-05-01 12:00:00 02:00',
  '2024-05-01T12:00:00+24:00',
  '2024-05-01T12:00:00+02:60',
  '2024-05-01',
  '12:00:00Z',
  '2024-5-1T1:2:3Z',
  '+002024-05-01T12:00:00Z',
  '-000001-12-31T23:00:00Z',
  '0000-01-01T00:00:00+00:01',
  '9999-12-31T23:59:59-00:01',
  '20240501T120000Z',
  '2024-05-01T12:00:00.Z',
  '2024-05-01T12:00:00ZZ',
  '2024-05-01T12:00:00Z ',
  ' 2024-05-01T12:00:00Z',
  'now',
  '',
  '１９７０-01-01T00:00:00Z',
];

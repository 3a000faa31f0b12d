// Time values of conditions: ISO 8601 timestamps (date only, or date and time to the minute, the
// second or a fraction), in UTC unless they carry `Z`, an offset or an IANA zone in brackets
// (`2024-05-01T09:00[Europe/Paris]`); intervals `start/end` (both ends included to the precision
// written: `…T23:59` includes that whole minute); relative times `N days H hours M minutes ago`.
import { instantOf, canonicalTimeZone, utc } from './time-zone.ts';

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?(?:\[([^\]]+)\])?$/;
const RELATIVE = /^(?:(\d{1,6}) *days?)? *(?:(\d{1,7}) *hours?)? *(?:(\d{1,9}) *minutes?)? *ago$/i;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
/** Relative times reach back at most a century, which keeps every instant computed from them valid. */
export const MAX_AGO = 36_525 * DAY;

/** The instants a timestamp covers: from its first millisecond to the last of its precision. */
export interface TimeSpan {
  start: number;
  end: number;
}

/** `malformed`: not even shaped like a timestamp (as opposed to a day or zone that does not exist). */
export type TimeParse = { ok: true; span: TimeSpan } | { ok: false; msg: string; malformed?: boolean };

export function parseTimestamp(text: string, defaultZone: string | null = null): TimeParse {
  const match = TIMESTAMP.exec(text);
  if (!match) return { ok: false, msg: 'is not an ISO 8601 timestamp such as 2024-05-01, 2024-05-01T09:30, 2024-05-01T09:30:00Z or 2024-05-01T09:30[Europe/Paris]', malformed: true };
  const [, year, month, day, hour, minute, second, fraction, offset, zoneName] = match;
  const fields = [year, month, day, hour ?? '0', minute ?? '0', second ?? '0'].map(Number) as [number, number, number, number, number, number];
  const wall = utc(...fields) + Math.floor(Number(`0.${fraction ?? '0'}`) * 1000);
  if (!validFields(fields) || new Date(wall).getUTCDate() !== fields[2]) return { ok: false, msg: 'names a day or time that does not exist' };
  const length = fraction !== undefined ? 1 : second !== undefined ? 1000 : minute !== undefined ? MINUTE : DAY;
  if (offset && zoneName) return { ok: false, msg: 'has both an offset and a time zone: keep one' };
  if (offset && !validOffset(offset)) return { ok: false, msg: `has the offset ${offset}, beyond ±23:59` };
  const zone = zoneName === undefined ? defaultZone : canonicalTimeZone(zoneName);
  if (zone === null && zoneName !== undefined) return { ok: false, msg: `names the time zone ${zoneName}, which is not an IANA time zone such as Europe/Paris` };
  const toInstant = (at: number): number => (offset ? at - offsetMilliseconds(offset) : zone ? instantOf(zone, at) : at);
  return { ok: true, span: { start: toInstant(wall), end: toInstant(wall + length) - 1 } };
}

/** Whether a value is written as an interval (a `/` outside the zone's brackets). */
export function isInterval(text: string): boolean {
  return text.replace(/\[[^\]]*\]$/, '').includes('/');
}

/** `start/end[Zone]`: the zone at the end applies to a start written without one. */
export function parseInterval(text: string): TimeParse {
  const zone = /\[([^\]]+)\]$/.exec(text)?.[1];
  const bare = zone === undefined ? text : text.slice(0, -zone.length - 2);
  if (/X/i.test(bare)) return { ok: false, msg: 'uses unspecified digits (XX), which Switchyard does not support: write the dates in full' };
  const parts = bare.split('/');
  if (parts.length !== 2) return { ok: false, msg: 'is not an interval start/end such as 2024-12-24T18:00/2024-12-26T08:00[Europe/Paris]' };
  if (zone !== undefined) parts[1] = `${parts[1]}[${zone}]`;
  const startFields = TIMESTAMP.exec(parts[0]!);
  const hasOwnZone = startFields?.[8] !== undefined || startFields?.[9] !== undefined;
  const start = parseTimestamp(parts[0]!, !hasOwnZone && zone ? canonicalTimeZone(zone) : null);
  const end = parseTimestamp(parts[1]!);
  if (!start.ok) return { ok: false, msg: `starts with ${parts[0]}, which ${start.msg}` };
  if (!end.ok) return { ok: false, msg: `ends with ${parts[1]}, which ${end.msg}` };
  if (end.span.end < start.span.start) return { ok: false, msg: 'ends before it starts' };
  return { ok: true, span: { start: start.span.start, end: end.span.end } };
}

/** The milliseconds of `N days H hours M minutes ago`, or null when the text is not one. */
export function parseRelative(text: string): number | null {
  const match = RELATIVE.exec(text);
  if (!match || (match[1] ?? match[2] ?? match[3]) === undefined) return null;
  const [days, hours, minutes] = [match[1], match[2], match[3]].map((part) => Number(part ?? 0)) as [number, number, number];
  return days * DAY + hours * 60 * MINUTE + minutes * MINUTE;
}

function validFields([year, month, day, hour, minute, second]: [number, number, number, number, number, number]): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59;
}

function validOffset(offset: string): boolean {
  const digits = offset.replace(':', '');
  return digits.length === 1 || (Number(digits.slice(1, 3)) <= 23 && Number(digits.slice(3, 5) || 0) <= 59);
}

function offsetMilliseconds(offset: string): number {
  if (offset === 'Z' || offset === 'z') return 0;
  const digits = offset.replace(':', '');
  const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0);
  return (offset.startsWith('-') ? -1 : 1) * minutes * MINUTE;
}

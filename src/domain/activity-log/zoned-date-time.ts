// Reads a window bound: an RFC 3339 date-time that must carry its timezone, since a bound without
// one would mean a different instant on every server. Says what is wrong in words a person can
// act on, including the classic URL slip: an unencoded `+` in a query string arrives as a space.
import { parseDateTime } from '../date-time.ts';

const ZONED = /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.\d+)?(?:[Zz]|[+-](\d\d)(?::?(\d\d))?)$/;
const UNZONED = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/;
const PLUS_AS_SPACE = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)? \d\d(?::?\d\d)?$/;

export type ZonedDateTime = { ok: true; date: Date } | { ok: false; msg: string };

const EXAMPLE = 'e.g. 2024-05-01T12:00:00Z or 2024-05-01T12:00:00%2B02:00';

export function parseZonedDateTime(text: string): ZonedDateTime {
  const match = ZONED.exec(text);
  if (match && inRange(match)) {
    const date = parseDateTime(text);
    if (date) return { ok: true, date };
  }
  return { ok: false, msg: problemWith(text) };
}

function problemWith(text: string): string {
  if (PLUS_AS_SPACE.test(text)) return `must carry a timezone: the "+" of its offset arrived as a space, so send it encoded as %2B (${EXAMPLE})`;
  if (UNZONED.test(text)) return `must carry a timezone, Z or an offset (${EXAMPLE})`;
  return `must be a date-time with a timezone (${EXAMPLE})`;
}

/** Calendar and clock fields in range; a leap second (:60) is admitted, as RFC 3339 does. */
function inRange(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = match.slice(1, 9).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number, number, number];
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 && second <= 60 && offsetHours <= 23 && offsetMinutes <= 59;
}

function daysInMonth(year: number, month: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month, 0); // day 0 of the next month: the last day of this one
  return date.getUTCDate();
}

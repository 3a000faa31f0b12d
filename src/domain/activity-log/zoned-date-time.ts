// Reads a window bound: an RFC 3339 date-time that must carry its timezone, since a bound without
// one would mean a different instant on every server. Says what is wrong in words a person can
// act on, including the classic URL slip: an unencoded `+` in a query string arrives as a space.
import { isDateTime, parseDateTime } from '../date-time.ts';

const UNZONED = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?$/;
const PLUS_AS_SPACE = /^\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d(?:\.\d+)? \d\d(?::?\d\d)?$/;

export type ZonedDateTime = { ok: true; date: Date } | { ok: false; msg: string };

const EXAMPLE = 'e.g. 2024-05-01T12:00:00Z or 2024-05-01T12:00:00%2B02:00';

export function parseZonedDateTime(text: string): ZonedDateTime {
  // The same date-times as the `date-time` format of every body (domain/date-time.ts).
  const date = isDateTime(text) ? parseDateTime(text) : undefined;
  if (date) return { ok: true, date };
  return { ok: false, msg: problemWith(text) };
}

function problemWith(text: string): string {
  if (PLUS_AS_SPACE.test(text)) return `must carry a timezone: the "+" of its offset arrived as a space, so send it encoded as %2B (${EXAMPLE})`;
  if (UNZONED.test(text)) return `must carry a timezone, Z or an offset (${EXAMPLE})`;
  return `must be a date-time with a timezone (${EXAMPLE})`;
}


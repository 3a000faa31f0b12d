// A scheduled freeze's start and end as the public API writes them: local date-times of the
// freeze's timezone (ISO 8601 without an offset). Stored as instants; answered as the local time
// with its offset, which is both what the caller wrote and an RFC 3339 date-time.
import { parseDateTime } from '../date-time.ts';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    if (formatters.size >= 1000) formatters.clear();
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** An IANA time zone name the runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    formatterOf(name);
    return true;
  } catch {
    return false;
  }
}

/** Milliseconds to add to an instant to read its local time in `timeZone` as if it were UTC. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const year = Number(parts.year);
  const local = new Date(0);
  local.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  local.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return local.getTime() - (instant - (((instant % 1000) + 1000) % 1000));
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

/**
 * The instant of `text` in `timeZone`: a local date-time (no offset) is read in the zone; one
 * with an offset or Z is that instant. Undefined when `text` is neither. A local time skipped by
 * a clock change is read with the offset before the change.
 */
export function zonedInstant(text: string, timeZone: string): Date | undefined {
  const match = LOCAL.exec(text);
  if (!match) return parseDateTime(text);
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  const millisecond = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const asUtc = new Date(0);
  asUtc.setUTCFullYear(year, month - 1, day);
  asUtc.setUTCHours(hour, minute, second, millisecond);
  if (asUtc.getUTCMonth() !== month - 1 || asUtc.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  const wall = asUtc.getTime();
  const guess = wall - offsetAt(wall, timeZone);
  return new Date(wall - offsetAt(guess, timeZone));
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `instant` as the local date-time of `timeZone` with its offset: 2026-12-24T18:00:00+01:00. */
export function zonedDateTime(instant: Date, timeZone: string): string {
  const offset = offsetAt(instant.getTime(), timeZone);
  const local = new Date(instant.getTime() + offset);
  const minutes = Math.round(Math.abs(offset) / 60_000);
  const fraction = local.getUTCMilliseconds() === 0 ? '' : `.${pad(local.getUTCMilliseconds(), 3)}`;
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${fraction}` +
    `${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
  );
}

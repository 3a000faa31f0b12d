// Reads PostgreSQL's ISO timestamp output ('2024-01-02 03:04:05.123456+00'). The session runs with
// DateStyle ISO and TimeZone UTC (session-settings.ts), so a value without an offset is UTC too.

const TIMESTAMP =
  /^(\d{4,})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:([+-])(\d{2})(?::(\d{2}))?(?::(\d{2}))?)?( BC)?$/;

/**
 * timestamp/timestamptz text to a Date, truncated to milliseconds (a Date holds no microseconds).
 * 'infinity' and '-infinity' become ±Infinity, as pg and PGlite both do by default; text that is
 * not a timestamp is returned unchanged rather than thrown from inside the driver's row parsing.
 */
export function parseTimestampText(text: string): Date | number | string {
  if (text === 'infinity') return Infinity;
  if (text === '-infinity') return -Infinity;
  const match = TIMESTAMP.exec(text);
  if (!match) return text;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours, offsetMinutes, offsetSeconds, bc] =
    match;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 onto 1900-1999.
  date.setUTCFullYear(bc ? 1 - Number(year) : Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.padEnd(3, '0').slice(0, 3)));
  const offsetSecondsTotal =
    Number(offsetHours ?? 0) * 3600 + Number(offsetMinutes ?? 0) * 60 + Number(offsetSeconds ?? 0);
  return new Date(date.getTime() - (sign === '-' ? -1 : 1) * offsetSecondsTotal * 1000);
}

// Turns an RFC 3339 date-time (already checked by the `date-time` format) into a Date, exactly
// and without relying on Date.parse leniency: fractions beyond milliseconds are truncated, and a
// leap second (:60) counts as the first instant of the next minute, as POSIX time does.

const RFC3339 = /^(\d{4})-(\d\d)-(\d\d)[Tt\s](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d\d)(?::?(\d\d))?)$/;

// Found by the fuzzer (test/fuzz): 0000-01-01T00:00:00+01:00 is an instant of year -1, which was
// stored and then read back as "-000001-12-31T23:00:00.000Z", not a date-time. Only instants
// that UTC writes with a four-digit year are accepted.
const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

export function parseDateTime(text: string): Date | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const date = new Date(0);
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.slice(0, 3).padEnd(3, '0')));
  const offset = (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  const time = date.getTime() - (sign === '-' ? -offset : sign === '+' ? offset : 0);
  return Number.isFinite(time) && time >= EARLIEST && time <= LATEST ? new Date(time) : undefined;
}

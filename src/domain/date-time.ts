// RFC 3339 date-times, read by hand: an ingested batch holds thousands, and the regex matches and
// split of ajv-formats' check, then a second match to turn the text into a Date, were garbage per
// value. `isDateTime` accepts exactly what ajv-formats' full `date-time` format accepts with the
// timezone required (test/unit/date-time.test.ts compares them); `parseDateTime` reads one.

/** The fields of the last text scanned; reused, so scanning allocates nothing. */
const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0, millisecond: 0, fractionEnd: 0, offsetSign: 0, offsetHour: 0, offsetMinute: 0 };

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Found by the fuzzer (test/fuzz): 0000-01-01T00:00:00+01:00 is an instant of year -1, which was
// stored and then read back as "-000001-12-31T23:00:00.000Z", not a date-time. Only instants
// that UTC writes with a four-digit year are accepted.
export const EARLIEST = Date.parse('0000-01-01T00:00:00.000Z');
export const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** A date-time with its timezone, every field in range (a leap second only at 23:59:60 UTC). */
export function isDateTime(text: string): boolean {
  if (!scan(text)) return false;
  const { year, month, day, hour, minute, offsetSign, offsetHour, offsetMinute } = fields;
  // ajv-formats compares the seconds as a number, fraction included, and a long enough fraction
  // rounds 59.999… to 60 (and 60.999… to 61): read it the same way where that can matter.
  const second = (fields.second === 59 || fields.second === 60) && fields.fractionEnd > 20 ? Number(text.slice(17, fields.fractionEnd)) : fields.second;
  if (month < 1 || month > 12 || day < 1 || day > (month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month]!)) return false;
  if (offsetHour > 23 || offsetMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second < 60) return true;
  // A leap second: 23:59:60 in UTC, whatever the offset (as ajv-formats reads RFC 3339).
  const utcMinute = minute - offsetMinute * offsetSign;
  const utcHour = hour - offsetHour * offsetSign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61;
}

/**
 * The instant of a date-time already checked by isDateTime (the `date-time` format), or
 * undefined when its text is not one or the instant falls outside years 0 to 9999 in UTC. Exact,
 * without Date.parse leniency: fractions beyond milliseconds are truncated, and a leap second
 * (:60) counts as the first instant of the next minute, as POSIX time does.
 */
export function parseDateTime(text: string): Date | undefined {
  if (!scan(text)) return undefined;
  const { year, month, day, hour, minute, second, millisecond, offsetSign, offsetHour, offsetMinute } = fields;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 onto 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  const time = date.getTime() - offsetSign * (offsetHour * 60 + offsetMinute) * 60_000;
  if (!(Number.isFinite(time) && time >= EARLIEST && time <= LATEST)) return undefined;
  date.setTime(time);
  return date;
}

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/**
 * Reads dddd-dd-dd, one separator (T, t or white space), dd:dd:dd, an optional fraction, then Z,
 * z or ±dd with an optional [:]dd, into `fields`; false when the text is not of that shape.
 */
function scan(text: string): boolean {
  const f = fields;
  if (text.length < 20) return false;
  f.year = digits(text, 0, 4);
  f.month = digits(text, 5, 2);
  f.day = digits(text, 8, 2);
  f.hour = digits(text, 11, 2);
  f.minute = digits(text, 14, 2);
  f.second = digits(text, 17, 2);
  if (f.year < 0 || f.month < 0 || f.day < 0 || f.hour < 0 || f.minute < 0 || f.second < 0) return false;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || !isSeparator(text.charCodeAt(10))) return false;
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return false;
  let i = 19;
  f.millisecond = 0;
  f.fractionEnd = 19;
  if (text.charCodeAt(i) === 46) {
    const start = ++i;
    while (isDigit(text.charCodeAt(i))) i++;
    if (i === start) return false;
    // Milliseconds: the first three digits of the fraction, padded; the rest is truncated.
    for (let k = 0; k < 3; k++) f.millisecond = f.millisecond * 10 + (start + k < i ? text.charCodeAt(start + k) - 48 : 0);
    f.fractionEnd = i;
  }
  const zone = text.charCodeAt(i);
  f.offsetSign = 0;
  f.offsetHour = 0;
  f.offsetMinute = 0;
  if (zone === 90 || zone === 122) return i + 1 === text.length; // Z, z
  if (zone !== 43 && zone !== 45) return false;
  f.offsetSign = zone === 43 ? 1 : -1;
  f.offsetHour = digits(text, i + 1, 2);
  if (f.offsetHour < 0) return false;
  i += 3;
  if (i === text.length) return true;
  if (text.charCodeAt(i) === 58) i++;
  f.offsetMinute = digits(text, i, 2);
  return f.offsetMinute >= 0 && i + 2 === text.length;
}

/** The decimal value of `count` digits at `at`, or -1 when one of them is not a digit. */
function digits(text: string, at: number, count: number): number {
  let value = 0;
  for (let i = at; i < at + count; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) return -1;
    value = value * 10 + (c - 48);
  }
  return value;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** T, t, or what JavaScript's \s matches (white space and line terminators). */
function isSeparator(c: number): boolean {
  return (
    c === 84 || c === 116 || c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

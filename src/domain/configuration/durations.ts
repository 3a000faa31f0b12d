// Durations as the public configuration writes them: text such as "30 s", "5 minutes",
// "1 hour" or "2 days 3 hours" (also run together: "1h30m"), each unit at most once, largest
// first. An integer is read as seconds too, the unit every API answer uses, so an effective
// configuration copied back into a file reads the same.
import { fail, kindOf, type Check } from './check-cursor.ts';

const UNIT_SECONDS: Record<string, number> = {
  d: 86_400, day: 86_400, days: 86_400,
  h: 3_600, hr: 3_600, hrs: 3_600, hour: 3_600, hours: 3_600,
  m: 60, min: 60, mins: 60, minute: 60, minutes: 60,
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
};

const PART = /\s*(\d{1,9})\s*([a-z]+)\s*/y;

/** Seconds, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const lower = text.toLowerCase();
  PART.lastIndex = 0;
  let seconds = 0;
  let previousUnit = Infinity;
  let parts = 0;
  while (PART.lastIndex < lower.length) {
    const match = PART.exec(lower);
    const unit = match ? UNIT_SECONDS[match[2] as string] : undefined;
    if (!match || unit === undefined || unit >= previousUnit) return null;
    seconds += Number(match[1]) * unit;
    previousUnit = unit;
    parts += 1;
  }
  return parts > 0 ? seconds : null;
}

const NAMES: [number, string][] = [[86_400, 'day'], [3_600, 'hour'], [60, 'minute'], [1, 'second']];

/** "1 hour 30 minutes": how messages and reports name a number of seconds. */
export function describeSeconds(total: number): string {
  if (total === 0) return '0 seconds';
  const parts: string[] = [];
  let rest = total;
  for (const [size, name] of NAMES) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count} ${name}${count === 1 ? '' : 's'}`);
  }
  return parts.join(' ');
}

export function duration(min: number, max: number): Check<number> {
  const range = `from ${describeSeconds(min)} to ${describeSeconds(max)}`;
  return (value, at) => {
    const seconds = typeof value === 'string' ? parseDuration(value) : typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null;
    if (seconds === null) {
      return fail(at, `must be a duration such as "30 seconds", "5 minutes", "1 hour" or "2 days 3 hours", not ${kindOf(value)}`);
    }
    return seconds >= min && seconds <= max ? seconds : fail(at, `must be a duration ${range}; ${describeSeconds(seconds)} is out of range`);
  };
}

// Wall clocks of IANA time zones from Intl, without a library. A zone's offset from UTC changes
// only at its transitions; they are found once per zone and UTC year (Intl sampled every six
// hours, then bisected to the second) and kept, so a wall clock afterwards costs a lookup.
const SECOND = 1000;
const SAMPLE = 6 * 3600 * SECOND;
const DAY = 24 * 3600 * SECOND;

export interface OffsetSegment {
  start: number;
  end: number;
  /** Wall clock minus UTC, in milliseconds. */
  offset: number;
}

interface YearOffsets {
  /** The UTC year's first instant and the next year's. */
  start: number;
  end: number;
  startOffset: number;
  transitions: { at: number; offset: number }[];
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const canonical = new Map<string, string | null>();
const years = new Map<string, YearOffsets>();
/** The year last looked up per zone: evaluations ask about the same few instants again and again. */
const lastYear = new Map<string, YearOffsets>();

/** The canonical spelling of an IANA zone Intl knows (`europe/paris` → `Europe/Paris`), else null. */
export function canonicalTimeZone(zone: string): string | null {
  let found = canonical.get(zone);
  if (found === undefined) {
    try {
      found = formatter(zone).resolvedOptions().timeZone;
    } catch {
      found = null;
    }
    if (canonical.size > 2000) canonical.clear();
    canonical.set(zone, found);
  }
  return found;
}

export function offsetAt(zone: string, instant: number): number {
  if (zone === 'UTC') return 0;
  let year = lastYear.get(zone);
  if (!year || instant < year.start || instant >= year.end) {
    year = yearOffsets(zone, new Date(instant).getUTCFullYear());
    lastYear.set(zone, year);
  }
  let offset = year.startOffset;
  for (const transition of year.transitions) if (transition.at <= instant) offset = transition.offset;
  return offset;
}

/** The zone's wall clock at an instant, as milliseconds of a UTC date with the same fields. */
export function wallClock(zone: string, instant: number): number {
  return instant + offsetAt(zone, instant);
}

/** The spans of constant offset that cover [from, to), in order. */
export function offsetSegments(zone: string, from: number, to: number): OffsetSegment[] {
  const segments: OffsetSegment[] = [{ start: from, end: to, offset: offsetAt(zone, from) }];
  if (zone === 'UTC') return segments;
  for (let year = new Date(from).getUTCFullYear(); year <= new Date(to).getUTCFullYear(); year++) {
    for (const { at, offset } of yearOffsets(zone, year).transitions) {
      const last = segments[segments.length - 1]!;
      if (at <= from || at >= to || offset === last.offset) continue;
      last.end = at;
      segments.push({ start: at, end: to, offset });
    }
  }
  return segments;
}

/**
 * The first instant whose wall clock reads `wall` (the earlier one when clocks go back); for a
 * wall time skipped when clocks go forward, the instant they jumped.
 */
export function instantOf(zone: string, wall: number): number {
  const segments = offsetSegments(zone, wall - 2 * DAY, wall + 2 * DAY);
  for (const { start, end, offset } of segments) if (wall - offset >= start && wall - offset < end) return wall - offset;
  return segments.find(({ start, offset }) => start + offset > wall)?.start ?? wall - segments[0]!.offset;
}

function yearOffsets(zone: string, year: number): YearOffsets {
  const key = `${zone}|${year}`;
  let found = years.get(key);
  if (!found) {
    if (years.size > 2000) years.clear();
    found = scanYear(zone, year);
    years.set(key, found);
  }
  return found;
}

function scanYear(zone: string, year: number): YearOffsets {
  const start = utc(year, 1, 1, 0, 0, 0);
  const end = utc(year + 1, 1, 1, 0, 0, 0);
  const startOffset = intlOffset(zone, start);
  const transitions: YearOffsets['transitions'] = [];
  let previous = { at: start, offset: startOffset };
  while (previous.at < end) {
    const at = Math.min(previous.at + SAMPLE, end);
    const offset = intlOffset(zone, at);
    if (offset !== previous.offset) transitions.push({ at: firstWithOffset(zone, previous.at, at, offset), offset });
    previous = { at, offset };
  }
  return { start, end, startOffset, transitions };
}

/** Bisects (before, after] to the first second with the new offset. */
function firstWithOffset(zone: string, before: number, after: number, offset: number): number {
  let [low, high] = [before, after];
  while (high - low > SECOND) {
    const middle = low + Math.floor((high - low) / 2 / SECOND) * SECOND;
    if (intlOffset(zone, middle) === offset) high = middle;
    else low = middle;
  }
  return high;
}

function intlOffset(zone: string, instant: number): number {
  const fields: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(instant)) if (part.type !== 'literal') fields[part.type] = Number(part.value);
  const wall = utc(fields.year!, fields.month!, fields.day!, fields.hour!, fields.minute!, fields.second!);
  return wall - (instant - (((instant % SECOND) + SECOND) % SECOND));
}

function formatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formatters.set(zone, found);
  }
  return found;
}

/** Date.UTC without its mapping of years 0–99 onto 1900–1999. */
export function utc(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}

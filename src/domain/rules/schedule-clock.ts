// Whether a schedule holds at an instant, and the next instant it stops or starts holding. A
// schedule only changes at a local midnight, its start or the minute after its end, or when the
// zone's offset changes; the week repeats, so eight days ahead is far enough to find a change.
import type { Schedule } from './schedule.ts';
import { offsetSegments, wallClock } from './time-zone.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const HORIZON = 8 * DAY;

export function scheduleHolds(schedule: Schedule, instant: number): boolean {
  return holdsAtWall(schedule, wallClock(schedule.zone, instant));
}

/** The first instant after `now` at which the schedule's answer differs from now's, or null. */
export function nextScheduleChange(schedule: Schedule, now: number): number | null {
  const current = scheduleHolds(schedule, now);
  for (const segment of offsetSegments(schedule.zone, now, now + HORIZON)) {
    if (segment.start > now && holdsAtWall(schedule, segment.start + segment.offset) !== current) return segment.start;
    const from = Math.max(segment.start, now) + segment.offset;
    for (const wall of boundaries(schedule, from, segment.end + segment.offset)) {
      if (holdsAtWall(schedule, wall) !== current) return wall - segment.offset;
    }
  }
  return null;
}

/** Wall clock times strictly between `after` and `before` at which the answer may change. */
function* boundaries(schedule: Schedule, after: number, before: number): Generator<number> {
  const minutes = schedule.times ? [0, schedule.times.from, schedule.times.to + 1] : [0];
  for (let day = Math.floor(after / DAY) * DAY; day < before; day += DAY) {
    for (const minute of minutes) {
      const wall = day + minute * MINUTE;
      if (wall > after && wall < before) yield wall;
    }
  }
}

/** By arithmetic rather than a Date: 1970-01-01, day 0, was a Thursday (index 3 from Monday). */
function holdsAtWall(schedule: Schedule, wall: number): boolean {
  const day = Math.floor(wall / DAY);
  if (schedule.days && !schedule.days[(((day + 3) % 7) + 7) % 7]) return false;
  if (!schedule.times) return true;
  const minute = Math.floor((wall - day * DAY) / MINUTE);
  return minute >= schedule.times.from && minute <= schedule.times.to;
}

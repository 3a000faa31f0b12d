// The `schedule` value: days, hours or both, in UTC or an IANA zone in brackets:
// `Mon-Fri 09:00-17:30[Europe/Paris]`, `Sat-Sun`, `09:00-19:00[America/Vancouver]`. Days are
// ranges or lists (`Mon-Wed,Fri`, wrapping `Fri-Mon`), in any case, short or long. Both times
// are included to the minute: 09:00-17:30 holds from 09:00:00 until 17:30:59.
import { canonicalTimeZone } from './time-zone.ts';

export const DAY_NAMES = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

export interface Schedule {
  /** By day of the week, Monday first; null: every day. */
  days: readonly boolean[] | null;
  /** Minutes of the day, both included; null: all day. */
  times: { from: number; to: number } | null;
  zone: string;
}

export type ScheduleParse = { ok: true; schedule: Schedule } | { ok: false; msg: string };

const SHAPE = /^([A-Za-z][A-Za-z ,-]*?)? *(?:(\d{1,2}):(\d{2}) *- *(\d{1,2}):(\d{2}))? *(?:\[([^\]]*)\])?$/;
const EXAMPLE = 'such as Mon-Fri 09:00-17:30[Europe/Paris], Sat-Sun or 09:00-19:00';

export function parseSchedule(text: string): ScheduleParse {
  const match = SHAPE.exec(text.trim());
  if (!match || (match[1] === undefined && match[2] === undefined)) return { ok: false, msg: `is not a schedule ${EXAMPLE}` };
  const days = match[1] === undefined ? null : parseDays(match[1]);
  if (typeof days === 'string') return { ok: false, msg: days };
  const times = match[2] === undefined ? null : parseTimes(match.slice(2, 6).map(Number) as [number, number, number, number]);
  if (typeof times === 'string') return { ok: false, msg: times };
  const zone = match[6] === undefined ? 'UTC' : canonicalTimeZone(match[6]);
  if (zone === null) return { ok: false, msg: `names the time zone ${match[6]}, which is not an IANA time zone such as Europe/Paris` };
  return { ok: true, schedule: { days, times, zone } };
}

function parseDays(text: string): boolean[] | string {
  const days: boolean[] = Array(7).fill(false);
  for (const part of text.split(',')) {
    const ends = part.split('-').map((name) => dayIndex(name.trim()));
    if (ends.length > 2 || ends.some((index) => index === null)) return `names the days "${part.trim()}"; write days as Mon, Tue, Wed, Thu, Fri, Sat and Sun, ranges as Mon-Fri, lists as Mon,Wed`;
    const [first, last] = [ends[0]!, ends[ends.length - 1]!];
    for (let day = first; ; day = (day + 1) % 7) {
      days[day] = true;
      if (day === last) break;
    }
  }
  return days;
}

function dayIndex(name: string): number | null {
  const lower = name.toLowerCase();
  const index = DAY_NAMES.findIndex((day) => day === lower || day.slice(0, 3) === lower);
  return index === -1 ? null : index;
}

function parseTimes([fromHour, fromMinute, toHour, toMinute]: [number, number, number, number]): Schedule['times'] | string {
  if (fromHour > 23 || toHour > 23 || fromMinute > 59 || toMinute > 59) return 'has a time beyond 23:59';
  const [from, to] = [fromHour * 60 + fromMinute, toHour * 60 + toMinute];
  if (to < from) return 'ends before it starts: split a window across midnight into two schedules joined with or';
  return { from, to };
}

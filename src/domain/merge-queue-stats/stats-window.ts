// The window of a statistics read: [start_at, end_at), end_at defaulting to now and start_at to
// one day before end_at, at most 93 days long, as the activity log's (DESIGN.md §8). Bounds are
// read by hand so a bad one is explained (a `+` sent unencoded arrives as a space).
import { ValidationError } from '../../errors.ts';
import type { ValidationIssue } from '../../validation/validators.ts';
import { DEFAULT_WINDOW_MS, MAX_WINDOW_DAYS, type TimeWindow } from '../activity-log/time-window.ts';
import { parseZonedDateTime } from '../activity-log/zoned-date-time.ts';

const DAY_MS = 86_400_000;

export interface StatsWindowParams {
  start_at?: string | undefined;
  end_at?: string | undefined;
}

/** The window the parameters name; every problem of the two bounds in one 422. */
export function statsWindow(params: StatsWindowParams, now: Date): TimeWindow {
  const issues: ValidationIssue[] = [];
  const to = bound(params.end_at, 'end_at', issues) ?? now;
  const from = bound(params.start_at, 'start_at', issues) ?? new Date(to.getTime() - DEFAULT_WINDOW_MS);
  if (issues.length > 0) throw new ValidationError(issues);
  if (from.getTime() >= to.getTime()) {
    const end = params.end_at === undefined ? 'end_at (now, when not given)' : 'end_at';
    throw windowIssue(`must be before ${end}: the window is [start_at, end_at)`, 'window_order');
  }
  if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS) throw windowIssue(`must be at most ${MAX_WINDOW_DAYS} days before end_at`, 'window_too_long');
  return { from, to };
}

/** A date-time parameter of its own (`at` of time_to_merge): undefined when absent. */
export function instantParameter(text: string | undefined, name: string): Date | undefined {
  const issues: ValidationIssue[] = [];
  const date = bound(text, name, issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return date;
}

function bound(text: string | undefined, name: string, issues: ValidationIssue[]): Date | undefined {
  if (text === undefined) return undefined;
  const parsed = parseZonedDateTime(text);
  if (parsed.ok) return parsed.date;
  issues.push({ loc: ['query', name], msg: parsed.msg, type: 'format' });
  return undefined;
}

function windowIssue(msg: string, type: string): ValidationError {
  return new ValidationError([{ loc: ['query', 'start_at'], msg, type }]);
}

// The time window of a listing or an aggregation (DESIGN.md §8): [from, to), from included and
// to excluded, so adjacent windows never count an event twice. Defaults: to is now, from is one
// day before to. At most 93 days, so no request scans more than a quarter of history.
import { ValidationError } from '../../errors.ts';

export interface TimeWindow {
  readonly from: Date;
  readonly to: Date;
}

/** The bounds a client gave explicitly; either may be absent. */
export interface WindowBounds {
  readonly from?: Date | undefined;
  readonly to?: Date | undefined;
}

const DAY_MS = 86_400_000;
export const DEFAULT_WINDOW_MS = DAY_MS;
export const MAX_WINDOW_DAYS = 93;

export function resolveWindow(bounds: WindowBounds, now: Date): TimeWindow {
  const to = bounds.to ?? now;
  const from = bounds.from ?? new Date(to.getTime() - DEFAULT_WINDOW_MS);
  if (from.getTime() >= to.getTime()) {
    const end = bounds.to ? 'received_to' : 'received_to (now, when not given)';
    throw windowIssue(`must be before ${end}: the window is [received_from, received_to)`, 'window_order');
  }
  if (to.getTime() - from.getTime() > MAX_WINDOW_DAYS * DAY_MS) {
    throw windowIssue(`must be at most ${MAX_WINDOW_DAYS} days before received_to`, 'window_too_long');
  }
  return { from, to };
}

function windowIssue(msg: string, type: string): ValidationError {
  return new ValidationError([{ loc: ['query', 'received_from'], msg, type }]);
}

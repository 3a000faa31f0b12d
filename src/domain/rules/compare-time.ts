// Time conditions and the next instant they can change. A timestamp covers its precision
// (`<= 2024-05-01` includes that whole day); `7 days ago` moves with the clock, so a condition on
// it changes when the clock passes the attribute's value plus seven days.
import type { Operator } from './attribute-specs.ts';
import type { Operand } from './condition.ts';
import type { Match } from './three-valued.ts';

export interface TimeOutcome {
  match: Match;
  nextChangeAt: number | null;
}

interface Span {
  start: number;
  end: number;
}

/** `updated-at<7 days ago`, `merged-at>=2024-01-01`: an attribute's instant (absent: false). */
export function compareTime(operator: Operator, operand: Operand, value: Date | undefined, now: number): TimeOutcome {
  if (value === undefined) return { match: 'false', nextChangeAt: null };
  const at = value.getTime();
  if (operand.kind === 'span') return outcome(spanHolds(operator, at, spanOf(operand)), null);
  if (operand.kind !== 'ago') return outcome(false, null);
  const { milliseconds } = operand;
  const holdsAt = (clock: number): boolean => spanHolds(operator, at, { start: clock - milliseconds, end: clock - milliseconds });
  return outcome(holdsAt(now), firstChange([at + milliseconds, at + milliseconds + 1], now, holdsAt));
}

/** `current-datetime`: the clock against a timestamp, or within an interval for = and !=. */
export function compareClock(operator: Operator, operand: Operand, now: number): TimeOutcome {
  if (operand.kind !== 'span') return outcome(false, null);
  const span = spanOf(operand);
  const holdsAt = (clock: number): boolean => spanHolds(operator, clock, span);
  return outcome(holdsAt(now), firstChange([span.start, span.end + 1], now, holdsAt));
}

function spanHolds(operator: Operator, at: number, span: Span): boolean {
  switch (operator) {
    case '>=':
      return at >= span.start;
    case '>':
      return at > span.end;
    case '<=':
      return at <= span.end;
    case '<':
      return at < span.start;
    case '=':
      return at >= span.start && at <= span.end;
    case '!=':
      return at < span.start || at > span.end;
    default:
      return false;
  }
}

/** The first candidate after `now` at which the answer differs from now's. */
function firstChange(candidates: number[], now: number, holdsAt: (clock: number) => boolean): number | null {
  const current = holdsAt(now);
  return candidates.sort((a, b) => a - b).find((candidate) => candidate > now && holdsAt(candidate) !== current) ?? null;
}

function spanOf(operand: { start: Date; end: Date }): Span {
  return { start: operand.start.getTime(), end: operand.end.getTime() };
}

function outcome(holds: boolean, nextChangeAt: number | null): TimeOutcome {
  return { match: holds ? 'true' : 'false', nextChangeAt };
}

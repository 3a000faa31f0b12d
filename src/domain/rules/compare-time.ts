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

/** `updated-at<7 days ago`, `merged-at>=2024-01-01`: an attribute's instant (absent: false). */
export function compareTime(operator: Operator, operand: Operand, value: Date | undefined, now: number): TimeOutcome {
  if (value === undefined) return { match: 'false', nextChangeAt: null };
  const at = value.getTime();
  if (operand.kind === 'span') return outcome(spanHolds(operator, at, operand.start.getTime(), operand.end.getTime()), null);
  if (operand.kind !== 'ago') return outcome(false, null);
  // `at OP clock - delay` flips when the clock passes at + delay: there, or a millisecond later.
  const { milliseconds } = operand;
  const current = spanHolds(operator, at, now - milliseconds, now - milliseconds);
  for (const clock of [at + milliseconds, at + milliseconds + 1]) {
    if (clock > now && spanHolds(operator, at, clock - milliseconds, clock - milliseconds) !== current) return outcome(current, clock);
  }
  return outcome(current, null);
}

/** `current-datetime`: the clock against a timestamp, or within an interval for = and !=. */
export function compareClock(operator: Operator, operand: Operand, now: number): TimeOutcome {
  if (operand.kind !== 'span') return outcome(false, null);
  const [start, end] = [operand.start.getTime(), operand.end.getTime()];
  const current = spanHolds(operator, now, start, end);
  for (const clock of [start, end + 1]) if (clock > now && spanHolds(operator, clock, start, end) !== current) return outcome(current, clock);
  return outcome(current, null);
}

/** An instant against a span [start, end], both included. */
function spanHolds(operator: Operator, at: number, start: number, end: number): boolean {
  switch (operator) {
    case '>=':
      return at >= start;
    case '>':
      return at > end;
    case '<=':
      return at <= end;
    case '<':
      return at < start;
    case '=':
      return at >= start && at <= end;
    case '!=':
      return at < start || at > end;
    default:
      return false;
  }
}

function outcome(holds: boolean, nextChangeAt: number | null): TimeOutcome {
  return { match: holds ? 'true' : 'false', nextChangeAt };
}

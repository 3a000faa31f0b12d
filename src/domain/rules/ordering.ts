// Operators as comparisons, and comparisons of a count that pending checks may still raise.
import type { Operator } from './attribute-specs.ts';
import { negate, type Match } from './three-valued.ts';

/** Whether `operator` holds for a comparison result (negative: less, zero: equal, positive: more). */
export function holds(operator: Operator, comparison: number): boolean {
  switch (operator) {
    case '=':
      return comparison === 0;
    case '!=':
      return comparison !== 0;
    case '>=':
      return comparison >= 0;
    case '>':
      return comparison > 0;
    case '<=':
      return comparison <= 0;
    case '<':
      return comparison < 0;
    default:
      return false;
  }
}

export function compare<T extends string | bigint | number>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A count known to lie in [low, high]: true when the comparison holds for all of them, false for none. */
export function compareCount(low: bigint, high: bigint, operator: Operator, value: bigint): Match {
  if (operator === '!=') return negate(compareCount(low, high, '=', value));
  const atLow = holds(operator, compare(low, value));
  const atHigh = holds(operator, compare(high, value));
  if (operator === '=') return low === high ? (atLow ? 'true' : 'false') : value < low || value > high ? 'false' : 'pending';
  return atLow === atHigh ? (atLow ? 'true' : 'false') : 'pending';
}

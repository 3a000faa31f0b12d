// Groups of batch phases the plan and the transitions ask about.
import type { BatchPhase } from './model.ts';

/** Still in the queue's state: the plan and the transitions see these. */
export const UNFINISHED_PHASES: ReadonlySet<BatchPhase> = new Set(['pending', 'preparing', 'running', 'passed', 'parked', 'bisecting']);

/** Holding a check slot (max_parallel_checks). */
export const CHECKING_PHASES: ReadonlySet<BatchPhase> = new Set(['preparing', 'running']);

/** Whose result is not known yet: a child that fails under one of these parks. */
export const UNRESOLVED_PHASES: ReadonlySet<BatchPhase> = new Set(['pending', 'preparing', 'running', 'parked', 'bisecting']);

/** A batch in one of these holds back every batch descending from it (a failure being resolved). */
export const HOLDING_PHASES: ReadonlySet<BatchPhase> = new Set(['parked', 'bisecting', 'failed']);

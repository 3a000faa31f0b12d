// One leaf against the snapshot and the clock: read its attribute (pending when the service could
// not), compare, then apply `-`. Unsupported leaves are pending with their reason, though the rule
// holding one is disabled before it gets here.
import { isSupportedAttribute } from './attribute-names.ts';
import { ATTRIBUTE_READERS, type ReadValue } from './attribute-readers.ts';
import { ATTRIBUTE_SPECS } from './attribute-specs.ts';
import { compareElements } from './compare-elements.ts';
import { compareClock, compareTime } from './compare-time.ts';
import type { LeafCondition } from './condition.ts';
import type { EvaluatedLeaf } from './evaluated-condition.ts';
import { evaluateChecks } from './evaluate-checks.ts';
import type { EvaluationContext, LeafOutcome } from './evaluation-context.ts';
import { compareCount } from './ordering.ts';
import { nextScheduleChange, scheduleHolds } from './schedule-clock.ts';
import { fromBoolean, negate } from './three-valued.ts';

/** A leaf written the same way in several rules yields one shared (read-only) result. */
export function evaluateLeaf(leaf: LeafCondition, context: EvaluationContext): EvaluatedLeaf {
  let evaluated = context.leaves.get(leaf.label);
  if (!evaluated) {
    const outcome = leafOutcome(leaf, context);
    evaluated = {
      kind: 'leaf',
      label: leaf.label,
      attribute: leaf.attribute,
      match: leaf.negate && !outcome.final ? negate(outcome.match) : outcome.match,
      description: outcome.description,
      nextChangeAt: outcome.nextChangeAt == null ? null : new Date(outcome.nextChangeAt),
      schedule: leaf.operand.kind === 'schedule' ? leaf.operand.schedule : null,
    };
    context.leaves.set(leaf.label, evaluated);
  }
  return evaluated;
}

function leafOutcome(leaf: LeafCondition, context: EvaluationContext): LeafOutcome {
  if (leaf.unsupported !== null || !isSupportedAttribute(leaf.attribute)) return { match: 'pending', description: leaf.unsupported };
  const reader = ATTRIBUTE_READERS[leaf.attribute];
  if (reader.from === 'checks') return evaluateChecks(leaf, reader, context);
  if (reader.from === 'clock') return clockOutcome(leaf, context.now);
  let read = context.reads.get(leaf.attribute);
  if (!read) {
    read = reader.read(context.snapshot);
    context.reads.set(leaf.attribute, read);
  }
  return read.known ? valuesOutcome(leaf, read, context) : { match: 'pending', description: read.why };
}

function clockOutcome(leaf: LeafCondition, now: number): LeafOutcome {
  const { operator, operand } = leaf;
  if (operand.kind === 'schedule') {
    const holds = scheduleHolds(operand.schedule, now) === (operator === '=');
    return { match: fromBoolean(holds), description: null, nextChangeAt: nextScheduleChange(operand.schedule, now) };
  }
  return operator === null ? { match: 'false', description: null } : { ...compareClock(operator, operand, now), description: null };
}

function valuesOutcome(leaf: LeafCondition, read: Extract<ReadValue, { known: true }>, context: EvaluationContext): LeafOutcome {
  const { operator, operand } = leaf;
  const spec = ATTRIBUTE_SPECS[leaf.attribute];
  if (operator === null) return { match: fromBoolean(read.values[0] === true), description: null };
  if (leaf.length && operand.kind === 'integer') {
    const count = BigInt(read.count ?? (spec.list ? read.values.length : String(read.values[0] ?? '').length));
    return { match: compareCount(count, count, operator, operand.value), description: null };
  }
  if (spec.kind === 'time') return { ...compareTime(operator, operand, read.values[0] as Date | undefined, context.now), description: null };
  return compareElements(operator, operand, read.values, context);
}

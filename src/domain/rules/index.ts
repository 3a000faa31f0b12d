// Conditions of DESIGN.md §14, pure: the grammar, the attributes, three-valued evaluation over a
// pull request snapshot at a given instant, and the two ways results are shown (the public JSON
// and the Summary's checklist). No I/O and no clock of their own.
export type { PullRequestSnapshot, CheckSnapshot, CheckState, ReviewSnapshot, FileSnapshot, QueueSnapshot } from './pull-snapshot.ts';
export { SUPPORTED_ATTRIBUTES, UNSUPPORTED_ATTRIBUTES, type AttributeName, type SupportedAttribute, type UnsupportedAttribute } from './attribute-names.ts';
export { ATTRIBUTE_SPECS, type AttributeSpec, type Operator, type ValueKind } from './attribute-specs.ts';
export type { Condition, ConditionError, ConditionLocation, ConditionParse, LeafCondition, Operand } from './condition.ts';
export { parseCondition, parseConditions, MAX_DEPTH, MAX_LEAVES } from './parse-condition.ts';
export { MAX_LEAF_BYTES } from './parse-leaf.ts';
export { PATTERN_INPUT_LIMIT } from './compile-pattern.ts';
export { attributesOf, referencedTeams, unsupportedAttributes, unsupportedReasons } from './condition-queries.ts';
export type { Match } from './three-valued.ts';
export type { EvaluatedCondition, EvaluatedLeaf } from './evaluated-condition.ts';
export { evaluateCondition, evaluateConditions } from './evaluate-condition.ts';
export { toConditionEvaluationResult, type ConditionEvaluationJson, type ScheduleJson } from './condition-evaluation-result.ts';
export { renderConditionChecklist } from './render-condition-checklist.ts';
export type { Schedule } from './schedule.ts';

// The rules engine's last evaluation of a pull request as it was stored: JSON of the Summary's
// title and each RuleResult. Read back with nothing trusted to have the shape it had when written
// (a row from an older version, or edited by hand): a tree that does not read is dropped, never a
// crash; instants written as text become Dates again.
import { isAttributeName } from './attribute-names.ts';
import type { EvaluatedCondition } from './evaluated-condition.ts';
import type { RuleResult, RuleSection } from './rules-report.ts';
import type { Schedule } from './schedule.ts';
import type { Match } from './three-valued.ts';

export interface StoredSummary {
  title: string;
  results: RuleResult[];
}

const SECTIONS: readonly RuleSection[] = ['pull_request_rules', 'queue_rules', 'priority_rules', 'merge_protections'];
const MATCHES: readonly Match[] = ['true', 'false', 'pending'];
/** Deeper than any tree the grammar builds (it stops at 16 levels, a rule adds one or two): a bound on the recursion, not a rule. */
const READ_DEPTH = 64;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const isMatch = (value: unknown): value is Match => MATCHES.includes(value as Match);
const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The stored summary, or null when it is not one. */
export function readStoredSummary(value: unknown): StoredSummary | null {
  if (!isObject(value) || typeof value.title !== 'string' || !Array.isArray(value.results)) return null;
  return { title: value.title, results: value.results.map(readRuleResult).filter((result): result is RuleResult => result !== null) };
}

function readRuleResult(value: unknown): RuleResult | null {
  if (!isObject(value) || typeof value.name !== 'string' || !SECTIONS.includes(value.section as RuleSection) || !isMatch(value.match)) return null;
  const section = value.section as RuleSection;
  return {
    key: typeof value.key === 'string' ? value.key : `${section}/${value.name}`,
    section,
    name: value.name,
    match: value.match,
    tree: value.tree === null ? null : readEvaluatedCondition(value.tree, 0),
    disabledReason: textOrNull(value.disabledReason),
    applicable: value.applicable !== false,
    does: Array.isArray(value.does) ? value.does.filter((line): line is string => typeof line === 'string') : [],
  };
}

/** An evaluated tree read back from JSON, or null when any node of it does not read. */
export function readEvaluatedCondition(value: unknown, depth: number): EvaluatedCondition | null {
  if (depth > READ_DEPTH || !isObject(value) || !isMatch(value.match) || typeof value.label !== 'string') return null;
  const at = typeof value.nextChangeAt === 'string' ? new Date(value.nextChangeAt) : null;
  const node = { match: value.match, label: value.label, description: textOrNull(value.description), nextChangeAt: at && !Number.isNaN(at.getTime()) ? at : null };
  switch (value.kind) {
    case 'leaf':
      return typeof value.attribute === 'string' && isAttributeName(value.attribute) ? { ...node, kind: 'leaf', attribute: value.attribute, schedule: readSchedule(value.schedule) } : null;
    case 'all':
    case 'any': {
      if (!Array.isArray(value.conditions)) return null;
      const conditions = value.conditions.map((child) => readEvaluatedCondition(child, depth + 1));
      return conditions.every((child) => child !== null) ? { ...node, kind: value.kind, conditions: conditions as EvaluatedCondition[] } : null;
    }
    case 'not': {
      const condition = readEvaluatedCondition(value.condition, depth + 1);
      return condition ? { ...node, kind: 'not', condition } : null;
    }
    default:
      return null;
  }
}

function readSchedule(value: unknown): Schedule | null {
  if (!isObject(value) || typeof value.zone !== 'string') return null;
  const days = Array.isArray(value.days) && value.days.length === 7 && value.days.every((day) => typeof day === 'boolean') ? (value.days as boolean[]) : null;
  const times = isObject(value.times) && Number.isInteger(value.times.from) && Number.isInteger(value.times.to) ? { from: value.times.from as number, to: value.times.to as number } : null;
  return { days, times, zone: value.zone };
}

// The public shape of an evaluated condition tree (the merge queue's
// `mergeability_check.conditions_evaluation`, `QueueConditionEvaluationJsonSerialized` of the
// reference API). It has no pending: a pending node does not match, and says it is pending.
import type { EvaluatedCondition } from './evaluated-condition.ts';
import { DAY_NAMES, type Schedule } from './schedule.ts';

interface TimeJson {
  hour: number;
  minute: number;
}

export interface ScheduleJson {
  timezone: string;
  days: Record<string, { times: { start_at: TimeJson; end_at: TimeJson }[] }>;
}

export interface ConditionEvaluationJson {
  match: boolean;
  label: string;
  description: string | null;
  documentation_url: string | null;
  schedule: ScheduleJson | null;
  subconditions: ConditionEvaluationJson[];
  evaluations: never[];
}

export function toConditionEvaluationResult(tree: EvaluatedCondition): ConditionEvaluationJson {
  const children = tree.kind === 'leaf' ? [] : tree.kind === 'not' ? [tree.condition] : tree.conditions;
  return {
    match: tree.match === 'true',
    label: tree.label,
    description: tree.match === 'pending' ? (tree.description ?? 'pending') : tree.description,
    documentation_url: null,
    schedule: tree.kind === 'leaf' && tree.schedule ? scheduleJson(tree.schedule) : null,
    subconditions: children.map(toConditionEvaluationResult),
    evaluations: [],
  };
}

function scheduleJson(schedule: Schedule): ScheduleJson {
  const { from, to } = schedule.times ?? { from: 0, to: 24 * 60 - 1 };
  const range = { start_at: time(from), end_at: time(to) };
  const days = Object.fromEntries(DAY_NAMES.map((day, index) => [day, { times: !schedule.days || schedule.days[index] ? [range] : [] }]));
  return { timezone: schedule.zone, days };
}

function time(minuteOfDay: number): TimeJson {
  return { hour: Math.floor(minuteOfDay / 60), minute: minuteOfDay % 60 };
}

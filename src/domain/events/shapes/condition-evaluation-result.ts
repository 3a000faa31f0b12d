// How the queue conditions of a pull request evaluated when it left the queue (spec §2.5
// ConditionEvaluationResult). Shapes the spec leaves "not shown" (evaluation record, schedule)
// follow the reference API.
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { DateTime, Nullable, StrictObject } from '../../schema-primitives.ts';

export const ConditionEvaluation = StrictObject(
  {
    pull_request: Int64(),
    match: Type.Boolean(),
    evaluation_error: Nullable(Type.String()),
    related_checks: Type.Array(Type.String()),
    next_evaluation_at: Nullable(DateTime()),
  },
  { title: 'ConditionEvaluation' },
);

// The reference leaves the schedule's fields open (any keys), so this is the one free-form object.
const ConditionSchedule = Type.Object({}, { additionalProperties: true, title: 'ConditionSchedule' });

export const ConditionEvaluationResult = Type.Recursive(
  (Self) =>
    StrictObject(
      {
        match: Type.Boolean(),
        label: Type.String(),
        is_label_user_input: Type.Boolean(),
        description: Nullable(Type.String()),
        attribute_name: Nullable(Type.String()),
        operator: Nullable(Type.String()),
        schedule: Nullable(ConditionSchedule),
        subconditions: Type.Array(Self),
        evaluations: Type.Array(ConditionEvaluation),
      },
      { title: 'ConditionEvaluationResult' },
    ),
  { $id: 'ConditionEvaluationResult', title: 'ConditionEvaluationResult' },
);

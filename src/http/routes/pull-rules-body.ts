// The answer of `GET …/pulls/{number}/rules` (DESIGN.md §14): the rules of a pull request as
// its Summary shows them, each with its conditions as the public condition tree plus each node's
// three-valued state.
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../domain/int64.ts';
import { DateTime, Nullable, StrictObject, StringEnum } from '../../domain/schema-primitives.ts';

const Match = StringEnum(['true', 'false', 'pending'] as const, { description: 'Three-valued: pending is not known yet (a check running, a time not reached), never a failure' });

const Time = StrictObject({ hour: Type.Integer({ minimum: 0, maximum: 23 }), minute: Type.Integer({ minimum: 0, maximum: 59 }) }, { title: 'RuleScheduleTime' });

const RuleSchedule = StrictObject(
  {
    timezone: Type.String({ description: 'IANA time zone', examples: ['Europe/Paris'] }),
    days: Type.Record(Type.String(), StrictObject({ times: Type.Array(StrictObject({ start_at: Time, end_at: Time }, { title: 'RuleScheduleRange' })) }, { title: 'RuleScheduleDay' }), { description: 'By day name (monday … sunday): the times the schedule holds, both ends included' }),
  },
  { title: 'RuleSchedule' },
);

export const RuleConditionEvaluation = Type.Recursive(
  (Self) =>
    StrictObject(
      {
        match: Type.Boolean({ description: 'True only when the condition holds (a pending condition does not match)' }),
        state: Match,
        label: Type.String({ description: 'The condition as written in the file; `all of`, `any of` or `not` for a group' }),
        description: Nullable(Type.String(), { description: 'Why it is pending or not evaluated, when there is a reason to give' }),
        documentation_url: Nullable(Type.String(), { description: 'Always null here' }),
        schedule: Nullable(RuleSchedule, { description: 'The schedule a `schedule` condition names' }),
        subconditions: Type.Array(Self, { description: 'The parts of a group; empty for a single condition' }),
        evaluations: Type.Array(Type.Object({}), { maxItems: 0, description: 'Always empty' }),
      },
      { title: 'RuleConditionEvaluation' },
    ),
  { $id: 'RuleConditionEvaluation', title: 'RuleConditionEvaluation' },
);

const PullRule = StrictObject(
  {
    name: Type.String({ description: 'The rule\'s name, as written in the configuration file' }),
    section: StringEnum(['pull_request_rules', 'queue_rules', 'priority_rules', 'merge_protections'] as const, { description: 'The part of the file the rule is in' }),
    match: Match,
    applicable: Type.Boolean({ description: 'False when a condition on the base, head or author is false: the rule cannot apply to this pull request (the Summary folds it)' }),
    disabled_reason: Nullable(Type.String(), { description: 'Why the rule is not evaluated (an attribute Switchyard does not evaluate, `disabled` in the file); null for an evaluated rule' }),
    does: Type.Array(Type.String(), { description: 'What the rule does when it matches, as the Summary lists it' }),
    conditions: Nullable(RuleConditionEvaluation, { description: 'Its conditions as one tree (a rule\'s list is `all of`); null for a disabled rule' }),
  },
  { title: 'PullRequestRule' },
);

export const PullRulesBody = StrictObject(
  {
    pull_request: Int64({ description: 'Pull request number', examples: [42] }),
    head_sha: Type.String({ description: 'The head commit the evaluation was of' }),
    evaluated_at: DateTime({ description: 'When the rules engine evaluated it last' }),
    title: Type.String({ description: 'The Summary check run\'s title', examples: ['1 rule matches and 2 potential rules'] }),
    rules: Type.Array(PullRule, { description: 'In the order of the configuration file' }),
  },
  { title: 'PullRequestRules' },
);

// The bodies of the merge queue's controls: the public pause, queue-configuration and scheduled
// freeze shapes (wire-compatible with the public API), and how stored values are answered.
import { Type, type TUnsafe } from '@sinclair/typebox';
import { Owner, RepositoryName } from '../../domain/identifiers.ts';
import type { MergeQueueConfig } from '../../domain/merge-queue/model.ts';
import type { MergeQueueConfigurationInput } from '../../domain/merge-queue/config-schema.ts';
import type { FreezeCondition, ScheduledFreeze } from '../../domain/merge-queue/freeze-conditions.ts';
import { freezeAttributes } from '../../domain/merge-queue/control-events.ts';
import { DateTime, Nullable, Uuid } from '../../domain/schema-primitives.ts';
import type { QueuePause } from '../../services/merge-queue/controls.ts';

const REASON = 'Why the queue is paused';

export const MergeQueuePausePayload = Type.Object({ reason: Type.String({ maxLength: 255, description: REASON, examples: ['Release 4.2 in progress'] }) }, { additionalProperties: false, title: 'MergeQueuePausePayload' });

export const MergeQueuePauseResponse = Type.Object(
  {
    paused: Type.Boolean({ description: 'Whether the merge queue is paused' }),
    reason: Nullable(Type.String({ maxLength: 255 }), { description: `${REASON}; null when not paused` }),
    paused_at: Nullable(DateTime(), { description: 'When the queue was paused; null when not paused' }),
  },
  { title: 'MergeQueuePauseResponse' },
);

export const QueuePausePayload = Type.Object({ reason: Type.String({ maxLength: 255, description: REASON }) }, { additionalProperties: false, title: 'QueuePausePayload' });

const QueuePauseItem = Type.Object({ reason: Type.String({ maxLength: 255 }), pause_date: DateTime({ description: 'When the queue was paused' }) }, { title: 'QueuePause' });

export const QueuePauseResponse = Type.Object(
  { queue_pause: Type.Array(QueuePauseItem, { maxItems: 1, description: 'The pause of the repository: one item when paused, none otherwise' }) },
  { title: 'QueuePauseResponse' },
);

export function mergeQueuePauseAnswer(pause: QueuePause | null) {
  return { paused: pause !== null, reason: pause?.reason ?? null, paused_at: pause?.pausedAt.toISOString() ?? null };
}

export function queuePauseAnswer(pause: QueuePause | null) {
  return { queue_pause: pause ? [{ reason: pause.reason, pause_date: pause.pausedAt.toISOString() }] : [] };
}

const QueueRule = Type.Object(
  {
    name: Type.String({ description: 'The name of the queue rule' }),
    config: Type.Object({}, { additionalProperties: true, description: 'Its options, every default filled in (those of MergeQueueConfiguration.queue_rules)' }),
  },
  { title: 'QueueRule' },
);

export const QueuesConfig = Type.Object(
  { configuration: Type.Array(QueueRule, { description: 'The queue rules, in processing order' }) },
  { title: 'QueuesConfig' },
);

/** The stored configuration as the API answers it (its keeps `barrier_files` as given). */
export function configAnswer(config: MergeQueueConfig): MergeQueueConfigurationInput {
  return config as MergeQueueConfigurationInput;
}

export function queuesConfigAnswer(config: MergeQueueConfig) {
  return { configuration: config.queue_rules.map(({ name, ...options }) => ({ name, config: options })) };
}

// Conditions nest as the public shape allows; three levels of and/or/not are described here,
// and each leaf must be base=NAME or base!=NAME (checked with a message naming the condition).
function conditionSchema(depth: number): TUnsafe<FreezeCondition> {
  const leaf = Type.String({ minLength: 1, maxLength: 1024, description: '`base=NAME` or `base!=NAME`', examples: ['base=main'] });
  if (depth === 0) return Type.Unsafe<FreezeCondition>(leaf);
  const inner = conditionSchema(depth - 1);
  const group = Type.Object(
    { and: Type.Optional(Type.Array(inner, { maxItems: 50 })), or: Type.Optional(Type.Array(inner, { maxItems: 50 })), not: Type.Optional(inner) },
    { additionalProperties: false, minProperties: 1 },
  );
  return Type.Unsafe<FreezeCondition>(Type.Union([leaf, group]));
}

const Conditions = (description: string) => Type.Array(conditionSchema(3), { maxItems: 50, description });
const MATCHING = 'Base branches the freeze holds, as conditions that must all hold (`base=NAME`, `base!=NAME`, or and/or/not of them); empty (the default) holds every branch';
const EXCLUDE = 'Base branches the freeze leaves alone: those for which these conditions all hold; empty (the default) excludes none';
const LOCAL_TIME = 'date and time in ISO 8601 without an offset, a local time of `timezone`';
const LocalTime = (description: string) => Type.String({ maxLength: 64, description, examples: ['2026-12-24T18:00:00'] });
const TimeZone = (description: string) => Type.String({ minLength: 1, maxLength: 64, description, examples: ['Europe/Paris'] });

export const CreateScheduledQueueFreezePayload = Type.Object(
  {
    reason: Type.String({ maxLength: 10000, description: 'The reason for the freeze' }),
    start: Nullable(LocalTime(`When the freeze begins (${LOCAL_TIME}); null: now`)),
    end: Type.Optional(Nullable(LocalTime(`When the freeze ends (${LOCAL_TIME}); null or absent: until deleted`))),
    timezone: TimeZone('IANA timezone of start and end'),
    matching_conditions: Type.Optional(Conditions(MATCHING)),
    exclude_conditions: Type.Optional(Conditions(EXCLUDE)),
  },
  { additionalProperties: false, title: 'CreateScheduledQueueFreezePayload' },
);

export const UpdateScheduledFreezePayload = Type.Object(
  {
    reason: Type.Optional(Nullable(Type.String({ maxLength: 10000 }), { description: 'null or absent: unchanged' })),
    start: Type.Optional(Nullable(LocalTime(`${LOCAL_TIME}; only before the freeze has begun; null: now`))),
    end: Type.Optional(Nullable(LocalTime(`${LOCAL_TIME}; null: until deleted`))),
    timezone: Type.Optional(Nullable(TimeZone('The timezone start and end given here are read in, and answered in from now on; null or absent: unchanged'))),
    matching_conditions: Type.Optional(Nullable(Conditions(`${MATCHING}; null or absent: unchanged`))),
    exclude_conditions: Type.Optional(Nullable(Conditions(`${EXCLUDE}; null or absent: unchanged`))),
  },
  { additionalProperties: false, title: 'UpdateScheduledFreezePayload', description: 'Only the fields given change.' },
);

export const DeleteScheduledFreezePayload = Type.Object(
  { delete_reason: Type.String({ maxLength: 10000, description: 'The reason for the deletion, recorded in the activity log' }) },
  { additionalProperties: false, title: 'DeleteScheduledFreezePayload' },
);

const AnsweredConditions = Type.Array(Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })]));

export const ScheduledFreezeObjectResponse = Type.Object(
  {
    id: Uuid(),
    reason: Type.String(),
    start: DateTime({ description: 'The local time of `timezone`, with its offset', examples: ['2026-12-24T18:00:00+01:00'] }),
    end: Nullable(DateTime({ description: 'The local time of `timezone`, with its offset; null: until deleted' })),
    timezone: Type.String(),
    matching_conditions: AnsweredConditions,
    exclude_conditions: AnsweredConditions,
  },
  { title: 'ScheduledFreezeObjectResponse' },
);

export const GetScheduledFreezesResponse = Type.Object(
  { scheduled_freezes: Type.Array(ScheduledFreezeObjectResponse, { description: 'Ongoing and scheduled freezes, by start' }) },
  { title: 'GetScheduledFreezesResponse' },
);

export function freezeAnswer(freeze: ScheduledFreeze) {
  return { id: freeze.id, ...freezeAttributes(freeze) };
}

export const FreezeParams = Type.Object({ owner: Owner, repository: RepositoryName, freeze_id: Uuid({ description: 'The scheduled freeze `id`' }) });

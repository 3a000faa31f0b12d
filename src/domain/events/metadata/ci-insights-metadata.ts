// Metadata of the CI Insights events: auto-quarantine settings and automatic job retries (spec §6.6).
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { Actor } from '../shapes/actor.ts';
import { AutoQuarantineConfigAttributes } from '../shapes/auto-quarantine-config-attributes.ts';
import { ConditionMatch } from '../shapes/condition-match.ts';
import { DateTime, Nullable, StrictObject, StringEnum, Uuid } from '../../schema-primitives.ts';

export const AutoQuarantineEnabledMetadata = StrictObject(
  {
    enabled_by: Actor,
    enabled_at: DateTime(),
    auto_quarantine_config_attributes: AutoQuarantineConfigAttributes,
    enabled_by_staff: Type.Boolean(),
  },
  { title: 'AutoQuarantineEnabledMetadata' },
);

export const AutoQuarantineDisabledMetadata = StrictObject(
  {
    disabled_by: Actor,
    disabled_at: DateTime(),
    auto_quarantine_config_attributes: AutoQuarantineConfigAttributes,
    disabled_by_staff: Type.Boolean(),
  },
  { title: 'AutoQuarantineDisabledMetadata' },
);

export const AutoQuarantineModifiedMetadata = StrictObject(
  {
    updated_by: Actor,
    updated_at: DateTime(),
    auto_quarantine_config_attributes_before: AutoQuarantineConfigAttributes,
    auto_quarantine_config_attributes_after: AutoQuarantineConfigAttributes,
    updated_by_staff: Type.Boolean(),
  },
  { title: 'AutoQuarantineModifiedMetadata' },
);

export const RETRY_MODES = ['job', 'pipeline'] as const;
export const JOB_RETRY_OUTCOMES = ['retried', 'skipped_quota_exceeded'] as const;

export const JobRetriedMetadata = StrictObject(
  {
    rule_id: Uuid(),
    rule_name: Type.String(),
    max_retry: Type.Integer(),
    retry_mode: StringEnum(RETRY_MODES),
    retry_attempt: Type.Integer(),
    condition_matches: Type.Array(ConditionMatch),
    outcome: StringEnum(JOB_RETRY_OUTCOMES, { description: 'What the rule did; distinct from the envelope outcome.' }),
    workflow_run_id: Nullable(Int64()),
    job_url: Nullable(Type.String()),
  },
  { title: 'JobRetriedMetadata' },
);

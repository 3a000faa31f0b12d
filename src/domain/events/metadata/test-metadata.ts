// Metadata of test.quarantined and test.dequarantined (spec §6.7).
import { Type } from '@sinclair/typebox';
import { Actor } from '../shapes/actor.ts';
import { DateTime, Nullable, StrictObject, StringEnum, Uuid } from '../../schema-primitives.ts';
import { HEALTH_STATUSES, QUARANTINE_SOURCES, TestQuarantineSnapshot } from '../shapes/test-quarantine-snapshot.ts';

const quarantineFields = {
  quarantine_id: Uuid(),
  test_id: Type.Optional(Uuid()),
  test_name: Type.String(),
  source: StringEnum(QUARANTINE_SOURCES),
  health_status_at_event: StringEnum(HEALTH_STATUSES),
};

export const TestQuarantinedMetadata = StrictObject(
  {
    ...quarantineFields,
    reason: Type.String(),
    branch: Nullable(Type.String()),
    quarantined_at: DateTime(),
    quarantined_by: Nullable(Actor),
    quarantined_by_staff: Type.Boolean(),
  },
  { title: 'TestQuarantinedMetadata' },
);

export const TestDequarantinedMetadata = StrictObject(
  {
    ...quarantineFields,
    original_quarantine: TestQuarantineSnapshot,
    dequarantined_at: DateTime(),
    dequarantined_by: Nullable(Actor),
    dequarantined_by_staff: Type.Boolean(),
  },
  { title: 'TestDequarantinedMetadata' },
);

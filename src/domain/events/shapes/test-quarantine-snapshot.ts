// Test quarantine vocabulary shared by test.quarantined and test.dequarantined (spec §6.7), and
// the snapshot of the quarantine a dequarantine ends (spec §2.5 TestQuarantineSnapshot).
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StrictObject, StringEnum } from '../../schema-primitives.ts';

export const QUARANTINE_SOURCES = ['manual', 'auto'] as const;
export const HEALTH_STATUSES = ['healthy', 'flaky', 'broken'] as const;

export const TestQuarantineSnapshot = StrictObject(
  {
    source: StringEnum(QUARANTINE_SOURCES),
    reason: Type.String(),
    branch: Nullable(Type.String()),
    created_at: DateTime(),
  },
  { title: 'TestQuarantineSnapshot' },
);

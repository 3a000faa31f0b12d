// A scheduled freeze as recorded on scheduled_freeze.* events (spec §2.5). The matching-conditions
// object is "not shown" in the spec; it follows the reference: nested and/or/not of conditions.
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StrictObject } from '../../schema-primitives.ts';

export const MatchingConditions = Type.Recursive(
  (Self) =>
    StrictObject(
      {
        and: Type.Optional(Type.Array(Type.Union([Self, Type.String()]))),
        or: Type.Optional(Type.Array(Type.Union([Self, Type.String()]))),
        not: Type.Optional(Self),
      },
      { title: 'MatchingConditions' },
    ),
  { $id: 'MatchingConditions', title: 'MatchingConditions' },
);

const Conditions = Type.Array(Type.Union([Type.String(), MatchingConditions]));

export const ScheduledFreezeAttributes = StrictObject(
  {
    reason: Type.String(),
    start: DateTime(),
    end: Nullable(DateTime()),
    timezone: Type.String(),
    matching_conditions: Conditions,
    exclude_conditions: Conditions,
  },
  { title: 'ScheduledFreezeAttributes' },
);

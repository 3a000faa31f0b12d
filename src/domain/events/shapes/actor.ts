// Who did something recorded in the log (spec §2.5 Actor): an application key, a hosting user,
// or the service itself.
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { StrictObject, StringEnum, Uuid } from '../../schema-primitives.ts';

export const ACTOR_TYPES = ['application', 'user'] as const;

export const Actor = StrictObject(
  {
    type: StringEnum(ACTOR_TYPES),
    // Hosting user ids are platform integers (64-bit); application ids are uuids.
    id: Type.Union([Int64(), Uuid()]),
    name: Type.String(),
  },
  { title: 'Actor' },
);

// A hosting-platform account, as recorded on command events (spec §2.5, field `author`).
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { Nullable, StrictObject, StringEnum } from '../../schema-primitives.ts';

export const ACCOUNT_TYPES = ['User', 'Organization', 'Bot', 'Mannequin', 'Enterprise'] as const;

export const Account = StrictObject(
  {
    login: Type.String(),
    id: Int64({ description: 'Platform account id' }),
    type: Nullable(StringEnum(ACCOUNT_TYPES)),
    avatar_url: Type.Optional(Nullable(Type.String())),
  },
  { title: 'Account' },
);

// Metadata of command.queue and command.dequeue (spec §6.5): a user asked the queue by comment
// or checkbox.
import { Type } from '@sinclair/typebox';
import { Int64 } from '../../int64.ts';
import { Account } from '../shapes/account.ts';
import { Nullable, StrictObject, StringEnum, Uuid } from '../../schema-primitives.ts';

export const COMMAND_TRIGGERS = ['comment', 'checkbox'] as const;

export const CommandMetadata = StrictObject(
  {
    author: Account,
    comment_id: Int64({ description: 'Platform id of the comment carrying the command' }),
    session_id: Nullable(Uuid()),
    command_trigger: Nullable(StringEnum(COMMAND_TRIGGERS)),
    trigger_comment_url: Nullable(Type.String()),
  },
  { title: 'CommandMetadata' },
);

// The documented shape of a listing page (spec §2.7) and of its events (spec §2.4): one envelope
// per type, so the OpenAPI document says which metadata each type carries.
import { Type, type TSchema } from '@sinclair/typebox';
import { EVENT_TYPES, metadataSchemas, type EventType } from '../events/index.ts';
import { Int64 } from '../int64.ts';
import { DateTime, Nullable } from '../schema-primitives.ts';
import { EventOutcome } from './query-schema.ts';

function envelope(type: EventType, metadata: TSchema) {
  return Type.Object(
    {
      id: Int64({ description: 'Event id; ids grow in write order', examples: [1234] }),
      received_at: DateTime({ description: 'When the event was received, UTC, to the millisecond', examples: ['2024-05-01T12:00:00.123Z'] }),
      trigger: Type.String({ description: 'What caused the event; filtered by exact match', examples: ['merge queue'] }),
      repository: Type.String({ description: 'Full name, owner/repository, as registered', examples: ['acme/widgets'] }),
      pull_request: Nullable(Int64({ examples: [42] }), { description: 'Pull request number; null for events about the repository as a whole' }),
      base_ref: Nullable(Type.String(), { description: 'Base branch of the pull request' }),
      outcome: EventOutcome,
      type: Type.Literal(type),
      metadata,
    },
    { title: `Event ${type}` },
  );
}

const events = Type.Array(Type.Union(EVENT_TYPES.map((type) => envelope(type, metadataSchemas[type]))), { description: 'Newest first: by received_at, then id, both descending' });

/** The page as documented: the API document names each event and metadata shape (by title). */
export const ActivityLogPage = Type.Object(
  {
    size: Type.Integer({ minimum: 0, description: 'Events in this page', examples: [1] }),
    per_page: Type.Integer({ minimum: 1, maximum: 100, description: 'Events per page asked for', examples: [10] }),
    events,
  },
  { title: 'ActivityLogPage' },
);

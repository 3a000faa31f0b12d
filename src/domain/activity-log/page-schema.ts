// The documented shape of a listing page (spec §2.7) and of its events (spec §2.4): one envelope
// per type, so the OpenAPI document says which metadata each type carries.
import { Type, type TSchema } from '@sinclair/typebox';
import { EVENT_TYPES, OUTCOMES, hoistRecursiveSchemas, metadataSchemas, type EventType } from '../events/index.ts';
import { Int64 } from '../int64.ts';
import { DateTime, Nullable, StringEnum } from '../schema-primitives.ts';

function envelope(type: EventType, metadata: TSchema) {
  return Type.Object(
    {
      id: Int64({ description: 'Event id; ids grow in write order' }),
      received_at: DateTime({ description: 'When the event was received, UTC, to the millisecond' }),
      trigger: Type.String(),
      repository: Type.String({ description: 'Full name, owner/repository, as registered' }),
      pull_request: Nullable(Int64()),
      base_ref: Nullable(Type.String()),
      outcome: StringEnum(OUTCOMES, { description: 'Derived from type and metadata (docs/events.md)' }),
      type: Type.Literal(type),
      metadata,
    },
    { title: `Event ${type}` },
  );
}

const events = Type.Array(Type.Union(EVENT_TYPES.map((type) => envelope(type, metadataSchemas[type]))), { description: 'Newest first: by received_at, then id, both descending' });

const LINK_DESCRIPTION =
  'RFC 8288 pagination links: `<url>; rel="next"` and `<url>; rel="prev"`, each present only when that page exists (absent on a single page). Each URL is absolute and repeats every filter with `per_page` and `cursor`.';

/** The page as documented; recursive metadata shapes are referred to by anchor (below). */
export const ActivityLogPage = {
  ...anchorRecursiveSchemas(
    Type.Object(
      {
        size: Type.Integer({ description: 'Events in this page' }),
        per_page: Type.Integer({ description: 'Events per page asked for' }),
        events,
      },
      { title: 'ActivityLogPage' },
    ),
  ),
  headers: { Link: { type: 'string', description: LINK_DESCRIPTION } },
};

/**
 * Recursive shapes are hoisted into the schema's `$defs` and each is given a `$anchor`, referred
 * to as `#Name`: a plain-name fragment resolves wherever a document embeds the schema, where
 * `#/$defs/...` would point at the document's root.
 */
function anchorRecursiveSchemas(schema: TSchema): Record<string, unknown> {
  const { $defs, ...body } = hoistRecursiveSchemas(schema) as { $defs?: Record<string, Record<string, unknown>> };
  if (!$defs) return body;
  const anchors = Object.fromEntries(Object.entries($defs).map(([name, def]) => [name, { $anchor: anchorOf(name), ...def }]));
  return JSON.parse(JSON.stringify({ ...body, $defs: anchors }), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/$defs/') ? `#${anchorOf(decodeURIComponent(value.slice(8)))}` : value,
  );
}

function anchorOf(name: string): string {
  return `ActivityLog${name}`;
}

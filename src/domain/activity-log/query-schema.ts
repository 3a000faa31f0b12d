// The query parameters of the activity log (spec §4.4): the thirteen filters that listing and
// aggregation share, and the two paging parameters of the list. Unknown parameters are refused
// (a misspelt filter silently ignored would return the wrong events).
import { Type, type Static, type TSchema, type TString } from '@sinclair/typebox';
import { EVENT_TYPES, EVENT_TYPE_ALIAS_NAMES, OUTCOMES } from '../events/index.ts';
import { Int64 } from '../int64.ts';
import { DateTime, StringEnum } from '../schema-primitives.ts';

export const PER_PAGE_DEFAULT = 10;
export const PER_PAGE_MAX = 100;

const Numbers = (description: string) => Type.Optional(Type.Array(Int64({ description: 'Pull request number' }), { description }));
const Texts = (description: string) => Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { description }));
const Values = <T extends TSchema>(item: T, description: string) => Type.Optional(Type.Array(item, { description }));

/** An event type to filter on: one of the 46, or the public API's spelling of one (answers use the spec's). */
const EventTypeFilter = StringEnum([...EVENT_TYPES, ...EVENT_TYPE_ALIAS_NAMES], {
  title: 'EventTypeFilter',
  description: 'An event type. `action.github_actions`, the public API spelling, is read as `action.hosting_actions`.',
});
/** The derived outcome of an event (docs/events.md), in filters and in events alike. */
export const EventOutcome = StringEnum(OUTCOMES, { title: 'EventOutcome', description: 'Derived from the type and metadata of the event (docs/events.md)' });

/**
 * `dateTime` is the schema of the two window bounds: `format: date-time` in the documented
 * schema; plain text in the one Ajv checks, so parseFilterQuery can say precisely what is
 * wrong with a bound (a `+` sent unencoded arrives as a space).
 */
function filterProperties(dateTime: (options: { description: string }) => TString) {
  return {
    pull_request: Numbers('Keep events of these pull request numbers. Repeatable. Not with `not_pull_request`.'),
    not_pull_request: Numbers('Drop events of these pull request numbers; events without a pull request are kept. Repeatable. Not with `pull_request`.'),
    base_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Keep events of pull requests onto this base ref' })),
    batch_pull: Numbers(
      'Keep the lifecycle events of these batch pull requests: their `action.queue.checks_start` and `action.queue.checks_end` events (by `speculative_check_pull_request.number`) and the bisection events of the same batches. Repeatable. Not with `not_batch_pull`.',
    ),
    not_batch_pull: Numbers('Drop the event set `batch_pull` would keep. Repeatable. Not with `batch_pull`.'),
    event_type: Values(EventTypeFilter, 'Keep these event types. Repeatable. Not with `not_event_type`.'),
    not_event_type: Values(EventTypeFilter, 'Drop these event types. Repeatable. Not with `event_type`.'),
    outcome: Values(EventOutcome, 'Keep events whose derived outcome is one of these. Repeatable. Not with `not_outcome`.'),
    not_outcome: Values(EventOutcome, 'Drop events whose derived outcome is one of these. Repeatable. Not with `outcome`.'),
    trigger: Texts('Keep events whose trigger equals one of these (exact match). Repeatable. Not with `not_trigger`.'),
    not_trigger: Texts('Drop events whose trigger equals one of these (exact match). Repeatable. Not with `trigger`.'),
    received_from: Type.Optional(dateTime({ description: 'Start of the window, included (date-time with a timezone; send `+` as `%2B`). Default: received_to minus 1 day; at most 93 days before received_to.' })),
    received_to: Type.Optional(dateTime({ description: 'End of the window, excluded (date-time with a timezone; send `+` as `%2B`). Default: now.' })),
  };
}

function pageProperties() {
  return {
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'Opaque cursor, taken from a `Link` header of a previous page' })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: PER_PAGE_MAX, default: PER_PAGE_DEFAULT, description: 'Events per page' })),
  };
}

const PlainText = (options: { description: string }) => Type.String(options);
const strict = { additionalProperties: false } as const;

/** The filters of the aggregate endpoint, as documented. */
export const ActivityLogFilterQuery = Type.Object(filterProperties(DateTime), strict);
/** The filters of the aggregate endpoint, as Ajv checks them (bounds are read by parseFilterQuery). */
export const ActivityLogFilterQueryInput = Type.Object(filterProperties(PlainText), strict);

/** The filters and paging parameters of the list endpoint, as documented. */
export const ActivityLogListQuery = Type.Object({ ...filterProperties(DateTime), ...pageProperties() }, strict);
/** The list endpoint's parameters, as Ajv checks them. */
export const ActivityLogListQueryInput = Type.Object({ ...filterProperties(PlainText), ...pageProperties() }, strict);

export type ActivityLogFilterParams = Static<typeof ActivityLogFilterQueryInput>;
export type ActivityLogListParams = Static<typeof ActivityLogListQueryInput>;

/** per_page as validated (1 to PER_PAGE_MAX, finite: src/validation/validators.ts), defaulted. */
export function pageSize(perPage: number | undefined): number {
  return perPage ?? PER_PAGE_DEFAULT;
}

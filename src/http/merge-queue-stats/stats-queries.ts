// The query parameters of the statistics reads, with the public names: the groups to keep
// (repeatable; values OR together, parameters AND together) and the window. The window bounds are
// documented as date-times but checked as text, so statsWindow can say what is wrong with one.
import { Type, type Static, type TString } from '@sinclair/typebox';
import { DateTime } from '../../domain/schema-primitives.ts';

// At most 100 values: the whole query must fit the 16 KiB of request headers the server reads.
const Names = (description: string) => Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 100, description: `${description}. Repeatable.` }));

const filterProperties = {
  base_ref: Names('Keep these base branches'),
  queue_name: Names('Keep these queues (queue rule names)'),
  priority_rule_name: Names('Keep these priority rules'),
};

function windowProperties(dateTime: (options: { description: string }) => TString) {
  return {
    start_at: Type.Optional(dateTime({ description: 'Start of the window, included (date-time with a timezone; send `+` as `%2B`). Default: end_at minus 1 day; at most 93 days before end_at.' })),
    end_at: Type.Optional(dateTime({ description: 'End of the window, excluded (date-time with a timezone). Default: now.' })),
  };
}

const PlainText = (options: { description: string }) => Type.String(options);
const strict = { additionalProperties: false } as const;
const { priority_rule_name: _priority, ...withoutPriority } = filterProperties;

/** Each kind of query as documented (`doc`) and as checked (`input`). */
export const STATS_QUERIES = {
  filters: { doc: Type.Object({ ...filterProperties, ...windowProperties(DateTime) }, strict), input: Type.Object({ ...filterProperties, ...windowProperties(PlainText) }, strict) },
  filtersWithoutPriority: { doc: Type.Object({ ...withoutPriority, ...windowProperties(DateTime) }, strict), input: Type.Object({ ...withoutPriority, ...windowProperties(PlainText) }, strict) },
  window: { doc: Type.Object(windowProperties(DateTime), strict), input: Type.Object(windowProperties(PlainText), strict) },
  timeToMerge: {
    doc: Type.Object(
      {
        at: Type.Optional(DateTime({ description: 'The instant the time to merge is read at: over the merges of the 7 days before it (date-time with a timezone). Default: now.' })),
        branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'Only this base branch. Default: every branch.' })),
      },
      strict,
    ),
    input: Type.Object({ at: Type.Optional(Type.String()), branch: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }, strict),
  },
} as const;

export type StatsQueryKind = keyof typeof STATS_QUERIES;

/** Every parameter any statistics read takes, as checked. */
export type StatsParams = Partial<Static<typeof STATS_QUERIES.filters.input> & Static<typeof STATS_QUERIES.timeToMerge.input>>;

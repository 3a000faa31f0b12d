// The scopes file `switchyard scopes compute` reads: the `scopes` section of the public
// configuration's vocabulary (`source.files`: include/exclude globs per scope; `barrier_files`).
// Other top-level sections (queue_rules, merge_queue, ...) are allowed and ignored, so a whole
// configuration file can be pointed at.
import { Type, type Static } from '@sinclair/typebox';

const Globs = (description: string) => Type.Array(Type.String({ minLength: 1 }), { description });

const FileFilters = Type.Object(
  {
    include: Type.Optional(Globs('Globs of files in this scope; empty or absent: every file, before exclusions')),
    exclude: Type.Optional(Globs('Globs of files taken out of this scope; they win over include')),
  },
  { additionalProperties: false },
);

const BarrierFiles = Type.Object(
  {
    include: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'Globs of files that impact every scope' }),
    exclude: Type.Optional(Globs('Globs taken out of the barrier files')),
  },
  { additionalProperties: false },
);

export const SCOPE_NAME = '^[A-Za-z0-9_-]+$';

const Scopes = Type.Object(
  {
    source: Type.Union([
      Type.Object({ files: Type.Record(Type.String({ minLength: 2, pattern: SCOPE_NAME }), FileFilters) }, { additionalProperties: false }),
      Type.Object({ manual: Type.Null() }, { additionalProperties: false }),
      Type.Null(),
    ]),
    barrier_files: Type.Optional(Type.Union([BarrierFiles, Type.Null()])),
    merge_queue_scope: Type.Optional(Type.String()),
    capacities: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 1, maximum: 128 }))),
    default_capacity: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 128 }), Type.Null()])),
  },
  { additionalProperties: false },
);

export const ScopesFileSchema = Type.Object({ scopes: Scopes });

export type ScopesFile = Static<typeof ScopesFileSchema>;
export type FileFilterRules = Static<typeof FileFilters>;
export type BarrierFileRules = Static<typeof BarrierFiles>;

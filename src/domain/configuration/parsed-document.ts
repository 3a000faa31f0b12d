// A configuration file read as YAML and not yet checked against the vocabulary: its top-level
// mapping as plain values, and where each part of it sits in the text.
import type { ConfigurationError } from './configuration-error.ts';
import type { PositionIndex } from './source-positions.ts';

export interface ParsedDocument {
  /** The file, as the caller named it (errors name it). */
  path: string;
  /** The top-level mapping: plain JSON-like values, aliases resolved (an alias is the same
   * object as its anchor: never mutate). An empty file is `{}`. */
  value: Readonly<Record<string, unknown>>;
  positions: PositionIndex;
}

export type ParseResult = { ok: true; document: ParsedDocument } | { ok: false; errors: ConfigurationError[] };

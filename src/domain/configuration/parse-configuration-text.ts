// Reads a configuration file's text as YAML with every limit on: at most 1 MiB and 50,000
// tokens, a few aliases (an anchor "bomb" is refused, not expanded), at most 64 levels of
// nesting, unique keys, only the core schema's plain values, one document whose top level is a
// mapping. Any input gives a result, never an exception: what the YAML library throws is
// caught and reported too.
import { LineCounter, parseDocument, type YAMLError } from 'yaml';
import type { ConfigurationError } from './configuration-error.ts';
import type { ParseResult } from './parsed-document.ts';
import { RecordedPositions, withPosition } from './source-positions.ts';
import { valueProblem } from './value-limits.ts';
import { tokenProblem } from './yaml-token-limits.ts';
import { positionsIn, recordPositions, structureErrors } from './yaml-structure.ts';

export const MAX_CONFIGURATION_BYTES = 1024 * 1024;
export const MAX_ALIAS_COUNT = 100;
export const MAX_NESTING = 64;
/** Scalars, indicators and brackets: a file of 200 rules with 25 conditions each holds 16,000.
 * The YAML library spends about 10 µs on each, so the cap bounds a hostile file to a second. */
export const MAX_TOKENS = 50_000;

const OPTIONS = { version: '1.2', schema: 'core', merge: true, uniqueKeys: false, strict: true, prettyErrors: false } as const;

function failed(errors: ConfigurationError[]): ParseResult {
  return { ok: false, errors };
}

function yamlErrors(errors: readonly YAMLError[], at: ReturnType<typeof positionsIn>): ConfigurationError[] {
  return errors.map((error) => ({ loc: [], msg: `invalid YAML: ${error.message.split('\n')[0]}`, ...at(error.pos[0]) }));
}

function describe(problem: NonNullable<ReturnType<typeof valueProblem>>): string {
  if (problem.kind === 'too_deep') return `the document nests more than ${MAX_NESTING} levels deep (aliases included)`;
  if (problem.kind === 'cycle') return 'an alias refers to a mapping or list that contains it';
  return `the text ${JSON.stringify(problem.text.slice(0, 40))} holds a NUL character or an unpaired surrogate`;
}

function lineAndColumn(path: string, text: string, offset: number) {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { path, line: before.split('\n').length, column: offset - lineStart + 1 };
}

function parseWithinLimits(text: string, path: string): ParseResult {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_CONFIGURATION_BYTES) return failed([{ loc: [], msg: `the file is ${bytes} bytes: at most ${MAX_CONFIGURATION_BYTES} (1 MiB) are read` }]);
  const lines = new LineCounter();
  const at = positionsIn(path, lines);
  const excess = tokenProblem(text, { maxNesting: MAX_NESTING, maxTokens: MAX_TOKENS });
  if (excess) {
    const msg = excess.kind === 'too_deep' ? `the document nests more than ${MAX_NESTING} levels deep` : `the document holds more than ${MAX_TOKENS} values and indicators`;
    return failed([{ loc: [], msg, ...lineAndColumn(path, text, excess.offset) }]);
  }
  const document = parseDocument(text, { ...OPTIONS, lineCounter: lines });
  if (document.errors.length > 0) return failed(yamlErrors(document.errors, at));
  if (document.warnings.length > 0) return failed(yamlErrors(document.warnings, at));
  const structure = structureErrors(document, at);
  if (structure.length > 0) return failed(structure);
  const value: unknown = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'a list' : `the ${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
    return failed([{ loc: [], msg: `the configuration must be a mapping of sections (queue_rules:, pull_request_rules:, ...), not ${kind}`, path, line: 1, column: 1 }]);
  }
  const positions = new RecordedPositions({ path, line: 1, column: 1 });
  recordPositions(document, value, positions, at);
  const problem = valueProblem(value, MAX_NESTING);
  if (problem) return failed([withPosition(positions, value, { loc: problem.loc, msg: describe(problem) })]);
  return { ok: true, document: { path, value: value as Record<string, unknown>, positions } };
}

/** The text as a parsed document, or every reason it cannot be one. Never throws. */
export function parseConfigurationText(text: string, path: string): ParseResult {
  try {
    if (typeof text !== 'string') return failed([{ loc: [], msg: 'the configuration is not text' }]);
    return parseWithinLimits(text, path);
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    const bomb = /resource exhaustion/i.test(reason);
    return failed([{ loc: [], msg: bomb ? `the document expands too many aliases (at most ${MAX_ALIAS_COUNT} uses of anchors): ${reason}` : `the YAML cannot be read: ${reason}` }]);
  }
}

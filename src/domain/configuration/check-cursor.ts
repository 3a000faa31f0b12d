// The walk of a document against the vocabulary. A check reads one value at a cursor (where it
// is, and that location's pattern in the table of implemented options) and returns what it read,
// or INVALID after recording why. Keys the table does not list are reported as not supported
// the moment the walk enters them, and nothing below them is reported again.
import { dottedPath, type ConfigurationLoc } from './configuration-error.ts';
import type { ConditionParser } from './condition-parser.ts';

export const INVALID: unique symbol = Symbol('invalid');
export type Invalid = typeof INVALID;

export type Check<T> = (value: unknown, at: Cursor) => T | Invalid;

export interface CheckContext {
  readonly errors: { loc: ConfigurationLoc; msg: string }[];
  readonly notSupported: string[];
  readonly implemented: ReadonlySet<string>;
  readonly parseCondition: ConditionParser<unknown>;
}

export interface Cursor {
  readonly loc: ConfigurationLoc;
  /** The location with list indexes as `[]` and named entries as `*`: `queue_rules[].name`. */
  readonly pattern: string;
  /** Whether this location is implemented, so the keys below it are looked up in the table. */
  readonly tracked: boolean;
  readonly context: CheckContext;
}

export function rootCursor(context: CheckContext): Cursor {
  return { loc: [], pattern: '', tracked: true, context };
}

export function fail(at: Cursor, msg: string): Invalid {
  at.context.errors.push({ loc: at.loc, msg });
  return INVALID;
}

/** Entering an option of the vocabulary: reported as not supported unless the table lists it. */
export function keyCursor(at: Cursor, key: string): Cursor {
  const pattern = at.pattern === '' ? key : `${at.pattern}.${key}`;
  const implemented = at.context.implemented.has(pattern);
  const loc = [...at.loc, key];
  if (at.tracked && !implemented) at.context.notSupported.push(dottedPath(loc));
  return { loc, pattern, tracked: at.tracked && implemented, context: at.context };
}

export function itemCursor(at: Cursor, index: number): Cursor {
  return { ...at, loc: [...at.loc, index], pattern: `${at.pattern}[]` };
}

/** An entry of a mapping whose keys are names the user chose (scopes, inputs). */
export function entryCursor(at: Cursor, name: string): Cursor {
  return { ...at, loc: [...at.loc, name], pattern: `${at.pattern}.*` };
}

/** A public value Switchyard does not honour as such (`merge_method: merge-batch`). */
export function notSupportedValue(at: Cursor, value: string | number): void {
  if (at.tracked) at.context.notSupported.push(`${dottedPath(at.loc)}=${value}`);
}

/** How a value is described in messages: "text", "a list", "the number 3". */
export function kindOf(value: unknown): string {
  if (value === null) return 'empty (null)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `the ${typeof value} ${String(value)}`;
}

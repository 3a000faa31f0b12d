// Checks of lists and mappings. `object` is the vocabulary's workhorse: every key must be one
// of its options (else "Unknown key", with the nearest option suggested), required options must
// be present, and entering an option consults the table of implemented ones.
import { closestName } from './closest-name.ts';
import { entryCursor, fail, INVALID, itemCursor, keyCursor, kindOf, type Check, type Cursor } from './check-cursor.ts';

export interface RequiredField<T> {
  readonly required: Check<T>;
}

export function required<T>(check: Check<T>): RequiredField<T> {
  return { required: check };
}

type Field = Check<unknown> | RequiredField<unknown>;
export type Shape = Record<string, Field>;
type ValueOf<F> = F extends RequiredField<infer T> ? T : F extends Check<infer T> ? T : never;
type RequiredKeys<S extends Shape> = { [K in keyof S]: S[K] extends RequiredField<unknown> ? K : never }[keyof S];

/** What `object(shape)` reads: required options present, the others when written. */
export type Checked<S extends Shape> = { [K in RequiredKeys<S>]: ValueOf<S[K]> } & { [K in Exclude<keyof S, RequiredKeys<S>>]?: ValueOf<S[K]> };

export function isMapping(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// Past this many errors nobody reads suggestions (reports list 100), so none are computed.
const SUGGESTED_ERRORS = 200;

function unknownKey(at: Cursor, key: string, known: string[]): void {
  const suggestion = at.context.errors.length < SUGGESTED_ERRORS ? closestName(key, known) : undefined;
  const shown = JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
  fail({ ...at, loc: [...at.loc, key] }, `Unknown key ${shown}${suggestion ? `: did you mean "${suggestion}"?` : ''}`);
}

export function object<S extends Shape>(shape: S): Check<Checked<S>> {
  const known = Object.keys(shape);
  return (value, at) => {
    if (!isMapping(value)) return fail(at, `must be a mapping of options, not ${kindOf(value)}`);
    const read: [string, unknown][] = [];
    let valid = true;
    for (const [key, child] of Object.entries(value)) {
      const field = Object.hasOwn(shape, key) ? shape[key] : undefined;
      if (!field) {
        unknownKey(at, key, known);
        valid = false;
        continue;
      }
      const result = (typeof field === 'function' ? field : field.required)(child, keyCursor(at, key));
      if (result === INVALID) valid = false;
      else read.push([key, result]);
    }
    for (const key of known) {
      if (typeof shape[key] === 'function' || Object.hasOwn(value, key)) continue;
      fail({ ...at, loc: [...at.loc, key] }, `"${key}" is required`);
      valid = false;
    }
    return valid ? (Object.fromEntries(read) as Checked<S>) : INVALID;
  };
}

export function list<T>(item: Check<T>, options: { max: number; min?: number }): Check<T[]> {
  const { max, min = 0 } = options;
  return (value, at) => {
    if (!Array.isArray(value)) return fail(at, `must be a list, not ${kindOf(value)}`);
    if (value.length > max) return fail(at, `must hold at most ${max} items; it holds ${value.length}`);
    if (value.length < min) return fail(at, `must hold at least ${min} item${min === 1 ? '' : 's'}`);
    const read = value.map((child, index) => item(child, itemCursor(at, index)));
    return read.includes(INVALID) ? INVALID : (read as T[]);
  };
}

/** A mapping whose keys the user names (a scope per entry), each read by `entry`. */
export function namedEntries<T>(names: { pattern: RegExp; describe: string; max?: number }, entry: Check<T>): Check<Record<string, T>> {
  return (value, at) => {
    if (!isMapping(value)) return fail(at, `must be a mapping, not ${kindOf(value)}`);
    const entries = Object.entries(value);
    if (names.max !== undefined && entries.length > names.max) return fail(at, `must hold at most ${names.max} entries`);
    let valid = true;
    const read: [string, T][] = [];
    for (const [name, child] of entries) {
      const cursor = entryCursor(at, name);
      const result = names.pattern.test(name) ? entry(child, cursor) : fail(cursor, `"${name}" is not ${names.describe}`);
      if (result === INVALID) valid = false;
      else read.push([name, result]);
    }
    return valid ? Object.fromEntries(read) : INVALID;
  };
}

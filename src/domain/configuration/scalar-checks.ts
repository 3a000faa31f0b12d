// Checks of single values: text, true/false, bounded integers, one of a few words, and the
// choice between shapes by the kind of value written (an integer or a {min, max} mapping).
import { fail, kindOf, type Check } from './check-cursor.ts';

/** Text; `pattern` (with `describe` naming what it allows) constrains it further. */
export function text(options: { min?: number; max?: number; pattern?: RegExp; describe?: string } = {}): Check<string> {
  const { min = 0, max = 65_536, pattern, describe = 'in the expected form' } = options;
  return (value, at) => {
    if (typeof value !== 'string') return fail(at, `must be text, not ${kindOf(value)}`);
    if (value.length < min) return fail(at, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
    if (value.length > max) return fail(at, `must be at most ${max} characters`);
    if (pattern && !pattern.test(value)) return fail(at, `must be ${describe}, not ${kindOf(value)}`);
    return value;
  };
}

export const flag: Check<boolean> = (value, at) => (typeof value === 'boolean' ? value : fail(at, `must be true or false, not ${kindOf(value)}`));

export function integer(min: number, max = Number.MAX_SAFE_INTEGER): Check<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  return (value, at) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) return fail(at, `must be ${range}, not ${kindOf(value)}`);
    return value >= min && value <= max ? value : fail(at, `must be ${range}; ${value} is out of range`);
  };
}

export function oneOf<const T extends readonly (string | boolean)[]>(values: T): Check<T[number]> {
  const listed = values.map((choice) => JSON.stringify(choice)).join(', ');
  return (value, at) => ((values as readonly unknown[]).includes(value) ? (value as T[number]) : fail(at, `must be one of ${listed}, not ${kindOf(value)}`));
}

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, at) => (value === null ? null : check(value, at));
}

/** Any value at all: `shared` holds whatever YAML its anchors need. */
export const anything: Check<unknown> = (value) => value;

type Kind = 'text' | 'number' | 'boolean' | 'null' | 'list' | 'mapping';

function kindName(value: unknown): Kind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'object') return 'mapping';
  return typeof value === 'number' ? 'number' : 'boolean';
}

/** The check for the kind of value written; `expected` names the choices when none fits. */
export function byKind<T>(expected: string, checks: Partial<Record<Kind, Check<T>>>): Check<T> {
  return (value, at) => {
    const check = checks[kindName(value)];
    return check ? check(value, at) : fail(at, `must be ${expected}, not ${kindOf(value)}`);
  };
}


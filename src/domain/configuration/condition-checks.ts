// Conditions, wherever the vocabulary has them, go through the injected parser: a list of
// conditions (at most 500) or `true`, which is handed over as the empty list (always true).
// The parser's errors join the others at their place in the document.
import { fail, INVALID, kindOf, type Check } from './check-cursor.ts';
import { prefixedErrors } from './condition-parser.ts';

export const MAX_CONDITIONS = 500;

export const conditions: Check<unknown> = (value, at) => {
  if (value !== true && !Array.isArray(value)) return fail(at, `must be a list of conditions (or true), not ${kindOf(value)}`);
  const raw = value === true ? [] : value;
  if (raw.length > MAX_CONDITIONS) return fail(at, `must hold at most ${MAX_CONDITIONS} conditions; it holds ${raw.length}`);
  let result: ReturnType<typeof at.context.parseCondition>;
  try {
    result = at.context.parseCondition(raw, [...at.loc]);
  } catch (error) {
    return fail(at, `the conditions could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (result.ok) return result.condition;
  if (result.errors.length === 0) return fail(at, 'the conditions are not valid');
  at.context.errors.push(...prefixedErrors(result.errors, at.loc));
  return INVALID;
};

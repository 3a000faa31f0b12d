// A small stand-in for the rules grammar, enough to test the configuration file on its own:
// a condition is text (one that starts with "bogus" is refused) or {and|or: [...]} / {not: ...}.
// Errors are located relative to the list, as a parser is allowed to.
import type { ConditionParser } from '../../src/domain/configuration/index.ts';

export type ToyCondition = string | { and: ToyCondition[] } | { or: ToyCondition[] } | { not: ToyCondition };

type Problem = { loc: (string | number)[]; msg: string };

function read(value: unknown, loc: (string | number)[], problems: Problem[]): ToyCondition {
  if (typeof value === 'string') {
    if (value.startsWith('bogus')) problems.push({ loc, msg: `unknown attribute in "${value}"` });
    return value;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const [key, inner] = Object.entries(value)[0] ?? [];
    if ((key === 'and' || key === 'or') && Array.isArray(inner)) {
      const items = inner.map((item, index) => read(item, [...loc, key, index], problems));
      return key === 'and' ? { and: items } : { or: items };
    }
    if (key === 'not') return { not: read(inner, [...loc, 'not'], problems) };
  }
  problems.push({ loc, msg: 'not a condition' });
  return '';
}

/** The conditions as an `and` of what was written. */
export const toyConditions: ConditionParser<ToyCondition> = (raw) => {
  const problems: Problem[] = [];
  const items = Array.isArray(raw) ? raw.map((item, index) => read(item, [index], problems)) : [read(raw, [], problems)];
  return problems.length > 0 ? { ok: false, errors: problems } : { ok: true, condition: { and: items } };
};

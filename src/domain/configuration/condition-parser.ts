// Conditions come in from the rules grammar (src/domain/rules), injected so that the file's
// vocabulary does not depend on how conditions are parsed. The contract: `raw` is a list of
// conditions exactly as written (strings and {and}/{or}/{not} mappings; `true` arrives as []),
// `loc` where the list sits; an empty list must parse (all of nothing: always true). Errors may
// give their `loc` from the top of the document (starting with `loc`) or relative to the list.
import type { ConfigurationLoc } from './configuration-error.ts';

export type ConditionParser<C> = (
  raw: unknown,
  loc: (string | number)[],
) => { ok: true; condition: C } | { ok: false; errors: { loc: (string | number)[]; msg: string }[] };

function startsWith(loc: ConfigurationLoc, prefix: ConfigurationLoc): boolean {
  return prefix.length <= loc.length && prefix.every((key, index) => loc[index] === key);
}

/** The parser's errors located from the top of the document. */
export function prefixedErrors(errors: readonly { loc: ConfigurationLoc; msg: string }[], at: ConfigurationLoc) {
  return errors.map((error) => ({ loc: startsWith(error.loc, at) ? [...error.loc] : [...at, ...error.loc], msg: error.msg }));
}

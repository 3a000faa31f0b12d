// Limits on the plain value a YAML text became, checked once aliases are resolved: an alias can
// make a value deeper than its text (or make it contain itself), and text that storage cannot
// keep (U+0000, a lone surrogate from a "\uD800" escape) must be refused here rather than fail
// later. Each object is measured once, however many aliases point at it, so a document that
// repeats one large anchor thousands of times costs no more than its text.
import type { ConfigurationLoc } from './configuration-error.ts';

export type ValueProblem = { loc: ConfigurationLoc } & ({ kind: 'too_deep' } | { kind: 'cycle' } | { kind: 'bad_text'; text: string });

type WellFormed = string & { isWellFormed(): boolean };

function badText(text: string): boolean {
  return text.includes('\u0000') || !(text as WellFormed).isWellFormed();
}

/** The first problem found in `value` nested at most `maxDepth` collections deep, or null. */
export function valueProblem(value: unknown, maxDepth: number): ValueProblem | null {
  const heights = new Map<object, number>();
  const open = new Set<object>();
  const loc: ConfigurationLoc = [];
  let problem: ValueProblem | null = null;
  const fail = (found: ValueProblem): number => ((problem = found), -1);
  // The height of `node` (collections below it, itself included), or -1 once a problem is found.
  const height = (node: unknown, depth: number): number => {
    if (typeof node === 'string') return badText(node) ? fail({ kind: 'bad_text', text: node, loc: [...loc] }) : 0;
    if (node === null || typeof node !== 'object') return 0;
    const known = heights.get(node);
    if (known !== undefined) return depth + known > maxDepth ? fail({ kind: 'too_deep', loc: [...loc] }) : known;
    if (open.has(node)) return fail({ kind: 'cycle', loc: [...loc] });
    if (depth + 1 > maxDepth) return fail({ kind: 'too_deep', loc: [...loc] });
    open.add(node);
    let below = 0;
    for (const [key, child] of Object.entries(node)) {
      const step = Array.isArray(node) ? Number(key) : key;
      loc.push(step);
      if (typeof step === 'string' && badText(step)) return fail({ kind: 'bad_text', text: step, loc: [...loc] });
      const childHeight = height(child, depth + 1);
      if (childHeight < 0) return -1;
      loc.pop();
      below = Math.max(below, childHeight);
    }
    open.delete(node);
    heights.set(node, below + 1);
    return below + 1;
  };
  height(value, 0);
  return problem;
}

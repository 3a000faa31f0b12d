// Regular expressions (`~=`) and globs (`*=`) of a configuration, compiled by RE2 (re2js): its
// matching time is linear in the input, so no pattern written by anyone with push access can make
// an evaluation backtrack for ever. What RE2 cannot promise that for (backreferences, lookaround)
// it refuses, and the error says so.
import { RE2JS } from 're2js';
import { globToRegex } from './glob-pattern.ts';

export type PatternCompile = { ok: true; regex: RE2JS } | { ok: false; msg: string };

/** Longest value a pattern is matched against: a longer one (a huge body) is cut there. */
export const PATTERN_INPUT_LIMIT = 64 * 1024;

export function compileRegex(source: string, ignoreCase: boolean): PatternCompile {
  try {
    return { ok: true, regex: RE2JS.compile(source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) };
  } catch (error) {
    return { ok: false, msg: `the regular expression ${source} ${regexProblem(source, error)}` };
  }
}

export function compileGlob(glob: string, ignoreCase: boolean): PatternCompile {
  const translation = globToRegex(glob);
  if (!translation.ok) return { ok: false, msg: `the glob ${glob} ${translation.msg}` };
  return compileRegex(translation.source, ignoreCase);
}

/** Search anywhere in the value (`~=`). */
export function searchPattern(regex: RE2JS, value: string): boolean {
  return regex.test(value.length > PATTERN_INPUT_LIMIT ? value.slice(0, PATTERN_INPUT_LIMIT) : value);
}

/** The whole value (`*=`). */
export function wholePattern(regex: RE2JS, value: string): boolean {
  return regex.testExact(value.length > PATTERN_INPUT_LIMIT ? value.slice(0, PATTERN_INPUT_LIMIT) : value);
}

function regexProblem(source: string, error: unknown): string {
  const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
  if (/\(\?<?[=!]/.test(source)) return `uses lookaround ((?=, (?!, (?<=, (?<!), which RE2 does not run in linear time: rewrite it without (${detail})`;
  if (/\\[1-9]|\(\?P=/.test(source)) return `uses a backreference, which RE2 does not run in linear time: rewrite it without (${detail})`;
  return `is not valid for RE2 (${detail})`;
}

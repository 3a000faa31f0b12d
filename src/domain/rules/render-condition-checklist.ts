// A condition tree as the Summary check shows it: a Markdown checklist, `[X]` when true, `[ ]`
// when false, `[ ] ⏳` when pending, groups as `all of:` / `any of:` / `not:` with their parts
// indented below. Labels come from a configuration anyone with push access writes, so each is a
// code span (no Markdown, HTML or @mention in it acts) on one line.
import type { EvaluatedCondition } from './evaluated-condition.ts';

const INDENT = '  ';
const MARKS = { true: '[X] ', false: '[ ] ', pending: '[ ] ⏳ ' } as const;

/** The lines of a rule's conditions; a rule's own `all of` is not repeated as a line. */
export function renderConditionChecklist(tree: EvaluatedCondition): string {
  const top = tree.kind === 'all' ? tree.conditions : [tree];
  return top.flatMap((node) => lines(node, 0)).join('\n');
}

function lines(node: EvaluatedCondition, level: number): string[] {
  const text = node.kind === 'leaf' ? codeSpan(node.label) : `${node.label}:`;
  const description = node.description ? ` [${escapeText(node.description)}]` : '';
  const line = `${INDENT.repeat(level)}- ${MARKS[node.match]}${text}${description}`;
  const children = node.kind === 'leaf' ? [] : node.kind === 'not' ? [node.condition] : node.conditions;
  return [line, ...children.flatMap((child) => lines(child, level + 1))];
}

/** A code span fenced by more backticks than the text holds in a row, on one line. */
export function codeSpan(text: string): string {
  const flat = text.replace(/\r\n|\r|\n/g, ' ');
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** Plain text with Markdown and HTML punctuation escaped and @mentions broken. */
export function escapeText(text: string): string {
  return text
    .replace(/\r\n|\r|\n/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!|~<>&]/g, (char) => (char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '&' ? '&amp;' : `\\${char}`))
    .replace(/@/g, '@\u200b');
}

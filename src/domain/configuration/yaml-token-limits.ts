// Limits measured on a YAML text's tokens before the parser builds anything, in one linear pass
// that stops at the first excess. The `yaml` package recurses once per level of nesting (a few
// thousand levels exhaust the stack) and spends tens of microseconds per value, so a text that
// nests too deep or holds too many values is refused before it costs seconds. Nesting counts
// open flow brackets plus block levels (indentation steps and sequence dashes): it may count a
// level more per line, and the exact depth is checked again on the parsed value.
import { Lexer } from 'yaml';

// Markers the lexer emits that are not characters of the source (document start, flow end,
// scalar start).
const MARKERS = new Set(['\u0002', '\u0018', '\u001f']);

export type TokenProblem = { kind: 'too_deep' | 'too_many_tokens'; offset: number };

function isLayout(first: string | undefined): boolean {
  return first === ' ' || first === '\t' || first === '#' || first === '\n' || first === '\r';
}

/** The first limit the text exceeds, with the offset where it does; null within both. */
export function tokenProblem(text: string, limits: { maxNesting: number; maxTokens: number }): TokenProblem | null {
  let flow = 0;
  let tokens = 0;
  const indents: number[] = [];
  let offset = 0;
  let lineStart = 0;
  let atLineStart = true;
  for (const token of new Lexer().lex(text)) {
    if (MARKERS.has(token)) continue;
    const start = offset;
    offset += token.length;
    if (!isLayout(token[0])) {
      if (flow === 0 && (atLineStart || token === '-' || token === '?')) {
        const column = start - lineStart;
        while (indents.length > 0 && (indents.at(-1) as number) > column) indents.pop();
        if (indents.at(-1) !== column) indents.push(column);
      }
      if (token === '[' || token === '{') flow += 1;
      else if (token === ']' || token === '}') flow = Math.max(0, flow - 1);
      atLineStart = false;
      if (indents.length + flow > limits.maxNesting) return { kind: 'too_deep', offset: start };
      if ((tokens += 1) > limits.maxTokens) return { kind: 'too_many_tokens', offset: start };
    }
    const newline = token.lastIndexOf('\n');
    if (newline >= 0) {
      lineStart = start + newline + 1;
      atLineStart = true;
    }
  }
  return null;
}

// How deep a YAML text nests, measured on its tokens before the parser builds anything: the
// `yaml` package recurses once per level (a few thousand levels exhaust the stack, and a deep
// text costs seconds to parse), so a text nested past the cap is refused in one linear pass.
// The measure counts open flow brackets plus block levels (indentation steps and sequence
// dashes); it may overcount a level per line, never undercount by more than half, and the exact
// depth is checked again on the parsed value.
import { Lexer } from 'yaml';

// Markers the lexer emits that are not characters of the source (document start, flow end,
// scalar start).
const MARKERS = new Set(['\u0002', '\u0018', '\u001f']);

function isLayout(first: string | undefined): boolean {
  return first === ' ' || first === '\t' || first === '#' || first === '\n' || first === '\r';
}

/** The offset at which the text nests deeper than `limit`, or null when it never does. */
export function offsetBeyondNesting(text: string, limit: number): number | null {
  let flow = 0;
  const indents: number[] = [];
  let offset = 0;
  let lineStart = 0;
  let atLineStart = true;
  for (const token of new Lexer().lex(text)) {
    if (MARKERS.has(token)) continue;
    const start = offset;
    offset += token.length;
    const newline = token.lastIndexOf('\n');
    if (!isLayout(token[0])) {
      if (flow === 0 && (atLineStart || token === '-' || token === '?')) {
        const column = start - lineStart;
        while (indents.length > 0 && (indents.at(-1) as number) > column) indents.pop();
        if (indents.at(-1) !== column) indents.push(column);
      }
      if (token === '[' || token === '{') flow += 1;
      else if (token === ']' || token === '}') flow = Math.max(0, flow - 1);
      atLineStart = false;
      if (indents.length + flow > limit) return start;
    }
    if (newline >= 0) {
      lineStart = start + newline + 1;
      atLineStart = true;
    }
  }
  return null;
}

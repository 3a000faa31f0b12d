// `*=` globs, the public service's path globs, turned into RE2 syntax so they match in linear
// time like every other pattern of a configuration. `*` is any run within one path segment
// (dotfiles included, as gitignore and fnmatch have it), `?` one character of a segment, `**` as
// a whole segment any number of segments (none included), `[seq]`/`[!seq]` a character class,
// `{a,b}` alternatives (nestable; empty branches dropped), `\` escapes the next character.
export type GlobTranslation = { ok: true; source: string } | { ok: false; msg: string };

const MAX_BRACE_DEPTH = 32;
const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/;

class GlobError extends Error {}

export function globToRegex(glob: string): GlobTranslation {
  try {
    const reader = { glob, at: 0 };
    const source = sequence(reader, 0);
    if (reader.at < glob.length) throw new GlobError('has a } without its {: escape it as \\} or [}]');
    return { ok: true, source };
  } catch (error) {
    if (error instanceof GlobError) return { ok: false, msg: error.message };
    throw error;
  }
}

interface Reader {
  glob: string;
  at: number;
}

/** Reads until the end, or inside braces until the `,` or `}` that ends the branch. */
function sequence(reader: Reader, depth: number): string {
  let out = '';
  while (reader.at < reader.glob.length) {
    const char = reader.glob[reader.at]!;
    if (depth > 0 && (char === ',' || char === '}')) return out;
    if (depth === 0 && char === '}') return out;
    out += token(reader, depth);
  }
  if (depth > 0) throw new GlobError('has a { without its }: escape it as \\{ or [{]');
  return out;
}

function token(reader: Reader, depth: number): string {
  const { glob } = reader;
  const char = glob[reader.at++]!;
  if (char === '\\') {
    if (reader.at >= glob.length) throw new GlobError('ends with a lone \\');
    return literal(glob[reader.at++]!);
  }
  if (char === '?') return '[^/]';
  if (char === '[') return characterClass(reader);
  if (char === '{') return braces(reader, depth + 1);
  if (char !== '*') return literal(char);
  return stars(reader);
}

/** `*`, or `**` (any run of stars) standing for whole segments when it is one. */
function stars(reader: Reader): string {
  const { glob } = reader;
  const first = reader.at - 1;
  if (glob[reader.at] !== '*') return '[^/]*';
  while (glob[reader.at] === '*') reader.at++;
  const startsSegment = first === 0 || '/{,'.includes(glob[first - 1]!);
  const next = glob[reader.at];
  if (!startsSegment || (next !== undefined && !'/,}'.includes(next))) return '[^/]*';
  if (next === '/') {
    reader.at++;
    return '(?:[^/]*/)*';
  }
  return '.*';
}

function braces(reader: Reader, depth: number): string {
  if (depth > MAX_BRACE_DEPTH) throw new GlobError(`nests braces deeper than ${MAX_BRACE_DEPTH} levels`);
  const branches: string[] = [];
  for (;;) {
    const branch = sequence(reader, depth);
    if (branch !== '') branches.push(branch);
    if (reader.glob[reader.at++] === '}') break;
  }
  if (branches.length === 0) throw new GlobError('has a {} group whose branches are all empty');
  return `(?:${branches.join('|')})`;
}

/** `[seq]` or `[!seq]`; a `]` first in the class is one of its characters. */
function characterClass(reader: Reader): string {
  const { glob } = reader;
  const negated = glob[reader.at] === '!';
  let at = negated ? reader.at + 1 : reader.at;
  let body = '';
  if (glob[at] === ']') body += '\\]', at++;
  while (at < glob.length && glob[at] !== ']') {
    const char = glob[at++]!;
    body += char === '-' ? '-' : /[\\\][^]/.test(char) ? `\\${char}` : char;
  }
  if (at >= glob.length) throw new GlobError('has a [ without its ]: write [[] for the character [');
  body = body.replace(/^-/, '\\-').replace(/([^\\])-$/, '$1\\-');
  reader.at = at + 1;
  return negated ? `[^/${body}]` : `[${body}]`;
}

function literal(char: string): string {
  return REGEX_SPECIAL.test(char) ? `\\${char}` : char;
}

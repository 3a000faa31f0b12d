// PostgreSQL array literals in text form ('{a,"b c",NULL}'), read and written the same way for
// both backends so a text[] column round-trips to the same JS array on PGlite and PostgreSQL.

export type ElementParser = (text: string) => unknown;

interface Cursor {
  readonly text: string;
  pos: number;
}

/** Reads the text output of an array column; NULL elements become null, others go through parseElement. */
export function parseArrayLiteral(text: string, parseElement: ElementParser): unknown[] {
  // Arrays whose lower bound is not 1 are printed with a '[0:2]=' prefix; the bounds are dropped.
  const start = text.startsWith('[') ? text.indexOf('=') + 1 : 0;
  return readArray({ text, pos: start }, parseElement);
}

function readArray(cursor: Cursor, parseElement: ElementParser): unknown[] {
  const items: unknown[] = [];
  cursor.pos++; // '{'
  if (cursor.text[cursor.pos] === '}') {
    cursor.pos++;
    return items;
  }
  for (;;) {
    items.push(readElement(cursor, parseElement));
    const separator = cursor.text[cursor.pos++];
    if (separator === '}') return items;
    if (separator !== ',') throw new SyntaxError(`Malformed array literal: ${cursor.text}`);
  }
}

function readElement(cursor: Cursor, parseElement: ElementParser): unknown {
  const c = cursor.text[cursor.pos];
  if (c === '{') return readArray(cursor, parseElement);
  if (c === '"') return parseElement(readQuoted(cursor));
  const end = nextDelimiter(cursor.text, cursor.pos);
  const raw = cursor.text.slice(cursor.pos, end);
  cursor.pos = end;
  // Only an unquoted NULL is null; the string "NULL" comes quoted.
  return raw === 'NULL' ? null : parseElement(raw);
}

function readQuoted(cursor: Cursor): string {
  let out = '';
  for (cursor.pos++; cursor.pos < cursor.text.length; cursor.pos++) {
    const c = cursor.text[cursor.pos];
    if (c === '"') {
      cursor.pos++;
      return out;
    }
    out += c === '\\' ? cursor.text[++cursor.pos] : c;
  }
  throw new SyntaxError(`Unterminated quoted array element: ${cursor.text}`);
}

function nextDelimiter(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === ',' || text[i] === '}') return i;
  }
  return text.length;
}

// Text that needs no quotes in an array literal: no delimiter, brace, quote, backslash or space.
const PLAIN_ELEMENT = /^[\w.:+-]+$/;

/**
 * Writes a JS array as an array literal. Elements are quoted (and escaped) unless their text is
 * plainly a token (digits, letters, `_.:+-`, as timestamps, numbers and uuids are) and not NULL;
 * the rule looks at the text only, never at the element's type. An ingested batch sends ten
 * arrays of a thousand elements each, so the literal is joined once rather than concatenated.
 */
export function formatArrayLiteral(values: readonly unknown[], formatElement: (value: unknown) => string): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) parts[i] = 'NULL';
    else if (Array.isArray(value)) parts[i] = formatArrayLiteral(value, formatElement);
    else parts[i] = formatElementText(formatElement(value));
  }
  return `{${parts.join(',')}}`;
}

function formatElementText(text: string): string {
  if (PLAIN_ELEMENT.test(text) && !(text.length === 4 && text.toUpperCase() === 'NULL')) return text;
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

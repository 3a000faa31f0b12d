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

const NEEDS_ESCAPE = /[\\"]/;

/**
 * Writes a JS array as an array literal; every element is quoted so no escaping rule depends on
 * its type. Built by concatenation, escaping only elements that hold a quote or a backslash: an
 * ingested batch sends ten arrays of a thousand elements each.
 */
export function formatArrayLiteral(values: readonly unknown[], formatElement: (value: unknown) => string): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const value = values[i];
    if (value === null || value === undefined) out += 'NULL';
    else if (Array.isArray(value)) out += formatArrayLiteral(value, formatElement);
    else {
      const text = formatElement(value);
      out += NEEDS_ESCAPE.test(text) ? `"${text.replace(/[\\"]/g, '\\$&')}"` : `"${text}"`;
    }
  }
  return `${out}}`;
}

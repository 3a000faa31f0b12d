// Strict JSON for request bodies and stored documents: integers beyond 2^53 stay exact (as
// bigint), duplicate keys are refused, and nesting is bounded so no body can exhaust the stack.

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

/**
 * A value past one of the caller's bounds (ParseOptions.bounds): the body is refused there, without
 * reading the rest. `path` leads to the array or object that holds too much, or to the value
 * nested too deep.
 */
export class JsonBoundError extends Error {
  constructor(
    message: string,
    readonly path: (string | number)[],
    readonly bound: 'maxItems' | 'maxProperties' | 'depth',
  ) {
    super(message);
  }
}

export interface JsonBounds {
  /** containers nested in one another, the document's own counted: `{"a": [1]}` is 2 */
  readonly depth: number;
  readonly items: number;
  readonly members: number;
}

export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | { [key: string]: JsonValue };

const MAX_DEPTH = 128;
const MAX_INTEGER_DIGITS = 4300;
// A backslash or a control character: the string needs the careful path.
const PLAIN_STRING_SPOILER = /[\\\x00-\x1f]/;

// Property names seen before, by length and first and last characters: a body repeats the same
// few dozen names thousands of times, and a name found here is neither sliced out of the text
// again nor interned again when it becomes a property key. Only names without escapes are kept;
// a slot holds the latest. With numbers scanned by hand, parsing an ingested batch went from
// about 6.0 to 5.2 µs per event.
const KEY_CACHE_SLOTS = 1024;
const MAX_CACHED_KEY_LENGTH = 40;
const keyCache: (string | undefined)[] = new Array(KEY_CACHE_SLOTS).fill(undefined);

// The source text of objects parsed under one of the keys a caller named (see parseJson), when
// it holds no whitespace between tokens and writes every number as JavaScript would (so that a
// number validated as 1626 is not kept as 1626.0 or 1.626e3): storing that text as it came
// spares a re-serialisation and means what the value means.
const compactSources = new WeakMap<object, string>();

/** The compact source text an object was parsed from, if parseJson was asked to keep it. */
export function compactSourceOf(value: object): string | undefined {
  return compactSources.get(value);
}

export interface ParseOptions {
  /** Keys whose object values keep their source text (compactSourceOf), if it is compact. */
  keepSourceOf?: ReadonlySet<string>;
  /** What the document may hold at most (src/validation/json-bounds.ts); past them, JsonBoundError. */
  bounds?: JsonBounds;
}

const UNBOUNDED: JsonBounds = { depth: Infinity, items: Infinity, members: Infinity };

class Parser {
  private pos = 0;
  /**
   * How many times whitespace was skipped, and numbers not written as JavaScript writes them,
   * so far: both unchanged over a value means its text is what serialising it would give back.
   */
  private spaced = 0;
  private uncanonical = 0;
  /** The key or index of the value being read at each depth, for a JsonBoundError's path. */
  private readonly path: (string | number)[] = [];
  constructor(
    private readonly text: string,
    private readonly keepSourceOf: ReadonlySet<string> | undefined,
    private readonly bounds: JsonBounds,
  ) {}

  parseDocument(): JsonValue {
    const value = this.value(0);
    this.skipSpace();
    if (this.pos !== this.text.length) this.fail('Unexpected data after the JSON value');
    return value;
  }

  private fail(message: string): never {
    throw new JsonSyntaxError(message, this.pos);
  }

  /** The path to the value being read at `depth` (1 for the document's own members). */
  private outOfBounds(depth: number, bound: JsonBoundError['bound'], message: string): never {
    throw new JsonBoundError(message, this.path.slice(1, depth + 1), bound);
  }

  private skipSpace(): void {
    const t = this.text;
    let c = t.charCodeAt(this.pos);
    if (!(c === 32 || c === 10 || c === 13 || c === 9)) return;
    this.spaced++;
    while (c === 32 || c === 10 || c === 13 || c === 9) c = t.charCodeAt(++this.pos);
  }

  private value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) this.fail('JSON nested too deeply');
    this.skipSpace();
    const c = this.text.charCodeAt(this.pos);
    if ((c === 123 || c === 91) && depth >= this.bounds.depth) this.outOfBounds(depth, 'depth', `must not be an array or object: this endpoint accepts nothing nested ${depth + 1} deep`);
    if (c === 123) return this.object(depth + 1);
    if (c === 91) return this.array(depth + 1);
    if (c === 34) return this.string();
    if (c === 116) return this.literal('true', true);
    if (c === 102) return this.literal('false', false);
    if (c === 110) return this.literal('null', null);
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    return this.fail(Number.isNaN(c) ? 'Unexpected end of JSON' : 'Unexpected character');
  }

  private literal<T extends JsonValue>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail('Unexpected character');
    this.pos += word.length;
    return value;
  }

  /** -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, scanned by hand: a regex match allocates per number. */
  private number(): number | bigint {
    const t = this.text;
    const start = this.pos;
    let i = t.charCodeAt(start) === 45 ? start + 1 : start;
    const first = t.charCodeAt(i);
    if (first === 48) i++;
    else if (first >= 49 && first <= 57) i = skipDigits(t, i + 1);
    else return this.fail('Invalid number');
    let isInteger = true;
    // A fraction or an exponent without digits is not part of the number (the caller then fails on it).
    if (t.charCodeAt(i) === 46 && isDigit(t.charCodeAt(i + 1))) {
      i = skipDigits(t, i + 2);
      isInteger = false;
    }
    const e = t.charCodeAt(i);
    if (e === 101 || e === 69) {
      const sign = t.charCodeAt(i + 1);
      const digitsAt = sign === 43 || sign === 45 ? i + 2 : i + 1;
      if (isDigit(t.charCodeAt(digitsAt))) {
        i = skipDigits(t, digitsAt + 1);
        isInteger = false;
      }
    }
    this.pos = i;
    const literal = t.slice(start, i);
    // Found in the security review (docs/security.md): BigInt() of a long literal costs time
    // superlinear in its length (a 1 MiB body of one integer blocked the event loop ~0.2 s, 4 MB
    // over 1 s). No integer of the API is longer than 20 digits; the cap is Python's, set for the
    // same reason (CVE-2020-10735).
    if (isInteger && literal.length > MAX_INTEGER_DIGITS) throw new JsonSyntaxError(`Integer literal longer than ${MAX_INTEGER_DIGITS} digits`, this.pos - literal.length);
    if (isInteger && literal.length > 15) {
      const exact = BigInt(literal);
      if (exact > BigInt(Number.MAX_SAFE_INTEGER) || exact < BigInt(Number.MIN_SAFE_INTEGER)) return exact;
    }
    const value = Number(literal);
    // 1.0, 1e3, -0, 1e400: the value is kept, not the spelling, so the text is not kept either.
    if (String(value) !== literal) this.uncanonical++;
    return value;
  }

  private string(): string {
    const t = this.text;
    const start = ++this.pos;
    // Most strings hold no escape and no control character: find the quote natively and check.
    const quote = t.indexOf('"', start);
    if (quote !== -1) {
      const raw = t.slice(start, quote);
      if (!PLAIN_STRING_SPOILER.test(raw)) {
        this.pos = quote + 1;
        return raw;
      }
    }
    return this.escapedString(start);
  }

  private key(): string {
    const t = this.text;
    const start = this.pos + 1;
    const quote = t.indexOf('"', start);
    const length = quote - start;
    if (length < 1 || length > MAX_CACHED_KEY_LENGTH) return this.string();
    const slot = (length * 31 + t.charCodeAt(start) * 7 + t.charCodeAt(quote - 1)) & (KEY_CACHE_SLOTS - 1);
    const cached = keyCache[slot];
    if (cached !== undefined && cached.length === length && t.startsWith(cached, start)) {
      this.pos = quote + 1;
      return cached;
    }
    const key = this.string();
    // Only a name read as written: an escape makes the value shorter than its text, and a cached
    // value is matched against the text.
    if (this.pos === quote + 1 && key.length === length) keyCache[slot] = key;
    return key;
  }

  private escapedString(start: number): string {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 34) break;
      if (Number.isNaN(c)) this.fail('Unterminated string');
      if (c < 32) this.fail('Control character in string');
      if (c === 92) this.pos++;
      this.pos++;
    }
    const raw = t.slice(start, this.pos++);
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return this.fail('Invalid escape in string');
    }
  }

  private valueKeepingSource(depth: number): JsonValue {
    this.skipSpace();
    const start = this.pos;
    const spaced = this.spaced;
    const uncanonical = this.uncanonical;
    const value = this.value(depth);
    if (typeof value === 'object' && value !== null && !Array.isArray(value) && this.spaced === spaced && this.uncanonical === uncanonical) {
      compactSources.set(value, this.text.slice(start, this.pos));
    }
    return value;
  }

  private array(depth: number): JsonValue[] {
    this.pos++;
    const out: JsonValue[] = [];
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 93) {
      this.pos++;
      return out;
    }
    for (;;) {
      if (out.length === this.bounds.items) this.outOfBounds(depth - 1, 'maxItems', `must NOT have more than ${this.bounds.items} items`);
      this.path[depth] = out.length;
      out.push(this.value(depth));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 93) return out;
      if (c !== 44) this.fail("Expected ',' or ']'");
    }
  }

  private object(depth: number): { [key: string]: JsonValue } {
    this.pos++;
    const out: { [key: string]: JsonValue } = {};
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 125) {
      this.pos++;
      return out;
    }
    for (let members = 0; ; members++) {
      if (members === this.bounds.members) this.outOfBounds(depth - 1, 'maxProperties', `must NOT have more than ${this.bounds.members} properties`);
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 34) this.fail('Expected a property name');
      const keyAt = this.pos;
      const key = this.key();
      if (Object.hasOwn(out, key)) throw new JsonSyntaxError(`Duplicate key "${key}"`, keyAt);
      this.path[depth] = key;
      this.skipSpace();
      if (this.text.charCodeAt(this.pos++) !== 58) this.fail("Expected ':'");
      const value = this.keepSourceOf?.has(key) ? this.valueKeepingSource(depth) : this.value(depth);
      // "__proto__" must stay data: plain assignment would replace the object's prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      else out[key] = value;
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 125) return out;
      if (c !== 44) this.fail("Expected ',' or '}'");
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function skipDigits(text: string, from: number): number {
  let i = from;
  while (isDigit(text.charCodeAt(i))) i++;
  return i;
}

export function parseJson(text: string, options: ParseOptions = {}): JsonValue {
  return new Parser(text, options.keepSourceOf, options.bounds ?? UNBOUNDED).parseDocument();
}

/** JSON.stringify that writes bigint as an exact JSON integer and skips undefined properties. */
export function stringifyJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (value instanceof Date) return JSON.stringify(value);
      if (Array.isArray(value)) return `[${value.map(stringifyJson).join(',')}]`;
      return stringifyObject(value as Record<string, unknown>);
    default:
      return 'null';
  }
}

function stringifyObject(value: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (item === undefined || typeof item === 'function') continue;
    parts.push(`${JSON.stringify(key)}:${stringifyJson(item)}`);
  }
  return `{${parts.join(',')}}`;
}

// The body parser: agrees with JSON.parse wherever JSON.parse is exact, keeps big integers exact,
// refuses repeated keys and runaway nesting, and never lets "__proto__" touch a prototype.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compactSourceOf, JsonBoundError, JsonSyntaxError, parseJson, stringifyJson, type JsonBounds } from '../../src/json/exact-json.ts';

const asNumbers = (x: unknown): unknown =>
  typeof x === 'bigint' ? Number(x) : Array.isArray(x) ? x.map(asNumbers) : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([k, y]) => [k, asNumbers(y)])) : x;

test('agrees with JSON.parse on any JSON (big integers aside, which only it keeps exact)', () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 6 }), (text) => {
      assert.deepStrictEqual(asNumbers(parseJson(text)), JSON.parse(text));
    }),
    { numRuns: 2000 },
  );
});

test('property names read with escapes never stand in for names written as the same text', () => {
  // Found in review: the cache of property names matched raw text against a cached decoded name.
  assert.deepStrictEqual(Object.keys(parseJson('{"\\u0020\\u005cn\\u0078\\u0040":1}') as object), [' \\nx@']);
  assert.deepStrictEqual(Object.keys(parseJson('{" \\nx@":1}') as object), [' \nx@']);
  // Any name, written once with every character escaped and once as is, in either order.
  const escaped = (name: string) => name.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 40 }), (name) => {
      const plain = JSON.stringify({ [name]: 1 });
      const spelled = `{"${escaped(name)}":2}`;
      for (const text of [spelled, plain, spelled, plain]) assert.deepStrictEqual(parseJson(text), JSON.parse(text));
    }),
    { numRuns: 3000 },
  );
});

test('round-trips any value through stringifyJson, big integers included', () => {
  const value = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small' }, fc.string(), fc.boolean(), fc.constant(null), fc.integer(), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.array(tie('node')), fc.dictionary(fc.string(), tie('node'))),
  })).node;
  fc.assert(
    fc.property(value, (v) => {
      const normalised = (x: unknown): unknown =>
        typeof x === 'bigint' && x >= BigInt(Number.MIN_SAFE_INTEGER) && x <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(x) : Array.isArray(x) ? x.map(normalised) : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([k, y]) => [k, normalised(y)])) : Object.is(x, -0) ? 0 : x;
      assert.deepStrictEqual(parseJson(stringifyJson(v)), normalised(v));
    }),
    { numRuns: 1000 },
  );
});

test('integers past 2^53 arrive as exact bigint; safe ones and fractions as numbers', () => {
  assert.deepEqual(parseJson('[9223372036854775807, -9223372036854775808, 9007199254740993, 9007199254740991, 1.5, 1e400]'), [
    9223372036854775807n,
    -9223372036854775808n,
    9007199254740993n,
    9007199254740991,
    1.5,
    Infinity,
  ]);
  assert.equal(parseJson('"12345678901234567890"'), '12345678901234567890', 'digits inside a string stay a string');
});

test('a repeated key is refused, at any depth', () => {
  assert.throws(() => parseJson('{"a":1,"a":1}'), JsonSyntaxError);
  assert.throws(() => parseJson('{"x":[{"b":1,"c":2,"b":3}]}'), /Duplicate key "b"/);
  assert.throws(() => parseJson('{"a\\u0062":1,"ab":2}'), /Duplicate key "ab"/, 'escaped spellings of one key are the same key');
});

test('"__proto__" is an ordinary key', () => {
  const parsed = parseJson('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
  assert.equal(Object.getPrototypeOf(parsed), Object.prototype);
  assert.deepEqual(Object.keys(parsed), ['__proto__', 'a']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('malformed JSON is refused with a position', () => {
  for (const text of ['', ' ', '{', '{"a":}', '[1,]', '{"a":1,}', '01', '+1', '.5', '1.', 'nul', 'tru', '"\u0001"', '"\\x41"', '"abc', '{"a" 1}', '[1] [2]', "{'a':1}", 'NaN', '"\\ud800"x']) {
    assert.throws(() => parseJson(text), JsonSyntaxError, JSON.stringify(text));
  }
});

test('nesting deeper than 128 is refused, not a stack overflow', () => {
  assert.doesNotThrow(() => parseJson('['.repeat(100) + ']'.repeat(100)));
  assert.throws(() => parseJson('['.repeat(100_000) + ']'.repeat(100_000)), /nested too deeply/);
  assert.throws(() => parseJson('{"a":'.repeat(200) + '1' + '}'.repeat(200)), /nested too deeply/);
});

test('keeps the source text of objects under the keys asked for, only when it is compact', () => {
  const keep = { keepSourceOf: new Set(['metadata']) };
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), (metadata) => {
      const text = JSON.stringify(metadata);
      const parsed = parseJson(`{"events":[{"metadata":${text},"other":${text}}]}`, keep) as { events: { metadata: object; other: object }[] };
      assert.equal(compactSourceOf(parsed.events[0]!.metadata), text);
      assert.equal(compactSourceOf(parsed.events[0]!.other), undefined, 'only the keys asked for');
      const spaced = JSON.stringify(metadata, null, 1);
      if (spaced !== text) assert.equal(compactSourceOf((parseJson(`{"metadata":${spaced}}`, keep) as { metadata: object }).metadata), undefined);
    }),
    { numRuns: 500 },
  );
  assert.equal(compactSourceOf((parseJson('{"metadata": {"a":1}}', keep) as { metadata: object }).metadata), '{"a":1}', 'space before the value does not matter');
  assert.equal(compactSourceOf((parseJson('{"metadata":{"a": 1}}', keep) as { metadata: object }).metadata), undefined);
  assert.equal(compactSourceOf((parseJson('{"metadata":{"a":1}}') as { metadata: object }).metadata), undefined, 'nothing kept unless asked');
  assert.equal(compactSourceOf((parseJson('{"metadata":[1]}', keep) as { metadata: object }).metadata), undefined, 'arrays are not kept');
  for (const spelling of ['1.0', '1e3', '-0', '1e400', '1.50', '0.1e1']) {
    assert.equal(compactSourceOf((parseJson(`{"metadata":{"a":${spelling}}}`, keep) as { metadata: object }).metadata), undefined, `${spelling} is not kept as spelt`);
  }
  assert.equal(compactSourceOf((parseJson('{"metadata":{"a":-1.5,"b":9223372036854775807,"c":1e-7}}', keep) as { metadata: object }).metadata), '{"a":-1.5,"b":9223372036854775807,"c":1e-7}');
});

/** What `value` holds at most: its nesting, its longest array, its largest object. */
function boundsOf(value: unknown): JsonBounds {
  if (value === null || typeof value !== 'object') return { depth: 0, items: 0, members: 0 };
  const inner = Object.values(value).map(boundsOf);
  const own = Array.isArray(value) ? { items: value.length, members: 0 } : { items: 0, members: Object.keys(value).length };
  return {
    depth: 1 + Math.max(0, ...inner.map((b) => b.depth)),
    items: Math.max(own.items, ...inner.map((b) => b.items)),
    members: Math.max(own.members, ...inner.map((b) => b.members)),
  };
}

test('within its bounds a document parses as without them; one past any of them is refused', () => {
  fc.assert(
    fc.property(fc.json({ maxDepth: 5 }), (text) => {
      const bounds = boundsOf(JSON.parse(text));
      assert.deepStrictEqual(parseJson(text, { bounds }), parseJson(text));
      for (const name of ['depth', 'items', 'members'] as const) {
        if (bounds[name] === 0) continue; // nothing to tighten
        assert.throws(() => parseJson(text, { bounds: { ...bounds, [name]: bounds[name] - 1 } }), JsonBoundError, `${name} below ${bounds[name]}: ${text}`);
      }
    }),
    { numRuns: 1000 },
  );
});

test('stops at the first value past its bounds, and says where', () => {
  const bounds = { depth: 2, items: 3, members: 2 };
  const refusal = (text: string) => {
    try {
      parseJson(text, { bounds });
    } catch (error) {
      assert.ok(error instanceof JsonBoundError);
      return { path: error.path, bound: error.bound, message: error.message };
    }
    return assert.fail(`${text} parsed`);
  };
  assert.deepStrictEqual(parseJson('{"a":[1,2,3],"b":{}}', { bounds }), { a: [1, 2, 3], b: {} });
  assert.deepStrictEqual(refusal('{"a":[1,2,3,4]}'), { path: ['a'], bound: 'maxItems', message: 'must NOT have more than 3 items' });
  assert.deepStrictEqual(refusal('{"a":[1,[2]]}'), { path: ['a', 1], bound: 'depth', message: 'must not be an array or object: this endpoint accepts nothing nested 3 deep' });
  assert.deepStrictEqual(refusal('{"a":1,"b":2,"c":3}'), { path: [], bound: 'maxProperties', message: 'must NOT have more than 2 properties' });
  assert.deepStrictEqual(refusal('[{"x":1,"y":2,"z":3}]'), { path: [0], bound: 'maxProperties', message: 'must NOT have more than 2 properties' });
  // The rest is never read: what follows the refused value may be anything, even broken.
  assert.deepStrictEqual(refusal(`{"a":[[]${',[]'.repeat(100_000)} this is not JSON`), { path: ['a', 0], bound: 'depth', message: 'must not be an array or object: this endpoint accepts nothing nested 3 deep' });
});

// Reading a configuration file's YAML with its limits on: anchor bombs, oversize files, deep
// nesting, duplicate keys, tags and text storage cannot keep are refused with a located error;
// anchors used elsewhere resolve; and no input whatever makes the parser throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_CONFIGURATION_BYTES, parseConfigurationText, type ParseResult } from '../../src/domain/configuration/index.ts';

function errorsOf(result: ParseResult) {
  assert.equal(result.ok, false, 'the text should be refused');
  return result.ok ? [] : result.errors;
}

function valueOf(result: ParseResult) {
  assert.ok(result.ok, `the text should parse: ${JSON.stringify(result.ok ? null : result.errors)}`);
  return result.document.value;
}

test('a billion-laughs anchor bomb is refused before it expands', () => {
  const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 9; level += 1) {
    const name = String.fromCharCode(97 + level);
    const previous = String.fromCharCode(96 + level);
    levels.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(',')}]`);
  }
  const started = Date.now();
  const [error] = errorsOf(parseConfigurationText(`shared:\n  ${levels.join('\n  ')}\n`, '.mergify.yml'));
  assert.match(error?.msg ?? '', /too many aliases/);
  assert.ok(Date.now() - started < 2000, 'refused quickly, not after expanding');
});

test('one anchor reused many times stays cheap and resolves everywhere', () => {
  const uses = Array.from({ length: 90 }, (_, index) => `  r${index}: *big`).join('\n');
  const value = valueOf(parseConfigurationText(`shared:\n  big: &big [${Array.from({ length: 500 }, () => '"x"').join(', ')}]\nuses:\n${uses}\n`, 'f.yml'));
  assert.equal((value.uses as Record<string, unknown[]>).r89?.length, 500);
});

test('a file over 1 MiB is refused by its size in bytes; one at the limit is read', () => {
  const filler = (bytes: number) => `a: "${'x'.repeat(bytes - 6)}"\n`;
  assert.equal(Buffer.byteLength(filler(MAX_CONFIGURATION_BYTES)), MAX_CONFIGURATION_BYTES);
  valueOf(parseConfigurationText(filler(MAX_CONFIGURATION_BYTES), 'f.yml'));
  const [error] = errorsOf(parseConfigurationText(filler(MAX_CONFIGURATION_BYTES + 1), 'f.yml'));
  assert.match(error?.msg ?? '', /1048577 bytes: at most 1048576/);
  // Multi-byte characters count as bytes, not as characters.
  errorsOf(parseConfigurationText(`a: "${'é'.repeat(MAX_CONFIGURATION_BYTES / 2)}"\n`, 'f.yml'));
});

test('a file of more than 50,000 values is refused before the YAML library reads it', () => {
  const values = (count: number) => `a: [${Array.from({ length: count }, () => '1').join(',')}]\n`;
  valueOf(parseConfigurationText(values(20_000), 'f.yml'));
  const [error] = errorsOf(parseConfigurationText(values(300_000), 'f.yml'));
  assert.match(error?.msg ?? '', /more than 50000 values/);
  assert.equal(error?.line, 1);
});

test('nesting deeper than 64 levels is refused, in flow and block style, and through aliases', () => {
  const flow = errorsOf(parseConfigurationText(`a: ${'['.repeat(200_000)}${']'.repeat(200_000)}`, 'f.yml'));
  assert.match(flow[0]?.msg ?? '', /more than 64 levels/);
  assert.equal(flow[0]?.line, 1);
  const block = Array.from({ length: 80 }, (_, depth) => `${'  '.repeat(depth)}k${depth}:`).join('\n');
  assert.match(errorsOf(parseConfigurationText(block, 'f.yml'))[0]?.msg ?? '', /more than 64 levels/);
  valueOf(parseConfigurationText(`a: ${'['.repeat(40)}${']'.repeat(40)}`, 'f.yml'));
  const aliased = `x: &x ${'['.repeat(40)}${']'.repeat(40)}\ny: ${'['.repeat(30)}*x${']'.repeat(30)}\n`;
  assert.match(errorsOf(parseConfigurationText(aliased, 'f.yml'))[0]?.msg ?? '', /more than 64 levels deep \(aliases included\)/);
  const cycle = errorsOf(parseConfigurationText('shared:\n  loop: &loop [ *loop ]\n', 'f.yml'));
  assert.match(cycle[0]?.msg ?? '', /contains it/);
});

test('a duplicate key is an error at its line', () => {
  const [error] = errorsOf(parseConfigurationText('queue_rules:\n  - name: a\n    batch_size: 1\n    batch_size: 2\n', 'f.yml'));
  assert.equal(error?.msg, 'the key "batch_size" appears twice in this mapping (first on line 3)');
  assert.deepEqual([error?.loc, error?.line, error?.path], [['queue_rules', 0, 'batch_size'], 4, 'f.yml']);
  // Checked with a set, not pair by pair: thousands of keys stay fast.
  const started = Date.now();
  const many = Array.from({ length: 12_000 }, (_, index) => `k${index % 6_000}: v`).join('\n');
  assert.match(errorsOf(parseConfigurationText(many, 'f.yml'))[0]?.msg ?? '', /"k0" appears twice/);
  assert.ok(Date.now() - started < 10_000);
});

test('tags other than the core schema are refused; plain core tags are read', () => {
  for (const text of ['a: !!binary aGVsbG8=\n', 'a: !!set {x}\n', 'a: !custom value\n', 'a: !!timestamp 2024-01-01\n', 'a: !!python/object:os.system x\n']) {
    const [error] = errorsOf(parseConfigurationText(text, 'f.yml'));
    assert.match(error?.msg ?? '', /tag/, text);
    assert.equal(error?.line, 1);
  }
  assert.deepEqual(valueOf(parseConfigurationText('a: !!str 12\nb: !!int "3"\n', 'f.yml')), { a: '12', b: 3 });
});

test('the document must be one mapping; an empty file is an empty configuration', () => {
  assert.deepEqual(valueOf(parseConfigurationText('', 'f.yml')), {});
  assert.deepEqual(valueOf(parseConfigurationText('# nothing yet\n', 'f.yml')), {});
  assert.match(errorsOf(parseConfigurationText('- a\n- b\n', 'f.yml'))[0]?.msg ?? '', /must be a mapping .* not a list/);
  assert.match(errorsOf(parseConfigurationText('just text', 'f.yml'))[0]?.msg ?? '', /not the string "just text"/);
  assert.match(errorsOf(parseConfigurationText('a: 1\n---\nb: 2\n', 'f.yml'))[0]?.msg ?? '', /multiple documents/);
});

test('keys that are collections, NUL characters and lone surrogates are refused', () => {
  assert.match(errorsOf(parseConfigurationText('? [a, b]\n: 1\n', 'f.yml'))[0]?.msg ?? '', /key must be plain text/);
  const nul = errorsOf(parseConfigurationText('a:\n  b: "x\\0y"\n', 'f.yml'))[0];
  assert.match(nul?.msg ?? '', /NUL/);
  assert.deepEqual([nul?.loc, nul?.line], [['a', 'b'], 2]);
  assert.match(errorsOf(parseConfigurationText('a: "\\uD800"\n', 'f.yml'))[0]?.msg ?? '', /surrogate/);
});

test('YAML syntax errors carry the line and column the library found', () => {
  const [error] = errorsOf(parseConfigurationText('a: 1\nb: [1, 2\nc: 3\n', 'conf.yml'));
  assert.match(error?.msg ?? '', /^invalid YAML/);
  assert.equal(error?.path, 'conf.yml');
  assert.ok((error?.line ?? 0) >= 2);
  assert.match(errorsOf(parseConfigurationText('a: *missing\n', 'f.yml'))[0]?.msg ?? '', /missing/);
});

test('anchors in shared are used elsewhere, merge keys included, and __proto__ is only a key', () => {
  const value = valueOf(parseConfigurationText(['shared:', '  base: &base {batch_size: 3}', '  ci: &ci [check-success=ci]', 'q:', '  <<: *base', '  conditions: *ci', '__proto__: {polluted: true}', ''].join('\n'), 'f.yml'));
  assert.deepEqual(value.q, { batch_size: 3, conditions: ['check-success=ci'] });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.ok(Object.hasOwn(value, '__proto__'));
});

test('parsing never throws, whatever the text', () => {
  const yamlish = fc.stringMatching(/^[a-z:\-\[\]{}&*!|>'"#\s,?%@`\\0-9]{0,200}$/);
  fc.assert(
    fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }).map((bytes) => new TextDecoder().decode(bytes)), yamlish), (text) => {
      const result = parseConfigurationText(text, 'f.yml');
      assert.ok(result.ok ? typeof result.document.value === 'object' : result.errors.length > 0);
    }),
    { numRuns: 3000 },
  );
  assert.equal(parseConfigurationText(42 as unknown as string, 'f.yml').ok, false);
});

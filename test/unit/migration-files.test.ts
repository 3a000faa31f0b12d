// Migration files are split into statements at top-level semicolons, never inside a string, a
// quoted identifier, a dollar-quoted body or a comment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadMigrations, splitStatements } from '../../src/storage/migrate.ts';

test('a function body stays one statement; comments and blank statements are dropped', () => {
  const text = [
    '-- a comment;',
    'CREATE TABLE a (x int);',
    'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$',
    'BEGIN',
    '  PERFORM 1;',
    '  RETURN 2;',
    'END',
    '$$;',
    'CREATE INDEX a_x ON a (x);',
    '',
  ].join('\n');
  assert.deepEqual(splitStatements(text), [
    'CREATE TABLE a (x int)',
    'CREATE FUNCTION f() RETURNS int LANGUAGE plpgsql AS $$\nBEGIN\n  PERFORM 1;\n  RETURN 2;\nEND\n$$',
    'CREATE INDEX a_x ON a (x)',
  ]);
});

test('semicolons inside strings, identifiers, tagged bodies and comments do not split', () => {
  const text = [
    "INSERT INTO t VALUES ('a;b', 'it''s; here', E'\\'; still', $$x;$$); -- trailing; comment",
    'CREATE TABLE "odd;name" (x int); /* a /* nested; */ comment; */ SELECT 1;',
    'CREATE FUNCTION g() RETURNS text LANGUAGE plpgsql AS $body$',
    'BEGIN',
    "  RETURN $$;$$ || ';';",
    'END',
    '$body$;',
    'SELECT $1::int, a$b FROM t',
  ].join('\n');
  assert.deepEqual(splitStatements(text), [
    "INSERT INTO t VALUES ('a;b', 'it''s; here', E'\\'; still', $$x;$$)",
    'CREATE TABLE "odd;name" (x int)',
    'SELECT 1',
    "CREATE FUNCTION g() RETURNS text LANGUAGE plpgsql AS $body$\nBEGIN\n  RETURN $$;$$ || ';';\nEND\n$body$",
    'SELECT $1::int, a$b FROM t',
  ]);
  assert.throws(() => splitStatements("SELECT 'open;"), /Unterminated string/);
  assert.throws(() => splitStatements('SELECT $x$ open;'), /Unterminated \$x\$ body/);
});

test('every migration file splits into statements that end outside any function body', async () => {
  for (const migration of await loadMigrations()) {
    for (const statement of migration.statements) assert.equal((statement.split('$$').length - 1) % 2, 0, `${migration.name}: ${statement.slice(0, 60)}`);
  }
});

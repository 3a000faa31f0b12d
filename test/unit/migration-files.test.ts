// Migration files are split into statements at semicolons that end a line, but never inside a
// $$-quoted function body, whose own statements end lines too.
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

test('every migration file splits into statements that end outside any function body', async () => {
  for (const migration of await loadMigrations()) {
    for (const statement of migration.statements) assert.equal((statement.split('$$').length - 1) % 2, 0, `${migration.name}: ${statement.slice(0, 60)}`);
  }
});

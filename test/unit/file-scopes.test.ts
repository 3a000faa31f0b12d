// The scope rules of a scopes file, on paths alone: include/exclude per scope, barrier files,
// and the glob dialect (`*` and `?` stop at `/`, `**` crosses, braces, dot files).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scopesOfFiles } from '../../src/domain/scopes/file-scopes.ts';
import { readScopesFile } from '../../src/cli/scopes-file-reader.ts';

const rules = {
  files: {
    frontend: { include: ['web/**/*.{ts,tsx}'], exclude: ['**/*.test.ts'] },
    api: { include: ['api/**'] },
    root: { include: ['*.json'] },
    single: { include: ['tool?.sh'] },
    everything: {},
  },
  barrierFiles: { include: ['.github/workflows/**', 'Makefile'], exclude: ['.github/workflows/docs.yml'] },
};

test('include and exclude per scope; a scope without include takes every file', () => {
  assert.deepEqual(scopesOfFiles(rules, ['web/app/main.tsx']), { scopes: ['everything', 'frontend'], all_scopes: false, barrier_files: [] });
  assert.deepEqual(scopesOfFiles(rules, ['web/app/main.test.ts']).scopes, ['everything'], 'exclude wins over include');
  assert.deepEqual(scopesOfFiles(rules, ['api/v1/handler.py', 'web/a.ts']).scopes, ['api', 'everything', 'frontend']);
  assert.deepEqual(scopesOfFiles(rules, []), { scopes: [], all_scopes: false, barrier_files: [] });
});

test('* and ? do not cross a slash; ** does; dot files match', () => {
  assert.deepEqual(scopesOfFiles(rules, ['package.json']).scopes, ['everything', 'root']);
  assert.deepEqual(scopesOfFiles(rules, ['sub/package.json']).scopes, ['everything']);
  assert.deepEqual(scopesOfFiles(rules, ['tool1.sh']).scopes, ['everything', 'single']);
  assert.deepEqual(scopesOfFiles(rules, ['tool/.sh', 'tool12.sh']).scopes, ['everything']);
  assert.deepEqual(scopesOfFiles(rules, ['api/.hidden/x']).scopes, ['api', 'everything']);
});

test('a barrier file makes the change a barrier, unless excluded', () => {
  const barrier = scopesOfFiles(rules, ['.github/workflows/ci.yml', 'api/x']);
  assert.deepEqual(barrier, { scopes: ['api', 'everything'], all_scopes: true, barrier_files: ['.github/workflows/ci.yml'] });
  assert.equal(scopesOfFiles(rules, ['Makefile']).all_scopes, true);
  assert.equal(scopesOfFiles(rules, ['sub/Makefile']).all_scopes, false, 'Makefile names the root file only');
  assert.equal(scopesOfFiles(rules, ['.github/workflows/docs.yml']).all_scopes, false);
  assert.equal(scopesOfFiles({ files: {} }, ['Makefile']).all_scopes, false, 'no barrier_files, no barrier');
});

test('the scopes file shown in docs/scopes.md reads, and sorts files as the guide says', async () => {
  const guide = await readFile(new URL('../../docs/scopes.md', import.meta.url), 'utf8');
  const example = /```yaml\n(scopes:\n[\s\S]*?)```/.exec(guide)?.[1];
  assert.ok(example, 'docs/scopes.md shows a scopes file');
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-scopes-doc-'));
  try {
    await writeFile(join(dir, 'scopes.yml'), example);
    const rules = await readScopesFile(dir, join(dir, 'scopes.yml'));
    assert.deepEqual(scopesOfFiles(rules, ['services/api/main.go', 'web/app/page.tsx', 'web/app/page.test.ts']), { scopes: ['api', 'web'], all_scopes: false, barrier_files: [] });
    assert.deepEqual(scopesOfFiles(rules, ['web/app/page.test.ts']).scopes, []);
    assert.deepEqual(scopesOfFiles(rules, ['.github/workflows/ci.yml']), { scopes: [], all_scopes: true, barrier_files: ['.github/workflows/ci.yml'] });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

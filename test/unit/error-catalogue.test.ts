// docs/errors.md and the catalogue in src/errors.ts list the same codes with the same statuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { errorCatalogue } from '../../src/errors.ts';

test('docs/errors.md documents exactly the catalogued errors', async () => {
  const doc = await readFile(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const documented = new Map([...doc.matchAll(/^\| `(\w+)` \| (\d{3}) \|/gm)].map((m) => [m[1]!, Number(m[2])]));
  const catalogued = new Map(Object.entries(errorCatalogue).map(([code, entry]) => [code, entry.status]));
  assert.deepEqual(new Map([...documented].sort()), new Map([...catalogued].sort()));
});

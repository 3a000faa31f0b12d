// The `scopes` section: where scopes come from (file globs, computed in CI by `switchyard scopes
// compute`, or reports sent as they are), the barrier files, and the per-scope capacities.
import { fail, kindOf, type Check } from './check-cursor.ts';
import { isMapping, list, namedEntries, object, required } from './collection-checks.ts';
import { byKind, integer, nullable, text } from './scalar-checks.ts';

const SCOPE_NAME = { pattern: /^[A-Za-z0-9_-]{2,}$/, describe: 'a scope name (at least 2 of A-Z, a-z, 0-9, _ and -)' };

const globs = list(text({ min: 1 }), { max: 1000 });
const fileFilters = object({ include: globs, exclude: globs });
const filesSource = object({ files: required(namedEntries({ ...SCOPE_NAME, max: 1000 }, fileFilters)) });
const manualSource = object({ manual: required((value, at) => (value === null ? null : fail(at, `must be empty (null), not ${kindOf(value)}`))) });

export type ScopeSource = { files: Record<string, { include?: string[]; exclude?: string[] }> } | { manual: null } | null;

const source: Check<ScopeSource> = (value, at) => {
  if (value === null) return null;
  if (isMapping(value) && Object.hasOwn(value, 'files')) return filesSource(value, at);
  if (isMapping(value) && Object.hasOwn(value, 'manual')) return manualSource(value, at);
  return fail(at, `must be {files: {scope: {include, exclude}}}, {manual: null} or null, not ${kindOf(value)}`);
};

const barrierFiles = object({ include: required(list(text({ min: 1 }), { min: 1, max: 1000 })), exclude: globs });

export const scopes = object({
  source,
  barrier_files: nullable(barrierFiles),
  merge_queue_scope: text({ min: 2, pattern: /^[A-Za-z0-9_-]+$/, describe: 'a scope name (A-Z, a-z, 0-9, _ and -)' }),
  capacities: namedEntries(SCOPE_NAME, integer(1, 128)),
  default_capacity: nullable(integer(1, 128)),
});

export const sharedSection = byKind<unknown>('a mapping (a place for YAML anchors)', { mapping: (value) => value, null: () => null });


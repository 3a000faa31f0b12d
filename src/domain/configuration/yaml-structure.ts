// Two walks over a parsed YAML tree. The first refuses what plain configuration never needs and
// the YAML library would otherwise accept: tags beyond the core schema (`!!binary`, `!!set`,
// custom `!tags`), keys that are collections, and a key written twice in one mapping (checked
// here with a set: the library's own check compares every pair of keys, minutes on a big
// file). The second, once the tree is plain values, records where each key and list item sits.
// Neither follows an alias: the anchored node is walked where it is defined, and the alias's
// value is the same object.
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair } from 'yaml';
import type { ConfigurationError, ConfigurationLoc } from './configuration-error.ts';
import type { RecordedPositions, SourcePosition } from './source-positions.ts';

const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`));

type Located = (offset: number) => SourcePosition;

export function positionsIn(path: string, lines: LineCounter): Located {
  return (offset) => {
    const { line, col } = lines.linePos(offset);
    return { path, line, column: col };
  };
}

function keyName(key: unknown): string | null {
  if (!isScalar(key)) return null;
  const value = key.value;
  if (value === null) return '';
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}

function isMergeKey(pair: Pair): boolean {
  return isScalar(pair.key) && typeof pair.key.value === 'symbol';
}

/** Problems with tags and keys, each at its line; [] for a plain document. */
export function structureErrors(document: Document, at: Located): ConfigurationError[] {
  const errors: ConfigurationError[] = [];
  const report = (node: Node, loc: ConfigurationLoc, msg: string) => {
    errors.push({ loc, msg, ...at(node.range?.[0] ?? 0) });
  };
  const walk = (node: unknown, loc: ConfigurationLoc): void => {
    if (!node || isAlias(node)) return;
    const tag = (node as Node).tag;
    if (tag !== undefined && !CORE_TAGS.has(tag)) return report(node as Node, loc, `the YAML tag ${tag.replace('tag:yaml.org,2002:', '!!')} is not allowed: write plain values (text, numbers, true/false, lists, mappings)`);
    if (isMap(node)) {
      const seen = new Map<string, Node>();
      for (const pair of node.items) {
        if (isMergeKey(pair)) continue;
        const name = keyName(pair.key);
        const key = (pair.key ?? node) as Node;
        if (name === null) report(key, loc, 'a key must be plain text, not a list, a mapping or an alias');
        else if (seen.has(name)) report(key, [...loc, name], `the key ${JSON.stringify(name)} appears twice in this mapping (first on line ${at(seen.get(name)?.range?.[0] ?? 0).line})`);
        else seen.set(name, key);
        walk(pair.key, [...loc, name ?? '?']);
        walk(pair.value, [...loc, name ?? '?']);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => walk(item, [...loc, index]));
    }
  };
  walk(document.contents, []);
  return errors;
}

/** Records, for each mapping and list of `value`, where its keys and items are in the text. */
export function recordPositions(document: Document, value: unknown, positions: RecordedPositions, at: Located): void {
  const walk = (node: unknown, js: unknown): void => {
    if (!node || isAlias(node) || js === null || typeof js !== 'object') return;
    if (isMap(node)) {
      for (const pair of node.items) {
        const name = isMergeKey(pair) ? null : keyName(pair.key);
        if (name === null || !Object.hasOwn(js, name)) continue;
        positions.record(js, name, at((pair.key as Node).range?.[0] ?? 0));
        walk(pair.value, (js as Record<string, unknown>)[name]);
      }
    } else if (isSeq(node) && Array.isArray(js)) {
      node.items.forEach((item, index) => {
        positions.record(js, index, at((item as Node | null)?.range?.[0] ?? node.range?.[0] ?? 0));
        walk(item, js[index]);
      });
    }
  };
  walk(document.contents, value);
}

// `extends`: the parent repository's file merged under this one, one level only (a parent that
// itself extends another is an error, as in the public service). Rule lists merge by name: the
// child's rules first, then the parent's rules whose names the child does not use. Mappings
// (merge_queue, scopes, commands_restrictions, ...) merge key by key, the child's value winning;
// `defaults` merges down to each action's and the queue rule's options. `shared` stays the
// child's: anchors were resolved within each file. Nothing is mutated; the merged values keep
// the positions of the file each part came from.
import { isMapping } from './collection-checks.ts';
import type { ParseResult, ParsedDocument } from './parsed-document.ts';
import { layeredPositions, RecordedPositions, withPosition, type PositionIndex } from './source-positions.ts';

const NAMED_LISTS = new Set(['pull_request_rules', 'queue_rules', 'priority_rules', 'merge_protections']);
// How many levels of mappings merge key by key under each section; other sections: the child's.
const MAPPING_LEVELS: Record<string, number> = { merge_queue: 1, merge_protections_settings: 1, scopes: 1, commands_restrictions: 1, defaults: 3 };

function nameOf(rule: unknown): string | undefined {
  return isMapping(rule) && typeof rule.name === 'string' ? rule.name : undefined;
}

/** A key defined like any other, even `__proto__`. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

class Merger {
  readonly positions: RecordedPositions;

  constructor(
    private readonly parent: PositionIndex,
    private readonly child: PositionIndex,
  ) {
    this.positions = new RecordedPositions(child.root);
  }

  /** Records that `target[key]` sits where `from[fromKey]` sat in the child's or parent's file. */
  private keep(target: object, key: string | number, from: object, fromChild: boolean, fromKey: string | number = key): void {
    const position = (fromChild ? this.child : this.parent).find(from, fromKey);
    if (position) this.positions.record(target, key, position);
  }

  byName(parent: unknown, child: unknown): unknown {
    if (!Array.isArray(parent) || !Array.isArray(child)) return child ?? parent;
    const taken = new Set(child.flatMap((rule) => nameOf(rule) ?? []));
    const overridden = (rule: unknown) => taken.has(nameOf(rule) as string);
    const kept = parent.flatMap((rule, index) => (overridden(rule) ? [] : [index]));
    const merged = [...child, ...kept.map((index) => parent[index])];
    child.forEach((_, index) => this.keep(merged, index, child, true));
    kept.forEach((index, at) => this.keep(merged, child.length + at, parent, false, index));
    return merged;
  }

  /** `child` over `parent`, key by key for `levels` levels of mappings. */
  overlay(parent: unknown, child: unknown, levels: number): unknown {
    if (child === undefined) return parent;
    if (levels === 0 || !isMapping(parent) || !isMapping(child)) return child;
    const merged: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(child), ...Object.keys(parent)])) {
      const inChild = Object.hasOwn(child, key);
      define(merged, key, inChild && Object.hasOwn(parent, key) ? this.overlay(parent[key], child[key], levels - 1) : inChild ? child[key] : parent[key]);
      this.keep(merged, key, inChild ? child : parent, inChild);
    }
    return merged;
  }

  section(key: string, parent: ParsedDocument['value'], child: ParsedDocument['value']): unknown {
    if (key === 'shared' || key === 'extends') return child[key];
    if (NAMED_LISTS.has(key)) return this.byName(parent[key], child[key]);
    return this.overlay(parent[key], child[key], MAPPING_LEVELS[key] ?? 0);
  }
}

/** The child's document with the parent's merged under it, or why the parent cannot be. */
export function mergeExtended(parent: ParsedDocument, child: ParsedDocument): ParseResult {
  const chained = parent.value.extends;
  if (chained !== undefined && chained !== null) {
    const msg = `the extended configuration extends ${JSON.stringify(chained)} in turn: only one level of extends is followed`;
    return { ok: false, errors: [withPosition(parent.positions, parent.value, { loc: ['extends'], msg })] };
  }
  const merger = new Merger(parent.positions, child.positions);
  const root = { parent: parent.value, child: child.value };
  const value = merger.overlay(root.parent, root.child, 1) as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    const section = merger.section(key, root.parent, root.child);
    if (section === undefined) delete value[key];
    else define(value, key, section);
  }
  const positions = layeredPositions(child.positions.root, merger.positions, child.positions, parent.positions);
  return { ok: true, document: { path: child.path, value, positions } };
}

// Where each value of a parsed document sits in its file. Positions hang off the plain values
// themselves (the object a key or list index belongs to), not off location paths, so they
// survive what happens between parsing and validation: a YAML alias is the same object as its
// anchor (its errors point at the anchor's lines), and the rules an `extends` merge carries over
// keep the lines of the file they came from.
import type { ConfigurationError, ConfigurationLoc } from './configuration-error.ts';

export interface SourcePosition {
  path: string;
  /** 1-based. */
  line: number;
  column: number;
}

export interface PositionIndex {
  /** The document as a whole: where a location without a better position points. */
  readonly root: SourcePosition;
  /** The position of `container[key]` (the key's own position for a mapping). */
  find(container: object, key: string | number): SourcePosition | undefined;
}

/** An index filled while parsing one file. */
export class RecordedPositions implements PositionIndex {
  readonly #entries = new WeakMap<object, Map<string | number, SourcePosition>>();

  constructor(readonly root: SourcePosition) {}

  record(container: object, key: string | number, position: SourcePosition): void {
    let entries = this.#entries.get(container);
    if (!entries) this.#entries.set(container, (entries = new Map()));
    entries.set(key, position);
  }

  find(container: object, key: string | number): SourcePosition | undefined {
    return this.#entries.get(container)?.get(key);
  }
}

/** Looks in each index in turn: a merged document's own entries first, then its files'. */
export function layeredPositions(root: SourcePosition, ...layers: PositionIndex[]): PositionIndex {
  return {
    root,
    find: (container, key) => {
      for (const layer of layers) {
        const found = layer.find(container, key);
        if (found) return found;
      }
      return undefined;
    },
  };
}

/** The position of the deepest part of `loc` that has one, walking `value` from the top. */
export function locate(positions: PositionIndex, value: unknown, loc: ConfigurationLoc): SourcePosition {
  let best = positions.root;
  let current = value;
  for (const key of loc) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) break;
    const found = positions.find(current, key);
    if (found) best = found;
    current = (current as Record<string | number, unknown>)[key];
  }
  return best;
}

/** The error with the line and column of its location. */
export function withPosition(positions: PositionIndex, value: unknown, error: ConfigurationError): ConfigurationError {
  const { path, line, column } = locate(positions, value, error.loc);
  return { ...error, path, line, column };
}

// Platform-wide ids (users, repositories, check runs, comments…), increasing from a chosen
// start: a start above 2^53 makes every id one that a JS number would round.
export class IdSequence {
  constructor(private nextId: bigint) {}

  next(): bigint {
    return this.nextId++;
  }
}

/** GitHub's node ids are opaque strings; these are stable per kind and id. */
export function nodeId(kind: string, id: bigint): string {
  return Buffer.from(`${kind}:${id}`).toString('base64url');
}

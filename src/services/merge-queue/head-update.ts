// The merge queue's own update of a queued pull request's head with its base (checks in place,
// DESIGN §10), kept on the entry's row (migration 0009) from before the platform is asked until
// the executor has read the head it made. Meanwhile a move of the head from `from` is presumed
// the queue's own: the webhook reporting it dequeues nothing, and the executor decides, reading
// the new head: a merge of the base into `from` is taken as the entry's head, anything else is a
// push (PULL_REQUEST_UPDATED). On the entry rather than a batch, it outlives a batch aborted in
// between (a reset), and a process killed between asking and reading finds it on restart.

export interface HeadUpdate {
  /** The head the update was asked from (`expected_head_sha`): the entry's head then. */
  from: string;
  /** The base head when it was asked: what the platform merges in (or a later base head). */
  onto: string;
  /** When the platform accepted it (202); null until then, when it is asked again. */
  askedAt: number | null;
}

/** The update stored on an entry, as the store reads it back (its own JSON). */
export function readHeadUpdate(stored: unknown): HeadUpdate | null {
  if (typeof stored !== 'object' || stored === null) return null;
  const { from, onto, askedAt } = stored as Record<string, unknown>;
  if (typeof from !== 'string' || typeof onto !== 'string') return null;
  return { from, onto, askedAt: typeof askedAt === 'number' ? askedAt : null };
}

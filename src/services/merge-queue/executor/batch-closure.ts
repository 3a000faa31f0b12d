// What a batch's commit holds and where building it starts (DESIGN §10). Pure: the queue's state
// and the runs of its batches in, a decision out.
//
// A batch's commit holds the heads of its own pull requests and of those of every unmerged batch
// it depends on (its closure). Merging all of them onto the base costs a platform write per pull
// request ahead, for every batch: a deep speculative queue pays the square of its length. A
// parent batch's commit already holds its closure, pinned to the same heads (a pull request whose
// head moves leaves the queue, which aborts every batch built on it), so a batch starts from its
// parent's commit and merges only its own pull requests; with several parents (parallel mode),
// from one parent's commit plus a merge of each other parent's commit.
import { viewStoredBatches } from '../../../domain/merge-queue/stored-batches.ts';
import type { Batch, QueueEntry, QueueState } from '../../../domain/merge-queue/model.ts';
import type { BatchRun, BuiltCommit } from '../batch-run.ts';

/**
 * Where a batch's commit starts: the base's head (`from` null), or a parent's commit, with the
 * other parents' commits to merge into it; 'wait' while a parent is still being built.
 */
export type BuildStart = { from: BuiltCommit | null; merges: BuiltCommit[] } | 'wait';

/** Phases in which a batch's run has its commit finished: checks started on it, or ended. */
const BUILT_PHASES = new Set(['running', 'passed', 'parked']);

export function buildStart(state: QueueState, runOf: (batchId: string) => BatchRun | null, batchId: string): BuildStart {
  const fromBase = { from: null, merges: [] };
  const { byId } = viewStoredBatches(state.batches);
  const batch = byId.get(batchId);
  if (!batch) return fromBase;
  // Parents no longer stored merged: the base holds them.
  const parents = batch.parentIds.flatMap((id) => byId.get(id) ?? []);
  if (parents.length === 0) return fromBase;
  const ahead = new Set(closureEntries(state, batchId).map((entry) => entry.id));
  for (const id of batch.entryIds) ahead.delete(id);
  const queued = new Set(state.entries.map((entry) => entry.id));
  const commits: BuiltCommit[] = [];
  for (const parent of parents) {
    const run = runOf(parent.id);
    // Being built: built first (batches are prepared in plan order), then used.
    if (parent.phase === 'preparing' && run && !run.inPlace) return 'wait';
    const commit = builtCommit(parent, run, queued);
    // Anything else (checked in place, pending a slot, bisecting) is merged head by head.
    if (!commit) return fromBase;
    // Every pull request it holds that is still queued must be one ahead of this batch.
    if (commit.entryIds.some((id) => !ahead.has(id))) return fromBase;
    commits.push(commit);
  }
  // The commit holding most first: another one holding nothing more is not merged at all.
  commits.sort((a, b) => b.entryIds.length - a.entryIds.length);
  const [first, ...others] = commits as [BuiltCommit, ...BuiltCommit[]];
  const held = new Set(first.entryIds);
  const merges: BuiltCommit[] = [];
  for (const commit of others) {
    if (commit.entryIds.every((id) => held.has(id))) continue;
    for (const id of commit.entryIds) held.add(id);
    merges.push(commit);
  }
  return { from: first, merges };
}

/** A batch's finished commit, holding the entries named (those merged since are not named). */
function builtCommit(batch: Batch, run: BatchRun | null, queued: ReadonlySet<string>): BuiltCommit | null {
  if (!run || run.inPlace || run.attempt !== batch.retries || run.headSha === null || !BUILT_PHASES.has(batch.phase)) return null;
  return { sha: run.headSha, entryIds: run.merged.filter((id) => queued.has(id)) };
}

/**
 * The entries whose heads a batch's commit holds, in plan order: those of its unmerged ancestors
 * (their closure), then its own. Entries that left are not merged in.
 */
export function closureEntries(state: QueueState, batchId: string): QueueEntry[] {
  const { ordered, byId } = viewStoredBatches(state.batches);
  const ancestors = new Set<string>();
  const stack = [...(byId.get(batchId)?.parentIds ?? [])];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    const parent = byId.get(id);
    if (!parent || ancestors.has(id)) continue;
    ancestors.add(id);
    stack.push(...parent.parentIds);
  }
  const active = new Map(state.entries.map((entry) => [entry.id, entry]));
  const seen = new Set<string>();
  const result: QueueEntry[] = [];
  const add = (ids: readonly string[]) => {
    for (const id of ids) {
      const entry = active.get(id);
      if (entry && !seen.has(id)) {
        seen.add(id);
        result.push(entry);
      }
    }
  };
  for (const batch of ordered) if (ancestors.has(batch.id) && batch.phase !== 'bisecting') add(batch.entryIds);
  add(byId.get(batchId)?.entryIds ?? []);
  return result;
}

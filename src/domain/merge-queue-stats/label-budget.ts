// The repository and branch labels of the merge queue's metrics, bounded: each (repository,
// branch) pair seen keeps its own series up to a limit; later pairs share one series labelled
// `(other)`, so a service with thousands of repositories (or one with thousands of branches)
// cannot grow /metrics without bound. A pair keeps its labels for the life of the process.

export const OTHER = '(other)';

export interface QueueLabels {
  repository: string;
  branch: string;
}

export class LabelBudget {
  private readonly pairs = new Set<string>();

  constructor(readonly limit: number) {}

  labels(repository: string, branch: string): QueueLabels {
    const key = JSON.stringify([repository, branch]);
    if (this.pairs.has(key)) return { repository, branch };
    if (this.pairs.size >= this.limit) return { repository: OTHER, branch: OTHER };
    this.pairs.add(key);
    return { repository, branch };
  }
}

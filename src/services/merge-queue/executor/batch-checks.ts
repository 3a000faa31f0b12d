// What a batch head's checks say (DESIGN §10): the rule's required checks, from check runs and
// commit statuses. With no required checks named, every check present decides, and at least one
// must be present. Pure.
import type { CheckRun, CombinedStatus } from '../../../hosting/hosting-types.ts';
import type { QueueCheckRecord } from '../../../domain/merge-queue/queue-events.ts';

export interface ChecksVerdict {
  verdict: 'passed' | 'failed' | 'pending';
  passed: number;
  total: number;
  unsuccessful: QueueCheckRecord[];
}

type CheckState = 'success' | 'failure' | 'pending';

const PASSING = new Set(['success', 'neutral', 'skipped']);

interface SeenCheck {
  name: string;
  state: CheckState;
  /** The platform's own word: a check run's conclusion or a status's state. */
  detail: string;
  url: string | null;
}

export function judgeChecks(required: readonly string[], runs: readonly CheckRun[], combined: CombinedStatus): ChecksVerdict {
  const seen = new Map<string, SeenCheck>();
  for (const run of runs) {
    const state: CheckState = run.status !== 'completed' ? 'pending' : PASSING.has(run.conclusion ?? '') ? 'success' : 'failure';
    seen.set(run.name, { name: run.name, state, detail: run.conclusion ?? run.status, url: run.detailsUrl });
  }
  for (const status of combined.statuses) {
    const state: CheckState = status.state === 'success' ? 'success' : status.state === 'pending' ? 'pending' : 'failure';
    seen.set(status.context, { name: status.context, state, detail: status.state, url: status.targetUrl });
  }
  const names = required.length > 0 ? required : [...seen.keys()];
  const checks = names.map((name) => seen.get(name) ?? { name, state: 'pending' as const, detail: 'pending', url: null });
  const failed = checks.filter((check) => check.state === 'failure');
  const passed = checks.filter((check) => check.state === 'success').length;
  const verdict = failed.length > 0 ? 'failed' : names.length > 0 && passed === names.length ? 'passed' : 'pending';
  return { verdict, passed, total: names.length, unsuccessful: failed.map(record) };
}

function record(check: SeenCheck): QueueCheckRecord {
  const state = ['failure', 'error', 'cancelled', 'action_required', 'timed_out', 'stale'].includes(check.detail) ? check.detail : 'failure';
  return { name: check.name, description: `${check.name}: ${check.detail}`, url: check.url, state, avatar_url: null };
}

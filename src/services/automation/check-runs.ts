// The check runs the rules engine writes (DESIGN.md §13–14): the Summary on a pull request's
// head, and the configuration's own on the default branch and on pull requests that change it.
// Each is written only when what it says differs from what the platform shows (no platform
// write where nothing changed); a platform that refuses check runs (a token that is not an
// app's cannot write them) is counted, never retried in a loop.
import type { HostingPlatform } from '../../hosting/hosting-platform.ts';
import { HostingFailure } from '../../hosting/hosting-failure.ts';
import type { RepositoryRef } from '../../hosting/hosting-types.ts';

export const SUMMARY_CHECK = 'Switchyard / Summary';
export const CONFIGURATION_CHECK = 'Switchyard / Configuration';
export const CONFIGURATION_CHANGED_CHECK = 'Switchyard / Configuration changed';

/** What the platform answers when it will not take the check run: counted, not retried. */
const REFUSALS = new Set(['refused', 'forbidden', 'not_found']);

export type CheckConclusion = 'success' | 'failure' | 'neutral';

export interface CheckReport {
  name: string;
  /** null: in progress (a pending outcome). */
  conclusion: CheckConclusion | null;
  title: string;
  summary: string;
}

export interface CheckWrites {
  written: number;
  unchanged: number;
  refused: number;
}

/** Writes the check run on `sha` unless it already says this; the platform's refusals are counted and swallowed. */
export async function postCheck(platform: HostingPlatform, repo: RepositoryRef, sha: string, report: CheckReport, counts?: CheckWrites): Promise<void> {
  try {
    const result = await platform.upsertCheckRun(repo, {
      headSha: sha,
      name: report.name,
      status: report.conclusion === null ? 'in_progress' : 'completed',
      ...(report.conclusion === null ? {} : { conclusion: report.conclusion }),
      title: report.title,
      summary: report.summary,
    });
    if (counts) counts[result.changed ? 'written' : 'unchanged']++;
  } catch (error) {
    if (!(error instanceof HostingFailure) || !REFUSALS.has(error.kind)) throw error;
    if (counts) counts.refused++;
  }
}

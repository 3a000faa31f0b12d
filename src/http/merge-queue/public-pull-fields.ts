// Two fields of a queued pull request that the public merge-queue document requires as strings
// (strict generated clients refuse null), where Switchyard may not have been told the value:
// the priority rule that applied, and the pull request's page on the hosting platform.
import type { QueueEntry } from '../../domain/merge-queue/model.ts';
import type { QueuedPullFacts } from '../../storage/queries/merge-queues.ts';

/**
 * The name the hosted service gives the priority that no rule set (medium, or the one asked for
 * when queuing): its events and reads say `<default>` rather than null.
 */
export const DEFAULT_PRIORITY_RULE_NAME = '<default>';

/** SWITCHYARD_HOSTING_WEB_URL when not set: GitHub's web host, beside its API's default. */
export const DEFAULT_HOSTING_WEB_URL = 'https://github.com';

export function priorityRuleNameOf(entry: QueueEntry): string {
  return entry.priorityRuleName ?? DEFAULT_PRIORITY_RULE_NAME;
}

/** Its page as its webhooks told it, else the platform's usual address of it. */
export function pullRequestPage(webUrl: string, repository: { owner: string; name: string }, number: bigint, facts: QueuedPullFacts | undefined): string {
  return facts?.url ?? `${webUrl}/${encodeURIComponent(repository.owner)}/${encodeURIComponent(repository.name)}/pull/${number}`;
}

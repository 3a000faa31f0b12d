// GitHub Actions' event payload (the file GITHUB_EVENT_PATH names): on a pull request event, the
// head commit to report for (not the merge commit the job checked out), the base, and the
// repository.
import { readFile } from 'node:fs/promises';
import { usageError } from './cli-error.ts';

export interface PullRequestEvent {
  headSha: string | undefined;
  baseSha: string | undefined;
  repository: string | undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);

export async function readGithubEvent(path: string | undefined): Promise<PullRequestEvent | undefined> {
  if (!path) return undefined;
  let payload: Record<string, any>;
  try {
    payload = JSON.parse(await readFile(path, 'utf8')) as Record<string, any>;
  } catch (error) {
    throw usageError(`cannot read the event payload GITHUB_EVENT_PATH names (${path}): ${(error as Error).message}`);
  }
  const pull = payload?.pull_request;
  return {
    headSha: text(pull?.head?.sha),
    baseSha: text(pull?.base?.sha),
    repository: text(payload?.repository?.full_name),
  };
}

// `owner/repository` as commands take it, checked as the API checks path identifiers, so a typo
// is a usage error before any request.
import { parseUint64 } from '../domain/int64.ts';
import { usageError } from './cli-error.ts';

export interface RepositoryRef {
  owner: string;
  repository: string;
}

const OWNER = /^[a-zA-Z0-9-]{1,40}$/;
const NAME = /^[\w.-]{1,100}$/;

export function parseRepository(text: string): RepositoryRef {
  const [owner, repository, ...rest] = text.split('/');
  if (rest.length > 0 || !owner || !repository || !OWNER.test(owner) || !NAME.test(repository)) {
    throw usageError(`"${text}" is not a repository: give it as owner/repository`);
  }
  return { owner, repository };
}

/** The API path prefix of a repository, each part encoded. */
export function repoPath(ref: RepositoryRef): string {
  return `${encodeURIComponent(ref.owner)}/${encodeURIComponent(ref.repository)}`;
}

/** A pull request number, 0 to 2^63-1, kept exact. */
export function parsePullNumber(text: string): bigint {
  const value = parseUint64(text);
  if (value === undefined) throw usageError(`"${text}" is not a pull request number (an integer from 0 to 9223372036854775807)`);
  return value;
}

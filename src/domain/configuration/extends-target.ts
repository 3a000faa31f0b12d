// Which repository a file's `extends` names, for the caller to fetch: a repository of the same
// owner, written as its name (`shared-config`) or in full (`acme/shared-config`). Another
// owner's repository, or the repository itself, is refused: an `extends` must never make the
// service read a repository the file's owner does not control.
import type { ConfigurationError } from './configuration-error.ts';
import type { ParsedDocument } from './parsed-document.ts';
import { withPosition } from './source-positions.ts';

export interface RepositoryName {
  owner: string;
  repo: string;
}

export type ExtendsTarget = { ok: true; target: RepositoryName | null } | { ok: false; errors: ConfigurationError[] };

const REPOSITORY_NAME = /^[A-Za-z0-9._-]{1,100}$/;

function refused(document: ParsedDocument, msg: string): ExtendsTarget {
  return { ok: false, errors: [withPosition(document.positions, document.value, { loc: ['extends'], msg })] };
}

/** The repository to fetch and merge under `document`, null when it extends nothing. */
export function extendsTarget(document: ParsedDocument, current: RepositoryName): ExtendsTarget {
  const written = document.value.extends;
  if (written === undefined || written === null) return { ok: true, target: null };
  if (typeof written !== 'string' || written === '') return refused(document, 'must be the name of a repository of the same owner');
  const parts = written.split('/');
  if (parts.length > 2) return refused(document, `"${written}" is not a repository name: write "name" or "${current.owner}/name"`);
  const [owner, repo] = parts.length === 2 ? (parts as [string, string]) : [current.owner, parts[0] as string];
  if (owner.toLowerCase() !== current.owner.toLowerCase()) {
    return refused(document, `"${written}" belongs to another owner: only repositories of ${current.owner} can be extended`);
  }
  if (!REPOSITORY_NAME.test(repo) || repo === '.' || repo === '..') return refused(document, `"${repo}" is not a repository name`);
  if (repo.toLowerCase() === current.repo.toLowerCase()) return refused(document, 'a configuration cannot extend its own repository');
  return { ok: true, target: { owner: current.owner, repo } };
}

// Finds a repository's configuration file on its default branch (DESIGN.md §13): the first of the
// five paths that exists, read through the contents API, and the file of the repository it
// `extends` (same owner, one level). At most 1 + 5 + 1 + 5 reads, only when the file may have
// changed (registration, a push that touched it, a refresh).
import { CONFIGURATION_PATHS } from '../../domain/configuration/configuration-paths.ts';
import { MAX_CONFIGURATION_BYTES } from '../../domain/configuration/parse-configuration-text.ts';
import type { HostingPlatform } from '../../hosting/hosting-platform.ts';
import type { RepositoryRef } from '../../hosting/hosting-types.ts';
import { extendsTargetOf } from './configuration-validation.ts';

export interface FileRead {
  path: string;
  sha: string;
  text: string;
}

export interface ConfigurationFileRead {
  defaultBranch: string;
  /** The default branch's head, where the configuration check run goes. */
  headSha: string | null;
  file: FileRead | null;
  parentText: string | null;
  /** What kept the file from being read whole (too large, an `extends` that cannot be read). */
  errors: { loc: (string | number)[]; msg: string }[];
}

/** null when the platform does not know the repository. */
export async function readConfigurationFile(platform: HostingPlatform, repo: RepositoryRef): Promise<ConfigurationFileRead | null> {
  const repository = await platform.repository(repo);
  if (!repository) return null;
  const defaultBranch = repository.defaultBranch;
  const headSha = await platform.branchHead(repo, defaultBranch);
  const found = await firstFile(platform, repo, defaultBranch);
  if (found.kind === 'none') return { defaultBranch, headSha, file: null, parentText: null, errors: [] };
  if (found.kind === 'too_large') return { defaultBranch, headSha, file: { path: found.path, sha: '', text: '' }, parentText: null, errors: [{ loc: [], msg: `${found.path} is ${found.size} bytes: a configuration file may be ${MAX_CONFIGURATION_BYTES} bytes (1 MiB) at most.` }] };
  const parent = await readParent(platform, repo, found.file.text);
  return { defaultBranch, headSha, file: found.file, parentText: parent.text, errors: parent.errors };
}

type Found = { kind: 'file'; file: FileRead } | { kind: 'too_large'; path: string; size: number } | { kind: 'none' };

async function firstFile(platform: HostingPlatform, repo: RepositoryRef, ref: string): Promise<Found> {
  for (const path of CONFIGURATION_PATHS) {
    const content = await platform.fileContent(repo, path, ref);
    if (content.kind === 'file') return { kind: 'file', file: { path, sha: content.sha, text: content.content } };
    if (content.kind === 'too_large') return { kind: 'too_large', path, size: content.size };
  }
  return { kind: 'none' };
}

async function readParent(platform: HostingPlatform, repo: RepositoryRef, text: string): Promise<{ text: string | null; errors: ConfigurationFileRead['errors'] }> {
  const target = extendsTargetOf(text, repo);
  if (!target) return { text: null, errors: [] };
  const parentRepo = { owner: repo.owner, repo: target };
  const parent = await platform.repository(parentRepo);
  if (!parent) return { text: null, errors: [{ loc: ['extends'], msg: `The repository ${repo.owner}/${target} does not exist or Switchyard cannot read it.` }] };
  const found = await firstFile(platform, parentRepo, parent.defaultBranch);
  if (found.kind === 'file') return { text: found.file.text, errors: [] };
  if (found.kind === 'too_large') return { text: null, errors: [{ loc: ['extends'], msg: `${repo.owner}/${target}: ${found.path} is larger than 1 MiB.` }] };
  return { text: null, errors: [{ loc: ['extends'], msg: `The repository ${repo.owner}/${target} has no configuration file on its default branch.` }] };
}

// `switchyard scopes compute|send`: which scopes a change touches (git + a scopes file), and the
// report by commit for the pull request's head.
import { isAbsolute, join } from 'node:path';
import { Command } from 'commander';
import { loadClientConfig } from '../../config.ts';
import { scopesOfFiles, type ComputedScopes } from '../../domain/scopes/file-scopes.ts';
import type { CliIo } from '../cli-io.ts';
import { usageError } from '../cli-error.ts';
import { addClientOptions, apiClient } from '../client-options.ts';
import { changedFiles, repositoryRoot, resolveCommit, type GitContext } from '../git-changes.ts';
import { readGithubEvent, type PullRequestEvent } from '../github-event.ts';
import { printJson } from '../output.ts';
import { parseRepository, repoPath } from '../repository-argument.ts';
import { readScopesFile } from '../scopes-file-reader.ts';

interface ComputeOptions {
  base?: string;
  head?: string;
  scopesFile?: string;
  repoDir?: string;
  json?: boolean;
}

interface SendOptions extends ComputeOptions {
  sha?: string;
  scopes?: string;
  allScopes?: boolean;
}

const SHA = /^[0-9a-fA-F]{40}$/;

function withComputeOptions(command: Command): Command {
  return command
    .option('--base <ref>', "the base: scopes cover what changed since head's merge base with it (default: the pull request's base from GITHUB_EVENT_PATH)")
    .option('--head <ref>', "the change's last commit (default: the pull request's head from GITHUB_EVENT_PATH, else HEAD)")
    .option('--scopes-file <path>', 'YAML or JSON with scopes.source.files and scopes.barrier_files (default: .mergify.yml, .mergify/config.yml or .github/mergify.yml at the repository root)')
    .option('-C, --repo-dir <dir>', 'the git working tree (default: the current directory)')
    .option('--json', 'print the result as JSON');
}

async function githubEvent(io: CliIo): Promise<PullRequestEvent | undefined> {
  return readGithubEvent(loadClientConfig(io.env).githubEventPath);
}

const resolvePath = (io: CliIo, path: string) => (isAbsolute(path) ? path : join(io.cwd, path));
const gitContext = (io: CliIo, options: ComputeOptions): GitContext => ({ cwd: options.repoDir ? resolvePath(io, options.repoDir) : io.cwd, env: io.env });

async function compute(io: CliIo, options: ComputeOptions, event: PullRequestEvent | undefined): Promise<ComputedScopes> {
  const context = gitContext(io, options);
  const base = options.base ?? event?.baseSha;
  if (!base) throw usageError('give --base (the branch or commit the change is compared with)');
  const head = options.head ?? event?.headSha ?? 'HEAD';
  const rules = await readScopesFile(await repositoryRoot(context), options.scopesFile && resolvePath(io, options.scopesFile));
  return scopesOfFiles(rules, await changedFiles(context, base, head));
}

function printScopes(io: CliIo, result: ComputedScopes): void {
  for (const scope of result.scopes) io.stdout(`${scope}\n`);
  if (result.all_scopes) io.stderr(`all scopes: barrier files changed (${result.barrier_files.join(', ')})\n`);
}

function givenScopes(options: SendOptions): { scopes: string[]; all_scopes: boolean } | undefined {
  if (options.scopes === undefined && !options.allScopes) return undefined;
  const scopes = (options.scopes ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  return { scopes: [...new Set(scopes)], all_scopes: options.allScopes ?? false };
}

async function headSha(io: CliIo, options: SendOptions, event: PullRequestEvent | undefined): Promise<string> {
  const sha = options.sha ?? event?.headSha ?? (await resolveCommit(gitContext(io, options), options.head ?? 'HEAD'));
  if (!SHA.test(sha)) throw usageError(`--sha must be a full 40-character commit sha, got "${sha}"`);
  return sha.toLowerCase();
}

export function scopesCommand(io: CliIo): Command {
  const scopes = new Command('scopes').description('compute the scopes a change touches, and send scope reports');

  withComputeOptions(scopes.command('compute'))
    .description('print the scopes touched by the files changed between the merge base of --base and --head')
    .action(async (options: ComputeOptions) => {
      const result = await compute(io, options, await githubEvent(io));
      if (options.json) printJson(io, result);
      else printScopes(io, result);
    });

  addClientOptions(withComputeOptions(scopes.command('send')))
    .description("send the scope report by commit for the pull request's head: the scopes given, or computed as by `scopes compute`")
    .argument('[repository]', 'owner/repository (default: the repository of GITHUB_EVENT_PATH)')
    .option('--sha <sha>', "the commit to report for (default: the pull request's head from GITHUB_EVENT_PATH, else --head)")
    .option('--scopes <names>', 'the scopes, comma-separated ("" for none), instead of computing them')
    .option('--all-scopes', 'report a barrier: the change impacts every scope')
    .action(async (repository: string | undefined, options: SendOptions, command: Command) => {
      const event = await githubEvent(io);
      const name = repository ?? event?.repository;
      if (!name) throw usageError('give the repository as owner/repository (no GITHUB_EVENT_PATH payload names one)');
      const ref = parseRepository(name);
      const sha = await headSha(io, options, event);
      const report = givenScopes(options) ?? (await compute(io, { ...options, head: options.head ?? sha }, event));
      const body = { scopes: report.scopes, all_scopes: report.all_scopes };
      await apiClient(command, io).request('PUT', `/v1/repos/${repoPath(ref)}/commits/${sha}/scopes`, { body });
      if (options.json) return printJson(io, { repository: `${ref.owner}/${ref.repository}`, sha, ...body });
      io.stdout(`sent ${body.scopes.length ? body.scopes.join(', ') : 'no scopes'}${body.all_scopes ? ' (all scopes: a barrier)' : ''} for ${ref.owner}/${ref.repository}@${sha}\n`);
    });

  return scopes;
}

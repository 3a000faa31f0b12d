// `switchyard repos register`: a repository must be known before its first scope report or event.
import { Command } from 'commander';
import type { CliIo } from '../cli-io.ts';
import { addClientOptions, apiClient } from '../client-options.ts';
import { printJson } from '../output.ts';
import { parseRepository, repoPath } from '../repository-argument.ts';

export function reposCommand(io: CliIo): Command {
  const repos = new Command('repos').description('register repositories (needs the service token)');

  addClientOptions(repos.command('register'))
    .description("register a repository; a new one starts with its owner's default products")
    .argument('<repository>', 'owner/repository')
    .option('--json', 'print {"repository", "created"} as JSON')
    .action(async (repository: string, options: { json?: boolean }, command: Command) => {
      const ref = parseRepository(repository);
      const { status, body } = await apiClient(command, io).request('PUT', `/v1/admin/repos/${repoPath(ref)}`);
      const created = status === 201;
      if (options.json) return printJson(io, { repository: `${ref.owner}/${ref.repository}`, created, ...(body && typeof body === 'object' ? { products: (body as { products?: unknown }).products } : {}) });
      io.stdout(created ? `registered ${ref.owner}/${ref.repository}\n` : `${ref.owner}/${ref.repository} was already registered\n`);
    });

  return repos;
}

// `switchyard keys create|list|revoke`: application keys through the admin API (service token).
import { Command, Option } from 'commander';
import type { CliIo } from '../cli-io.ts';
import { addClientOptions, apiClient } from '../client-options.ts';
import { printJson, printTable } from '../output.ts';

interface KeyView {
  id: string;
  key?: string;
  owner: string;
  scope: string;
  name: string;
  created_at: string;
  revoked_at?: string | null;
}

export function keysCommand(io: CliIo): Command {
  const keys = new Command('keys').description('create, list and revoke application keys (needs the service token)');

  addClientOptions(keys.command('create'))
    .description('create an application key for an owner; its secret is printed once')
    .requiredOption('--owner <owner>', 'the owner the key is bound to')
    .addOption(new Option('--scope <scope>', 'what the key may do').choices(['admin', 'ci']).makeOptionMandatory())
    .requiredOption('--name <name>', 'a name to recognise the key by')
    .option('--json', 'print the API answer as JSON')
    .action(async (options: { owner: string; scope: string; name: string; json?: boolean }, command: Command) => {
      const { body } = await apiClient(command, io).request('POST', '/v1/admin/keys', { body: { owner: options.owner, scope: options.scope, name: options.name } });
      const key = body as unknown as KeyView;
      if (options.json) return printJson(io, key);
      io.stdout(`${key.key}\n`);
      io.stderr(`created ${key.scope} key ${key.id} ("${key.name}") for ${key.owner}; store the secret above now, it is never shown again\n`);
    });

  addClientOptions(keys.command('list'))
    .description('list application keys, without their secrets')
    .option('--owner <owner>', 'only the keys of this owner')
    .option('--json', 'print the API answer as JSON')
    .action(async (options: { owner?: string; json?: boolean }, command: Command) => {
      const { body } = await apiClient(command, io).request('GET', '/v1/admin/keys', { query: { owner: options.owner } });
      if (options.json) return printJson(io, body);
      const list = (body as unknown as { keys: KeyView[] }).keys;
      printTable(io, ['ID', 'OWNER', 'SCOPE', 'NAME', 'CREATED', 'REVOKED'], list.map((k) => [k.id, k.owner, k.scope, k.name, k.created_at, k.revoked_at]));
    });

  addClientOptions(keys.command('revoke'))
    .description('revoke an application key')
    .argument('<id>', 'the key id (a uuid, from `keys list`)')
    .action(async (id: string, _options: unknown, command: Command) => {
      await apiClient(command, io).request('DELETE', `/v1/admin/keys/${encodeURIComponent(id)}`);
      io.stderr(`revoked key ${id}\n`);
    });

  return keys;
}

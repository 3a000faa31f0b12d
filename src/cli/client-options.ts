// Where the API is and which token to send: a flag, else SWITCHYARD_URL / SWITCHYARD_TOKEN, else
// (for an operator on the server's machine) the service token a local embedded store generated.
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Command } from 'commander';
import { loadClientConfig } from '../config.ts';
import { ApiClient } from './api-client.ts';
import type { CliIo } from './cli-io.ts';
import { usageError } from './cli-error.ts';

/** The options of every command that calls the API. */
export function addClientOptions(program: Command): Command {
  return program
    .option('--url <url>', 'Switchyard base URL, with or without /v1 (default: SWITCHYARD_URL, else http://127.0.0.1:8080)')
    .option('--token <token>', 'bearer token (default: SWITCHYARD_TOKEN, else ./data/service-token when readable)');
}

function generatedToken(dataDir: string, cwd: string): string | undefined {
  try {
    return readFileSync(join(isAbsolute(dataDir) ? dataDir : join(cwd, dataDir), 'service-token'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

export function apiClient(command: Command, io: CliIo): ApiClient {
  const options = command.opts<{ url?: string; token?: string }>();
  let config;
  try {
    config = loadClientConfig({ ...io.env, ...(options.url ? { SWITCHYARD_URL: options.url } : {}) });
  } catch (error) {
    throw usageError((error as Error).message.replace('SWITCHYARD_URL', '--url / SWITCHYARD_URL'));
  }
  return new ApiClient(config.url, options.token ?? config.token ?? generatedToken(config.dataDir, io.cwd));
}

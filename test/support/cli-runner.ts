// Runs `switchyard` commands in-process (runCli, what bin/switchyard.mjs runs) with their own
// environment and captured output, against a real server.
import { runCli } from '../../src/cli/main.ts';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string>;
  cwd?: string;
  signal?: AbortSignal;
  /** Called with each chunk written to stdout, as it is written. */
  onStdout?: (text: string) => void;
}

export async function cli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    stdout: (text) => {
      stdout += text;
      options.onStdout?.(text);
    },
    stderr: (text) => (stderr += text),
    signal: options.signal,
  });
  return { code, stdout, stderr };
}

/** A command line pointed at a server with a token. */
export function cliFor(baseUrl: string, token: string) {
  return (args: readonly string[], options: CliOptions = {}) => cli(args, { ...options, env: { SWITCHYARD_URL: baseUrl, SWITCHYARD_TOKEN: token, ...options.env } });
}

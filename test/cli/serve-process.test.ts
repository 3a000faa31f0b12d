// `npm start` as an operator or a container supervisor runs it: the start-up steps are logged as
// they happen, and SIGTERM to any process of the tree (npm, or the server itself) stops all of
// it, with the store closed cleanly (its lock released, the last line logged).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, privateSchemaUrl } from '../support/backends.ts';
import { freePort } from '../support/switchyard-process.ts';
import { isRunning, processTree } from '../support/process-tree.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

interface NpmStart {
  pid: number;
  port: number;
  output(): string;
  /** The messages logged so far, in order. */
  messages(): string[];
  exited: Promise<number | null>;
  /** Whether npm has exited (then its pid may belong to another process). */
  hasExited(): boolean;
}

async function npmStart(env: Record<string, string>): Promise<NpmStart> {
  const port = await freePort();
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const messages = () =>
    output
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { pid: child.pid!, port, output: () => output, messages, exited, hasExited: () => child.exitCode !== null || child.signalCode !== null };
}

async function waitFor(condition: () => boolean, what: string, output: () => string, ms = 180_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The message matching `pattern`'s index, asserting it is there. */
function indexOf(messages: string[], pattern: RegExp): number {
  const index = messages.findIndex((message) => pattern.test(message));
  assert.ok(index >= 0, `no log line matches ${pattern}:\n${messages.join('\n')}`);
  return index;
}

const onPostgres = (await backends()).includes('postgres');

describe('npm start', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  let dataDir = '';

  /** SIGTERM to npm or to the server it started: every process of the tree ends, the store is closed. */
  async function stopWithSigterm(run: NpmStart, target: 'npm' | 'the server'): Promise<void> {
    const tree = processTree(run.pid);
    const server = tree.find((p) => p.command.includes('bin/switchyard.mjs serve'));
    assert.ok(server, `no server process under npm: ${JSON.stringify(tree)}`);
    assert.ok(existsSync(join(dataDir, 'switchyard.lock')), 'the running server holds the data directory lock');

    process.kill(target === 'npm' ? run.pid : server.pid, 'SIGTERM');
    await run.exited;
    await waitFor(() => tree.every((p) => !isRunning(p.pid)), 'every process of the tree to end', () => JSON.stringify(tree.filter((p) => isRunning(p.pid))), 15_000);
    const steps = run.messages();
    assert.ok(indexOf(steps, /^shutting down/) < indexOf(steps, /^store closed; exiting$/));
    assert.ok(!existsSync(join(dataDir, 'switchyard.lock')), 'the lock is released: the store was closed, not abandoned');
  }

  /** Kills what a failed assertion left running. */
  const cleanUp = (run: NpmStart) => {
    if (!run.hasExited()) for (const p of processTree(run.pid).reverse()) if (isRunning(p.pid)) process.kill(p.pid, 'SIGKILL');
  };

  // Each start of the embedded store costs seconds (tens on a busy machine): each test checks a
  // start's log and one way of stopping it.
  test('a first start logs each step as it happens, in order; SIGTERM to npm stops every process of the tree and closes the store', async () => {
    dataDir = join(await mkdtemp(join(tmpdir(), 'switchyard-serve-')), 'data');
    dirs.push(dataDir);
    const first = await npmStart({ SWITCHYARD_DATA_DIR: dataDir });
    try {
      await waitFor(() => first.messages().includes('switchyard ready'), 'the first start', first.output);
      const steps = first.messages();
      const order = [/^initialising the embedded store: a first start/, /^store ready; applying migrations/, /^migrations applied: 1, /, /^Server listening at http:\/\/127\.0\.0\.1:/, /^switchyard ready/].map((p) => indexOf(steps, p));
      assert.deepEqual(order, [...order].sort((a, b) => a - b), `steps out of order:\n${steps.join('\n')}`);
      await stopWithSigterm(first, 'npm');
    } finally {
      cleanUp(first);
    }
  });

  test('the next start opens the store, whose schema is up to date; SIGTERM to the server stops every process of the tree and closes the store', async () => {
    const second = await npmStart({ SWITCHYARD_DATA_DIR: dataDir });
    try {
      await waitFor(() => second.messages().includes('switchyard ready'), 'the second start', second.output);
      const steps = second.messages();
      indexOf(steps, /^opening the embedded store$/);
      indexOf(steps, /^migrations: schema up to date$/);
      assert.ok(!steps.some((m) => /DATABASE_URL/.test(m)), 'no warning about DATABASE_URL on the embedded store');
      await stopWithSigterm(second, 'the server');
    } finally {
      cleanUp(second);
    }
  });

  test('SIGTERM while the store is still opening: the process waits for it, closes it and exits', async () => {
    const run = await npmStart({ SWITCHYARD_DATA_DIR: dataDir });
    await waitFor(() => run.messages().includes('opening the embedded store'), 'the store to start opening', run.output);
    process.kill(run.pid, 'SIGTERM');
    await run.exited;
    const steps = run.messages();
    indexOf(steps, /^store closed; exiting$/);
    assert.ok(!steps.includes('switchyard ready'), steps.join('\n'));
    assert.ok(!existsSync(join(dataDir, 'switchyard.lock')));
  });

  test('DATABASE_URL without SWITCHYARD_SERVICE_TOKEN: a warning at start; the pool settings used are logged', { skip: !onPostgres && 'needs PostgreSQL' }, async () => {
    const { url, drop } = await privateSchemaUrl();
    const run = await npmStart({ DATABASE_URL: url, SWITCHYARD_DB_POOL_SIZE: '3', SWITCHYARD_STATEMENT_TIMEOUT_MS: '45000' });
    try {
      await waitFor(() => run.messages().includes('switchyard ready'), 'start-up', run.output);
      const steps = run.messages();
      const warning = indexOf(steps, /^DATABASE_URL is set without SWITCHYARD_SERVICE_TOKEN/);
      const connecting = indexOf(steps, /^connecting to PostgreSQL$/);
      assert.ok(warning < connecting, 'the warning comes first');
      const line = JSON.parse(run.output().split('\n').filter((text) => text.startsWith('{'))[connecting]!) as { poolSize: number; statementTimeoutMs: number };
      assert.deepEqual([line.poolSize, line.statementTimeoutMs], [3, 45000]);
      assert.ok(!run.output().includes(url), 'the connection string is never logged');
    } finally {
      process.kill(run.pid, 'SIGTERM');
      await run.exited;
      await drop();
    }
  });
});

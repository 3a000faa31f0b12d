// The real Switchyard process (`node --import tsx src/main.ts`, as `npm start` runs it) on
// 127.0.0.1 and a free port, for tests that kill it, restart it or take its database away.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { SERVICE_TOKEN, WEBHOOK_SECRET } from './test-app.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface SwitchyardProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process wrote to stdout and stderr. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL: no draining, no store close, a stale lock file left behind. */
  kill(): Promise<void>;
  /** SIGTERM, and the exit code of the clean shutdown. */
  stop(): Promise<number | null>;
}

export interface StorageEnv {
  SWITCHYARD_DATA_DIR?: string;
  DATABASE_URL?: string;
}

/**
 * The process as `npm start` runs it, with only PATH inherited and `env` added; not waited for.
 * `nodeArgs` go to node before the script (a benchmark's `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export function spawnSwitchyard(env: Record<string, string>, nodeArgs: string[] = []): Omit<SwitchyardProcess, 'baseUrl'> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return {
    child,
    output: () => output,
    exited,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      return (await exited).code;
    },
  };
}

/** Starts the process on `storage` (on `extraEnv.PORT`, else a free port) and resolves once /readyz answers 200. */
export async function startSwitchyard(storage: StorageEnv, extraEnv: Record<string, string> = {}, readyWithinMs = 180_000, nodeArgs: string[] = []): Promise<SwitchyardProcess> {
  const port = extraEnv.PORT ? Number(extraEnv.PORT) : await freePort();
  const spawned = spawnSwitchyard({
    HOST: '127.0.0.1',
    PORT: String(port),
    LOG_LEVEL: 'warn',
    SWITCHYARD_SERVICE_TOKEN: SERVICE_TOKEN,
    SWITCHYARD_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SWITCHYARD_HOSTING_API_URL: 'http://127.0.0.1:9',
    // Every test client is 127.0.0.1 with a few keys: the rate limits are out of the way unless
    // a test sets them (as test-app.ts does).
    SWITCHYARD_RATE_LIMIT_PER_ADDRESS: '10000000',
    SWITCHYARD_RATE_LIMIT_PER_CREDENTIAL: '10000000',
    SWITCHYARD_RATE_LIMIT_PER_OWNER: '10000000',
    ...storage,
    ...extraEnv,
  }, nodeArgs);
  const { child, output, exited } = spawned;
  const baseUrl = `http://127.0.0.1:${port}`;
  const run: SwitchyardProcess = { ...spawned, baseUrl };
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (gone) throw new Error(`switchyard exited during start-up: ${output()}`);
    const status = await fetch(`${baseUrl}/readyz`).then((r) => r.status, () => 0);
    if (status === 200) return run;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`switchyard not ready within ${readyWithinMs} ms: ${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

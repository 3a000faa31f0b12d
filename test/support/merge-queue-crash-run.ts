// One crash run of the merge queue (issue 15): a server process drives a queue of pull requests
// on the fake platform and is SIGKILLed at seeded random points, `kills` times, restarted each
// time on the same store; then the queue must finish and what happened must be right
// (queueProblems). The test runs a short version, bench/merge-queue-crash.ts the full one.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Backend } from '../../src/storage/store.ts';
import { privateSchemaUrl } from './backends.ts';
import { freePort, type StorageEnv, type SwitchyardProcess } from './switchyard-process.ts';
import { QueueScene, killAtRandomPoint, queueDone, queueProblems, readLog, registerRepository, seededRandom, startQueueServer, until, type KillRecord } from './merge-queue-process.ts';

export interface CrashRunOptions {
  backend: Backend;
  seed: number;
  kills: number;
  pulls: number;
  /** 1-based positions of pull requests whose checks fail */
  failing: number[];
  ciDelayMs: number;
  /** after the last kill, how long the queue may take to finish */
  finishWithinMs: number;
  log?: (line: string) => void;
}

export interface CrashRunResult {
  problems: string[];
  kills: KillRecord[];
  restartsMs: number[];
  totalMs: number;
  merged: number;
  dequeued: number;
  /** the server's output of each process, for a failure's diagnosis */
  outputs: string[];
}

async function storageFor(backend: Backend): Promise<{ env: StorageEnv; dispose: () => Promise<void> }> {
  if (backend === 'pglite') {
    const parent = await mkdtemp(join(tmpdir(), 'switchyard-mq-crash-'));
    return { env: { SWITCHYARD_DATA_DIR: join(parent, 'data') }, dispose: () => rm(parent, { recursive: true, force: true }) };
  }
  const { url, drop } = await privateSchemaUrl();
  return { env: { DATABASE_URL: url }, dispose: drop };
}

export async function runCrashScenario(options: CrashRunOptions): Promise<CrashRunResult> {
  const say = options.log ?? (() => {});
  const started = Date.now();
  const random = seededRandom(options.seed);
  const scene = await QueueScene.start({ ciDelayMs: options.ciDelayMs });
  const storage = await storageFor(options.backend);
  const port = await freePort();
  // A short lease: the restarted process (another holder) takes the queue over 2 s after the kill.
  const timings = { SWITCHYARD_MERGE_QUEUE_LEASE_SECONDS: '2', SWITCHYARD_MERGE_QUEUE_POLL_SECONDS: '1' };
  const outputs: string[] = [];
  let server: SwitchyardProcess | null = null;
  const kills: KillRecord[] = [];
  const restartsMs: number[] = [];
  try {
    server = await startQueueServer(scene, storage.env, port, timings);
    scene.subscribe(port);
    await registerRepository(server.baseUrl);
    const pulls = await scene.openPulls(options.pulls, options.failing);
    await scene.queueByComment(pulls);
    say(`${options.pulls} pull requests queued after ${Date.now() - started} ms`);

    let log = await readLog(server.baseUrl);
    const done = async () => {
      if (!server) return false;
      log = await readLog(server.baseUrl);
      return queueDone(scene, log);
    };
    for (let i = 1; i <= options.kills; i++) {
      const kill = await killAtRandomPoint(scene, server, random, done, started);
      if (!kill) {
        say(`the queue finished before kill ${i}`);
        break;
      }
      kills.push(kill);
      outputs.push(server.output());
      say(`kill ${i} at ${kill.at} ms, ${kill.how}; last change: ${kill.lastMutation ?? 'none'}`);
      const restart = Date.now();
      server = await startQueueServer(scene, storage.env, port, timings);
      restartsMs.push(Date.now() - restart);
    }
    await until('the queue to finish', done, options.finishWithinMs, 500);
    log = await readLog(server.baseUrl);
    const problems = await queueProblems(scene, log);
    outputs.push(server.output());
    const stopped = await server.stop();
    server = null;
    if (stopped !== 0) problems.push(`the last server stopped with ${stopped}`);
    const merged = scene.pulls.filter((pull) => scene.platform.pullRequest('acme/widgets', pull.number).merged).length;
    return { problems, kills, restartsMs, totalMs: Date.now() - started, merged, dequeued: scene.pulls.length - merged, outputs };
  } catch (error) {
    if (server) outputs.push(server.output());
    const tail = outputs.map((output) => output.split('\n').slice(-15).join('\n')).join('\n----\n');
    throw new Error(`${(error as Error).message}\nseed ${options.seed}; kills so far: ${JSON.stringify(kills)}\nserver output (tails):\n${tail}`);
  } finally {
    if (server) await server.kill().catch(() => undefined);
    await scene.stop().catch(() => undefined);
    await storage.dispose().catch(() => undefined);
  }
}

// The container image, without a Docker engine (none on this machine): the Dockerfile's
// instructions are carried out in order on a clean copy of the repository (tracked files minus
// .dockerignore, no node_modules), with its paths moved under a temporary root: the same
// `npm ci --omit=dev`, the same start command, the same health check, then SIGTERM. What this
// cannot show (the base image, USER, VOLUME, the real chown) is checked as written.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import picomatch from 'picomatch';
import { freePort } from '../support/switchyard-process.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions with their continuation lines joined; comments dropped. */
function instructions(text: string): Instruction[] {
  const joined = text.replace(/\\\n\s*/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

/** ENV a=b c=d (values without spaces, as ours are written). */
const envPairs = (args: string) => Object.fromEntries(args.split(/\s+/).map((pair) => pair.split('=') as [string, string]));

/** The build context: tracked and new files of the working tree, less what .dockerignore names. */
async function copyContext(to: string): Promise<void> {
  const ignored = (await readFile(join(ROOT, '.dockerignore'), 'utf8')).split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const isIgnored = picomatch(ignored.flatMap((p) => [p, `${p}/**`]), { dot: true });
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (isIgnored(file) || !existsSync(join(ROOT, file))) continue;
    await mkdir(dirname(join(to, file)), { recursive: true });
    await cp(join(ROOT, file), join(to, file));
  }
}

describe('the Dockerfile, carried out without Docker', () => {
  const dirs: string[] = [];
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  test('its commands run in order in a clean copy: npm ci --omit=dev, the start command, the health check on /readyz, SIGTERM', async () => {
    const steps = instructions(await readFile(join(ROOT, 'Dockerfile'), 'utf8'));
    const keywords = steps.map((s) => s.keyword);
    assert.equal(keywords[0], 'FROM');
    assert.match(steps[0]!.args, /^node:20\b/, 'Node 20, as package.json engines');

    const temp = await mkdtemp(join(tmpdir(), 'switchyard-image-'));
    dirs.push(temp);
    const context = join(temp, 'context');
    const rootfs = join(temp, 'rootfs');
    await copyContext(context);
    // chown needs root and a `node` user: a stand-in records what it was asked to do.
    const shims = join(temp, 'shims');
    await mkdir(shims);
    await writeFile(join(shims, 'chown'), `#!/bin/sh\necho "$@" >> ${join(temp, 'chown.log')}\n`);
    await chmod(join(shims, 'chown'), 0o755);
    const rebase = (path: string) => join(rootfs, path);

    const env: Record<string, string> = {};
    let workdir = rootfs;
    let user = 'root';
    let userAtRun: string[] = [];
    let healthcheck: string[] = [];
    let entrypoint: string[] = [];
    let cmd: string[] = [];
    let volume = '';
    for (const step of steps.slice(1)) {
      switch (step.keyword) {
        case 'ENV':
          Object.assign(env, envPairs(step.args));
          break;
        case 'WORKDIR':
          workdir = rebase(step.args);
          await mkdir(workdir, { recursive: true });
          break;
        case 'COPY': {
          const parts = step.args.split(/\s+/);
          const dest = join(workdir, parts.pop()!);
          for (const source of parts) await cp(join(context, source), source === '.' ? dest : join(dest, source), { recursive: true });
          break;
        }
        case 'RUN':
          userAtRun.push(user);
          execFileSync('sh', ['-c', step.args], {
            cwd: workdir,
            env: { PATH: `${shims}:${process.env.PATH}`, HOME: process.env.HOME ?? temp, ...env, SWITCHYARD_DATA_DIR: rebase(env.SWITCHYARD_DATA_DIR!) },
            stdio: 'pipe',
          });
          break;
        case 'USER':
          user = step.args;
          break;
        case 'VOLUME':
          volume = step.args;
          break;
        case 'HEALTHCHECK':
          healthcheck = JSON.parse(step.args.slice(step.args.indexOf('CMD ') + 4));
          break;
        case 'ENTRYPOINT':
          entrypoint = JSON.parse(step.args);
          break;
        case 'CMD':
          cmd = JSON.parse(step.args);
          break;
        case 'EXPOSE':
          assert.equal(step.args, env.PORT);
          break;
        default:
          assert.fail(`an instruction this test does not carry out: ${step.keyword}`);
      }
    }

    assert.deepEqual(userAtRun, ['root', 'root']);
    assert.equal(user, 'node', 'the server runs as the unprivileged user');
    assert.equal(env.HOST, '0.0.0.0');
    assert.equal(volume, env.SWITCHYARD_DATA_DIR, 'the data directory is the volume');
    assert.equal((await readFile(join(temp, 'chown.log'), 'utf8')).trim(), `node:node ${rebase(env.SWITCHYARD_DATA_DIR!)}`);
    assert.ok(existsSync(join(workdir, 'node_modules/tsx')), 'tsx is a dependency: the image runs TypeScript');
    assert.ok(!existsSync(join(workdir, 'node_modules/typescript')), 'development dependencies are left out');
    assert.ok(!existsSync(join(workdir, 'test')) && !existsSync(join(workdir, '.git')), '.dockerignore applied');
    const start = [...entrypoint, ...cmd];
    const npmStart = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
    assert.equal(`exec ${start.join(' ')}`, npmStart, 'the image starts the server as npm start does');
    assert.ok(healthcheck.join(' ').includes('/readyz'));

    const port = String(await freePort());
    const runEnv = { PATH: process.env.PATH ?? '', ...env, PORT: port, SWITCHYARD_DATA_DIR: rebase(env.SWITCHYARD_DATA_DIR!) };
    const server = spawn(start[0]!, start.slice(1), { cwd: workdir, env: runEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    server.stdout.on('data', (chunk) => (output += chunk));
    server.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    try {
      const healthy = () => {
        try {
          execFileSync(healthcheck[0]!, healthcheck.slice(1), { cwd: workdir, env: runEnv, stdio: 'ignore' });
          return true;
        } catch {
          return false;
        }
      };
      const deadline = Date.now() + 300_000; // a first start of the embedded store, on a busy machine
      while (!healthy()) {
        if (Date.now() > deadline) throw new Error(`never healthy:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      // The health check ran synchronously: let the server's log lines arrive before reading them.
      while (!output.includes('switchyard ready') && server.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 50));
      // On 0.0.0.0 Fastify names each address it listens on, loopback among them.
      assert.match(output, new RegExp(`Server listening at http://127\\.0\\.0\\.1:${port}`));
    } finally {
      server.kill('SIGTERM');
    }
    assert.equal(await exited, 0);
    assert.match(output, /store closed; exiting/);
  });

  test('compose.yaml: PostgreSQL 15 and Switchyard built from here, connected, with a service token', async () => {
    const compose = parse(await readFile(join(ROOT, 'compose.yaml'), 'utf8'));
    assert.match(compose.services.postgres.image, /^postgres:15\b/);
    const app = compose.services.switchyard;
    assert.equal(app.build, '.');
    assert.equal(app.depends_on.postgres.condition, 'service_healthy');
    assert.match(app.environment.DATABASE_URL, /^postgres:\/\/switchyard:.*@postgres:5432\/switchyard$/);
    assert.ok(app.environment.SWITCHYARD_SERVICE_TOKEN, 'a service token, without which the admin API refuses everything');
    for (const name of ['SWITCHYARD_DB_POOL_SIZE', 'SWITCHYARD_STATEMENT_TIMEOUT_MS']) assert.ok(name in app.environment, name);
  });
});

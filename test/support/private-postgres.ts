// A PostgreSQL server of the test's own (initdb into a temporary directory, its own port), so
// a test can stop and restart it without disturbing anything else on the machine.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, chown, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './switchyard-process.ts';

const run = promisify(execFile);

async function binDir(): Promise<string | undefined> {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = (await readdir(root)).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => join(root, v, 'bin')).find((dir) => existsSync(join(dir, 'initdb')));
}

export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
    private readonly asPostgresUser: boolean,
  ) {}

  static async available(): Promise<boolean> {
    return (await binDir()) !== undefined;
  }

  /** initdb a fresh cluster; initdb refuses to run as root, so root runs it as "postgres". */
  static async create(): Promise<PrivatePostgres> {
    const bin = await binDir();
    if (!bin) throw new Error('PostgreSQL server binaries are not installed');
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-pg-'));
    const asPostgresUser = process.getuid?.() === 0;
    if (asPostgresUser) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      await chown(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    const server = new PrivatePostgres(bin, dir, await freePort(), asPostgresUser);
    await server.exec('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    return server;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private exec(tool: string, args: string[]) {
    const path = join(this.bin, tool);
    return this.asPostgresUser ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args);
  }

  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
    await this.exec('pg_ctl', ['-D', join(this.dir, 'data'), '-o', options, '-l', join(this.dir, 'log'), '-w', '-t', '30', 'start']);
  }

  async stop(): Promise<void> {
    await this.exec('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', '-t', '30', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop().catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true });
  }
}

// `switchyard keys` and `repos` against a real server on each backend, and how every API command
// fails: a bad token, an unknown repository, a server that is down; and usage errors.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { backends, postgresAvailable, privateSchemaUrl } from '../support/backends.ts';
import { loadMigrations } from '../../src/storage/migrate.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';
import { cli, cliFor } from '../support/cli-runner.ts';
import { freePort } from '../support/switchyard-process.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

/** Every command that calls the API, as typed; the repository ones name a repository no server here knows. */
const API_COMMANDS = [
  ['keys', 'create', '--owner', 'acme', '--scope', 'ci', '--name', 'x'],
  ['keys', 'list'],
  ['keys', 'revoke', '00000000-0000-4000-8000-000000000000'],
  ['repos', 'register', 'acme/refused'],
  ['scopes', 'send', 'acme/nowhere', '--sha', 'b'.repeat(40), '--scopes', 'api'],
  ['logs', 'acme/nowhere'],
  ['logs', 'aggregate', 'acme/nowhere'],
  ['queue', 'status', 'acme/nowhere', '--branch', 'main'],
];
const REPOSITORY_COMMANDS = API_COMMANDS.filter((args) => args.some((arg) => arg === 'acme/nowhere'));
const BAD_KEY = 'swy_notarealkeynotarealkeynotarealkey00';

for (const backend of await backends()) {
  describe(`switchyard keys and repos (${backend})`, () => {
    let server: TestApp;
    let run: ReturnType<typeof cliFor>;
    before(async () => {
      server = await startTestApp(backend);
      run = cliFor(server.baseUrl, SERVICE_TOKEN);
    });
    after(() => server.close());

    test('keys create prints the secret once; list shows the key without it; revoke revokes it', async () => {
      const created = await run(['keys', 'create', '--owner', 'acme', '--scope', 'ci', '--name', 'ci runner']);
      assert.equal(created.code, 0, created.stderr);
      const secret = created.stdout.trim();
      assert.match(secret, /^swy_/);
      const id = /key ([0-9a-f-]{36})/.exec(created.stderr)?.[1];
      assert.ok(id, created.stderr);
      const works = await fetch(`${server.baseUrl}/v1/repos/acme/widgets/commits/${'a'.repeat(40)}/scopes`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(works.status, 404, 'the printed secret is a working ci key (the repository is unknown)');

      const listed = await run(['keys', 'list', '--owner', 'acme']);
      assert.equal(listed.code, 0, listed.stderr);
      const lines = listed.stdout.trim().split('\n');
      assert.match(lines[0]!, /^ID\s+OWNER\s+SCOPE\s+NAME\s+CREATED\s+REVOKED$/);
      assert.equal(lines.length, 2);
      assert.ok(lines[1]!.startsWith(id) && lines[1]!.includes('ci runner') && lines[1]!.endsWith('-'), lines[1]);
      assert.ok(!listed.stdout.includes(secret));

      assert.equal((await run(['keys', 'revoke', id])).code, 0);
      const json = await run(['keys', 'list', '--owner', 'acme', '--json']);
      const keys = JSON.parse(json.stdout).keys;
      assert.equal(keys.length, 1);
      assert.equal(keys[0].id, id);
      assert.notEqual(keys[0].revoked_at, null);
      const revoked = await fetch(`${server.baseUrl}/v1/repos/acme/widgets/commits/${'a'.repeat(40)}/scopes`, { headers: { authorization: `Bearer ${secret}` } });
      assert.equal(revoked.status, 403);
    });

    test('the base URL may end in /v1, as API clients are given it', async () => {
      const listed = await cliFor(`${server.baseUrl}/v1/`, SERVICE_TOKEN)(['keys', 'list', '--json']);
      assert.equal(listed.code, 0, listed.stderr);
      assert.ok(Array.isArray(JSON.parse(listed.stdout).keys));
    });

    test('keys create --json answers the API body; revoking an unknown key prints its detail', async () => {
      const created = await run(['keys', 'create', '--owner', 'acme', '--scope', 'admin', '--name', 'dashboard', '--json']);
      const body = JSON.parse(created.stdout);
      assert.deepEqual([body.owner, body.scope, body.name], ['acme', 'admin', 'dashboard']);
      assert.match(body.key, /^swy_/);
      const unknown = await run(['keys', 'revoke', '00000000-0000-4000-8000-000000000000']);
      assert.equal(unknown.code, 1);
      assert.equal(unknown.stderr, 'switchyard: Application key not found (HTTP 404)\n');
    });

    test('repos register: created, then already known', async () => {
      const first = await run(['repos', 'register', 'acme/gadgets']);
      assert.deepEqual([first.code, first.stdout], [0, 'registered acme/gadgets\n']);
      const again = await run(['repos', 'register', 'acme/gadgets', '--json']);
      assert.deepEqual(JSON.parse(again.stdout), { repository: 'acme/gadgets', created: false });
      assert.equal((await server.request('GET', '/v1/products/acme/gadgets')).status, 200);
    });

    test('a bad token: the API detail, exit 1, nothing written', async () => {
      const refused = await cliFor(server.baseUrl, BAD_KEY)(['repos', 'register', 'acme/refused']);
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr, 'switchyard: The credential is unknown or has been revoked. (HTTP 403)\n');
      assert.equal((await server.request('GET', '/v1/products/acme/refused')).status, 404);
    });

    test('every API command: a bad token is the API refusal, exit 1; an unknown repository is its 404', async () => {
      // The merge-queue routes are not served yet by every build: test/cli/cli-queue.test.ts checks them.
      for (const args of API_COMMANDS.filter(([verb]) => verb !== 'queue')) {
        const refused = await cliFor(server.baseUrl, BAD_KEY)(args);
        assert.deepEqual([refused.code, refused.stdout, refused.stderr], [1, '', 'switchyard: The credential is unknown or has been revoked. (HTTP 403)\n'], args.join(' '));
      }
      for (const args of REPOSITORY_COMMANDS.filter(([verb]) => verb !== 'queue')) {
        const unknown = await run(args);
        assert.deepEqual([unknown.code, unknown.stdout, unknown.stderr], [1, '', 'switchyard: Repository not found (HTTP 404)\n'], args.join(' '));
      }
    });

    test('a validation refusal lists each problem', async () => {
      const invalid = await run(['keys', 'create', '--owner', 'not an owner', '--scope', 'ci', '--name', 'x']);
      assert.equal(invalid.code, 1);
      assert.match(invalid.stderr, /^switchyard: the request is invalid \(HTTP 422\):\n {2}body\.owner: /);
    });
  });
}

describe('switchyard without a server, or misused', () => {
  test('a server that is down: every API command exits 3 naming the URL', async () => {
    const url = `http://127.0.0.1:${await freePort()}`;
    for (const args of API_COMMANDS) {
      const down = await cliFor(url, SERVICE_TOKEN)(args);
      assert.deepEqual([down.code, down.stderr], [3, `switchyard: cannot reach Switchyard at ${url}: ECONNREFUSED\n`], args.join(' '));
    }
  });

  test('usage errors exit 2 with a hint; --help exits 0 on every command', async () => {
    const missing = await cli(['keys', 'create', '--owner', 'acme']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /required option '--scope <scope>' not specified/);
    const badRepo = await cli(['repos', 'register', 'acme']);
    assert.deepEqual([badRepo.code, badRepo.stderr], [2, 'switchyard: "acme" is not a repository: give it as owner/repository\n']);
    const badUrl = await cli(['keys', 'list', '--url', 'ftp://x']);
    assert.equal(badUrl.code, 2);
    const commands = [[], ['serve'], ['migrate'], ['export'], ['import'], ['keys'], ['keys', 'create'], ['keys', 'list'], ['keys', 'revoke'], ['repos', 'register'], ['scopes', 'compute'], ['scopes', 'send'], ['logs'], ['logs', 'aggregate']];
    for (const verb of ['status', 'show', 'add', 'remove', 'pause', 'unpause']) commands.push(['queue', verb]);
    for (const path of commands) {
      const help = await cli([...path, '--help']);
      assert.equal(help.code, 0, path.join(' '));
      assert.match(help.stdout, /^Usage: switchyard/, path.join(' '));
    }
  });

  test('migrate applies what the store lacks, then nothing; a bad setting is a usage error', async () => {
    const versions = (await loadMigrations()).map((m) => m.version);
    const memory = await cli(['migrate', '--json'], { env: { SWITCHYARD_DATA_DIR: 'memory://' } });
    assert.equal(memory.code, 0, memory.stderr);
    assert.deepEqual(JSON.parse(memory.stdout), { applied: versions });
    if (await postgresAvailable()) {
      const { url, drop } = await privateSchemaUrl();
      try {
        assert.equal((await cli(['migrate'], { env: { DATABASE_URL: url } })).stdout, `applied migrations ${versions.join(', ')}\n`);
        assert.equal((await cli(['migrate'], { env: { DATABASE_URL: url } })).stdout, 'the schema is up to date\n');
      } finally {
        await drop();
      }
    }
    const bad = await cli(['migrate'], { env: { DATABASE_URL: 'mysql://x' } });
    assert.deepEqual([bad.code, bad.stderr], [2, 'switchyard: configuration error: DATABASE_URL must use postgres or postgresql, got "mysql"\n']);
  });

  test('the installed bin runs in one process and prints its help', async () => {
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile(process.execPath, [`${ROOT}bin/switchyard.mjs`, '--help'], { cwd: '/' }, (error, stdout) => (error ? reject(error) : resolve({ stdout }))),
    );
    for (const command of ['serve', 'migrate', 'export', 'import', 'keys', 'repos', 'scopes', 'logs', 'queue']) assert.match(stdout, new RegExp(`^  ${command}\\b`, 'm'), command);
  });

  test('output into a pipe the reader closed early (`| head -1`): a quiet exit 0, no EPIPE crash', async () => {
    const child = spawn(process.execPath, [`${ROOT}bin/switchyard.mjs`, '--help'], { cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy(); // the reader is gone before the command writes a byte
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const [code] = (await once(child, 'close')) as [number | null];
    assert.equal(stderr, '');
    assert.equal(code, 0);
  });
});

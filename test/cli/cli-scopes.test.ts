// `switchyard scopes compute` on a real git repository the test builds (a base that moved on
// since the branch left it, a rename, a barrier file), and `scopes send` reporting by commit for
// the pull request head named in a GitHub Actions event payload, on each backend.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { backends } from '../support/backends.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';
import { cli, cliFor } from '../support/cli-runner.ts';

const SCOPES_FILE = `# the scopes section of a configuration file, with other sections beside it
queue_rules:
  - name: default
scopes:
  source:
    files:
      frontend:
        include: ["web/**/*.{ts,tsx}"]
        exclude: ["**/*.test.ts"]
      api:
        include: ["api/**"]
      docs:
        include: ["docs/*.md"]
  barrier_files:
    include: ["Makefile", ".github/workflows/**"]
`;

const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' };

async function buildRepository(): Promise<{ dir: string; git: (...args: string[]) => string; write: (path: string, text: string) => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-git-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: { PATH: process.env.PATH, ...GIT_ENV }, encoding: 'utf8' }).trim();
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  };
  git('init', '-q', '-b', 'main');
  await write('.mergify.yml', SCOPES_FILE);
  for (const path of ['web/app.ts', 'web/app.test.ts', 'api/server.py', 'lib/shared.py', 'docs/guide.md', 'Makefile']) await write(path, `${path}\n`);
  git('add', '-A');
  git('commit', '-qm', 'base');
  return { dir, git, write };
}

describe('switchyard scopes compute, on a git repository', () => {
  let repo: Awaited<ReturnType<typeof buildRepository>>;
  before(async () => {
    repo = await buildRepository();
    repo.git('checkout', '-qb', 'feature');
    await repo.write('web/app.test.ts', 'changed test\n');
    repo.git('mv', 'api/server.py', 'lib/server.py');
    repo.git('commit', '-qam', 'feature: a test and a move out of api/');
    repo.git('checkout', '-q', 'main');
    await repo.write('docs/guide.md', 'changed on main since the branch left\n');
    repo.git('commit', '-qam', 'main moves on');
  });
  after(() => rm(repo.dir, { recursive: true, force: true }));

  test("only the branch's own changes count, from the merge base; a rename counts at both paths", async () => {
    const result = await cli(['scopes', 'compute', '--base', 'main', '--head', 'feature', '--json'], { cwd: repo.dir });
    assert.equal(result.code, 0, result.stderr);
    // web/app.test.ts is excluded from frontend; docs changed on main only; moving a file out of
    // api/ touches api (its old path).
    assert.deepEqual(JSON.parse(result.stdout), { scopes: ['api'], all_scopes: false, barrier_files: [] });
  });

  test('a barrier file makes it all scopes; text output lists scopes one a line', async () => {
    repo.git('checkout', '-qb', 'tooling', 'feature');
    await repo.write('Makefile', 'changed\n');
    await repo.write('web/app.ts', 'changed\n');
    repo.git('commit', '-qam', 'tooling');
    const result = await cli(['scopes', 'compute', '--base', 'main', '-C', repo.dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, 'api\nfrontend\n');
    assert.equal(result.stderr, 'all scopes: barrier files changed (Makefile)\n');
  });

  test('a scopes file given by path, in JSON; what is wrong with a bad one; a ref git does not know', async () => {
    const json = join(repo.dir, 'scopes.json');
    await writeFile(json, JSON.stringify({ scopes: { source: { files: { everything: {} } } } }));
    const given = await cli(['scopes', 'compute', '--base', 'main', '--head', 'feature', '--scopes-file', json, '--json'], { cwd: repo.dir });
    assert.deepEqual(JSON.parse(given.stdout).scopes, ['everything']);

    await writeFile(json, JSON.stringify({ scopes: { source: { files: { x: { include: 'web/**' } } } } }));
    const bad = await cli(['scopes', 'compute', '--base', 'main', '--scopes-file', json], { cwd: repo.dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /is not a scopes file:\n/);
    assert.match(bad.stderr, /scopes\.source/);

    const unknownRef = await cli(['scopes', 'compute', '--base', 'no-such-branch'], { cwd: repo.dir });
    assert.equal(unknownRef.code, 2);
    assert.match(unknownRef.stderr, /"no-such-branch" does not name a commit/);
    const noBase = await cli(['scopes', 'compute'], { cwd: repo.dir });
    assert.deepEqual([noBase.code, noBase.stderr], [2, 'switchyard: give --base (the branch or commit the change is compared with)\n']);
  });

  test('in a shallow clone (a CI checkout without fetch-depth: 0), a missing commit says how to fetch it', async () => {
    const shallow = join(repo.dir, 'shallow');
    repo.git('clone', '-q', '--depth', '1', '--branch', 'feature', `file://${repo.dir}`, shallow);
    const base = repo.git('rev-parse', 'main~1');
    const result = await cli(['scopes', 'compute', '--base', base], { cwd: shallow });
    assert.equal(result.code, 2);
    assert.match(result.stderr, new RegExp(`^switchyard: "${base}" does not name a commit .*; this clone is shallow: fetch the history first \\(with actions/checkout: fetch-depth: 0\\)\\n$`));
  });
});

for (const backend of await backends()) {
  describe(`switchyard scopes send (${backend})`, () => {
    let server: TestApp;
    let repo: Awaited<ReturnType<typeof buildRepository>>;
    let head = '';
    let base = '';
    let eventPath = '';
    before(async () => {
      server = await startTestApp(backend);
      repo = await buildRepository();
      base = repo.git('rev-parse', 'HEAD');
      repo.git('checkout', '-qb', 'feature');
      await repo.write('web/app.ts', 'changed\n');
      await repo.write('docs/guide.md', 'changed\n');
      repo.git('commit', '-qam', 'feature');
      head = repo.git('rev-parse', 'HEAD');
      // What actions/checkout leaves on a pull request event: a merge commit, not the head.
      repo.git('checkout', '-q', 'main');
      repo.git('merge', '-q', '--no-ff', '-m', 'merge commit of the pull request', 'feature');
      eventPath = join(repo.dir, 'event.json');
      await writeFile(eventPath, JSON.stringify({ action: 'synchronize', number: 7, pull_request: { number: 7, head: { sha: head }, base: { sha: base, ref: 'main' } }, repository: { full_name: 'acme/widgets' } }));
      assert.equal((await server.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      assert.equal((await server.request('PUT', '/v1/admin/repos/acme/widgets/pulls/7', { body: { state: 'open', head_sha: head } })).status, 204);
    });
    after(async () => {
      await server.close();
      await rm(repo.dir, { recursive: true, force: true });
    });

    test("on a pull request event: computed scopes sent for the pull request's head, not the merge commit checked out", async () => {
      const sent = await cliFor(server.baseUrl, SERVICE_TOKEN)(['scopes', 'send', '--json'], { cwd: repo.dir, env: { GITHUB_EVENT_PATH: eventPath } });
      assert.equal(sent.code, 0, sent.stderr);
      assert.deepEqual(JSON.parse(sent.stdout), { repository: 'acme/widgets', sha: head, scopes: ['docs', 'frontend'], all_scopes: false });
      const effective = await server.request('GET', '/v1/repos/acme/widgets/pulls/7/scopes');
      assert.equal(effective.status, 200);
      assert.deepEqual([effective.json.scopes, effective.json.all_scopes, effective.json.source, effective.json.head_sha], [['docs', 'frontend'], false, 'commit', head]);
    });

    test('scopes given instead of computed, for a commit given, with a ci key', async () => {
      const created = await server.request('POST', '/v1/admin/keys', { body: { owner: 'acme', scope: 'ci', name: 'ci' } });
      const sha = 'C'.repeat(40);
      const sent = await cliFor(server.baseUrl, created.json.key)(['scopes', 'send', 'acme/widgets', '--sha', sha, '--scopes', 'api, api,web', '--all-scopes']);
      assert.equal(sent.code, 0, sent.stderr);
      assert.equal(sent.stdout, `sent api, web (all scopes: a barrier) for acme/widgets@${sha.toLowerCase()}\n`);
      const stored = await server.request('GET', `/v1/repos/acme/widgets/commits/${sha.toLowerCase()}/scopes`);
      assert.deepEqual([stored.json.scopes, stored.json.all_scopes], [['api', 'web'], true]);
      const none = await cliFor(server.baseUrl, created.json.key)(['scopes', 'send', 'acme/widgets', '--sha', sha, '--scopes', '']);
      assert.equal(none.code, 0, none.stderr);
      assert.deepEqual((await server.request('GET', `/v1/repos/acme/widgets/commits/${sha.toLowerCase()}/scopes`)).json.scopes, []);
    });

    test('no repository anywhere, or a short sha: usage errors before any request', async () => {
      const noRepo = await cliFor(server.baseUrl, SERVICE_TOKEN)(['scopes', 'send', '--sha', head, '--scopes', 'a'], { cwd: repo.dir });
      assert.equal(noRepo.code, 2);
      const short = await cliFor(server.baseUrl, SERVICE_TOKEN)(['scopes', 'send', 'acme/widgets', '--sha', 'abc', '--scopes', 'a']);
      assert.deepEqual([short.code, short.stderr], [2, 'switchyard: --sha must be a full 40-character commit sha, got "abc"\n']);
    });
  });
}

// `switchyard logs` and `logs aggregate` against a real server on each backend: filters as flags,
// pages followed, JSON lines, the histogram drawn, and --follow printing what arrives.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.ts';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';
import { cliFor } from '../support/cli-runner.ts';

const label = (n: number, at: Date, pull: number | bigint) => ({
  type: 'action.label',
  trigger: n % 2 ? 'Rule: odd' : 'Rule: even',
  pull_request: pull,
  base_ref: 'main',
  received_at: at.toISOString(),
  metadata: { added: [`l${n}`], removed: [] },
});

const BIG = 9223372036854775807n;

for (const backend of await backends()) {
  describe(`switchyard logs (${backend})`, () => {
    let server: TestApp;
    let run: ReturnType<typeof cliFor>;
    const now = Date.now();
    before(async () => {
      server = await startTestApp(backend);
      run = cliFor(server.baseUrl, SERVICE_TOKEN);
      assert.equal((await server.request('PUT', '/v1/admin/repos/acme/widgets')).status, 201);
      const events = Array.from({ length: 25 }, (_, i) => label(i, new Date(now - (25 - i) * 60_000), i === 24 ? BIG : 100 + (i % 3)));
      const written = await server.request('POST', '/v1/repos/acme/widgets/logs', { body: { events } });
      assert.equal(written.status, 201, written.text);
    });
    after(() => server.close());

    test('a table of the newest events, pages followed up to --limit', async () => {
      const listed = await run(['logs', 'acme/widgets', '--limit', '12']);
      assert.equal(listed.code, 0, listed.stderr);
      const lines = listed.stdout.trim().split('\n');
      assert.match(lines[0]!, /^RECEIVED\s+ID\s+TYPE\s+OUTCOME\s+PULL\s+TRIGGER$/);
      assert.equal(lines.length, 13);
      assert.ok(lines[1]!.includes(`${BIG}`) && lines[1]!.includes('action.label') && lines[1]!.endsWith('Rule: even'), lines[1]);
    });

    test('--json: one exact event per line; filters as flags', async () => {
      const all = await run(['logs', 'acme/widgets', '--limit', '100', '--json']);
      const events = all.stdout.trim().split('\n');
      assert.equal(events.length, 25);
      assert.ok(events[0]!.includes(`"pull_request":${BIG}`), 'a 64-bit number printed exactly');
      const filtered = await run(['logs', 'acme/widgets', '--json', '--pull-request', '100', '--pull-request', '101', '--trigger', 'Rule: odd', '--since', '1d']);
      const picked = filtered.stdout.trim().split('\n').map((line) => JSON.parse(line));
      assert.ok(picked.length > 0);
      assert.ok(picked.every((e) => [100, 101].includes(e.pull_request) && e.trigger === 'Rule: odd'), filtered.stdout);
      const api = await server.request('GET', '/v1/repos/acme/widgets/logs?pull_request=100&pull_request=101&trigger=Rule:%20odd&per_page=100');
      assert.deepEqual(picked.map((e) => e.id), api.json.events.map((e: { id: number }) => e.id));
    });

    test("a refused filter prints the API's problems", async () => {
      const refused = await run(['logs', 'acme/widgets', '--outcome', 'success', '--not-outcome', 'failure']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /the request is invalid \(HTTP 422\)/);
      const unknown = await run(['logs', 'acme/nowhere']);
      assert.deepEqual([unknown.code, unknown.stderr], [1, 'switchyard: Repository not found (HTTP 404)\n']);
    });

    test('aggregate: the total, a histogram whose counts add up, the facets; --json is the API answer', async () => {
      const json = await run(['logs', 'aggregate', 'acme/widgets', '--json', '--since', '2h']);
      assert.equal(json.code, 0, json.stderr);
      const result = JSON.parse(json.stdout);
      assert.equal(result.total, 25);
      const text = await run(['logs', 'aggregate', 'acme/widgets', '--since', '2h', '--rows', '6', '--top', '2']);
      assert.equal(text.code, 0, text.stderr);
      const [summary, , ...rest] = text.stdout.split('\n');
      assert.match(summary!, /^25 events from \S+ to \S+ \(buckets of \d+ s\)$/);
      const bars = rest.slice(0, rest.indexOf(''));
      assert.ok(bars.length <= 6 && bars.length > 0, text.stdout);
      assert.equal(bars.map((line) => Number(/^\S+ \S+\s+(\d+)/.exec(line)![1])).reduce((a, b) => a + b, 0), 25, 'the drawn counts add up to the total');
      assert.ok(bars.some((line) => line.includes('█')));
      assert.match(text.stdout, /\nOUTCOME\s+COUNT\nsuccess\s+25\n/);
      assert.match(text.stdout, /\nTRIGGER\s+COUNT\nRule: even\s+13\nRule: odd\s+12\n/);
      assert.match(text.stdout, /\nPULL REQUEST\s+COUNT\n(?:.*\n){2}\(2 more; --top to show them\)\n/);
    });

    test('--follow prints what was there, then each new event once as it arrives, until stopped', async () => {
      const stop = new AbortController();
      let output = '';
      const following = run(['logs', 'acme/widgets', '--follow', '--json', '--limit', '2', '--interval', '1', '--event-type', 'action.comment', '--event-type', 'action.label'], {
        signal: stop.signal,
        onStdout: (text) => (output += text),
      });
      const waitForLines = async (count: number) => {
        const deadline = Date.now() + 30_000;
        while (output.trim().split('\n').filter(Boolean).length < count) {
          if (Date.now() > deadline) throw new Error(`timed out; output so far:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      try {
        await waitForLines(2);
        const comment = { type: 'action.comment', trigger: 'Rule: say', pull_request: 5, metadata: { message: 'hello' } };
        const written = await server.request('POST', '/v1/repos/acme/widgets/logs', { body: { events: [comment, { ...comment, type: 'action.close' }] } });
        assert.equal(written.status, 201);
        await waitForLines(3);
        await new Promise((resolve) => setTimeout(resolve, 2500)); // two more polls: nothing printed twice
      } finally {
        stop.abort();
      }
      const result = await following;
      assert.equal(result.code, 0, result.stderr);
      const lines = output.trim().split('\n').map((line) => JSON.parse(line));
      assert.deepEqual(lines.map((e) => e.type), ['action.label', 'action.label', 'action.comment'], 'the filter holds while following; nothing twice');
      assert.ok(Date.parse(lines[0].received_at) <= Date.parse(lines[1].received_at), 'oldest first');
    });
  });
}

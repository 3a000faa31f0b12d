// How long the fake hosting platform (test/support/fake-platform/) takes to set a scene, as the
// merge-queue tests and the executor benchmark do many times: a repository, then N pull requests
// opened one after another and N opened at once, then N merged through Switchyard's hosting
// client. Also the git processes each step starts, which does not depend on the machine's load.
//
//   npx tsx bench/fake-platform-setup.ts [--pulls 20] [--rounds 5] [--json file]
import { parseArgs } from 'node:util';
import { loadavg } from 'node:os';
import { FakePlatform } from '../test/support/fake-platform/fake-platform.ts';
import { hostingClientFor } from '../test/support/fake-platform/platform-client.ts';
import { gitProcesses, runGit } from '../test/support/fake-platform/run-git.ts';
import { writeJsonResults } from './json-results.ts';

const { values: args } = parseArgs({ options: { pulls: { type: 'string', default: '20' }, rounds: { type: 'string', default: '5' }, json: { type: 'string' } } });
const PULLS = Number(args.pulls);
const ROUNDS = Number(args.rounds);

interface Step {
  ms: number;
  git: number;
}

async function measure(work: () => Promise<unknown>): Promise<Step> {
  const git = gitProcesses.started;
  const start = performance.now();
  await work();
  return { ms: performance.now() - start, git: gitProcesses.started - git };
}

async function round(): Promise<Record<string, Step>> {
  const platform = await new FakePlatform().start();
  try {
    const { token } = platform.createUser('bench');
    const repo = await measure(() => platform.createRepository({ owner: 'bench', name: 'sequential' }));
    const sequential = await measure(async () => {
      for (let i = 0; i < PULLS; i++) await platform.openPullRequest({ repo: 'bench/sequential', changes: { [`file-${i}.txt`]: `${i}\n` } });
    });
    await platform.createRepository({ owner: 'bench', name: 'parallel' });
    const parallel = await measure(() => Promise.all(Array.from({ length: PULLS }, (_, i) => platform.openPullRequest({ repo: 'bench/parallel', changes: { [`file-${i}.txt`]: `${i}\n` } }))));
    const client = hostingClientFor(platform, { kind: 'token', token });
    const pulls = [...platform.repo('bench/sequential').pulls.values()];
    const merged = await measure(async () => {
      for (const pr of pulls) await client.mergePullRequest({ owner: 'bench', repo: 'sequential' }, pr.number, { sha: pr.headSha, method: 'squash' });
    });
    return { repo, sequential, parallel, merged };
  } finally {
    await platform.stop();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** What one git process costs on this machine now: the unit the steps below are made of. */
async function gitProcessMs(): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < 20; i++) await runGit('/', ['--version'], { cwd: '/' });
  return (performance.now() - start) / 20;
}

const loadBefore = loadavg().map((l) => l.toFixed(2)).join(' ');
const spawnBefore = await gitProcessMs();
const rounds: Record<string, Step>[] = [];
for (let i = 0; i < ROUNDS; i++) rounds.push(await round());
const loadAfter = loadavg().map((l) => l.toFixed(2)).join(' ');
const spawnAfter = await gitProcessMs();

const labels: Record<string, string> = {
  repo: 'create a repository',
  sequential: `open ${PULLS} pull requests, one after another`,
  parallel: `open ${PULLS} pull requests at once`,
  merged: `merge ${PULLS} pull requests through the hosting client (squash, sha-pinned)`,
};
console.log(`fake platform set-up, ${ROUNDS} rounds (median), load average ${loadBefore} → ${loadAfter}`);
console.log('| step | median ms | ms per item | git processes per item |');
console.log('|---|---|---|---|');
for (const [key, label] of Object.entries(labels)) {
  const ms = median(rounds.map((r) => r[key]!.ms));
  const items = key === 'repo' ? 1 : PULLS;
  console.log(`| ${label} | ${ms.toFixed(0)} | ${(ms / items).toFixed(1)} | ${(rounds[0]![key]!.git / items).toFixed(1)} |`);
}
const total = median(rounds.map((r) => r.repo!.ms + r.sequential!.ms));
console.log(`repository + ${PULLS} pull requests (one after another): ${total.toFixed(0)} ms`);
console.log(`one git process (git --version) took ${spawnBefore.toFixed(1)} ms before and ${spawnAfter.toFixed(1)} ms after`);
await writeJsonResults(args.json, 'fake-platform-setup', [
  { backend: 'none', case: `repository + ${PULLS} pull requests`, metrics: { 'sequential ms': total, 'parallel ms': median(rounds.map((r) => r.repo!.ms + r.parallel!.ms)), [`merge ${PULLS} ms`]: median(rounds.map((r) => r.merged!.ms)) } },
]);

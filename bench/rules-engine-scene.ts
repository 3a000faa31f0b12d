// The scene of rules-engine.ts: a repository whose `.mergify.yml` holds ten pull_request_rules
// of the usual kinds (labels, checks, files, reviews, base, title, author, draft), registered
// with workflow_automation, and its open pull requests, each with a file of its own (one in five
// under docs/). What the Summary says of a pull request is read from the platform's own records.
import { createCheckRun } from '../test/support/fake-platform/checks.ts';
import { valueOf } from '../test/support/fake-platform/platform-answer.ts';
import type { FakeApp } from '../test/support/fake-platform/platform-model.ts';
import { OWNER, type RulesWorld } from './rules-engine-world.ts';

export const REPO = `${OWNER}/rules`;
export const SUMMARY = 'Switchyard / Summary';
export const CI_CHECK = 'ci/test';

/** The configuration; `revision` changes a comment only, `wipName` the name of one rule (every Summary shows it). */
export function configuration(revision = 0, wipName = 'work in progress'): string {
  return `# revision ${revision}
queue_rules:
  - name: default
    merge_conditions:
      - check-success=${CI_CHECK}
pull_request_rules:
  - name: ready to merge
    conditions:
      - label=ready
      - check-success=${CI_CHECK}
      - -draft
    actions:
      comment:
        message: ready
  - name: ${wipName}
    conditions:
      - label=wip
    actions:
      comment:
        message: wip
  - name: documentation
    conditions:
      - files~=^docs/
    actions:
      label:
        add: [documentation]
  - name: release branch
    conditions:
      - base=release
    actions:
      label:
        add: [release]
  - name: failing CI
    conditions:
      - check-failure=${CI_CHECK}
    actions:
      comment:
        message: CI fails
  - name: approved
    conditions:
      - "#approved-reviews-by>=1"
      - -label=wip
    actions:
      label:
        add: [approved]
  - name: title says WIP
    conditions:
      - title~=^WIP
    actions:
      label:
        add: [wip]
  - name: bots
    conditions:
      - author~=\\[bot\\]$
    actions:
      label:
        add: [bot]
  - name: urgent
    conditions:
      - label=urgent
      - -draft
      - base=main
    actions:
      comment:
        message: urgent
  - name: not closed
    conditions:
      - -closed
      - -merged
    actions:
      comment:
        message: open
`;
}

export interface ScenePull {
  number: bigint;
  head: string;
}

/** The repository, registered with workflow_automation and its configuration read. */
export async function createRepository(world: RulesWorld): Promise<void> {
  await world.platform.createRepository({ owner: OWNER, name: 'rules', files: { 'README.md': 'rules\n', '.mergify.yml': configuration() } });
  expectStatus(await world.api('PUT', `/v1/default_products/${OWNER}`, { products: ['workflow_automation'] }), 204);
  expectStatus(await world.api('PUT', `/v1/admin/repos/${REPO}`), 201);
  const report = await waitFor('the configuration read', 60_000, async () => {
    const answer = await world.api('GET', `/v1/repos/${REPO}/configuration`);
    return answer.json?.source ? answer.json : undefined;
  });
  // Actions are the next issue's: only they may be listed as not supported, never a condition.
  const unsupported = (report.not_supported as string[]).filter((key) => !/\.actions\./.test(key));
  if (!report.valid || unsupported.length) throw new Error(`the configuration should be valid, its conditions supported: ${JSON.stringify({ errors: report.errors, unsupported })}`);
}

/** Opens `count` pull requests, `concurrency` at a time (each costs the platform a few git processes). */
export async function openPulls(world: RulesWorld, count: number, concurrency = 8): Promise<ScenePull[]> {
  const pulls: ScenePull[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const path = i % 5 === 0 ? `docs/page-${i}.md` : `src/part-${i}.ts`;
      const opened = await world.platform.openPullRequest({ repo: REPO, changes: { [path]: `${i}\n` }, title: `Change ${i}` });
      pulls.push({ number: opened.number, head: opened.headSha });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return pulls.sort((a, b) => (a.number < b.number ? -1 : 1));
}

/** Evaluates these pull requests now (as a restart's first webhooks would), and waits until none is due. */
export async function evaluateAll(world: RulesWorld, pulls: readonly ScenePull[], timeoutMs: number): Promise<void> {
  const repository = (await world.store.repositories.identify(OWNER, 'rules'))!;
  await world.store.rulesEngine.schedule(repository.id, pulls.map((pull) => pull.number), new Date());
  world.switchyard.automation.engine!.wake();
  await engineIdle(world, timeoutMs);
}

/** Waits until the platform's webhooks are delivered and nothing is due any more. */
export async function engineIdle(world: RulesWorld, timeoutMs: number): Promise<void> {
  await world.platform.webhooks.settled();
  await waitFor('the rules engine idle', timeoutMs, async () => {
    const due = await world.store.db.selectFrom('rule_evaluations_due').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const reads = await world.store.db.selectFrom('configuration_reads_due').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    return Number(due.n) + Number(reads.n) === 0 ? true : undefined;
  });
}

/** A check run of `ci/test`, completed, as the CI app posts it (created and completed webhooks). */
export async function completeCheck(world: RulesWorld, ci: FakeApp, head: string, conclusion: 'success' | 'failure'): Promise<void> {
  valueOf(await createCheckRun(world.platform.core, world.platform.repo(REPO), ci, head, { name: CI_CHECK, status: 'completed', conclusion }));
}

/** Whether the Summary's checklist line for `condition` is ticked (undefined when absent). */
export function ticked(summary: string, condition: string): boolean | undefined {
  const line = summary.split('\n').find((text) => text.includes(`\`${condition}\``));
  return line === undefined ? undefined : line.trimStart().startsWith('- [X]');
}

export async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

function expectStatus(answer: { status: number; json: unknown }, status: number): void {
  if (answer.status !== status) throw new Error(`expected ${status}, got ${answer.status}: ${JSON.stringify(answer.json)}`);
}

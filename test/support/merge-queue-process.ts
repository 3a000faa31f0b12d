// The merge queue driven by real `switchyard serve` processes (DESIGN §10, issue 15): the fake
// platform runs in the test's process (a repository, pull requests, a fake CI, the queue's bot
// token), the server is a child process pointed at it; SIGKILLs at seeded random points; and what
// the platform and the activity log must show once the queue is done, whatever was killed when.
// Used by test/merge-queue/executor-crash.test.ts, executor-takeover.test.ts and
// bench/merge-queue-crash.ts.
import { FakePlatform } from './fake-platform/fake-platform.ts';
import { failWhenAllPresent } from './fake-platform/fake-ci.ts';
import type { LoggedRequest } from './fake-platform/platform-server.ts';
import { SERVICE_TOKEN, WEBHOOK_SECRET } from './test-app.ts';
import { startSwitchyard, type StorageEnv, type SwitchyardProcess } from './switchyard-process.ts';

export const REPO = 'acme/widgets';
export const BOT = 'switchyard-bot';
const AUTHOR = 'alice';
/** A pull request adding this file fails the fake CI (on every batch holding it). */
const FAIL_FLAG = 'fail.flag';

export interface ScenePull {
  number: bigint;
  headSha: string;
  /** the file it adds: what the base holds once it is merged */
  file: string;
  failing: boolean;
}

export interface LogEvent {
  type: string;
  pull_request: number | string | null;
  metadata: Record<string, any>;
}

/** A small deterministic generator (mulberry32): the kill points of a seed are reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function until<T>(what: string, probe: () => Promise<T | undefined | false | null>, timeoutMs: number, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export class QueueScene {
  readonly pulls: ScenePull[] = [];
  private constructor(
    readonly platform: FakePlatform,
    readonly botToken: string,
  ) {}

  /** A platform of its own with the repository, its writers, the queue's bot and the fake CI. */
  static async start(options: { ciDelayMs: number }): Promise<QueueScene> {
    const platform = await new FakePlatform().start();
    return QueueScene.setUp(platform, platform.createUser(BOT).token, options);
  }

  /** The repository, its writers and the fake CI (checks on queue branches only) on `platform`, whose user BOT exists. */
  static async setUp(platform: FakePlatform, botToken: string, options: { ciDelayMs: number }): Promise<QueueScene> {
    await platform.createRepository({ owner: 'acme', name: 'widgets', files: { 'README.md': 'widgets\n' } });
    platform.createUser(AUTHOR);
    platform.grant(REPO, AUTHOR, 'write');
    platform.grant(REPO, BOT, 'write');
    platform.ci.configure({ delayMs: options.ciDelayMs, branches: (branch) => branch.startsWith('switchyard/'), checks: [{ name: 'ci/test', verdict: failWhenAllPresent([FAIL_FLAG]) }] });
    return new QueueScene(platform, botToken);
  }

  /** The environment of a server acting on this platform as the bot. */
  serverEnv(port: number, extra: Record<string, string> = {}): Record<string, string> {
    return { PORT: String(port), SWITCHYARD_HOSTING_API_URL: this.platform.url, SWITCHYARD_HOSTING_TOKEN: this.botToken, ...extra };
  }

  /** Sends the platform's webhooks to the server listening on `port` (all events, or `events`). */
  subscribe(port: number, events?: string[]): void {
    this.platform.subscribe({ url: `http://127.0.0.1:${port}/v1/hooks/hosting`, secret: WEBHOOK_SECRET, ...(events ? { events } : {}) });
  }

  /** Opens `count` pull requests, each adding its own file; those in `failing` fail the CI. */
  async openPulls(count: number, failing: readonly number[] = []): Promise<ScenePull[]> {
    for (let i = 1; i <= count; i++) {
      const file = `p${i}.txt`;
      const isFailing = failing.includes(i);
      const opened = await this.platform.openPullRequest({ repo: REPO, changes: { [file]: `${i}\n`, ...(isFailing ? { [FAIL_FLAG]: `${i}\n` } : {}) }, title: `Add ${file}`, author: AUTHOR });
      this.pulls.push({ number: opened.number, headSha: opened.headSha, file, failing: isFailing });
    }
    await this.platform.webhooks.settled();
    return this.pulls.slice(-count);
  }

  /** `@switchyard queue` on each pull request, once its comment webhook reached a server. */
  async queueByComment(pulls: readonly ScenePull[]): Promise<void> {
    for (const pull of pulls) {
      this.platform.comment(REPO, pull.number, AUTHOR, '@switchyard queue');
      await this.platform.webhooks.settled();
      const delivery = this.platform.webhooks.sent('issue_comment').at(-1)!;
      if (!delivery.results.some((result) => result.status !== undefined && result.status < 300)) throw new Error(`the queue command on #${pull.number} reached no server: ${JSON.stringify(delivery.results)}`);
    }
  }

  /** Requests of the bot that changed something on the platform, answered. */
  botMutations(afterSeq = 0): LoggedRequest[] {
    return this.platform.requestLog.filter((r) => r.seq > afterSeq && r.caller === BOT && r.method !== 'GET' && r.status !== 0);
  }

  lastSeq(): number {
    return this.platform.requestLog.length;
  }

  async stop(): Promise<void> {
    await this.platform.stop();
  }
}

/** The whole activity log of the repository, oldest first, read from a server. */
export async function readLog(baseUrl: string): Promise<LogEvent[]> {
  const all: LogEvent[] = [];
  let url: string | null = `${baseUrl}/v1/repos/${REPO}/logs?per_page=100`;
  while (url) {
    const answer: Response = await fetch(url, { headers: { authorization: `Bearer ${SERVICE_TOKEN}` }, signal: AbortSignal.timeout(20_000) });
    if (answer.status !== 200) throw new Error(`logs answered ${answer.status}: ${await answer.text()}`);
    all.push(...((await answer.json()) as { events: LogEvent[] }).events);
    const next = /<([^>]+)>; rel="next"/.exec(answer.headers.get('link') ?? '');
    url = next ? next[1]! : null;
  }
  return all.reverse();
}

export async function registerRepository(baseUrl: string): Promise<void> {
  const answer = await fetch(`${baseUrl}/v1/admin/repos/${REPO}`, { method: 'PUT', headers: { authorization: `Bearer ${SERVICE_TOKEN}` } });
  if (answer.status !== 201 && answer.status !== 200) throw new Error(`registering ${REPO} answered ${answer.status}`);
  // The merge queue acts only where its product is enabled (DESIGN §13).
  const enabled = await fetch(`${baseUrl}/v1/products/${REPO}`, { method: 'PUT', headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ products: ['merge_queue'] }) });
  if (enabled.status !== 204) throw new Error(`enabling the merge queue on ${REPO} answered ${enabled.status}`);
}

const of = (event: LogEvent) => (event.pull_request === null ? null : BigInt(event.pull_request));

/**
 * The queue is done: every pull request entered and left as many times, each left once at
 * least, and nothing of the queue is left on the platform (check pull requests closed, queue
 * branches and scratch refs deleted).
 */
export async function queueDone(scene: { platform: FakePlatform; pulls: readonly ScenePull[] }, log: LogEvent[]): Promise<boolean> {
  for (const pull of scene.pulls) {
    const mine = log.filter((e) => of(e) === pull.number);
    const enters = mine.filter((e) => e.type === 'action.queue.enter').length;
    const leaves = mine.filter((e) => e.type === 'action.queue.leave').length;
    if (enters === 0 || leaves !== enters) return false;
  }
  const repo = scene.platform.repo(REPO);
  if ([...repo.pulls.values()].some((p) => p.user.login === BOT && p.state === 'open')) return false;
  // The batch branches and the scratch refs their commits are built on (switchyard-tmp/).
  return ![...(await repo.git.branches()).keys()].some((branch) => branch.startsWith('switchyard/') || branch.startsWith('switchyard-tmp/'));
}

/**
 * Everything wrong with a finished run, as sentences (empty when all is well). Pull requests in
 * `closedByCaller` were closed on the platform before the queue judged them (a benchmark ends its
 * run that way): for them, leaving unmerged because of the close is right too, whether the queue
 * heard of it (PR_DEQUEUED) or found it when the platform refused to merge a closed pull request.
 */
export async function queueProblems(scene: { platform: FakePlatform; pulls: readonly ScenePull[] }, log: LogEvent[], closedByCaller: ReadonlySet<bigint> = new Set()): Promise<string[]> {
  const problems: string[] = [];
  const { platform } = scene;
  const byNumber = new Map(scene.pulls.map((pull) => [pull.number, pull]));
  const requests = platform.requestLog.filter((r) => r.caller === BOT);

  // Every stay in the queue ends exactly once; a pull request the platform merged left PR_MERGED.
  for (const pull of scene.pulls) {
    const mine = log.filter((e) => of(e) === pull.number);
    const sessions = new Map<string, { enter: number; leave: LogEvent[] }>();
    for (const event of mine) {
      if (event.type !== 'action.queue.enter' && event.type !== 'action.queue.leave') continue;
      const id = String(event.metadata.session_id);
      const session = sessions.get(id) ?? { enter: 0, leave: [] };
      if (event.type === 'action.queue.enter') session.enter += 1;
      else session.leave.push(event);
      sessions.set(id, session);
    }
    if (sessions.size !== 1) problems.push(`#${pull.number}: ${sessions.size} stays in the queue, expected 1`);
    for (const [id, session] of sessions) {
      if (session.enter !== 1 || session.leave.length !== 1) problems.push(`#${pull.number}: stay ${id} has ${session.enter} action.queue.enter and ${session.leave.length} action.queue.leave`);
    }
    const leave = mine.filter((e) => e.type === 'action.queue.leave').at(-1);
    const merged = platform.pullRequest(REPO, pull.number).merged;
    if (!leave) continue;
    const code = leave.metadata.dequeue_code;
    if (merged !== (code === 'PR_MERGED' || code === 'PR_MERGED_INTERMEDIATE_RESULTS_SKIPPED')) problems.push(`#${pull.number}: merged on the platform ${merged}, but left the queue with ${code}`);
    if (pull.failing && merged) problems.push(`#${pull.number}: fails its checks but was merged`);
    if (closedByCaller.has(pull.number) && (code === 'PR_DEQUEUED' || code === 'PR_UNEXPECTEDLY_FAILED_TO_MERGE')) continue;
    if (!pull.failing && !merged) problems.push(`#${pull.number}: passes its checks but left with ${code} unmerged`);
    if (pull.failing && code !== 'CHECKS_FAILED') problems.push(`#${pull.number}: fails its checks but left with ${code}`);
  }

  // Merges on the platform: one per pull request, pinned to the head that was queued.
  const merges = requests.filter((r) => r.method === 'PUT' && /\/pulls\/\d+\/merge$/.test(r.url) && r.status === 200);
  const mergeSeq = new Map<bigint, number>();
  for (const request of merges) {
    const number = BigInt(/\/pulls\/(\d+)\/merge$/.exec(request.url)![1]!);
    const pull = byNumber.get(number);
    if (mergeSeq.has(number)) problems.push(`#${number} merged twice (requests ${mergeSeq.get(number)} and ${request.seq})`);
    mergeSeq.set(number, request.seq);
    if (!pull) problems.push(`a merge of #${number}, not a queued pull request`);
    else if (request.body?.sha !== pull.headSha) problems.push(`#${number} merged pinned to ${String(request.body?.sha)}, not its checked head ${pull.headSha}`);
  }
  for (const pull of scene.pulls) if (platform.pullRequest(REPO, pull.number).merged && !mergeSeq.has(pull.number)) problems.push(`#${pull.number} merged without a merge request of the queue`);

  // Check pull requests: one per batch branch.
  const drafts = requests.filter((r) => r.method === 'POST' && /\/repos\/[^/]+\/[^/]+\/pulls$/.test(r.url) && r.status === 201);
  const heads = new Map<string, number>();
  for (const draft of drafts) heads.set(String(draft.body?.head), (heads.get(String(draft.body?.head)) ?? 0) + 1);
  for (const [head, count] of heads) if (count > 1) problems.push(`${count} check pull requests opened for the batch branch ${head}`);

  // The base holds exactly the merged changes: one merge commit per merged pull request.
  const history = await platform.history(REPO, 'main', { firstParent: true });
  const mergedPulls = scene.pulls.filter((pull) => platform.pullRequest(REPO, pull.number).merged);
  const added = history.slice(0, -1);
  if (added.length !== mergedPulls.length) problems.push(`main has ${added.length} commits on top of the first, for ${mergedPulls.length} merged pull requests`);
  const secondParents = added.map((commit) => commit.parents[1]);
  for (const pull of mergedPulls) if (secondParents.filter((sha) => sha === pull.headSha).length !== 1) problems.push(`#${pull.number}'s head is merged into main ${secondParents.filter((sha) => sha === pull.headSha).length} times`);
  const files = [...(await platform.files(REPO, 'main')).keys()].sort();
  const expected = ['README.md', ...mergedPulls.map((pull) => pull.file)].sort();
  if (JSON.stringify(files) !== JSON.stringify(expected)) problems.push(`main holds ${files.join(', ')}; expected ${expected.join(', ')}`);

  // Merged only after the checks were read, and passed, on a batch head holding the change.
  for (const pull of mergedPulls) {
    const leave = log.find((e) => of(e) === pull.number && e.type === 'action.queue.leave');
    const start = log.filter((e) => of(e) === pull.number && e.type === 'action.queue.checks_start' && e.metadata.batch_id === leave?.metadata.batch_id).at(-1);
    const number = start?.metadata.speculative_check_pull_request?.number;
    if (number === undefined || number === null) {
      problems.push(`#${pull.number}: no action.queue.checks_start for the batch it merged with`);
      continue;
    }
    const head = platform.pullRequest(REPO, BigInt(number)).headSha;
    const checkedFiles = await platform.files(REPO, head);
    if (!checkedFiles.has(pull.file)) problems.push(`#${pull.number}: the head ${head} of its check pull request #${number} does not hold it`);
    if (!platform.ci.runs.some((run) => run.sha === head && run.verdict === 'success')) problems.push(`#${pull.number}: no passed check on ${head}, its batch's head`);
    const read = requests.some((r) => r.method === 'GET' && r.url.includes(`/commits/${head}/check-runs`) && r.seq < (mergeSeq.get(pull.number) ?? 0));
    if (!read) problems.push(`#${pull.number}: merged before the checks of its batch head ${head} (check pull request #${number}) were read`);
  }
  return problems;
}

export interface KillRecord {
  at: number;
  how: string;
  /** the last platform mutation of the bot before the kill */
  lastMutation: string | null;
}

/**
 * Waits for one seeded kill point of a running server, then SIGKILLs it: either just after the
 * platform answered the k-th change the server asked for (where an answer is most likely lost
 * before the server records it) or after a random delay. Returns null (no kill) when `done`
 * says the queue finished first.
 */
export async function killAtRandomPoint(scene: QueueScene, server: SwitchyardProcess, random: () => number, done: () => Promise<boolean>, startedAt: number): Promise<KillRecord | null> {
  const byMutation = random() < 0.65;
  const k = 1 + Math.floor(random() * 4);
  const delayMs = 200 + Math.floor(random() * 2_800);
  const from = scene.lastSeq();
  const armedAt = Date.now();
  let lastDoneCheck = 0;
  for (;;) {
    if (byMutation && scene.botMutations(from).length >= k) break;
    if (!byMutation && Date.now() - armedAt >= delayMs) break;
    // A kill point that never comes (the queue waits on the CI): kill anyway after a while.
    if (Date.now() - armedAt > 15_000) break;
    if (Date.now() - lastDoneCheck > 1_000) {
      lastDoneCheck = Date.now();
      if (await done()) return null;
    }
    await sleep(byMutation ? 1 : 20);
  }
  const last = scene.botMutations(from).at(-1);
  await server.kill();
  return { at: Date.now() - startedAt, how: byMutation ? `after ${k} platform changes` : `after ${delayMs} ms`, lastMutation: last ? `${last.method} ${last.url.split('?')[0]} → ${last.status}` : null };
}

/** Starts a server on `storage` with the scene's platform and the given timings. */
export function startQueueServer(scene: QueueScene, storage: StorageEnv, port: number, extra: Record<string, string> = {}): Promise<SwitchyardProcess> {
  return startSwitchyard(storage, scene.serverEnv(port, extra));
}

// Check runs (grouped in one check suite per app and commit) and commit statuses, with the
// webhooks GitHub sends for them: `check_run` created/completed, `check_suite` completed when
// every run of the suite is, `status` for each status posted.
import { ok, refuse, type Answer } from './platform-answer.ts';
import type { PlatformCore } from './platform-core.ts';
import type { CheckConclusion, CheckRunRecord, CheckStatus, CheckSuiteRecord, FakeApp, RepositoryRecord, StatusRecord, StatusState, Account } from './platform-model.ts';

export interface CheckRunFields {
  name?: string;
  status?: CheckStatus;
  conclusion?: CheckConclusion;
  detailsUrl?: string;
  externalId?: string;
  output?: { title?: unknown; summary?: unknown; text?: unknown };
}

const STATUSES: readonly CheckStatus[] = ['queued', 'in_progress', 'completed'];
// `stale` is the platform's to set, never an app's.
const CONCLUSIONS: readonly CheckConclusion[] = ['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required'];
const OUTPUT_LIMIT = 65535;

/** GitHub's refusal of a check run's fields, if any: unknown values, a completion without conclusion, output too long. */
function invalidFields(fields: CheckRunFields): Answer<never> | undefined {
  if (fields.status !== undefined && !STATUSES.includes(fields.status)) return refuse(422, `Invalid request.\n\nFor 'properties/status', "${fields.status}" is not a member of ["queued", "in_progress", "completed"].`);
  if (fields.conclusion !== undefined && !CONCLUSIONS.includes(fields.conclusion)) return refuse(422, `Invalid request.\n\nFor 'properties/conclusion', "${fields.conclusion}" is not a member of ${JSON.stringify(CONCLUSIONS)}.`);
  if (fields.status === 'completed' && fields.conclusion === undefined) return refuse(422, 'Invalid request.\n\n"conclusion" wasn\'t supplied.');
  const output = fields.output;
  if (!output) return undefined;
  if (typeof output.title !== 'string') return refuse(422, 'Invalid request.\n\n"title" wasn\'t supplied.');
  if (typeof output.summary !== 'string') return refuse(422, 'Invalid request.\n\n"summary" wasn\'t supplied.');
  if (output.text !== undefined && output.text !== null && typeof output.text !== 'string') return refuse(422, 'Invalid request.\n\nFor \'properties/text\', it is not a string.');
  for (const field of ['summary', 'text'] as const) {
    const value = output[field];
    if (typeof value !== 'string') continue;
    // Counted in characters by the request's schema, and in bytes (UTF-8) when stored.
    const characters = [...value].length;
    if (characters > OUTPUT_LIMIT) return refuse(422, `Invalid request.\n\nOnly ${OUTPUT_LIMIT} characters are allowed; ${characters} were supplied.`);
    if (Buffer.byteLength(value) > OUTPUT_LIMIT) return refuse(422, 'Validation Failed', [{ resource: 'CheckRun', code: 'custom', field, message: `${field} exceeds a maximum bytesize of ${OUTPUT_LIMIT}` }]);
  }
  return undefined;
}

function outputOf(fields: CheckRunFields): CheckRunRecord['output'] {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { title: text(fields.output?.title), summary: text(fields.output?.summary), text: text(fields.output?.text) };
}

const FAILING: readonly CheckConclusion[] = ['action_required', 'cancelled', 'timed_out', 'failure', 'stale'];

async function branchOf(repo: RepositoryRecord, sha: string): Promise<string | null> {
  for (const [branch, tip] of await repo.git.branches()) if (tip === sha) return branch;
  return null;
}

async function suiteFor(core: PlatformCore, repo: RepositoryRecord, app: FakeApp, headSha: string): Promise<CheckSuiteRecord> {
  const key = `${app.id}:${headSha}`;
  let suite = repo.checkSuites.get(key);
  if (!suite) {
    suite = { id: core.ids.next(), app, headSha, headBranch: await branchOf(repo, headSha), createdAt: core.now() };
    repo.checkSuites.set(key, suite);
  }
  return suite;
}

export async function createCheckRun(core: PlatformCore, repo: RepositoryRecord, app: FakeApp, headSha: string, fields: CheckRunFields): Promise<Answer<CheckRunRecord>> {
  if (!fields.name) return refuse(422, 'Invalid request.\n\n"name" wasn\'t supplied.');
  const invalid = invalidFields(fields);
  if (invalid) return invalid;
  const sha = await repo.git.resolve(headSha);
  if (!sha || sha !== headSha.toLowerCase()) return refuse(422, `No commit found for SHA: ${headSha}`);
  const suite = await suiteFor(core, repo, app, sha);
  const now = core.now();
  const run: CheckRunRecord = {
    id: core.ids.next(),
    name: fields.name,
    headSha: sha,
    app,
    suiteId: suite.id,
    status: fields.status && fields.status !== 'completed' ? fields.status : 'queued',
    conclusion: null,
    startedAt: now,
    completedAt: null,
    detailsUrl: fields.detailsUrl ?? null,
    externalId: fields.externalId ?? null,
    output: outputOf(fields),
  };
  repo.checkRuns.set(run.id, run);
  await emitRun(core, repo, run, 'created');
  // Created already completed: GitHub sends `completed` right after `created`.
  return fields.conclusion || fields.status === 'completed' ? updateCheckRun(core, repo, app, run.id, { status: fields.status, conclusion: fields.conclusion }) : ok(run);
}

export async function updateCheckRun(core: PlatformCore, repo: RepositoryRecord, app: FakeApp, id: bigint, fields: CheckRunFields): Promise<Answer<CheckRunRecord>> {
  const run = repo.checkRuns.get(id);
  if (!run) return refuse(404, 'Not Found');
  if (run.app !== app) return refuse(403, 'Invalid app_id `' + app.id + '` - check run can only be modified by the GitHub App that created it.');
  const invalid = invalidFields(fields);
  if (invalid) return invalid;
  const wasCompleted = run.status === 'completed';
  if (fields.name) run.name = fields.name;
  if (fields.detailsUrl !== undefined) run.detailsUrl = fields.detailsUrl;
  if (fields.externalId !== undefined) run.externalId = fields.externalId;
  if (fields.output) run.output = outputOf(fields);
  if (fields.conclusion) Object.assign(run, { status: 'completed', conclusion: fields.conclusion, completedAt: core.now() });
  // Started again: a run that is not completed has no conclusion.
  else if (fields.status) Object.assign(run, { status: fields.status, conclusion: null, completedAt: null });
  if (run.status === 'completed' && !wasCompleted) {
    await emitRun(core, repo, run, 'completed');
    await completeSuiteIfDone(core, repo, run);
  }
  return ok(run);
}

async function emitRun(core: PlatformCore, repo: RepositoryRecord, run: CheckRunRecord, action: string): Promise<void> {
  core.emit('check_run', repo, run.app.bot, { action, check_run: core.json.checkRun(repo, run, await core.pullsAt(repo, run.headSha)) });
}

async function completeSuiteIfDone(core: PlatformCore, repo: RepositoryRecord, run: CheckRunRecord): Promise<void> {
  const suite = repo.checkSuites.get(`${run.app.id}:${run.headSha}`)!;
  const runs = [...repo.checkRuns.values()].filter((r) => r.suiteId === suite.id);
  if (runs.some((r) => r.status !== 'completed')) return;
  const conclusions = runs.map((r) => r.conclusion!);
  const conclusion = FAILING.find((c) => conclusions.includes(c)) ?? (conclusions.includes('success') ? 'success' : conclusions[0]!);
  const pulls = await core.pullsAt(repo, run.headSha);
  core.emit('check_suite', repo, run.app.bot, { action: 'completed', check_suite: core.json.checkSuite(repo, suite, 'completed', conclusion, pulls) });
}

/** Check runs of a commit, newest first; `latest` keeps the newest run of each name. */
export function checkRunsOf(repo: RepositoryRecord, sha: string, filter: { name?: string; status?: string; appId?: bigint; latest: boolean }): CheckRunRecord[] {
  const runs = [...repo.checkRuns.values()]
    .filter((r) => r.headSha === sha && (!filter.name || r.name === filter.name) && (!filter.status || r.status === filter.status) && (filter.appId === undefined || r.app.id === filter.appId))
    .reverse();
  if (!filter.latest) return runs;
  const seen = new Set<string>();
  return runs.filter((r) => !seen.has(`${r.app.id}:${r.name}`) && seen.add(`${r.app.id}:${r.name}`));
}

export interface NewStatus {
  state: StatusState;
  context?: string;
  description?: string;
  targetUrl?: string;
}

export async function createStatus(core: PlatformCore, repo: RepositoryRecord, sha: string, spec: NewStatus, creator: Account): Promise<Answer<StatusRecord>> {
  if (!['error', 'failure', 'pending', 'success'].includes(spec.state)) return refuse(422, 'Validation Failed', [{ resource: 'Status', field: 'state', code: 'custom', message: 'state is not included in the list' }]);
  const commit = await repo.git.resolve(sha);
  if (!commit || commit !== sha.toLowerCase()) return refuse(422, `No commit found for SHA: ${sha}`);
  const status: StatusRecord = { id: core.ids.next(), sha: commit, state: spec.state, context: spec.context ?? 'default', description: spec.description ?? null, targetUrl: spec.targetUrl ?? null, creator, createdAt: core.now() };
  repo.statuses.push(status);
  const branches = [...(await repo.git.branches())].filter(([, tip]) => tip === commit).map(([name]) => ({ name, commit: { sha: commit } }));
  const info = core.json.commit(repo, await repo.git.commitInfo(commit));
  const json = core.json.status(repo, status);
  core.emit('status', repo, creator, { id: status.id, sha: commit, name: `${repo.owner.login}/${repo.name}`, target_url: status.targetUrl, context: status.context, description: status.description, state: status.state, commit: info, branches, created_at: json.created_at, updated_at: json.updated_at });
  return ok(status);
}

/** GitHub's combined status: the latest status per context; failure over pending over success. */
export function combinedStatus(repo: RepositoryRecord, sha: string): { state: StatusState; statuses: StatusRecord[] } {
  const latest = new Map<string, StatusRecord>();
  for (const status of repo.statuses) if (status.sha === sha) latest.set(status.context, status);
  const statuses = [...latest.values()];
  const states = statuses.map((s) => s.state);
  const state: StatusState = states.some((s) => s === 'failure' || s === 'error') ? 'failure' : states.length === 0 || states.includes('pending') ? 'pending' : 'success';
  return { state, statuses };
}

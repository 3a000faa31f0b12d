// What the rules engine does for one pull request (DESIGN.md §14): gather its snapshot, evaluate
// the rules of the configuration in force that enabled products own, store each rule's result,
// and show them in the Summary check run; a pull request that changes the configuration file
// also gets the `Switchyard / Configuration changed` check run for its version of the file.
import { sortInQueueOrder } from '../../domain/merge-queue/queue-order.ts';
import { effectiveScopes } from '../../domain/scopes/effective-scopes.ts';
import { evaluateRules } from '../../domain/rules/rules-report.ts';
import { evaluateCondition, toConditionEvaluationResult, type EvaluatedCondition } from '../../domain/rules/index.ts';
import type { ChosenRules } from '../merge-queue/merge-queue-service.ts';
import { summaryText } from '../../domain/rules/summary-text.ts';
import type { PullRequestSnapshot, QueueSnapshot } from '../../domain/rules/pull-snapshot.ts';
import { CONFIGURATION_PATHS } from '../../domain/configuration/configuration-paths.ts';
import type { HostingPlatform } from '../../hosting/hosting-platform.ts';
import type { RepositoryRef } from '../../hosting/hosting-types.ts';
import type { Repository, RepositoryIdentity } from '../../storage/queries/repositories.ts';
import { ApiError, ValidationError } from '../../errors.ts';
import { inForceOf, type InForce } from './configuration-cache.ts';
import type { Store } from '../../storage/store.ts';
import { SUMMARY_CHECK, postCheck, type CheckWrites } from './check-runs.ts';
import type { ConfigurationService } from './configuration-service.ts';
import { configurationChangedReport } from './configuration-changed.ts';
import type { RulesWork } from './rules-engine.ts';
import { rulesOwnedBy } from './rules-in-force.ts';
import { PullSnapshotReader, type ReadCounter } from './pull-snapshot-reader.ts';
import type { SnapshotCache } from './snapshot-cache.ts';
import { TeamDirectory } from './team-directory.ts';

export interface RulesServiceDeps {
  store: Store;
  platform: HostingPlatform;
  configurations: ConfigurationService;
  cache: SnapshotCache;
  clock?: () => number;
}

/** What evaluations cost, for /metrics and the benchmarks. */
export interface RulesCounters extends CheckWrites {
  evaluations: number;
  platformReads: number;
}

export class RulesService implements RulesWork {
  readonly counters: RulesCounters = { evaluations: 0, platformReads: 0, written: 0, unchanged: 0, refused: 0 };
  private readonly reader: PullSnapshotReader;
  private readonly teams: TeamDirectory;
  /** Heads whose `Configuration changed` check was written, with the file in force it compared to. */
  private readonly configurationChecked = new Map<string, string>();

  constructor(private readonly deps: RulesServiceDeps) {
    this.reader = new PullSnapshotReader(deps.platform, deps.cache);
    this.teams = new TeamDirectory(deps.platform, deps.clock);
  }

  readConfiguration(repository: RepositoryIdentity): Promise<void> {
    return this.deps.configurations.read(repository);
  }

  /**
   * The Summary `number` would get under the configuration `text` (the pull request simulator):
   * nothing stored, nothing written on the platform. Rules of every product are shown.
   */
  async simulate(repository: Repository, number: bigint, text: string): Promise<{ title: string; summary: string; deprecations: never[] }> {
    const validated = await this.deps.configurations.validateCandidate(repository, text, '.mergify.yml');
    if (!validated.valid) throw new ValidationError(validated.errors.map((error) => ({ loc: ['body', 'mergify_yml', ...error.loc], msg: error.line ? `${error.msg} (line ${error.line})` : error.msg, type: 'configuration_error' })));
    const inForce = inForceOf(validated, { path: '.mergify.yml', sha: '' }, { owner: repository.owner, repo: repository.name });
    const snapshot = await this.snapshot(repository, number, inForce, { reads: 0 });
    if (!snapshot) throw new ApiError('pull_request_not_found');
    const owned = rulesOwnedBy(inForce, ['workflow_automation', 'merge_queue']);
    const summary = summaryText(evaluateRules(owned.rules, snapshot, new Date(this.clock())).results, owned.notes);
    return { title: summary.title, summary: summary.body, deprecations: [] };
  }

  /**
   * The queue rule a pull request enters when a configuration file governs (the first whose
   * queue_conditions hold, or the one asked for if its conditions hold) and its priority (the
   * first priority rule whose conditions hold); null when no file governs.
   */
  async chooseForQueue(repository: RepositoryIdentity, number: bigint, asked: string | undefined): Promise<ChosenRules | null> {
    const inForce = await this.deps.configurations.inForce(repository);
    if (!inForce.source) return null;
    const snapshot = await this.snapshot(repository, number, inForce, { reads: 0 });
    if (!snapshot) throw new ApiError('pull_request_unknown', `The hosting platform has no pull request #${number} in ${repository.owner}/${repository.name}.`);
    const now = new Date(this.clock());
    const { queue_rules: queueRules, priority_rules: priorityRules } = inForce.configuration;
    const candidates = asked === undefined ? queueRules : queueRules.filter((rule) => rule.name === asked);
    if (asked !== undefined && candidates.length === 0) throw new ApiError('queue_rule_unknown', `There is no queue rule named "${asked}"; the rules are: ${queueRules.map((rule) => rule.name).join(', ')}.`);
    const tried = candidates.map((rule) => ({ rule, tree: evaluateCondition(rule.queue_conditions, snapshot, now) }));
    const entered = tried.find(({ tree }) => tree.match === 'true');
    if (!entered) throw new ApiError('no_queue_rule', `No queue rule's queue_conditions hold for pull request #${number}: ${tried.map(({ rule, tree }) => `${rule.name} (${unmet(tree)})`).join('; ')}.`);
    const priority = priorityRules.find((rule) => evaluateCondition(rule.conditions, snapshot, now).match === 'true');
    // Once queued, its queue rule's conditions are shown by the merge queue's reads: evaluated now.
    await this.deps.store.rulesEngine.schedule(repository.id, [number], new Date(now.getTime() + 1_000));
    return { queueRule: entered.rule.name, priority: priority?.priority ?? 'medium', priorityRuleName: priority?.name ?? null };
  }

  private async snapshot(repository: RepositoryIdentity, number: bigint, inForce: InForce, counter: ReadCounter): Promise<PullRequestSnapshot | null> {
    const repo: RepositoryRef = { owner: repository.owner, repo: repository.name };
    const facts = { scopes: await this.scopes(repository.id, number), queue: await this.queueOf(repository.id, number), configurationPaths: CONFIGURATION_PATHS, teamMembers: await this.teams.members(inForce.teams(repository.owner), counter) };
    return this.reader.read(repository.id, repo, number, new Set([...inForce.parts, 'files']), facts, counter);
  }

  async evaluate(identity: RepositoryIdentity, number: bigint): Promise<Date | null> {
    const { store } = this.deps;
    const repository = await store.repositories.byId(identity.id);
    const pull = await store.pullRequests.find(identity.id, number);
    if (!repository || !pull || pull.state !== 'open') return null;
    const inForce = await this.deps.configurations.inForce(repository);
    if (!inForce.source) return null; // no file governs: nothing is driven by conditions
    const owned = rulesOwnedBy(inForce, repository.products);
    const repo: RepositoryRef = { owner: repository.owner, repo: repository.name };
    const counter: ReadCounter = { reads: 0 };
    const snapshot = await this.snapshot(repository, number, inForce, counter);
    if (!snapshot || snapshot.closed || snapshot.merged) return null;
    const now = new Date(this.clock());
    const evaluation = evaluateRules(owned.rules, snapshot, now);
    const summary = summaryText(evaluation.results, owned.notes);
    const queue = repository.products.includes('merge_queue') ? queueRuleEvaluation(inForce, snapshot, now) : null;
    const nextChangeAt = earliest(evaluation.nextChangeAt, queue?.tree.nextChangeAt ?? null);
    await store.rulesEngine.saveState(repository.id, number, { headSha: pull.headSha ?? '', rules: Object.fromEntries(evaluation.results.map((result) => [result.key, result.match])), summary: { title: summary.title, results: evaluation.results, queue: queue && { rule: queue.rule, conditions_evaluation: toConditionEvaluationResult(queue.tree) } }, evaluatedAt: now });
    const sha = pull.headSha ?? '';
    await postCheck(this.deps.platform, repo, sha, { name: SUMMARY_CHECK, conclusion: 'success', title: summary.title, summary: summary.body }, this.counters);
    if (snapshot.configurationChanged) await this.reportConfigurationChange(repository, repo, snapshot, sha, counter);
    this.counters.evaluations++;
    this.counters.platformReads += counter.reads;
    return nextChangeAt;
  }

  /** The pull request's version of the file: valid or not, and what it changes; it applies only once merged. */
  private async reportConfigurationChange(repository: RepositoryIdentity, repo: RepositoryRef, snapshot: PullRequestSnapshot, sha: string, counter: ReadCounter): Promise<void> {
    const inForce = await this.deps.configurations.inForce(repository);
    // What the check says depends on the head's file and the file in force only: once written for
    // both, a check run or label on the pull request costs no read of the file and no write.
    const key = `${repository.id}#${sha}`;
    const against = inForce.source?.sha ?? 'none';
    if (this.configurationChecked.get(key) === against) return;
    const path = snapshot.files?.find((file) => (CONFIGURATION_PATHS as readonly string[]).includes(file.path) && file.status !== 'removed')?.path ?? null;
    if (path) counter.reads++;
    const content = path ? await this.deps.platform.fileContent(repo, path, sha) : null;
    const candidate = content?.kind === 'file' ? await this.deps.configurations.validateCandidate(repository, content.content, path!) : null;
    await postCheck(this.deps.platform, repo, sha, configurationChangedReport(path, content?.kind ?? 'removed', candidate, inForce), this.counters);
    if (this.configurationChecked.size >= 10_000) this.configurationChecked.clear();
    this.configurationChecked.set(key, against);
  }

  private async scopes(repositoryId: string, number: bigint): Promise<readonly string[] | null> {
    const inputs = await this.deps.store.scopeReports.findPullInputs(repositoryId, number);
    if (!inputs) return null;
    const effective = effectiveScopes(inputs);
    return effective.source === null ? null : effective.scopes;
  }

  private async queueOf(repositoryId: string, number: bigint): Promise<QueueSnapshot | null> {
    const { store } = this.deps;
    const active = await store.mergeQueues.activeEntryOf(repositoryId, number);
    if (!active) return null;
    const entries = sortInQueueOrder(await store.mergeQueues.activeEntries(active.queueId));
    const position = entries.findIndex((entry) => entry.id === active.entryId);
    const entry = entries[position];
    return entry ? { name: entry.queueRule, position, queuedAt: new Date(entry.enteredAt) } : null;
  }

  private clock(): number {
    return (this.deps.clock ?? Date.now)();
  }
}

/** The conditions of a tree that do not hold, as written (at most three). */
function unmet(tree: EvaluatedCondition): string {
  const leaves: string[] = [];
  const visit = (node: EvaluatedCondition): void => {
    if (node.match === 'true') return;
    if (node.kind === 'leaf') leaves.push(`${node.label}${node.match === 'pending' ? ' is pending' : ' is false'}`);
    else if (node.kind === 'not') leaves.push(`not (${node.condition.label})`);
    else node.conditions.forEach(visit);
  };
  visit(tree);
  return leaves.slice(0, 3).join(', ') || 'no condition holds';
}

/**
 * A queued pull request's queue rule, its queue_conditions and merge_conditions evaluated together
 * (the merge queue's `mergeability_check.conditions_evaluation`); null when it is not queued.
 */
function queueRuleEvaluation(inForce: InForce, snapshot: PullRequestSnapshot, now: Date): { rule: string; tree: EvaluatedCondition } | null {
  const rule = snapshot.queue && inForce.configuration.queue_rules.find((candidate) => candidate.name === snapshot.queue!.name);
  if (!rule) return null;
  return { rule: rule.name, tree: evaluateCondition({ kind: 'all', conditions: [rule.queue_conditions, rule.merge_conditions] }, snapshot, now) };
}

function earliest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a < b ? a : b;
}

// The configuration in force for each repository, parsed once per file (the stored text is
// parsed again only when it changes, or when this process first needs it): what the rules
// engine evaluates, what the merge queue follows, and what the API shows.
import type { EffectiveConfiguration } from '../../domain/configuration/index.ts';
import { toMergeQueueConfiguration } from '../../domain/configuration/index.ts';
import type { MergeQueueConfig } from '../../domain/merge-queue/model.ts';
import { attributesOf, referencedTeams, type Condition } from '../../domain/rules/index.ts';
import type { StoredConfiguration } from '../../storage/queries/repository-configurations.ts';
import { conditionJson } from './condition-json.ts';
import { isRequiredCheck, validateConfigurationText, type ValidatedConfiguration } from './configuration-validation.ts';
import { partsNeeded, type SnapshotPart } from './snapshot-needs.ts';

export interface InForce {
  /** The file in force; null when none governs (the merge-queue API is the source). */
  source: { path: string; sha: string } | null;
  configuration: EffectiveConfiguration<Condition>;
  notSupported: string[];
  /** The merge queue's options from the file; null when no file governs. */
  mergeQueue: MergeQueueConfig | null;
  /** The configuration as the API shows it (conditions as written). */
  shown: Record<string, unknown>;
  /** The platform reads its conditions need. */
  parts: ReadonlySet<SnapshotPart>;
  /** The teams its conditions name, as `org/team`. */
  teams(repositoryOwner: string): string[];
}

const MAX_REPOSITORIES = 5_000;

export class ConfigurationCache {
  private readonly byRepository = new Map<string, { key: string; inForce: InForce }>();

  inForce(repositoryId: string, stored: StoredConfiguration | null, repository: { owner: string; repo: string }): InForce {
    const good = stored?.good ?? null;
    const key = good ? `${good.sha}:${good.parentText?.length ?? -1}:${hashOf(good.parentText ?? '')}` : 'none';
    const cached = this.byRepository.get(repositoryId);
    if (cached?.key === key) return cached.inForce;
    const inForce = build(good, repository);
    if (this.byRepository.size >= MAX_REPOSITORIES) this.byRepository.clear();
    this.byRepository.set(repositoryId, { key, inForce });
    return inForce;
  }
}

function build(good: StoredConfiguration['good'], repository: { owner: string; repo: string }): InForce {
  // A stored good file that no longer validates (a stricter Switchyard) governs nothing: the defaults.
  const validated = good ? validateConfigurationText(good.text, good.path, good.parentText, repository) : null;
  return inForceOf(validated?.configuration ? validated : null, good ? { path: good.path, sha: good.sha } : null, repository);
}

/** The configuration a validated text would put in force (the defaults when `validated` is null). */
export function inForceOf(validated: ValidatedConfiguration | null, source: { path: string; sha: string } | null, repository: { owner: string; repo: string }): InForce {
  const configuration = validated?.configuration ?? validateConfigurationText('', '.mergify.yml', null, repository).configuration!;
  const conditions = allConditions(configuration);
  const fromFile = validated?.configuration ? withRequiredChecks(toMergeQueueConfiguration(configuration), configuration) : null;
  const { conditions: _conditions, ...mergeQueue } = fromFile ?? { conditions: null };
  return {
    source: validated?.configuration ? source : null,
    configuration,
    notSupported: validated?.notSupported ?? [],
    mergeQueue: fromFile ? (mergeQueue as MergeQueueConfig) : null,
    shown: conditionJson(configuration) as Record<string, unknown>,
    parts: partsNeeded(conditions.flatMap((condition) => attributesOf(condition))),
    teams: (owner) => [...new Set(conditions.flatMap((condition) => referencedTeams(condition, owner)))],
  };
}

/**
 * The checks a batch must pass before it merges: each `check-success=NAME` among a queue rule's
 * merge_conditions (at the top of its list), which the executor reads on the batch's head.
 */
function withRequiredChecks<T extends MergeQueueConfig>(config: T, configuration: EffectiveConfiguration<Condition>): T {
  const required = new Map(configuration.queue_rules.map((rule) => [rule.name, requiredChecks(rule.merge_conditions)]));
  return { ...config, queue_rules: config.queue_rules.map((rule) => ({ ...rule, required_checks: required.get(rule.name) ?? [] })) };
}

function requiredChecks(condition: Condition): string[] {
  const top = condition.kind === 'all' ? condition.conditions : [condition];
  return [...new Set(top.flatMap((leaf) => (isRequiredCheck(leaf) ? [leaf.operand.value] : [])))];
}

function allConditions(configuration: EffectiveConfiguration<Condition>): Condition[] {
  return [
    ...configuration.queue_rules.flatMap((rule) => [rule.queue_conditions, rule.merge_conditions]),
    ...configuration.priority_rules.map((rule) => rule.conditions),
    ...configuration.pull_request_rules.map((rule) => rule.conditions),
    ...configuration.merge_protections.flatMap((rule) => [rule.if, rule.success_conditions]),
    ...(configuration.merge_protections_settings.auto_merge_conditions ? [configuration.merge_protections_settings.auto_merge_conditions] : []),
    ...Object.values(configuration.commands_restrictions).map((restriction) => restriction.conditions),
  ];
}

/** FNV-1a: enough to tell two parent texts of the same length apart in a cache key. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash.toString(16);
}

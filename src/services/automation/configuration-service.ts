// The configuration file of a repository (DESIGN.md §13): read from the default branch through
// the contents API, validated, stored beside the last good one (which stays in force when a
// newer file fails), reported by the API and on the `Switchyard / Configuration` check run; the
// merge queue's options follow the file in force. Also the simulators, which validate and
// evaluate a text without storing anything.
import { ApiError, ValidationError } from '../../errors.ts';
import type { HostingPlatform } from '../../hosting/hosting-platform.ts';
import type { RepositoryRef } from '../../hosting/hosting-types.ts';
import type { Repository } from '../../storage/queries/repositories.ts';
import type { StoredConfiguration } from '../../storage/queries/repository-configurations.ts';
import type { Store } from '../../storage/store.ts';
import { CONFIGURATION_CHECK, postCheck } from './check-runs.ts';
import { configurationCheckReport } from './configuration-check.ts';
import { readConfigurationFile, type ConfigurationFileRead } from './configuration-file-reader.ts';
import { ConfigurationCache, type InForce } from './configuration-cache.ts';
import { extendsTargetOf, validateConfigurationText, type RepositoryNames, type ValidatedConfiguration } from './configuration-validation.ts';

export interface ConfigurationReportBody {
  source: { path: string; sha: string } | null;
  valid: boolean;
  errors: { loc: (string | number)[]; msg: string; line?: number }[];
  not_supported: string[];
  in_force: { path: string; sha: string } | null;
  configuration: Record<string, unknown>;
}

export interface ConfigurationServiceDeps {
  store: Store;
  /** null without hosting credentials: reports still answer, reads are refused. */
  platform: HostingPlatform | null;
  clock?: () => number;
  /** Told when the configuration in force changed: every open pull request is evaluated again. */
  onChanged?: (repositoryId: string) => Promise<void>;
}

export class ConfigurationService {
  readonly cache = new ConfigurationCache();

  constructor(private readonly deps: ConfigurationServiceDeps) {}

  /** The configuration in force for a repository (its file's, else the defaults), parsed once per file. */
  async inForce(repository: Pick<Repository, 'id' | 'owner' | 'name'>): Promise<InForce> {
    return this.cache.inForce(repository.id, await this.deps.store.configurations.find(repository.id), namesOf(repository));
  }

  async report(repository: Repository): Promise<ConfigurationReportBody> {
    const stored = await this.deps.store.configurations.find(repository.id);
    const inForce = this.cache.inForce(repository.id, stored, namesOf(repository));
    return {
      source: stored?.source ?? null,
      valid: stored?.valid ?? true,
      errors: stored?.errors ?? [],
      not_supported: inForce.notSupported,
      in_force: stored?.good ? { path: stored.good.path, sha: stored.good.sha } : null,
      configuration: inForce.shown,
    };
  }

  async refresh(repository: Repository): Promise<ConfigurationReportBody> {
    await this.read(repository);
    return this.report(repository);
  }

  /** Reads the file on the default branch, stores what it found and reports it on the platform. */
  async read(repository: Pick<Repository, 'id' | 'owner' | 'name'>): Promise<void> {
    const platform = this.requirePlatform();
    const repo: RepositoryRef = { owner: repository.owner, repo: repository.name };
    const found = await readConfigurationFile(platform, repo);
    if (!found) return; // the platform does not know the repository (any more): nothing to read
    const before = await this.deps.store.configurations.find(repository.id);
    const next = nextStored(before, found, namesOf(repository), new Date(this.clock()));
    const goodChanged = before?.good?.sha !== next.good?.sha || before?.good?.parentText !== next.good?.parentText;
    const inForce = this.cache.inForce(repository.id, next, namesOf(repository));
    await this.deps.store.db.transaction().execute(async (trx) => {
      await this.deps.store.configurations.save(trx, repository.id, next);
      // The merge queue reads its options where the API writes them: the file's, while it governs.
      if (goodChanged && inForce.mergeQueue) await this.deps.store.mergeQueueControls.setConfig(trx, repository.id, JSON.stringify(inForce.mergeQueue));
    });
    if (goodChanged) await this.deps.onChanged?.(repository.id);
    if (found.file && found.headSha) await postCheck(platform, repo, found.headSha, configurationCheckReport(CONFIGURATION_CHECK, next.valid ? null : next.errors, inForce.notSupported));
  }

  /** The configuration-simulator: valid, or a 422 listing each problem by its place in the text. */
  async validate(repository: Repository, text: string): Promise<{ message: string; deprecations: never[] }> {
    const validated = await this.validateCandidate(repository, text, '.mergify.yml');
    if (!validated.valid) throw new ValidationError(validated.errors.map((error) => ({ loc: ['body', 'mergify_yml', ...error.loc], msg: error.line ? `${error.msg} (line ${error.line})` : error.msg, type: 'configuration_error' })));
    const unsupported = validated.notSupported.length ? ` Not supported by Switchyard (these do nothing here): ${validated.notSupported.join(', ')}.` : '';
    return { message: `The configuration is valid.${unsupported}`, deprecations: [] };
  }

  /** A text validated as it would govern the repository, the file it extends read from the platform. */
  async validateCandidate(repository: Pick<Repository, 'owner' | 'name'>, text: string, path: string): Promise<ValidatedConfiguration> {
    const names = namesOf(repository);
    const target = extendsTargetOf(text, names);
    const parent = target && this.deps.platform ? await readConfigurationFile(this.deps.platform, { owner: repository.owner, repo: target }) : null;
    const validated = validateConfigurationText(text, path, parent?.file?.text ?? null, names);
    if (target && !parent?.file && validated.valid) return { ...validated, valid: false, configuration: null, errors: [{ loc: ['extends'], msg: `The repository ${repository.owner}/${target} has no configuration file Switchyard can read.` }] };
    return validated;
  }

  private requirePlatform(): HostingPlatform {
    if (!this.deps.platform) throw new ApiError('hosting_unavailable', 'Switchyard has no hosting-platform credentials (SWITCHYARD_HOSTING_TOKEN or a GitHub App) to read the configuration file with.');
    return this.deps.platform;
  }

  private clock(): number {
    return (this.deps.clock ?? Date.now)();
  }
}

/** What to store after a read: the file found, and the last good one (this one when it is valid). */
function namesOf(repository: Pick<Repository, 'owner' | 'name'>): RepositoryNames {
  return { owner: repository.owner, repo: repository.name };
}

function nextStored(before: StoredConfiguration | null, found: ConfigurationFileRead, names: RepositoryNames, readAt: Date): StoredConfiguration {
  // No file any more: the merge-queue API is the source again (the queue keeps the options it had).
  if (!found.file) return { source: null, defaultBranch: found.defaultBranch, valid: true, errors: [], good: null, readAt };
  const validated = validateConfigurationText(found.file.text, found.file.path, found.parentText, names);
  const errors = [...found.errors, ...validated.errors.map((error) => ({ loc: error.loc, msg: error.msg, ...(error.line ? { line: error.line } : {}) }))];
  const valid = errors.length === 0;
  const good = valid ? { path: found.file.path, sha: found.file.sha, text: found.file.text, parentText: found.parentText } : (before?.good ?? null);
  return { source: { path: found.file.path, sha: found.file.sha }, defaultBranch: found.defaultBranch, valid, errors, good, readAt };
}

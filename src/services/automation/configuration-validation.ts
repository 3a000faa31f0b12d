// A configuration file's text validated as it would govern a repository: the file's vocabulary
// (src/domain/configuration) with the conditions grammar (src/domain/rules) plugged in, and the
// file it `extends` merged under it. Pure and synchronous: the caller fetched the texts.
import { extendsTarget, mergeExtended, parseConfigurationText, validateConfiguration, type ConfigurationError, type ConfigurationReport, type ParsedDocument } from '../../domain/configuration/index.ts';
import { parseConditions, type Condition } from '../../domain/rules/index.ts';

export type ValidatedConfiguration = ConfigurationReport<Condition> & {
  /** The repository the file extends (a name of the same owner), null when none. */
  extends: string | null;
};

export interface RepositoryNames {
  owner: string;
  repo: string;
}

const parseRuleConditions = (raw: unknown, loc: (string | number)[]) => parseConditions(Array.isArray(raw) ? raw : [raw], loc);

/** `parentText` is the extended repository's file, when the caller could read it. */
export function validateConfigurationText(text: string, path: string, parentText: string | null, repository: RepositoryNames): ValidatedConfiguration {
  const parsed = parseConfigurationText(text, path);
  if (!parsed.ok) return invalid(parsed.errors);
  const target = extendsTarget(parsed.document, repository);
  if (!target.ok) return invalid(target.errors);
  const extendsName = target.target ? target.target.repo : null;
  const document = target.target && parentText !== null ? merged(parsed.document, parentText, `${repository.owner}/${target.target.repo}`) : parsed.document;
  if ('errors' in document) return { ...invalid(document.errors), extends: extendsName };
  const report = validateConfiguration(document, parseRuleConditions);
  const unenforced = report.configuration ? unenforcedMergeConditions(report.configuration) : [];
  return { ...report, notSupported: [...report.notSupported, ...unenforced], extends: extendsName };
}

/**
 * The merge queue enforces a queue rule's merge_conditions as the checks `check-success=NAME` it
 * lists at the top: those the executor reads on the batch's head. Any other merge condition is
 * not enforced yet, and is reported as not supported rather than silently ignored.
 */
function unenforcedMergeConditions(configuration: NonNullable<ConfigurationReport<Condition>['configuration']>): string[] {
  return configuration.queue_rules.flatMap((rule, index) => {
    const top = rule.merge_conditions.kind === 'all' ? rule.merge_conditions.conditions : [rule.merge_conditions];
    return top.flatMap((condition, position) => (isRequiredCheck(condition) ? [] : [`queue_rules[${index}].merge_conditions[${position}]`]));
  });
}

export function isRequiredCheck(condition: Condition): condition is Condition & { kind: 'leaf'; operand: { kind: 'text'; value: string } } {
  return condition.kind === 'leaf' && condition.attribute === 'check-success' && !condition.negate && !condition.length && condition.operator === '=' && condition.operand.kind === 'text';
}

/** The repository a text extends, to fetch before validating it; null when none or when the text does not parse. */
export function extendsTargetOf(text: string, repository: RepositoryNames): string | null {
  const parsed = parseConfigurationText(text, '.mergify.yml');
  if (!parsed.ok) return null;
  const target = extendsTarget(parsed.document, repository);
  return target.ok && target.target ? target.target.repo : null;
}

function merged(child: ParsedDocument, parentText: string, parentName: string): ParsedDocument | { errors: ConfigurationError[] } {
  const parent = parseConfigurationText(parentText, `${parentName}:.mergify.yml`);
  if (!parent.ok) return { errors: parent.errors.map((error) => ({ ...error, loc: ['extends', ...error.loc], msg: `${parentName}: ${error.msg}` })) };
  const result = mergeExtended(parent.document, child);
  return result.ok ? result.document : { errors: result.errors };
}

function invalid(errors: ConfigurationError[]): ValidatedConfiguration {
  return { valid: false, errors, notSupported: [], configuration: null, extends: null };
}

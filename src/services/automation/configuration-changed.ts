// The `Switchyard / Configuration changed` check run (DESIGN.md §13) on a pull request that
// changes the configuration file: failure listing the errors of its version, else success with
// what it changes. Its version never applies before it is merged.
import type { EffectiveConfiguration } from '../../domain/configuration/index.ts';
import { codeSpan } from '../../domain/rules/render-condition-checklist.ts';
import type { Condition } from '../../domain/rules/index.ts';
import { CONFIGURATION_CHANGED_CHECK, type CheckReport } from './check-runs.ts';
import { configurationCheckReport } from './configuration-check.ts';
import type { InForce } from './configuration-cache.ts';
import { conditionJson } from './condition-json.ts';
import type { ValidatedConfiguration } from './configuration-validation.ts';

type Section = 'queue_rules' | 'priority_rules' | 'pull_request_rules' | 'merge_protections';
const SECTIONS: readonly Section[] = ['queue_rules', 'priority_rules', 'pull_request_rules', 'merge_protections'];

export function configurationChangedReport(path: string | null, read: 'file' | 'missing' | 'too_large' | 'removed', candidate: ValidatedConfiguration | null, inForce: InForce): CheckReport {
  if (read === 'removed' || read === 'missing' || path === null) {
    return { name: CONFIGURATION_CHANGED_CHECK, conclusion: 'success', title: 'The configuration file is removed', summary: 'Once merged, no file governs: the merge queue keeps its options and takes them from the API again, and no rules run.' };
  }
  if (read === 'too_large' || !candidate) return configurationCheckReport(CONFIGURATION_CHANGED_CHECK, [{ loc: [], msg: `${path} is larger than 1 MiB.` }], []);
  if (!candidate.valid || !candidate.configuration) return configurationCheckReport(CONFIGURATION_CHANGED_CHECK, candidate.errors, candidate.notSupported);
  const changes = SECTIONS.flatMap((section) => sectionChanges(section, inForce.configuration, candidate.configuration!));
  const listed = changes.length ? changes.map((line) => `- ${line}`).join('\n') : 'No rule changes (options outside the rules may).';
  const valid = configurationCheckReport(CONFIGURATION_CHANGED_CHECK, null, candidate.notSupported);
  return { ...valid, title: `The configuration is valid: ${changes.length} rule ${changes.length === 1 ? 'change' : 'changes'}`, summary: `It applies once this pull request is merged.\n\n${listed}\n\n${valid.summary}` };
}

function sectionChanges(section: Section, before: EffectiveConfiguration<Condition>, after: EffectiveConfiguration<Condition>): string[] {
  const old = new Map(before[section].map((rule) => [rule.name, JSON.stringify(conditionJson(rule))]));
  const now = new Map(after[section].map((rule) => [rule.name, JSON.stringify(conditionJson(rule))]));
  const lines: string[] = [];
  for (const [name, text] of now) {
    if (!old.has(name)) lines.push(`${section}: ${codeSpan(name)} added`);
    else if (old.get(name) !== text) lines.push(`${section}: ${codeSpan(name)} changed`);
  }
  for (const name of old.keys()) if (!now.has(name)) lines.push(`${section}: ${codeSpan(name)} removed`);
  return lines;
}

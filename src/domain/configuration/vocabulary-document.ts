// The whole file's vocabulary, top level: every section of the public configuration and
// nothing else. List caps are the public ones.
import type { Check } from './check-cursor.ts';
import { object, type Checked } from './collection-checks.ts';
import { nullable, text } from './scalar-checks.ts';
import { mergeQueue, priorityRule, queueRule } from './vocabulary-queue.ts';
import { commandsRestrictions, defaults, mergeProtection, mergeProtectionsSettings, namedRules, pullRequestRule } from './vocabulary-rules.ts';
import { scopes, sharedSection } from './vocabulary-scopes.ts';

export const MAX_RULES = { pull_request_rules: 200, queue_rules: 50, priority_rules: 50, merge_protections: 100 } as const;

const documentShape = {
  shared: sharedSection,
  // Which owner is allowed is extendsTarget's to say: the file alone does not know it.
  extends: nullable(text({ min: 1, pattern: /^([A-Za-z0-9-]{1,39}\/)?[A-Za-z0-9._-]{1,100}$/, describe: 'a repository name ("name" or "owner/name")' })),
  defaults,
  scopes,
  commands_restrictions: commandsRestrictions,
  pull_request_rules: namedRules(pullRequestRule, MAX_RULES.pull_request_rules),
  queue_rules: namedRules(queueRule, MAX_RULES.queue_rules),
  merge_protections: namedRules(mergeProtection, MAX_RULES.merge_protections),
  priority_rules: namedRules(priorityRule, MAX_RULES.priority_rules),
  merge_queue: mergeQueue,
  merge_protections_settings: mergeProtectionsSettings,
};

/** A document as the vocabulary read it: every option written, typed; nothing defaulted yet. */
export type CheckedDocument = Checked<typeof documentShape>;

export const configurationDocument: Check<CheckedDocument> = object(documentShape);

export const SECTION_NAMES = Object.keys(documentShape);

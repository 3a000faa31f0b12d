// The configuration a repository runs under: the file's options with `extends` merged, the
// defaults of `defaults.queue_rule` and `defaults.actions` applied, and every option left out
// given its default (the merge queue's from DESIGN.md §9). Durations are integer seconds;
// conditions are whatever the injected parser made of them (`C`). `shared` is not part of it:
// it only held anchors, already resolved.
import type { MergeMethod, MergeQueueConfig, Priority } from '../merge-queue/model.ts';
import type { ActionName, ActionOptions } from './vocabulary-actions.ts';
import type { CommandName } from './vocabulary-rules.ts';
import type { ScopeSource } from './vocabulary-scopes.ts';

export interface EffectiveQueueRule<C> {
  name: string;
  queue_conditions: C;
  merge_conditions: C;
  batch_size: number | { min: number; max: number };
  batch_max_wait_time: number;
  /** null: checks never time out (written `checks_timeout: null`). */
  checks_timeout: number | null;
  max_checks_retries: number;
  merge_method: MergeMethod;
}

export interface EffectivePriorityRule<C> {
  name: string;
  conditions: C;
  priority: Priority;
}

export interface EffectivePullRequestRule<C> {
  name: string;
  description: string | null;
  conditions: C;
  /** Each action's options as written over `defaults.actions` for it. */
  actions: Partial<Record<ActionName, ActionOptions>>;
  disabled: { reason: string } | null;
}

export interface EffectiveMergeProtection<C> {
  name: string;
  description: string | null;
  if: C;
  success_conditions: C;
}

export interface FileFilterLists {
  include: string[];
  exclude: string[];
}

export interface EffectiveConfiguration<C> {
  /** The repository whose file was merged under this one, as written. */
  extends: string | null;
  merge_queue: MergeQueueConfig['merge_queue'];
  /** At least one: a file without queue rules has the rule `default`. */
  queue_rules: EffectiveQueueRule<C>[];
  priority_rules: EffectivePriorityRule<C>[];
  scopes: {
    source: { files: Record<string, FileFilterLists> } | { manual: null } | null;
    barrier_files: FileFilterLists | null;
  };
  pull_request_rules: EffectivePullRequestRule<C>[];
  merge_protections: EffectiveMergeProtection<C>[];
  merge_protections_settings: { post_comment: boolean; auto_merge_conditions: C | null };
  /** The commands the file restricts; a command not listed keeps the public default (write
   * permission; for refresh, rebase, update and squash also the author of a fork's pull request). */
  commands_restrictions: Partial<Record<CommandName, { conditions: C }>>;
  defaults: { actions: Partial<Record<ActionName, ActionOptions>> };
}

export type { ScopeSource };

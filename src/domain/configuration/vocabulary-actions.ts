// The actions of `pull_request_rules` (and their `defaults.actions`), each with its options as
// the public vocabulary types them. One entry per action name: the rules engine's table of
// action modules (DESIGN.md §15) is keyed by the same names.
import type { Check } from './check-cursor.ts';
import { list, namedEntries, object, required } from './collection-checks.ts';
import { conditions } from './condition-checks.ts';
import { byKind, flag, integer, nullable, oneOf, text } from './scalar-checks.ts';
import { commitMessageFormat } from './vocabulary-queue.ts';

const names = (max: number) => list(text(), { max });
const account = nullable(text());

const reviewers = byKind<unknown>('a list of names or a mapping of name to weight (1 to 65535)', {
  list: names(150),
  mapping: namedEntries({ pattern: /^.+$/s, describe: 'a name', max: 150 }, integer(1, 65_535)),
});

const dismissed = byKind<unknown>('a list of logins, true/false or "from_requested_reviewers"', {
  list: names(50),
  boolean: flag,
  text: oneOf(['from_requested_reviewers']),
});

const copyOptions = {
  bot_account: account,
  branches: names(30),
  regexes: names(30),
  ignore_conflicts: flag,
  assignees: names(10),
  labels: names(30),
  label_conflicts: text(),
  title: text(),
  body: text(),
  report_mode: list(oneOf(['check', 'comment']), { min: 1, max: 2 }),
  merge_conflict_style: oneOf(['merge', 'diff3']),
};

const dispatch = object({
  workflow: required(text({ min: 1 })),
  ref: nullable(text()),
  inputs: namedEntries({ pattern: /^.+$/s, describe: 'an input name', max: 10 }, byKind<unknown>('an integer, true/false or text', { number: integer(Number.MIN_SAFE_INTEGER), boolean: flag, text: text() })),
});

export const ACTION_OPTIONS = {
  assign: object({ users: names(10), add_users: names(10), remove_users: names(40) }),
  backport: object(copyOptions),
  close: object({ message: text() }),
  comment: object({ message: nullable(text()), bot_account: account }),
  copy: object(copyOptions),
  delete_head_branch: object({ force: flag }),
  dismiss_reviews: object({ approved: dismissed, changes_requested: dismissed, message: nullable(text()), when: oneOf(['synchronize', 'always']) }),
  edit: object({ bot_account: account, draft: nullable(flag) }),
  github_actions: object({ workflow: required(object({ dispatch: list(dispatch, { max: 10 }) })) }),
  label: object({ add: names(50), remove: names(50), remove_all: flag, toggle: names(50) }),
  merge: object({ method: nullable(oneOf(['merge', 'rebase', 'squash', 'fast-forward'])), merge_bot_account: account, commit_message_template: nullable(text()), commit_message_format: nullable(commitMessageFormat) }),
  post_check: object({ title: text(), summary: text(), success_conditions: nullable(conditions), neutral_conditions: nullable(conditions) }),
  queue: object({ name: nullable(text()) }),
  rebase: object({ bot_account: account, autosquash: flag }),
  request_reviews: object({ bot_account: account, random_count: nullable(integer(1, 15)), users: reviewers, teams: reviewers, users_from_teams: reviewers }),
  review: object({ type: oneOf(['APPROVE', 'REQUEST_CHANGES', 'COMMENT']), message: nullable(text()), bot_account: account }),
  squash: object({ bot_account: account, commit_message: oneOf(['all-commits', 'first-commit', 'title+body']) }),
  update: object({ bot_account: account }),
};

export type ActionName = keyof typeof ACTION_OPTIONS;

/** An action's options as written (conditions inside it parsed), defaults applied by the caller. */
export type ActionOptions = Readonly<Record<string, unknown>>;

export type ActionsByName = Partial<Record<ActionName, ActionOptions | null>>;

export const ACTION_NAMES = Object.keys(ACTION_OPTIONS) as ActionName[];

// `label:` with nothing after it is the action with every option defaulted.
export const actions = object(Object.fromEntries(ACTION_NAMES.map((name) => [name, nullable(ACTION_OPTIONS[name] as Check<ActionOptions>)]))) as Check<ActionsByName>;

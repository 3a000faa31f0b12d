// The grammar of each attribute: what its value is, which operators it takes, whether `-` and `#`
// apply. Operators and modifiers follow the public schema's `x-allowed-operators` and
// `x-modifiers`; one table keyed by every name, so a new attribute does not compile until listed.
import type { AttributeName } from './attribute-names.ts';

export type Operator = '=' | '!=' | '~=' | '*=' | '>=' | '>' | '<=' | '<';

export type ValueKind =
  /** True or false: no operator. */
  | 'boolean'
  /** Text compared as written. */
  | 'text'
  /** GitHub logins, compared ignoring case; `@team` and `@org/team` stand for their members. */
  | 'login'
  /** Names of checks in some state; pending while a named check runs or has not reported. */
  | 'check'
  /** A whole number. */
  | 'integer'
  /** Only a count, written `#attribute` (the public `commits-behind`, `added-lines`, ...). */
  | 'count'
  /** An instant, compared with a timestamp or a relative time (`7 days ago`). */
  | 'time'
  /** The clock itself (`current-datetime`): a timestamp or an interval. */
  | 'now'
  | 'schedule'
  /** A repository permission, ordered none < read < triage < write < maintain < admin. */
  | 'permission'
  /** A value of an attribute Switchyard does not evaluate, kept as text. */
  | 'opaque';

export interface AttributeSpec {
  kind: ValueKind;
  /** A list: `=`, `~=`, `*=` and comparisons hold when any element does, `!=` when none equals. */
  list: boolean;
  operators: readonly Operator[];
  /** The `-` prefix. */
  negate: boolean;
  /** The `#` prefix: not allowed, allowed, or the only way to use the attribute. */
  length: 'no' | 'yes' | 'required';
}

export const TEXT_OPERATORS: readonly Operator[] = ['=', '!=', '~=', '*=', '>=', '>', '<=', '<'];
export const NUMBER_OPERATORS: readonly Operator[] = ['=', '!=', '>=', '>', '<=', '<'];
const ORDER_OPERATORS: readonly Operator[] = ['>=', '>', '<=', '<'];
const ENUM_OPERATORS: readonly Operator[] = ['=', '!=', '~='];
const NO_GLOB = TEXT_OPERATORS.filter((operator) => operator !== '*=');

const spec = (kind: ValueKind, list: boolean, operators: readonly Operator[], length: AttributeSpec['length'] = 'yes'): AttributeSpec => ({
  kind,
  list,
  operators,
  negate: kind !== 'time' && kind !== 'now' && kind !== 'schedule',
  length,
});
const flag = spec('boolean', false, [], 'no');
const text = spec('text', false, TEXT_OPERATORS);
const texts = spec('text', true, TEXT_OPERATORS);
const login = spec('login', false, TEXT_OPERATORS);
const logins = spec('login', true, TEXT_OPERATORS);
const checks = spec('check', true, TEXT_OPERATORS);
const count = spec('count', false, NUMBER_OPERATORS, 'required');
const time = spec('time', false, ORDER_OPERATORS, 'no');

export const ATTRIBUTE_SPECS: Record<AttributeName, AttributeSpec> = {
  number: spec('integer', false, NUMBER_OPERATORS, 'no'),
  title: text,
  body: text,
  'body-raw': text,
  base: text,
  head: text,
  'head-repo-full-name': text,
  'from-fork': flag,
  author: login,
  'merged-by': login,
  milestone: spec('text', false, NO_GLOB),
  assignee: logins,
  label: texts,
  draft: flag,
  closed: flag,
  merged: flag,
  locked: flag,
  conflict: flag,
  'linear-history': flag,
  'repository-name': text,
  'repository-full-name': text,
  'review-requested': logins,
  'approved-reviews-by': logins,
  'changes-requested-reviews-by': logins,
  'commented-reviews-by': logins,
  'dismissed-reviews-by': logins,
  'check-success': checks,
  'check-failure': checks,
  'check-neutral': checks,
  'check-skipped': checks,
  'check-pending': checks,
  'check-timed-out': checks,
  'check-cancelled': checks,
  'check-stale': checks,
  check: checks,
  files: texts,
  'added-files': texts,
  'modified-files': texts,
  'removed-files': texts,
  'added-lines': count,
  'deleted-lines': count,
  'modified-lines': count,
  'commits-behind': count,
  'co-authors': texts,
  'depends-on': texts,
  scope: texts,
  'queue-name': text,
  'queue-position': spec('integer', false, NUMBER_OPERATORS, 'no'),
  'queued-at': time,
  'created-at': time,
  'updated-at': time,
  'closed-at': time,
  'merged-at': time,
  'current-datetime': spec('now', false, NUMBER_OPERATORS, 'no'),
  schedule: spec('schedule', false, ['=', '!='], 'no'),
  sender: login,
  'sender-permission': spec('permission', false, NUMBER_OPERATORS),
  'mergify-configuration-changed': flag,
  'github-review-decision': spec('text', false, ENUM_OPERATORS),
  'github-require-review-from-specific-teams': flag,
  'github-code-owner-review-satisfied': flag,
  'github-review-approved': flag,
  'github-require-last-push-approval': flag,
  'merge-commit-sha': text,
  'queue-dequeue-reason': spec('text', false, ENUM_OPERATORS),
  'commits-unverified': texts,
  'deployment-success': texts,
  'deployment-failure': texts,
  'review-threads-resolved': texts,
  'review-threads-unresolved': texts,
  'dependabot-dependency-name': texts,
  'dependabot-dependency-type': texts,
  'dependabot-update-type': texts,
  commits: spec('opaque', true, TEXT_OPERATORS),
  updates: spec('opaque', true, TEXT_OPERATORS),
  'queue-merge-started-at': time,
};

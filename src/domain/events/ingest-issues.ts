// Turns Ajv errors of an event into 422 items a producer can act on. Ajv reports every branch
// of a failed `anyOf`, most of them about shapes the producer never meant: "must be null" for a
// nullable field, "must be string" for an object, or the fields of the other condition-match
// kinds. Only the branch the producer evidently meant is kept (see closestBranchErrors), and the
// bare "must match a schema in anyOf" goes whenever a more precise error about the value remains.
import type { ErrorObject } from 'ajv';
import { toValidationIssues, type ValidationIssue } from '../../validation/validators.ts';

type Loc = (string | number)[];

export function eventIssues(errors: readonly ErrorObject[] | null | undefined, loc: Loc): ValidationIssue[] {
  return toValidationIssues(preciseErrors(errors ?? []), loc);
}

function preciseErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  let kept = errors.filter((error) => !isNullBranch(error));
  for (const anyOf of kept.filter((error) => error.keyword === 'anyOf')) kept = closestBranchErrors(anyOf, kept);
  return kept.filter((error) => error.keyword !== 'anyOf' || !hasDeeperError(error, kept));
}

function isNullBranch(error: ErrorObject): boolean {
  return error.keyword === 'type' && error.params.type === 'null' && error.schemaPath.includes('/anyOf/');
}

/**
 * Keeps, of the branches of a failed `anyOf`, those the producer meant: branches whose JSON type
 * matches the value beat those that failed on type alone, then the fewest errors win.
 */
function closestBranchErrors(anyOf: ErrorObject, errors: ErrorObject[]): ErrorObject[] {
  const branches = [...branchErrors(anyOf, errors).values()];
  const typed = branches.filter((list) => !list.every((error) => error.keyword === 'type' && error.instancePath === anyOf.instancePath));
  const candidates = typed.length > 0 ? typed : branches;
  const fewest = Math.min(...candidates.map((list) => list.length));
  const dropped = new Set(branches.filter((list) => !candidates.includes(list) || list.length > fewest).flat());
  return errors.filter((error) => !dropped.has(error));
}

/**
 * The errors about the anyOf's value, by branch. An error reached through a `$ref` carries a
 * schema path relative to the referenced schema, so the unattributed ones form one more branch.
 */
function branchErrors(anyOf: ErrorObject, errors: readonly ErrorObject[]): Map<string, ErrorObject[]> {
  const prefix = `${anyOf.schemaPath}/`;
  const branches = new Map<string, ErrorObject[]>();
  for (const error of errors) {
    if (error === anyOf || !isAtOrUnder(error.instancePath, anyOf.instancePath)) continue;
    const branch = error.schemaPath.startsWith(prefix) ? error.schemaPath.slice(prefix.length).split('/')[0]! : '$ref';
    branches.set(branch, [...(branches.get(branch) ?? []), error]);
  }
  return branches;
}

function isAtOrUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

function hasDeeperError(anyOf: ErrorObject, errors: readonly ErrorObject[]): boolean {
  return errors.some((other) => other !== anyOf && other.keyword !== 'anyOf' && isAtOrUnder(other.instancePath, anyOf.instancePath));
}

/** One clear item for a bad `type`, instead of an enum error listing all 46 values. */
export function unknownTypeIssue(value: unknown, loc: Loc): ValidationIssue {
  const shown = typeof value === 'string' ? `"${value}"` : `a ${typeof value}`;
  return {
    loc: [...loc, 'type'],
    msg: `Unknown event type ${shown}; the 46 event types are listed in docs/events.md`,
    type: 'enum',
  };
}

export function receivedAtInFutureIssue(loc: Loc): ValidationIssue {
  return {
    loc: [...loc, 'received_at'],
    msg: 'must be at most 5 minutes after the current time',
    type: 'received_at_in_future',
  };
}

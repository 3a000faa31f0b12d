// A scheduled freeze from the public create and update payloads: times read in the freeze's
// timezone, every condition understood, an end after the start and not already past. On update,
// an absent field keeps its value; `start: null` means now and `end: null` means until deleted.
import type { ValidationIssue } from '../../validation/validators.ts';
import { conditionIssues, type FreezeCondition, type ScheduledFreeze } from './freeze-conditions.ts';
import { isTimeZone, zonedInstant } from './freeze-times.ts';

export interface FreezeInput {
  reason?: string | null;
  start?: string | null;
  end?: string | null;
  timezone?: string | null;
  matching_conditions?: FreezeCondition[] | null;
  exclude_conditions?: FreezeCondition[] | null;
}

export type FreezeFields = Omit<ScheduledFreeze, 'id'>;

export type ResolvedFreeze = { ok: true; freeze: FreezeFields } | { ok: false; issues: ValidationIssue[] } | { ok: false; started: true };

const TIME_MESSAGE = 'must be a date-time in ISO 8601 (a local time of `timezone` when it has no offset)';

function readTime(text: string, timeZone: string, field: string, issues: ValidationIssue[]): Date | undefined {
  const instant = zonedInstant(text, timeZone);
  if (!instant) issues.push({ loc: ['body', field], msg: TIME_MESSAGE, type: 'datetime_parsing' });
  return instant;
}

/** The freeze `input` makes of `current` (null: a new freeze) at `now`. */
export function resolveFreeze(input: FreezeInput, current: FreezeFields | null, now: Date): ResolvedFreeze {
  const issues: ValidationIssue[] = [];
  const timezone = input.timezone ?? current?.timezone ?? 'UTC';
  if (!isTimeZone(timezone)) {
    issues.push({ loc: ['body', 'timezone'], msg: `unknown timezone "${timezone}": use an IANA name such as Europe/Paris or UTC`, type: 'timezone' });
    return { ok: false, issues };
  }
  let start = current?.start ?? now;
  if (input.start !== undefined) start = input.start === null ? now : readTime(input.start, timezone, 'start', issues) ?? start;
  let end = current?.end ?? null;
  if (input.end !== undefined) end = input.end === null ? null : readTime(input.end, timezone, 'end', issues) ?? end;
  const matchingConditions = input.matching_conditions ?? current?.matchingConditions ?? [];
  const excludeConditions = input.exclude_conditions ?? current?.excludeConditions ?? [];
  issues.push(...conditionIssues(matchingConditions, ['body', 'matching_conditions']), ...conditionIssues(excludeConditions, ['body', 'exclude_conditions']));
  if (issues.length > 0) return { ok: false, issues };
  if (end !== null && end.getTime() <= start.getTime()) issues.push({ loc: ['body', 'end'], msg: 'must be after start', type: 'end_before_start' });
  else if (end !== null && input.end !== undefined && end.getTime() <= now.getTime()) issues.push({ loc: ['body', 'end'], msg: 'must be in the future', type: 'end_in_past' });
  if (issues.length > 0) return { ok: false, issues };
  if (current && input.start !== undefined && current.start.getTime() <= now.getTime() && start.getTime() !== current.start.getTime()) return { ok: false, started: true };
  return { ok: true, freeze: { reason: input.reason ?? current?.reason ?? '', start, end, timezone, matchingConditions, excludeConditions } };
}

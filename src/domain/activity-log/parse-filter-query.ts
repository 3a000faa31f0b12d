// Turns the validated query parameters into the filter set and the explicitly given window
// bounds, reporting every problem at once: both sides of a pair (a 422 naming the pair) and
// bounds that are not date-times with a timezone. The aggregate endpoint uses it unchanged.
import { ValidationError } from '../../errors.ts';
import type { ValidationIssue } from '../../validation/validators.ts';
import { FILTER_PAIRS, normaliseValues, type ActivityLogFilters, type ValueFilter } from './activity-log-filters.ts';
import type { ActivityLogFilterParams } from './query-schema.ts';
import type { WindowBounds } from './time-window.ts';
import { parseZonedDateTime } from './zoned-date-time.ts';
import { canonicalEventType } from '../events/index.ts';

export interface ActivityLogQuery {
  readonly filters: ActivityLogFilters;
  /** received_from / received_to as given; defaults are applied by resolveWindow. */
  readonly bounds: WindowBounds;
}

type PairValues = readonly (bigint | string)[] | undefined;

export function parseFilterQuery(params: ActivityLogFilterParams): ActivityLogQuery {
  const issues: ValidationIssue[] = [];
  const filters: Record<string, ValueFilter<bigint | string> | string | undefined> = { baseRef: params.base_ref };
  for (const pair of FILTER_PAIRS) {
    const include = params[pair.include] as PairValues;
    const exclude = params[pair.exclude] as PairValues;
    if (include && exclude) issues.push(exclusiveIssue(pair.include, pair.exclude));
    const values = include ?? exclude;
    if (values) filters[pair.key] = { exclude: !include, values: normaliseValues(pair.key === 'eventType' ? values.map(specEventType) : values) };
  }
  const bounds = { from: bound(params.received_from, 'received_from', issues), to: bound(params.received_to, 'received_to', issues) };
  if (issues.length > 0) throw new ValidationError(issues);
  return { filters: filters as ActivityLogFilters, bounds };
}

/** Filters accept the public API's spelling of an event type; the filter holds the spec's. */
function specEventType(value: bigint | string): bigint | string {
  return typeof value === 'string' ? canonicalEventType(value) : value;
}

function exclusiveIssue(include: string, exclude: string): ValidationIssue {
  return { loc: ['query', include], msg: `cannot be combined with ${exclude}: give one side of the pair ${include} / ${exclude}`, type: 'mutually_exclusive' };
}

function bound(text: string | undefined, name: string, issues: ValidationIssue[]): Date | undefined {
  if (text === undefined) return undefined;
  const parsed = parseZonedDateTime(text);
  if (parsed.ok) return parsed.date;
  issues.push({ loc: ['query', name], msg: parsed.msg, type: 'format' });
  return undefined;
}

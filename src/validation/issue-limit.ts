// How many issues one 422 lists (DESIGN.md §2). A body within the limits can hold hundreds of
// thousands of invalid values; naming each made an 80 MB answer and seconds of blocked event
// loop. The first MAX_REPORTED_ISSUES are listed, then one item counts the rest.

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export const MAX_REPORTED_ISSUES = 100;

/** How many issues a summary item stands for (kept out of the JSON a client sees). */
const omittedCounts = new WeakMap<ValidationIssue, number>();

/** The item that ends a truncated list: `loc` the part of the request the issues were in. */
export function omittedIssues(count: number, loc: (string | number)[]): ValidationIssue {
  const issue = { loc, msg: `${count} more issue${count === 1 ? '' : 's'} not shown`, type: 'too_many_issues' };
  omittedCounts.set(issue, count);
  return issue;
}

function weight(issue: ValidationIssue): number {
  return omittedCounts.get(issue) ?? 1;
}

/**
 * At most MAX_REPORTED_ISSUES issues and one summary item: lists built from several capped ones
 * (the events of an ingested batch) are capped again, their summaries' counts added up.
 */
export function capIssues(issues: ValidationIssue[]): ValidationIssue[] {
  const listed = issues.filter((issue) => !omittedCounts.has(issue));
  if (listed.length === issues.length && issues.length <= MAX_REPORTED_ISSUES) return issues;
  const kept = listed.slice(0, MAX_REPORTED_ISSUES);
  let omitted = 0;
  for (const issue of issues) omitted += weight(issue);
  omitted -= kept.length;
  return omitted > 0 ? [...kept, omittedIssues(omitted, kept[0]?.loc.slice(0, 1) ?? [])] : kept;
}

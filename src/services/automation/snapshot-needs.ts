// Which platform reads a configuration's conditions need: a repository whose rules name no file
// never has its pull requests' files read.

export type SnapshotPart = 'files' | 'commits' | 'reviews' | 'checks' | 'behind' | 'conflict';

const PART_OF_ATTRIBUTE: Record<string, SnapshotPart> = {
  files: 'files',
  'added-files': 'files',
  'modified-files': 'files',
  'removed-files': 'files',
  'added-lines': 'files',
  'deleted-lines': 'files',
  'modified-lines': 'files',
  'mergify-configuration-changed': 'files',
  'co-authors': 'commits',
  'linear-history': 'commits',
  'approved-reviews-by': 'reviews',
  'changes-requested-reviews-by': 'reviews',
  'commented-reviews-by': 'reviews',
  'dismissed-reviews-by': 'reviews',
  'check-success': 'checks',
  'check-failure': 'checks',
  'check-neutral': 'checks',
  'check-skipped': 'checks',
  'check-pending': 'checks',
  'check-timed-out': 'checks',
  'check-cancelled': 'checks',
  'check-stale': 'checks',
  check: 'checks',
  'commits-behind': 'behind',
  conflict: 'conflict',
};

export function partsNeeded(attributes: Iterable<string>): Set<SnapshotPart> {
  const parts = new Set<SnapshotPart>();
  for (const attribute of attributes) {
    const part = PART_OF_ATTRIBUTE[attribute];
    if (part) parts.add(part);
  }
  return parts;
}

/** Whether a push to a pull request's base can change what these conditions say of it. */
export function dependsOnBase(parts: ReadonlySet<SnapshotPart>): boolean {
  return parts.has('behind') || parts.has('conflict');
}

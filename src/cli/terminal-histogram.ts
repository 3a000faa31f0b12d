// The aggregate's histogram drawn in a terminal: one line per group of adjacent buckets (merged
// so at most `rows` lines), a bar of eighth-blocks scaled to the largest group, and its count.
export interface HistogramBucket {
  start: string;
  end: string;
  count: number;
}

export interface HistogramOptions {
  /** Most lines drawn; adjacent buckets are added together to fit. */
  rows: number;
  /** Width of the longest bar, in characters. */
  width: number;
}

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** A bar of `value / max * width` characters, to the eighth; any non-zero value shows. */
export function bar(value: number, max: number, width: number): string {
  if (value <= 0 || max <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * width * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

/** Adjacent buckets added together in groups of `size`; a group spans from its first start to its last end. */
export function groupBuckets(buckets: readonly HistogramBucket[], size: number): HistogramBucket[] {
  const groups: HistogramBucket[] = [];
  for (let i = 0; i < buckets.length; i += size) {
    const part = buckets.slice(i, i + size);
    groups.push({ start: part[0]!.start, end: part[part.length - 1]!.end, count: part.reduce((sum, b) => sum + b.count, 0) });
  }
  return groups;
}

/** `2026-01-02 03:04` in UTC: what a bucket's start needs (buckets are 15 s at the least, aligned). */
function label(iso: string, withSeconds: boolean): string {
  const text = new Date(iso).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, withSeconds ? 19 : 16)}`;
}

export function renderHistogram(buckets: readonly HistogramBucket[], options: HistogramOptions): string {
  if (buckets.length === 0) return '';
  const groups = groupBuckets(buckets, Math.ceil(buckets.length / Math.max(1, options.rows)));
  const max = Math.max(...groups.map((g) => g.count));
  const withSeconds = groups.some((g) => new Date(g.start).getUTCSeconds() !== 0);
  const countWidth = String(max).length;
  return groups.map((g) => `${label(g.start, withSeconds)}  ${String(g.count).padStart(countWidth)} ${bar(g.count, max, options.width)}`.trimEnd()).join('\n') + '\n';
}

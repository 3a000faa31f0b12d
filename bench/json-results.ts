// Machine-readable results of a benchmark (`--json <file>`), read by bench/run-all.ts for its
// summary: a few headline rows per backend, beside the table the benchmark prints as before.
import { readFile, writeFile } from 'node:fs/promises';

export interface BenchResult {
  backend: string;
  /** What the row measured: an endpoint, a batch size, a window. */
  case: string;
  /** Headline figures, each named with its unit ("HTTP events/s", "p99 ms"). */
  metrics: Record<string, number>;
  /** The verdict against the benchmark's targets, when it has any. */
  verdict?: string;
}

export interface BenchReport {
  benchmark: string;
  results: BenchResult[];
}

/** Writes the report when a file was asked for (`--json`), else does nothing. */
export async function writeJsonResults(file: string | undefined, benchmark: string, results: BenchResult[]): Promise<void> {
  if (file === undefined) return;
  const report: BenchReport = { benchmark, results };
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
}

export async function readJsonResults(file: string): Promise<BenchReport> {
  return JSON.parse(await readFile(file, 'utf8')) as BenchReport;
}

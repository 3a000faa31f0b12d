// How commands print: data as one JSON document per line with --json (exact 64-bit numbers),
// otherwise aligned columns for people.
import { stringifyJson } from '../json/exact-json.ts';
import type { CliIo } from './cli-io.ts';

export function printJson(io: CliIo, value: unknown): void {
  io.stdout(`${stringifyJson(value)}\n`);
}

export type Cell = string | number | bigint | boolean | null | undefined;

const text = (cell: Cell) => (cell === null || cell === undefined ? '-' : String(cell));

/** Columns padded to their widest cell; the last column is not padded. */
export function formatTable(headers: readonly string[], rows: readonly (readonly Cell[])[]): string {
  const cells = [headers.map(String), ...rows.map((row) => row.map(text))];
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}

export function printTable(io: CliIo, headers: readonly string[], rows: readonly (readonly Cell[])[]): void {
  io.stdout(formatTable(headers, rows));
}

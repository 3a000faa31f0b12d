// Memory of another process (the Switchyard server a benchmark started), read from
// /proc/<pid>/status: its resident set now (VmRSS) and the highest it has been (VmHWM).
import { readFile } from 'node:fs/promises';

async function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
}

/** Resident memory of `pid` now, in bytes. */
export function residentBytes(pid: number): Promise<number> {
  return statusField(pid, 'VmRSS');
}

/** The highest resident memory of `pid` since it started, in bytes. */
export function peakResidentBytes(pid: number): Promise<number> {
  return statusField(pid, 'VmHWM');
}

// The processes descending from one pid, read from /proc (Linux): what `npm start` leaves
// running, and whether any of it is still alive after a signal.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcessStat {
  pid: number;
  ppid: number;
  state: string;
  command: string;
}

function stat(pid: number): ProcessStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split at the last ')'.
    const close = text.lastIndexOf(')');
    const [state, ppid] = text.slice(close + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(ppid), state: state!, command };
  } catch {
    return undefined;
  }
}

/** `root` and every process below it. */
export function processTree(root: number): ProcessStat[] {
  const all = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map((name) => stat(Number(name))).filter((p): p is ProcessStat => p !== undefined);
  const tree: ProcessStat[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const found = all.find((p) => p.pid === pid);
    if (found) tree.push(found);
    for (const child of all) if (child.ppid === pid) queue.push(child.pid);
  }
  return tree;
}

/** Running (not gone, not a zombie waiting to be reaped). */
export function isRunning(pid: number): boolean {
  const found = stat(pid);
  return found !== undefined && found.state !== 'Z' && found.state !== 'X';
}

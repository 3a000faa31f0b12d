// One process per embedded data directory: PGlite has no lock of its own, and two writers would
// corrupt it. The lock file holds the owner's pid; a lock whose process is gone (a crash, a
// SIGKILL) is stale and taken over.
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

export class DataDirInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function tryCreate(file: string): Promise<boolean> {
  try {
    const handle = await open(file, 'wx', 0o600);
    await handle.writeFile(`${process.pid}\n`);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Takes the directory's lock; resolves to its release. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'switchyard.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    if (await tryCreate(file)) return () => rm(file, { force: true });
    const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
      throw new DataDirInUseError(`data directory ${dir} is in use by process ${owner}`);
    }
    await rm(file, { force: true });
  }
  throw new DataDirInUseError(`could not lock data directory ${dir}`);
}

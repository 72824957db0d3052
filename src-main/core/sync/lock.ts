// One sync at a time per data folder (the command line and the app share it). The lock file holds the owner's PID;
// a lock whose process is gone (a sync killed with SIGKILL, a crash) is taken over.
import { open, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

export class SyncLockedError extends Error {
  readonly pid: number;
  constructor(pid: number) {
    super(`another sync is running on this data folder (process ${pid}); wait for it to finish, or stop it.`);
    this.name = 'SyncLockedError';
    this.pid = pid;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface SyncLock {
  release(): Promise<void>;
}

/** Takes the data folder's sync lock, or throws SyncLockedError naming the process that holds it. */
export async function acquireSyncLock(dataDir: string): Promise<SyncLock> {
  const file = join(dataDir, 'sync.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (isAlive(owner)) throw new SyncLockedError(owner);
      await rm(file, { force: true }); // the owner is gone: its lock is stale
    }
  }
  throw new Error(`could not take the sync lock ${file}; remove it if no Trackwatch sync is running.`);
}

/**
 * Removes partial downloads an interrupted sync left in the replay folder. Only called while holding the sync lock,
 * so no other writer can own them.
 */
export async function removePartialDownloads(dataDir: string): Promise<number> {
  const root = join(dataDir, 'replays');
  const names = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  const partial = names.filter((name) => name.endsWith('.part'));
  await Promise.all(partial.map((name) => rm(join(root, name), { force: true })));
  return partial.length;
}

// One sync at a time per data folder (the command line and the app share it). The lock file holds the owner's PID;
// a lock whose process is gone (a sync killed with SIGKILL, a crash) is taken over.
import { join } from 'node:path';
import { acquirePidLock, type PidLock } from '../pid-lock.ts';
import { localFault } from '../store/errors.ts';
import type { Store } from '../store/index.ts';

export class SyncLockedError extends Error {
  readonly pid: number | undefined;
  constructor(pid: number | undefined) {
    super(`another sync is running on this data folder (${pid === undefined ? 'a process starting up' : `process ${pid}`}); wait for it to finish, or stop it.`);
    this.name = 'SyncLockedError';
    this.pid = pid;
  }
}

export type SyncLock = PidLock;

/** Takes the data folder's sync lock, or throws SyncLockedError naming the process that holds it. */
export function acquireSyncLock(dataDir: string): Promise<SyncLock> {
  return acquirePidLock(join(dataDir, 'sync.lock'), (pid) => new SyncLockedError(pid));
}

/**
 * Closes the runs a process that is gone left "running" (killed, or its disk too full to write the run's end), unless
 * a sync holds the folder: opening a folder to write says how they ended instead of waiting for the next sync.
 */
export async function closeAbandonedRuns(store: Store, dataDir: string): Promise<number> {
  let lock: SyncLock;
  try {
    lock = await acquireSyncLock(dataDir);
  } catch {
    // A sync runs (or the lock cannot be taken): its runs are its own.
    return 0;
  }
  try {
    return store.syncRuns.closeInterrupted();
  } catch (error) {
    // Still no room to write: the next open or sync tries again.
    if (localFault(error) === undefined) throw error;
    return 0;
  } finally {
    await lock.release();
  }
}

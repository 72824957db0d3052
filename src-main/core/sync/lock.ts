// One sync at a time per data folder (the command line and the app share it). The lock file holds the owner's PID;
// a lock whose process is gone (a sync killed with SIGKILL, a crash) is taken over.
import { join } from 'node:path';
import { acquirePidLock, type PidLock } from '../pid-lock.ts';

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

// One sync at a time per data folder (the command line and the app share it). The lock file holds the owner's PID;
// a lock whose process is gone (a sync killed with SIGKILL, a crash) is taken over.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { replaysDir } from '../paths.ts';
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

/**
 * Removes partial downloads an interrupted sync left in the replay folder. Only called while holding the sync lock,
 * so no other writer can own them.
 */
export async function removePartialDownloads(dataDir: string): Promise<number> {
  const root = replaysDir(dataDir);
  const names = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  const partial = names.filter((name) => name.endsWith('.part'));
  await Promise.all(partial.map((name) => rm(join(root, name), { force: true })));
  return partial.length;
}

// A lock file holding its owner's PID, released by removing it. A lock whose process is gone (killed with SIGKILL,
// a crash) is taken over. Shared by the sync lock and the demo folder's lock.
import { randomBytes } from 'node:crypto';
import { link, readFile, rm, stat, writeFile } from 'node:fs/promises';

/** A lock file with no PID in it is a writer caught mid-way, unless it is older than this. */
const UNREADABLE_GRACE_MS = 10_000;

/** Whether a process with this PID runs (one we may not signal counts: it exists). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerOf(file: string): Promise<number | undefined> {
  const text = (await readFile(file, 'utf8').catch(() => '')).trim();
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

export interface PidLock {
  release(): Promise<void>;
}

/**
 * Takes the lock `file`, or throws what `held(pid)` makes when a live process holds it (pid undefined: a process
 * that has not written its PID yet).
 */
export async function acquirePidLock(file: string, held: (pid: number | undefined) => Error): Promise<PidLock> {
  // The PID goes into a file of our own first, then a hard link puts it in place: the lock never exists without its
  // owner in it, and link fails with EEXIST when another process holds it.
  const mine = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await link(mine, file);
        return {
          release: async () => {
            if ((await ownerOf(file)) === process.pid) await rm(file, { force: true });
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = await ownerOf(file);
        if (owner === undefined) {
          // No PID: an older Trackwatch still writing it, or one that died doing so long ago.
          const age = Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0);
          if (age < UNREADABLE_GRACE_MS) throw held(undefined);
        } else if (isAlive(owner)) {
          throw held(owner);
        }
        // The owner is gone: its lock is stale. Remove it only if it still names that owner (another process may
        // have taken it over meanwhile).
        if ((await ownerOf(file)) === owner) await rm(file, { force: true });
      }
    }
  } finally {
    await rm(mine, { force: true });
  }
  throw new Error(`could not take the lock ${file}; remove it if no Trackwatch process is running.`);
}

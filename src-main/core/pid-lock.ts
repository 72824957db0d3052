// A lock file holding its owner's PID: taken with an exclusive create, released by removing it. A lock whose process
// is gone (killed with SIGKILL, a crash) is taken over. Shared by the sync lock and the demo folder's lock.
import { open, readFile, rm } from 'node:fs/promises';

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

export interface PidLock {
  release(): Promise<void>;
}

/** Takes the lock `file`, or throws what `held(pid)` makes when a live process holds it. */
export async function acquirePidLock(file: string, held: (pid: number) => Error): Promise<PidLock> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (isAlive(owner)) throw held(owner);
      await rm(file, { force: true }); // the owner is gone: its lock is stale
    }
  }
  throw new Error(`could not take the lock ${file}; remove it if no Trackwatch process is running.`);
}

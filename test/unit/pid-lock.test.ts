import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquirePidLock } from '../../src-main/core/pid-lock.ts';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const fresh = (): string => (dir = mkdtempSync(join(tmpdir(), 'tw-pidlock-')));
const held = (pid: number | undefined) => new Error(`held by ${pid ?? 'someone starting'}`);

/** A PID that no process has: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('the PID lock', () => {
  it('puts the owner in the lock as it appears, refuses a second taker, and leaves no temp files', async () => {
    const file = join(fresh(), 'x.lock');
    const lock = await acquirePidLock(file, held);
    expect(await readFile(file, 'utf8')).toBe(String(process.pid));
    await expect(acquirePidLock(file, held)).rejects.toThrow(`held by ${process.pid}`);
    expect(readdirSync(dir)).toEqual(['x.lock']);
    await lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('treats a lock with no PID yet as held while it is fresh, and as stale once it is old', async () => {
    const file = join(fresh(), 'x.lock');
    writeFileSync(file, '');
    await expect(acquirePidLock(file, held)).rejects.toThrow('held by someone starting');
    const old = new Date(Date.now() - 60_000);
    utimesSync(file, old, old);
    const lock = await acquirePidLock(file, held);
    expect(await readFile(file, 'utf8')).toBe(String(process.pid));
    await lock.release();
  });

  it('takes over the lock of a process that is gone', async () => {
    const file = join(fresh(), 'x.lock');
    writeFileSync(file, String(await deadPid()));
    const lock = await acquirePidLock(file, held);
    expect(await readFile(file, 'utf8')).toBe(String(process.pid));
    await lock.release();
  });

  it('release leaves alone a lock that another process has taken since', async () => {
    const file = join(fresh(), 'x.lock');
    const lock = await acquirePidLock(file, held);
    writeFileSync(file, '999999999');
    await lock.release();
    expect(await readFile(file, 'utf8')).toBe('999999999');
  });
});

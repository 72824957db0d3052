// One demo per folder at a time: a second demo would empty the folder under the first (the app's, say).
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_LIST, DemoInUseError, startDemo, type Demo } from '../../../src-main/service/demo.ts';
import { tempDataDir } from '../../helpers/sync.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function folder(): Promise<string> {
  const data = await tempDataDir();
  cleanups.push(data.remove);
  return join(data.dir, 'demo');
}

const small = { maps: 3, players: 3, maxRps: 500 };

describe('the demo folder', () => {
  it('is refused to a second demo while the first is open, with the process that has it, and freed by close', async () => {
    const dir = await folder();
    const first: Demo = await startDemo({ dataDir: dir, ...small });
    let closed = false;
    cleanups.push(async () => {
      if (!closed) await first.close();
    });
    const refused = await startDemo({ dataDir: dir, ...small }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DemoInUseError);
    expect((refused as DemoInUseError).message).toContain(`(process ${process.pid})`);
    // The first demo's data is untouched.
    expect(first.trackwatch.store.watchlists.list().map((l) => l.name)).toEqual([DEMO_LIST]);

    await first.close();
    closed = true;
    const second = await startDemo({ dataDir: dir, ...small });
    await second.close();
  });

  it('is refused while another process holds it, and taken over once that process is gone', async () => {
    const dir = await folder();
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const exited = new Promise((r) => child.once('exit', r));
    cleanups.push(async () => {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    });
    await writeFile(`${dir}.lock`, String(child.pid));
    await expect(startDemo({ dataDir: dir, ...small })).rejects.toThrow(`in use by another Trackwatch (process ${child.pid})`);

    child.kill('SIGKILL');
    await exited;
    const demo = await startDemo({ dataDir: dir, ...small });
    expect(await readFile(`${dir}.lock`, 'utf8')).toBe(String(process.pid));
    await demo.close();
    await expect(readFile(`${dir}.lock`, 'utf8')).rejects.toThrow();
  });
});

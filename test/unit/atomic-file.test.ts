// The one atomic writer (a hidden temp file beside the final one, flushed, renamed) and the one sweep of what a
// killed writer leaves, found through the notes writing processes keep in the data folder.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepTempFiles, tempPathFor, writeAtomically } from '../../src-main/core/atomic-file.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tw-atomic-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const notesIn = (dataDir: string): string[] => {
  try {
    return readdirSync(join(dataDir, 'tmp', 'in-progress'));
  } catch {
    return [];
  }
};
const readNotes = (dataDir: string) =>
  notesIn(dataDir).map((n) => JSON.parse(readFileSync(join(dataDir, 'tmp', 'in-progress', n), 'utf8')) as { pid: number; folders: { path: string; deep: boolean }[] });

/** A PID that no process has: a child that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

/** A temp file as the writer with this PID leaves it when it is killed mid-write. */
function tempLeftBy(pid: number, file: string): string {
  const temp = join(dirname(file), `.${basename(file)}.trackwatch.${pid}-0123456789ab.tmp`);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(temp, 'half a file');
  return temp;
}

function note(dataDir: string, pid: number, folders: { path: string; deep: boolean }[], name = `${pid}-0a.json`): void {
  mkdirSync(join(dataDir, 'tmp', 'in-progress'), { recursive: true });
  writeFileSync(join(dataDir, 'tmp', 'in-progress', name), JSON.stringify({ pid, folders }));
}

describe('writes', () => {
  it('writes into the data folder through a temp file beside the final one, noting the folder once', async () => {
    const data = Buffer.from('GBX replay bytes');
    const file = join(dir, 'replays', 'm', 'a', 'r.replay.gbx');
    mkdirSync(dirname(file), { recursive: true });
    const result = await writeAtomically(file, async (handle) => {
      await handle.write(data);
      return data.length;
    }, { dataDir: dir });
    expect(result).toBe(data.length);
    expect(readFileSync(file)).toEqual(data);
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(createHash('sha256').update(data).digest('hex'));
    expect(readdirSync(dirname(file))).toEqual(['r.replay.gbx']);
    // The process's note names replays/ (deep), not the file: a second replay writes no note.
    expect(readNotes(dir)).toEqual([{ pid: process.pid, folders: [{ path: join(dir, 'replays'), deep: true }] }]);
    const second = join(dir, 'replays', 'n', 'b', 'r.replay.gbx');
    mkdirSync(dirname(second), { recursive: true });
    await writeAtomically(second, async (handle) => handle.write(data), { dataDir: dir });
    expect(notesIn(dir)).toHaveLength(1);
    expect(readNotes(dir)[0]!.folders).toHaveLength(1);
  });

  it('streams chunks into the temp file', async () => {
    const file = join(dir, 'x.txt');
    await writeAtomically(file, async (handle) => {
      for (const chunk of ['ab', 'c']) await handle.write(chunk);
    });
    expect(readFileSync(file, 'utf8')).toBe('abc');
    expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(createHash('sha256').update('abc').digest('hex'));
  });

  it('leaves the old file and no temp file when the write fails half-way', async () => {
    const file = join(dir, 'export.csv');
    writeFileSync(file, 'old complete content');
    const failing = writeAtomically(file, async (handle) => {
      await handle.write('half of the new');
      throw new Error('disk full');
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(readFileSync(file, 'utf8')).toBe('old complete content');
    expect(readdirSync(dir)).toEqual(['export.csv']);
  });

  it('renames only after the writer succeeds, from a hidden sibling in the same folder named for this process', async () => {
    const file = join(dir, 'f.txt');
    let seenTemp = '';
    await writeAtomically(file, async (handle, temp) => {
      seenTemp = temp;
      await handle.write('done');
      expect(existsSync(file)).toBe(false);
      expect(existsSync(temp)).toBe(true);
    });
    expect(seenTemp.endsWith('.tmp')).toBe(true);
    expect(dirname(seenTemp)).toBe(dir);
    expect(basename(seenTemp)).toMatch(new RegExp(`^\\.f\\.txt\\.trackwatch\\.${process.pid}-[0-9a-f]{12}\\.tmp$`));
    expect(readFileSync(file, 'utf8')).toBe('done');
    expect(existsSync(seenTemp)).toBe(false);
  });

  it('publishes through the given step, and a cancel that comes while the file finishes still wins', async () => {
    const file = join(dir, 'kept.csv');
    const published: string[] = [];
    await writeAtomically(file, async (handle) => handle.write('a,b'), {
      publish: async (temp, to) => {
        published.push(to);
        await writeFile(to, readFileSync(temp), { flag: 'wx' });
        rmSync(temp);
      },
    });
    expect(published).toEqual([file]);
    expect(readFileSync(file, 'utf8')).toBe('a,b');

    const controller = new AbortController();
    const cancelled = writeAtomically(join(dir, 'cancelled.csv'), async (handle) => {
      await handle.write('all of it');
      controller.abort(new Error('cancelled'));
    }, { signal: controller.signal });
    await expect(cancelled).rejects.toThrow('cancelled');
    expect(readdirSync(dir)).toEqual(['kept.csv']);
  });

  it('notes a folder outside the data folder as it is (an export to --out)', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'tw-atomic-out-'));
    try {
      await writeAtomically(join(outside, 'out.csv'), async (handle) => handle.write('a'), { dataDir: dir });
      expect(readNotes(dir)[0]!.folders).toContainEqual({ path: outside, deep: false });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('takes a temp name no other write has', () => {
    const names = new Set(Array.from({ length: 100 }, () => tempPathFor(join(dir, 'a.csv'))));
    expect(names.size).toBe(100);
  });
});

describe('the sweep at start', () => {
  it('removes the temp files of a writer that is gone, in every folder its note names, and keeps other files', async () => {
    const gone = await deadPid();
    const outside = mkdtempSync(join(tmpdir(), 'tw-atomic-out-'));
    try {
      const temps = [
        tempLeftBy(gone, join(dir, 'replays', 'm', 'a', 'r.replay.gbx')),
        tempLeftBy(gone, join(dir, 'thumbnails', 'm.img')),
        tempLeftBy(gone, join(dir, 'exports', 'x.csv')),
        tempLeftBy(gone, join(outside, 'out.csv')),
      ];
      const others = [
        tempLeftBy(process.pid, join(dir, 'exports', 'mine.csv')),
        join(dir, 'exports', 'kept.csv'),
        join(dir, 'replays', 'm', 'a', 'r.replay.gbx'),
      ];
      writeFileSync(others[1]!, 'a,b');
      writeFileSync(others[2]!, 'GBX');
      note(dir, gone, [
        { path: join(dir, 'replays'), deep: true }, { path: join(dir, 'thumbnails'), deep: true },
        { path: join(dir, 'exports'), deep: true }, { path: outside, deep: false },
      ]);
      expect(sweepTempFiles(dir)).toBe(4);
      for (const temp of temps) expect(existsSync(temp), temp).toBe(false);
      for (const file of others) expect(existsSync(file), file).toBe(true);
      expect(notesIn(dir)).toEqual([]);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('leaves a running writer\'s temp files and note alone', () => {
    const temp = tempLeftBy(process.pid, join(dir, 'exports', 'x.csv'));
    note(dir, process.pid, [{ path: join(dir, 'exports'), deep: true }]);
    expect(sweepTempFiles(dir)).toBe(0);
    expect(existsSync(temp)).toBe(true);
    expect(notesIn(dir)).toHaveLength(1);
  });

  it('searches the data folder\'s own folders when a note was cut short by a kill', async () => {
    const gone = await deadPid();
    const temp = tempLeftBy(gone, join(dir, 'replays', 'm', 'a', 'r.replay.gbx'));
    mkdirSync(join(dir, 'tmp', 'in-progress'), { recursive: true });
    writeFileSync(join(dir, 'tmp', 'in-progress', `${gone}-0b.json`), '{"pid":');
    expect(sweepTempFiles(dir)).toBe(1);
    expect(existsSync(temp)).toBe(false);
    expect(notesIn(dir)).toEqual([]);
  });

  it('never removes a file a note names unless it is a temp file of that note\'s writer', async () => {
    const gone = await deadPid();
    const precious = join(dir, 'precious.csv');
    writeFileSync(precious, 'my own work');
    const someoneElses = tempLeftBy(process.pid, join(dir, 'a.csv'));
    note(dir, gone, [{ path: dir, deep: true }]);
    expect(sweepTempFiles(dir)).toBe(0);
    expect(readFileSync(precious, 'utf8')).toBe('my own work');
    expect(existsSync(someoneElses)).toBe(true);
    expect(notesIn(dir)).toEqual([]);
  });
});

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  assertSafeRelativePath,
  cleanupStrayTempFiles,
  resolveInDataDir,
  withTempFile,
  writeFileAtomic,
  writeInDataDir,
} from '../../../src-main/core/store/files.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tw-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('paths inside the data folder', () => {
  it('resolves a relative path with forward slashes inside the folder', () => {
    expect(resolveInDataDir(dir, 'replays/a/b.replay.gbx')).toBe(join(dir, 'replays', 'a', 'b.replay.gbx'));
  });

  it.each([
    '../x',
    'replays/../../x',
    'replays/./x',
    '/etc/passwd',
    'C:/Windows/x',
    'C:x',
    'replays\\..\\x',
    '\\\\server\\share\\x',
    'replays//x',
    '',
    'a\0b',
    'replays/file.gbx:stream',
    'replays/CON',
    'replays/trailing.',
  ])('refuses %j', (relPath) => {
    expect(() => resolveInDataDir(dir, relPath)).toThrow(expect.objectContaining({ code: 'PATH_OUTSIDE_DATA_FOLDER' }));
  });

  it('refuses non-strings', () => {
    expect(() => assertSafeRelativePath(undefined)).toThrow(/relative path is needed/);
  });
});

describe('writes', () => {
  it('writes into the data folder through tmp/, returning size and SHA-256', async () => {
    const data = Buffer.from('GBX replay bytes');
    const written = await writeInDataDir(dir, 'replays/m/a/r.replay.gbx', data);
    expect(written).toEqual({
      file: join(dir, 'replays', 'm', 'a', 'r.replay.gbx'),
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    });
    expect(readFileSync(written.file)).toEqual(data);
    expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
  });

  it('streams chunks and hashes them', async () => {
    async function* chunks(): AsyncGenerator<string> {
      yield 'ab';
      yield 'c';
    }
    const written = await writeFileAtomic(join(dir, 'out', 'x.txt'), chunks());
    expect(readFileSync(join(dir, 'out', 'x.txt'), 'utf8')).toBe('abc');
    expect(written.sha256).toBe(createHash('sha256').update('abc').digest('hex'));
  });

  it('leaves the old file and no temp file when the write fails half-way', async () => {
    const file = join(dir, 'export.csv');
    writeFileSync(file, 'old complete content');
    async function* failing(): AsyncGenerator<string> {
      yield 'half of the new';
      throw new Error('disk full');
    }
    await expect(writeFileAtomic(file, failing())).rejects.toThrow('disk full');
    expect(readFileSync(file, 'utf8')).toBe('old complete content');
    expect(readdirSync(dir)).toEqual(['export.csv']);
  });

  it('withTempFile renames only after the writer succeeds', async () => {
    const file = join(dir, 'f.txt');
    let seenTemp = '';
    await withTempFile(file, async (temp) => {
      seenTemp = temp;
      writeFileSync(temp, 'done');
      expect(existsSync(file)).toBe(false);
    });
    expect(seenTemp.endsWith('.tmp')).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe('done');
    expect(existsSync(seenTemp)).toBe(false);
  });

  it('cleans up only *.tmp files old enough', () => {
    const tmp = join(dir, 'tmp');
    mkdirSync(tmp);
    writeFileSync(join(tmp, 'a.tmp'), 'x');
    writeFileSync(join(tmp, 'keep.txt'), 'x');
    expect(cleanupStrayTempFiles(dir, { minAgeMs: 60_000 })).toBe(0);
    expect(cleanupStrayTempFiles(dir, { minAgeMs: 60_000, now: Date.now() + 120_000 })).toBe(1);
    expect(readdirSync(tmp)).toEqual(['keep.txt']);
  });
});

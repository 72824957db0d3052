import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertSafeRelativePath, resolveInDataDir } from '../../../src-main/core/store/files.ts';

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

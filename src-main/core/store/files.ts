// The file side of the store: paths inside the data folder that cannot escape it, and whether a stored file is still
// what was stored. Files are written by core/atomic-file.ts.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { StoreError, StoreErrorCode } from './errors.ts';
import { describe } from './ids.ts';

const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;

function unsafe(relPath: unknown, why: string): StoreError {
  return new StoreError(StoreErrorCode.PATH_OUTSIDE_DATA_FOLDER, `refusing path ${describe(relPath)}: ${why}`);
}

/**
 * A path relative to the data folder, as the store writes them: forward slashes, no `..`, nothing absolute, no
 * drive letter, no backslash, no colon, no empty or Windows-special segment. Throws PATH_OUTSIDE_DATA_FOLDER.
 */
export function assertSafeRelativePath(relPath: unknown): asserts relPath is string {
  if (typeof relPath !== 'string' || relPath === '') throw unsafe(relPath, 'a relative path is needed');
  if (relPath.length > 1024) throw unsafe(relPath, 'too long');
  if (relPath.includes('\0')) throw unsafe(relPath, 'it holds a NUL character');
  if (relPath.includes('\\')) throw unsafe(relPath, 'it holds a backslash; paths in the data folder use forward slashes');
  if (relPath.startsWith('/') || isAbsolute(relPath)) throw unsafe(relPath, 'it is absolute');
  if (relPath.includes(':')) throw unsafe(relPath, 'it holds a colon (a drive letter or a stream name)');
  for (const segment of relPath.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw unsafe(relPath, 'it has an empty, "." or ".." part');
    if (/[. ]$/.test(segment) || WINDOWS_DEVICE.test(segment)) throw unsafe(relPath, 'it has a part Windows cannot store');
  }
}

/** The absolute path of `relPath` inside `dataDir`; refuses anything that would land outside it. */
export function resolveInDataDir(dataDir: string, relPath: string): string {
  assertSafeRelativePath(relPath);
  const root = resolve(dataDir);
  const full = resolve(root, ...relPath.split('/'));
  const rel = relative(root, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) throw unsafe(relPath, 'it leaves the data folder');
  return full;
}

/**
 * Whether the file at `relPath` in the data folder is still what was stored: same size, same SHA-256 (a disk fault,
 * a sync tool or a hand edit may have changed it since). A missing file does not match.
 */
export async function matchesStored(dataDir: string, relPath: string, expected: { size: number | null; sha256: string | null }): Promise<boolean> {
  const file = resolveInDataDir(dataDir, relPath);
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of createReadStream(file)) {
      size += (chunk as Buffer).byteLength;
      hash.update(chunk as Buffer);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  return size === expected.size && hash.digest('hex') === expected.sha256;
}

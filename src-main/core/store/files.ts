// The file side of the store: paths inside the data folder that cannot escape it, and writes that never leave a
// half-written file under its final name.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { exportsDir } from '../paths.ts';
import { isAlive } from '../pid-lock.ts';
import { StoreError, StoreErrorCode } from './errors.ts';
import { describe } from './ids.ts';

/** Where writes into the data folder are staged before their rename (same volume, so the rename is atomic). */
export const TEMP_DIR = 'tmp';
export const TEMP_SUFFIX = '.tmp';
/** A temp file younger than this may belong to a write still running in another process (the CLI, the app). */
export const STRAY_TEMP_MIN_AGE_MS = 10 * 60 * 1000;

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

/** A unique temp name next to `file`. */
export function tempPathFor(file: string): string {
  return `${file}.${process.pid}-${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
}

/**
 * Runs `write` against a fresh temp path, then renames the temp file onto `file`; on any failure the temp file is
 * removed and `file` is left as it was. `tempPath` defaults to a sibling of `file`.
 */
export async function withTempFile<T>(file: string, write: (tempPath: string) => Promise<T>, tempPath: string = tempPathFor(file)): Promise<T> {
  try {
    const result = await write(tempPath);
    await rename(tempPath, file);
    return result;
  } catch (error) {
    await rm(tempPath, { force: true });
    throw error;
  }
}

export type FileData = string | Uint8Array | AsyncIterable<Uint8Array | string>;

export interface WrittenFile {
  size: number;
  sha256: string;
}

/** Writes `data` to `tempPath` (which must not exist), hashing it on the way, and flushes it to disk. */
async function writeHashed(tempPath: string, data: FileData): Promise<WrittenFile> {
  const hash = createHash('sha256');
  let size = 0;
  const handle = await open(tempPath, 'wx');
  try {
    const put = async (chunk: Uint8Array | string): Promise<void> => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      hash.update(bytes);
      size += bytes.byteLength;
      let offset = 0;
      while (offset < bytes.byteLength) offset += (await handle.write(bytes, offset)).bytesWritten;
    };
    if (typeof data === 'string' || data instanceof Uint8Array) await put(data);
    else for await (const chunk of data) await put(chunk);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { size, sha256: hash.digest('hex') };
}

/** Writes a file anywhere by temp-then-rename; returns its size and SHA-256. */
export async function writeFileAtomic(file: string, data: FileData): Promise<WrittenFile> {
  await mkdir(dirname(file), { recursive: true });
  return withTempFile(file, (temp) => writeHashed(temp, data));
}

/**
 * Writes a file at `relPath` inside the data folder (a replay, say): staged in the data folder's tmp/ folder,
 * renamed into place once complete. Returns the absolute path, size and SHA-256 for replays.markDownloaded.
 */
export async function writeInDataDir(dataDir: string, relPath: string, data: FileData): Promise<WrittenFile & { file: string }> {
  const file = resolveInDataDir(dataDir, relPath);
  const tempDir = join(resolve(dataDir), TEMP_DIR);
  await Promise.all([mkdir(dirname(file), { recursive: true }), mkdir(tempDir, { recursive: true })]);
  const temp = join(tempDir, `${process.pid}-${randomBytes(8).toString('hex')}${TEMP_SUFFIX}`);
  const written = await withTempFile(file, (t) => writeHashed(t, data), temp);
  return { ...written, file };
}

/** Where writes outside the data folder (an export to --out) note their temp file while they run. */
const NOTES_DIR = 'in-progress';
/** A temp file tempPathFor made: only such a name is ever removed on a note's word. */
const OUR_TEMP = /\.\d+-[0-9a-f]{12}\.tmp$/;

/**
 * Notes, in the data folder, a temp file being written outside it (an export to --out): if the process is killed,
 * the next start removes it. Returns the note to forget once the write is done, or undefined when the data folder
 * cannot take one (read-only media): the write goes on, unnoted.
 */
export async function noteTempFile(dataDir: string, tempPath: string): Promise<string | undefined> {
  const dir = join(resolve(dataDir), TEMP_DIR, NOTES_DIR);
  const note = join(dir, `${process.pid}-${randomBytes(6).toString('hex')}.json`);
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(note, JSON.stringify({ pid: process.pid, temp: tempPath }), { flag: 'wx' });
    return note;
  } catch {
    return undefined;
  }
}

export async function forgetTempFile(note: string): Promise<void> {
  await rm(note, { force: true });
}

/** Temp files noted by processes that are gone (killed mid-export): removed with their notes. */
function cleanupNotedTempFiles(dataDir: string): number {
  const dir = join(dataDir, TEMP_DIR, NOTES_DIR);
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const note = join(dir, name);
    try {
      const { pid, temp } = JSON.parse(readFileSync(note, 'utf8')) as { pid?: unknown; temp?: unknown };
      if (typeof pid === 'number' && isAlive(pid)) continue;
      if (typeof temp === 'string' && isAbsolute(temp) && OUR_TEMP.test(basename(temp))) {
        rmSync(temp, { force: true });
        removed += 1;
      }
      rmSync(note, { force: true });
    } catch {
      // unreadable or not ours to remove: leave it
    }
  }
  return removed;
}

/**
 * Removes temp files left by a crash: `*.tmp` in the data folder's tmp/ and exports/ folders, older than
 * `minAgeMs` (younger ones may be another process's write in progress), and those a killed export noted. Returns
 * how many went.
 */
export function cleanupStrayTempFiles(dataDir: string, options: { minAgeMs?: number; now?: number } = {}): number {
  const minAge = options.minAgeMs ?? STRAY_TEMP_MIN_AGE_MS;
  const now = options.now ?? Date.now();
  let removed = cleanupNotedTempFiles(dataDir);
  for (const folder of [join(dataDir, TEMP_DIR), exportsDir(dataDir)]) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue; // no such folder yet
    }
    for (const name of names) {
      if (!name.endsWith(TEMP_SUFFIX)) continue;
      const full = join(folder, name);
      try {
        const stat = statSync(full);
        if (!stat.isFile() || now - stat.mtimeMs < minAge) continue;
        rmSync(full, { force: true });
        removed += 1;
      } catch {
        // gone already, or not ours to remove: leave it
      }
    }
  }
  return removed;
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

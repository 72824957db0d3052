// One way to write a file all or nothing, and one sweep for what a killed writer leaves. A file is written under a
// temp name beside its final one (same folder, so the rename is atomic), flushed to disk, and renamed into place: its
// final name never holds half a file. The temp name carries the writer's PID, and each writing process notes in the
// data folder which folders it writes in (once per folder, not per file: a sync writes thousands of replays), so the
// next start removes the temp files of a writer that was killed: replays, thumbnails and exports alike, wherever
// they are written.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isAlive } from './pid-lock.ts';

/** Where the notes of writing processes live, inside the data folder. */
const NOTES_DIR = join('tmp', 'in-progress');
/** A note's name: the PID of its writer, then a random part. */
const NOTE_NAME = /^(\d+)-[0-9a-f]+\.json$/;
/** The folders of the data folder that get temp files, searched when a note cannot be read (its writer was killed mid-note). */
const DATA_FOLDERS: readonly NotedFolder[] = [
  { path: '.', deep: false }, { path: 'replays', deep: true }, { path: 'thumbnails', deep: true }, { path: 'exports', deep: true },
];

/** The temp name for `file`: a hidden sibling, `.<name>.trackwatch.<pid>-<12 hex digits>.tmp`. */
export function tempPathFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.trackwatch.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

/** Whether a name is a temp file of the process `pid`: only such a file is ever removed on a note's word. */
function isTempOf(pid: number, name: string): boolean {
  const match = /\.trackwatch\.(\d+)-[0-9a-f]{12}\.tmp$/.exec(name);
  return match !== null && Number(match[1]) === pid;
}

export interface WriteAtomicallyOptions {
  /** The data folder, where the writer notes the folder it writes in; without one (or read-only) the write goes on unnoted. */
  dataDir?: string | undefined;
  /** Puts the complete temp file under its final name; by default a rename, which replaces a file already there. */
  publish?: ((temp: string, file: string) => Promise<void>) | undefined;
  /** A cancel that comes while the file is finishing still wins: nothing is published. */
  signal?: AbortSignal | undefined;
}

/**
 * Writes `file` all or nothing: `write` fills the temp file through the handle it is given (the file is new, made
 * for this write alone), which is then flushed to disk, closed and published under `file`. On any failure, an abort
 * included, the temp file is removed and `file` is left as it was. The folder must exist.
 */
export async function writeAtomically<T>(
  file: string,
  write: (handle: FileHandle, temp: string) => Promise<T>,
  options: WriteAtomicallyOptions = {},
): Promise<T> {
  const temp = tempPathFor(file);
  const note = options.dataDir === undefined ? undefined : noteFolder(options.dataDir, dirname(resolve(file)));
  if (note) note.writes += 1;
  try {
    const handle = await open(temp, 'wx');
    let result: T;
    try {
      result = await write(handle, temp);
      options.signal?.throwIfAborted();
      // Durable before it takes the final name, so a power cut never leaves a half file under it.
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => {});
      throw error;
    }
    await handle.close();
    options.signal?.throwIfAborted();
    await (options.publish ?? rename)(temp, file);
    return result;
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  } finally {
    if (note) note.writes -= 1;
  }
}

/** A folder a note names; `deep`: its subfolders too. */
interface NotedFolder {
  path: string;
  deep: boolean;
}

/** This process's note in one data folder: the folders it writes temp files in, and how many writes are running. */
interface Note {
  file: string;
  folders: Map<string, boolean>;
  writes: number;
}

const notes = new Map<string, Note>();

/**
 * Makes sure this process's note in the data folder names the folder a temp file goes in: the data folder's own
 * folder for its subfolders (replays/<map>/<player>/ is noted as replays/, deep), the folder itself elsewhere (an
 * export's --out). Undefined when no note can be written (read-only media): the write goes on unnoted.
 */
function noteFolder(dataDir: string, folder: string): Note | undefined {
  const root = resolve(dataDir);
  const rel = relative(root, folder);
  const inside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  const noted: NotedFolder = inside ? { path: join(root, rel.split(sep)[0]!), deep: true } : { path: folder, deep: false };
  let note = notes.get(root);
  if (note?.folders.get(noted.path) === true || (note?.folders.has(noted.path) && !noted.deep)) return note;
  note ??= { file: join(root, NOTES_DIR, `${process.pid}-${randomBytes(6).toString('hex')}.json`), folders: new Map(), writes: 0 };
  const folders = new Map(note.folders).set(noted.path, noted.deep);
  try {
    // Written whole at once, in this turn: two writes starting together never interleave their notes.
    mkdirSync(dirname(note.file), { recursive: true });
    writeFileSync(note.file, JSON.stringify({ pid: process.pid, folders: [...folders].map(([path, deep]) => ({ path, deep })) }));
  } catch {
    return undefined;
  }
  note.folders = folders;
  notes.set(root, note);
  forgetNotesOnExit();
  return note;
}

let exitHooked = false;

/** A process that ends with no write running leaves nothing to sweep: its notes go with it. */
function forgetNotesOnExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', forgetIdleWriteNotes);
}

/**
 * Removes the notes of data folders this process has no write running in, as its exit does; a later write notes its
 * folder again. For a run that ends before its process (the command line's tests run many in one process).
 */
export function forgetIdleWriteNotes(): void {
  for (const [root, note] of notes) {
    if (note.writes !== 0) continue;
    notes.delete(root);
    // A note that cannot be removed (the folder went read-only) is the next start's sweep's to remove.
    try {
      rmSync(note.file, { force: true });
    } catch {
      continue;
    }
  }
}

/**
 * Removes the temp files of writers that are gone (killed, crashed), searching the folders their notes name, then
 * the notes; a running writer's are left alone. Reads only the notes when no writer was killed, however many files
 * the data folder holds. Returns how many temp files went.
 */
export function sweepTempFiles(dataDir: string): number {
  const root = resolve(dataDir);
  const dir = join(root, NOTES_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0; // no note was ever written
  }
  let removed = 0;
  for (const name of names) {
    const named = NOTE_NAME.exec(name);
    if (!named) continue; // not a note of ours
    const note = join(dir, name);
    try {
      const written = readNote(note);
      const pid = written?.pid ?? Number(named[1]);
      if (isAlive(pid)) continue;
      const folders = written?.folders ?? DATA_FOLDERS.map((f) => ({ path: join(root, f.path), deep: f.deep }));
      for (const folder of folders) removed += removeTempsOf(pid, folder);
      rmSync(note, { force: true });
    } catch {
      // not ours to remove, or unreadable: leave it
    }
  }
  return removed;
}

/** What a note says; undefined for a note cut short (its writer was killed while writing it). */
function readNote(note: string): { pid: number; folders: NotedFolder[] } | undefined {
  try {
    const { pid, folders } = JSON.parse(readFileSync(note, 'utf8')) as { pid?: unknown; folders?: unknown };
    if (typeof pid !== 'number' || !Array.isArray(folders)) return undefined;
    const valid = folders.filter((f): f is NotedFolder => typeof f?.path === 'string' && isAbsolute(f.path) && typeof f.deep === 'boolean');
    return { pid, folders: valid };
  } catch {
    return undefined;
  }
}

function removeTempsOf(pid: number, folder: NotedFolder): number {
  let names: string[];
  try {
    names = readdirSync(folder.path, { recursive: folder.deep, encoding: 'utf8' });
  } catch {
    return 0; // gone, or never made
  }
  let removed = 0;
  for (const name of names) {
    if (!isTempOf(pid, basename(name))) continue;
    rmSync(join(folder.path, name), { force: true });
    removed += 1;
  }
  return removed;
}

// Reading splits: of one replay just downloaded (the sync), and of every replay archived before splits existed (the
// first start), in slices that yield so the window keeps answering, resumable from the store's cursor.
import { readFile } from 'node:fs/promises';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Store, UnreadReplay } from '../store/index.ts';
import { resolveInDataDir } from '../store/files.ts';
import { SPLITS_READER_VERSION } from './version.ts';

export interface BackfillProgress {
  done: number;
  total: number;
  read: number;
  unreadable: number;
  finished: boolean;
}

export interface BackfillOptions {
  signal?: AbortSignal | undefined;
  /** How long one slice may hold the event loop, ms, before it yields (default 15). */
  sliceMs?: number | undefined;
  /** Replays fetched from the store per query (default 256). */
  batch?: number | undefined;
  onProgress?: ((progress: BackfillProgress) => void) | undefined;
}

/** Files read from disk at once, ahead of their parsing. */
const READ_AHEAD = 32;

type Reader = typeof import('./read.ts');
let reader: Promise<Reader> | undefined;
/** The Gbx reader, loaded the first time a replay is read. */
function loadReader(): Promise<Reader> {
  reader ??= import('./read.ts');
  return reader;
}

/**
 * Reads a replay file's splits and stores them (or why they could not be read) under its record ID. Never throws
 * for the file's sake: a download stays a download whatever its bytes hold. `bytes` when the caller has them.
 */
export async function storeSplitsOf(store: Store, replay: Omit<UnreadReplay, 'path'>, bytes: Uint8Array): Promise<'read' | 'unreadable'> {
  const { readSplits } = await loadReader();
  const read = readSplits(bytes, replay);
  store.splits.put(replay.recordId, { ...read, readerVersion: SPLITS_READER_VERSION, sha256: replay.sha256 });
  return read.state;
}

/** Slices between two checkpoints of the write-ahead log: each then copies a few hundred KB, not megabytes. */
const CHECKPOINT_EVERY = 32;

/** The replays waiting to be read, counted a few thousand at a time with a yield between (an archive of 50,000). */
async function countUnread(store: Store, readerVersion: number, signal: AbortSignal | undefined): Promise<number> {
  let total = 0;
  let after = '';
  for (let step = 0; step < 100_000 && !signal?.aborted; step++) {
    const { n, last } = store.splits.unreadCountStep(after, 4096, readerVersion);
    if (last === null) break;
    total += n;
    after = last;
    await yieldToLoop();
  }
  return total;
}

/** Whether replays wait to be read (archived before splits, or left by a kill between a download and its reading). */
export function backfillNeeded(store: Store): number {
  return store.splits.unreadCount(SPLITS_READER_VERSION);
}

/**
 * Reads every downloaded replay without splits, in record ID order from the stored cursor: each slice's splits and
 * the cursor are written in one transaction, so a kill loses nothing and redoes at most one slice. Yields to the event
 * loop after each slice; stops when the signal aborts (the cursor kept) or nothing is left (the cursor reset).
 */
export async function backfillSplits(store: Store, dataDir: string, options: BackfillOptions = {}): Promise<BackfillProgress> {
  // Loaded with the first replay to read: a start with nothing waiting never loads the Gbx reader.
  let readSplits: Reader['readSplits'] | undefined;
  const sliceMs = options.sliceMs ?? 15;
  const batch = Math.max(1, options.batch ?? 256);
  const progress: BackfillProgress = { done: 0, total: await countUnread(store, SPLITS_READER_VERSION, options.signal), read: 0, unreadable: 0, finished: false };
  options.onProgress?.({ ...progress });
  let slices = 0;
  let cursor = store.splits.backfillCursor();
  // Each pass moves the cursor past every replay it was given, so the loop ends; the cap guards a store that lies.
  for (let pass = 0; pass < 1_000_000 && !options.signal?.aborted; pass++) {
    const due = store.splits.unread(cursor, batch, SPLITS_READER_VERSION);
    if (due.length === 0) {
      if (cursor === '') break;
      // The end: from the start once more, for replays whose record IDs sort before where a resumed run began.
      cursor = '';
      store.splits.setBackfillCursor('');
      continue;
    }
    for (let group = 0; group < due.length && !options.signal?.aborted; group += READ_AHEAD) {
      // A group's files are read off the loop, then parsed and written in slices bounded by time.
      const replays = due.slice(group, group + READ_AHEAD);
      readSplits ??= (await loadReader()).readSplits;
      const read = readSplits;
      const contents = await Promise.all(replays.map((r) => readFile(resolveInDataDir(dataDir, r.path)).catch(() => null)));
      let at = 0;
      while (at < replays.length && !options.signal?.aborted) {
        const sliceStart = performance.now();
        store.transaction(() => {
          while (at < replays.length) {
            const replay = replays[at]!;
            const content = contents[at] ?? null;
            contents[at] = null;
            if (content === null) {
              // The file is gone: the next sync downloads it again, and reads it then.
              store.replays.markCorrupt(replay.recordId, 'the replay file was missing when its splits were read; a later sync downloads it again');
            } else {
              const splits = read(content, replay);
              store.splits.put(replay.recordId, { ...splits, readerVersion: SPLITS_READER_VERSION, sha256: replay.sha256 });
              if (splits.state === 'read') progress.read += 1;
              else progress.unreadable += 1;
            }
            progress.done += 1;
            cursor = replay.recordId;
            at += 1;
            if (performance.now() - sliceStart > sliceMs) break;
          }
          store.splits.setBackfillCursor(cursor);
        });
        options.onProgress?.({ ...progress });
        if (++slices % CHECKPOINT_EVERY === 0) store.splits.checkpointLog();
        await yieldToLoop();
      }
    }
  }
  progress.finished = !options.signal?.aborted;
  if (progress.finished) progress.total = progress.done;
  options.onProgress?.({ ...progress });
  return progress;
}

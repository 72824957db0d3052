// The CSV export: one row per stored record, streamed from SQLite so a million rows keep memory flat.
import { link, lstat, mkdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { playerLabel } from '../../shared/leaderboard.ts';
import { lapEnds, sectorsOf } from '../../shared/splits.ts';
import { writeAtomically } from '../atomic-file.ts';
import { LocalFaultCode, LocalFaultError, StoreError, StoreErrorCode, type Store, type WatchlistRef } from '../store/index.ts';
import { CHUNK_BYTES, CSV_OPTIONS, CsvWriter, LineChunks, mapLines, NameCache, neutraliseFormula } from './csv-lines.ts';
import { PARALLEL_MIN_ROWS, writeParallel } from './csv-parallel.ts';

export { CSV_COLUMNS, NameCache, neutraliseFormula } from './csv-lines.ts';

export interface ExportCsvOptions {
  /** Only this list's players on this list's maps; every stored record otherwise. */
  list?: WatchlistRef | undefined;
  /** Start with a UTF-8 byte order mark, for spreadsheet apps that need one to read UTF-8. */
  bom?: boolean | undefined;
  /** Replace a file already at the path (the user said so: --force, a save dialog's confirmation). */
  force?: boolean | undefined;
  /** Stops the export at once (Ctrl-C): nothing is left under the final name nor as a temp file. */
  signal?: AbortSignal | undefined;
  /** `export csv --splits`: a row per record and checkpoint (SPLITS_CSV_COLUMNS) instead of a row per record. */
  splits?: boolean | undefined;
  /**
   * Two worker threads (true) or the calling thread (false); by default, threads from PARALLEL_MIN_ROWS rows on, on a
   * database file. The bytes are the same either way.
   */
  parallel?: boolean | undefined;
}

export interface ExportCsvResult {
  rows: number;
  /** The file written, when `out` was a path. */
  file?: string;
}

/**
 * Writes the export to a stream (left open for the caller to end) or to a file path. A file is written under a
 * temp name and renamed when complete, so the final name never holds a half-written CSV. An export never destroys:
 * a file already at the path is replaced only with `force`, and a link, a folder or a device is never written to.
 */
export async function exportCsv(store: Store, out: Writable | string, options: ExportCsvOptions = {}): Promise<ExportCsvResult> {
  if (typeof out !== 'string') return { rows: await writeCsv(store, options, out) };

  const file = resolve(out);
  await checkDestination(file, options.force === true);
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (error) {
    throw exportFault(error, file);
  }
  try {
    // Noted in the data folder, so a killed export's temp file is removed at the next start.
    const count = await writeAtomically(file, (handle) => writeTemp(store, options, handle), {
      dataDir: store.dataDir ?? undefined, publish: (temp, to) => publish(temp, to, options.force === true), signal: options.signal,
    });
    return { rows: count, file };
  } catch (error) {
    throw error instanceof StoreError || isAbort(error, options.signal) ? error : exportFault(error, file);
  }
}

/**
 * Bytes written between flushes of the temp file to disk, each in the background while the export goes on: the flush
 * before the rename (core/atomic-file.ts) then finds little left, instead of the whole file (300 MB at 1M rows, about
 * half a second of waiting at the end, measured).
 */
const FLUSH_EVERY_BYTES = 32 << 20;

async function writeTemp(store: Store, options: ExportCsvOptions, handle: FileHandle): Promise<number> {
  let unflushed = 0;
  let flushing: Promise<void> | undefined;
  let flushFailure: unknown;
  const written = (bytes: number, done: (error?: Error | null) => void): void => {
    unflushed += bytes;
    if (unflushed >= FLUSH_EVERY_BYTES && !flushing) {
      unflushed = 0;
      flushing = handle.datasync().then(() => {
        flushing = undefined;
      }, (error: unknown) => {
        flushFailure ??= error;
        flushing = undefined;
      });
    }
    done(flushFailure as Error | undefined);
  };
  // Room for a few chunks: the disk writes one while the next is built, instead of the export waiting on each. Writes
  // go through the writer's handle (core/atomic-file.ts), which flushes and closes the file once they are done.
  const stream = new Writable({
    highWaterMark: 3 * CHUNK_BYTES,
    write(chunk: Buffer, _encoding, done) {
      handle.write(chunk).then(() => written(chunk.byteLength, done), done);
    },
    writev(chunks, done) {
      const buffers = chunks.map((c) => c.chunk as Buffer);
      handle.writev(buffers).then(() => written(buffers.reduce((sum, b) => sum + b.byteLength, 0), done), done);
    },
  });
  const ended = finished(stream);
  // Observed from the start: a write that fails fails the export, not the process.
  ended.catch(() => {});
  try {
    const count = await writeCsv(store, options, stream);
    stream.end();
    await ended;
    // The handle stays open until a background flush is done: the writer closes it once this returns.
    await flushing;
    if (flushFailure !== undefined) throw flushFailure;
    return count;
  } catch (error) {
    stream.destroy();
    await ended.catch(() => {});
    await flushing;
    throw error;
  }
}

/** Refuses a destination an export must not write: a link, a folder, a device, or an existing file without `force`. */
async function checkDestination(file: string, force: boolean): Promise<void> {
  const found = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw exportFault(error, file);
  });
  if (!found) return;
  if (found.isSymbolicLink()) {
    throw new StoreError(StoreErrorCode.INVALID_INPUT, `${file} is a link; an export is never written through one. Give the path of a plain file.`);
  }
  if (found.isDirectory()) {
    throw new StoreError(StoreErrorCode.INVALID_INPUT, `${file} is a folder; give a file name, e.g. ${join(file, 'trackwatch.csv')}.`);
  }
  if (!found.isFile()) {
    throw new StoreError(StoreErrorCode.INVALID_INPUT, `${file} is not a plain file (a device, a pipe or a socket); an export is written only to a plain file.`);
  }
  if (!force) {
    throw new StoreError(StoreErrorCode.CONFLICT, `${file} already exists; nothing was written. Add --force to replace it, or choose another name.`);
  }
}

/**
 * Puts the finished temp file under its final name. Without `force`, a hard link does it only if the name is still
 * free (a file that appeared meanwhile is not replaced); where links are not supported, a last check and a rename.
 */
async function publish(temp: string, file: string, force: boolean): Promise<void> {
  if (force) {
    await checkDestination(file, true);
    await rename(temp, file);
    return;
  }
  try {
    await link(temp, file);
    await rm(temp, { force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') await checkDestination(file, false);
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV' && code !== 'ENOSYS') throw error;
    await checkDestination(file, false);
    await rename(temp, file);
  }
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && error === signal.reason;
}

/**
 * The name an export gets unless the player chose one, the same in the window and on the command line: the list (or
 * all lists) and when, to the second, so two exports of a day never collide: `trackwatch-Fall_2026-2026-11-26_14-05-09.csv`.
 */
export function exportFileName(list: string | undefined, at: Date): string {
  const when = at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
  return `trackwatch-${(list ?? 'all-lists').replace(/[^\w.-]+/g, '_')}-${when}.csv`;
}

/** A file-system failure writing the export, said about the export's own path (not the data folder). */
function exportFault(error: unknown, file: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === undefined) return error;
  const fault = (kind: LocalFaultCode, message: string): LocalFaultError => new LocalFaultError(kind, code, message, { cause: error });
  if (code === 'ENOSPC' || code === 'EDQUOT') return fault(LocalFaultCode.DISK_FULL, `no space left to write ${file} (${code}); free some space and try again. Nothing was written there.`);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return fault(LocalFaultCode.READ_ONLY, `${file} cannot be written (${code}); choose a folder you can write to with --out.`);
  if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'ENAMETOOLONG') return fault(LocalFaultCode.DATA_FOLDER_UNUSABLE, `${file} cannot be created (${code}); check the path given to --out.`);
  // Missing folders are made first: ENOENT then means a folder where no file can be created (/proc, /sys).
  if (code === 'ENOENT') return fault(LocalFaultCode.DATA_FOLDER_UNUSABLE, `no file can be created in ${dirname(file)} (${code}); choose another folder with --out. Nothing was written.`);
  if (code === 'EIO') return fault(LocalFaultCode.DISK_ERROR, `the disk failed while writing ${file} (${code}); nothing was written there.`);
  return error;
}

/** The export into `out`: across threads when it pays (writeAcrossThreads), else here; a failure of `out` fails it. */
async function writeCsv(store: Store, options: ExportCsvOptions, out: Writable): Promise<number> {
  let failure: unknown;
  const onError = (error: unknown): void => {
    failure ??= error;
  };
  out.on('error', onError);
  try {
    options.signal?.throwIfAborted();
    const split = await writeAcrossThreads(store, options, out, () => failure);
    return split ?? (await writeInThisThread(store, options, out, () => failure));
  } finally {
    out.off('error', onError);
  }
}

/** The export in the calling thread: `export csv --splits`, a small export, or when the threads were not used. */
async function writeInThisThread(store: Store, options: ExportCsvOptions, out: Writable, failed: () => unknown): Promise<number> {
  const source = options.splits === true ? splitsSource(store, options.list, options.bom ?? false) : recordsSource(store, options.list, options.bom ?? false);
  const chunks = new LineChunks();
  chunks.add(source.header);
  let count = 0;
  const flush = async (): Promise<void> => {
    options.signal?.throwIfAborted();
    let room = true;
    for (const bytes of chunks.take()) room = out.write(bytes);
    // Else one turn of the event loop, so the stream hears its last write finished and starts the next while the
    // following chunk is built: without it, writes only ran once the buffer was full and the export waited on them.
    if (!room) await drained(out);
    else await nextTurn();
    if (failed() !== undefined) throw failed();
  };
  try {
    const add = source.byteText ? (text: string): void => chunks.addBytes(text) : (text: string): void => chunks.add(text);
    for (const [text, rows] of source.rows) {
      if (typeof text === 'string') add(text);
      else for (const line of text) add(line);
      count += rows;
      if (chunks.size >= CHUNK_BYTES) await flush();
    }
    await flush();
    return count;
  } finally {
    source.close();
  }
}

/**
 * The export across worker threads (csv-parallel.ts) when it has PARALLEL_MIN_ROWS rows or more, or `parallel` says
 * so; the rows written, or null when it wrote nothing and the calling thread must export: `export csv --splits`, an
 * in-memory store, a small export, `parallel: false`, or commits kept falling between the workers' snapshots.
 */
async function writeAcrossThreads(store: Store, options: ExportCsvOptions, out: Writable, failed: () => unknown): Promise<number | null> {
  // Another thread opens only a database file: an in-memory store is exported where it lives.
  if (options.splits === true || options.parallel === false || !store.file) return null;
  const plan = store.records.planExport({ list: options.list });
  if (!plan) return null;
  try {
    if (options.parallel !== true && plan.rowsUpTo(PARALLEL_MIN_ROWS) < PARALLEL_MIN_ROWS) return null;
    const write = async (chunk: Buffer, written?: () => void): Promise<void> => {
      options.signal?.throwIfAborted();
      if (!out.write(chunk, (error) => error || written?.())) await drained(out);
      if (failed() !== undefined) throw failed();
    };
    const header = new CsvWriter().header(options.bom ?? false);
    return await writeParallel({ plan, viewer: store.settings.viewer(), header, write, signal: options.signal });
  } finally {
    plan.close();
  }
}

/** What an export writes: its header, its rows (each a CSV line), and what to close when done or stopped. */
export interface CsvSource {
  header: string;
  /** Text of one or more rows (or their lines), and how many rows it holds. */
  rows: Iterable<readonly [text: string | readonly string[], rows: number]>;
  /** The rows' text is byte text (csv-lines.ts byteText): its characters are the bytes to write. */
  byteText: boolean;
  close(): void;
}

function recordsSource(store: Store, list: WatchlistRef | undefined, bom: boolean): CsvSource {
  const writer = new CsvWriter(store.settings.viewer());
  const cursor = store.records.openExport({ list });
  return {
    header: writer.header(bom),
    rows: mapLines(writer, cursor, cursor.rows),
    byteText: true,
    close: () => cursor.close(),
  };
}

/** The header of `export csv --splits`, exactly: one row per record and checkpoint. */
export const SPLITS_CSV_COLUMNS = [
  'map_uid',
  'map_name',
  'account_id',
  'player_name',
  'record_id',
  'current',
  'record_time_ms',
  'record_timestamp',
  'checkpoint',
  'lap',
  'time_ms',
  'sector_ms',
  'stunt_score',
  'respawns',
] as const;

/** Every personal-best record (current and earlier) whose replay's splits were read, a row per checkpoint. */
function splitsSource(store: Store, list: WatchlistRef | undefined, bom: boolean): CsvSource {
  const names = new NameCache();
  const rows = store.splits.exportRows(list);
  return {
    header: stringify([[...SPLITS_CSV_COLUMNS]], { ...CSV_OPTIONS, bom }),
    rows: (function* () {
      for (const r of rows) {
        const sectors = sectorsOf(r.checkpoints);
        const ends = lapEnds(r.checkpoints.length, r.laps);
        const player = names.player(playerLabel({ accountId: r.accountId, displayName: r.displayName, nickname: r.nickname }));
        for (let i = 0; i < r.checkpoints.length; i++) {
          const lap = ends === null ? '' : ends.findIndex((end) => i + 1 <= end) + 1;
          yield [stringify([[
            neutraliseFormula(r.mapUid), names.map(r.mapName), neutraliseFormula(r.accountId), player, neutraliseFormula(r.recordId),
            r.current ? 'true' : 'false', r.time ?? '', neutraliseFormula(r.timestamp), i + 1, lap, r.checkpoints[i] ?? '',
            sectors[i] ?? '', r.stuntScores[i] ?? '', r.respawns ?? '',
          ]], CSV_OPTIONS), 1] as const;
        }
      }
    })(),
    byteText: false,
    close: () => {},
  };
}

function nextTurn(): Promise<void> {
  return new Promise((done) => setImmediate(done));
}

/** Waits for the stream to take more; rejects if it fails or closes first. */
function drained(out: Writable): Promise<void> {
  // A stream that already failed or closed never says so again.
  if (out.errored) return Promise.reject(out.errored);
  if (out.destroyed) return Promise.reject(new Error('the output closed before the export finished'));
  return new Promise((done, fail) => {
    const finish = (error?: unknown): void => {
      out.off('drain', onDrain);
      out.off('error', onError);
      out.off('close', onClose);
      if (error === undefined) done();
      else fail(error);
    };
    const onDrain = (): void => finish();
    const onError = (error: unknown): void => finish(error);
    const onClose = (): void => finish(new Error('the output closed before the export finished'));
    out.on('drain', onDrain);
    out.on('error', onError);
    out.on('close', onClose);
  });
}

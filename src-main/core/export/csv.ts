// The CSV export: one row per stored record, streamed from SQLite so a million rows keep memory flat.
import { link, lstat, mkdir, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { stringify, type Options as StringifyOptions } from 'csv-stringify/sync';
import { medalName, stripFormatting } from '../../shared/format.ts';
import {
  formatRank, formatResult, mapKind, playerLabel, positionOfResult, rankStoredBoard, type AskedPosition, type MapKind, type RankableRecord,
} from '../../shared/leaderboard.ts';
import { lapEnds, sectorsOf } from '../../shared/splits.ts';
import { writeAtomically } from '../atomic-file.ts';
import {
  LocalFaultCode, LocalFaultError, StoreError, StoreErrorCode, type ExportCursor, type ExportMap, type ExportTuple, type ExportValues, type Store,
  type WatchlistRef,
} from '../store/index.ts';

/** The header, exactly; downstream sheets and scripts key on these names. */
export const CSV_COLUMNS = [
  'map_uid',
  'map_id',
  'map_name',
  'account_id',
  'player_name',
  'game_mode',
  'scope',
  'time_ms',
  'score',
  'respawns',
  'medal',
  'hidden',
  'record_timestamp',
  'record_id',
  'replay_file',
  // Beside the raw cells, as the window shows them (README, "The CSV export"): for people and spreadsheets.
  'result',
  'medal_name',
  'rank',
  'world_position',
] as const;

const CSV_OPTIONS: StringifyOptions = {
  record_delimiter: 'windows',
  // csv-stringify only quotes its own record delimiter (CRLF); RFC 4180 wants any line break inside a field quoted.
  quoted_match: /[\r\n]/,
};

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

async function writeTemp(store: Store, options: ExportCsvOptions, handle: FileHandle): Promise<number> {
  // Room for a few chunks: the disk writes one while the next is built, instead of the export waiting on each. Writes
  // go through the writer's handle (core/atomic-file.ts), which flushes and closes the file once they are done.
  const stream = new Writable({
    highWaterMark: 3 * CHUNK_BYTES,
    write(chunk: Buffer, _encoding, done) {
      handle.write(chunk).then(() => done(), done);
    },
    writev(chunks, done) {
      handle.writev(chunks.map((c) => c.chunk as Buffer)).then(() => done(), done);
    },
  });
  const ended = finished(stream);
  // Observed from the start: a write that fails fails the export, not the process.
  ended.catch(() => {});
  try {
    const written = await writeCsv(store, options, stream);
    stream.end();
    await ended;
    return written;
  } catch (error) {
    stream.destroy();
    await ended.catch(() => {});
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

/** A file-system failure writing the export, said about the export's own path (not the data folder). */
/**
 * The name an export gets unless the player chose one, the same in the window and on the command line: the list (or
 * all lists) and when, to the second, so two exports of a day never collide: `trackwatch-Fall_2026-2026-11-26_14-05-09.csv`.
 */
export function exportFileName(list: string | undefined, at: Date): string {
  const when = at.toISOString().slice(0, 19).replace('T', '_').replace(/:/g, '-');
  return `trackwatch-${(list ?? 'all-lists').replace(/[^\w.-]+/g, '_')}-${when}.csv`;
}

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

// Terminal control characters (escape sequences, bells, C1 controls) in a cell would drive a terminal that shows the
// file (`cat`, `less -R`), and bidi controls would reorder what a spreadsheet shows (shared/format.ts BIDI_CONTROLS);
// line breaks and tabs are ordinary CSV content (RFC 4180 quotes them).
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A text cell made harmless: a cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP's CSV
 * injection advice), and terminal and bidi control characters become U+FFFD.
 */
export function neutraliseFormula(text: string): string {
  const inert = text.replace(TERMINAL_CONTROL, '\uFFFD');
  const first = inert.charCodeAt(0);
  // = + - @ tab carriage-return
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 ? `'${inert}` : inert;
}

/** Names repeat on every row of a map or player: strip each once. */
export class NameCache {
  readonly #maps = new Map<string, string>();
  readonly #players = new Map<string, string>();
  map(raw: string): string {
    return cached(this.#maps, raw);
  }
  player(raw: string): string {
    return cached(this.#players, raw);
  }
}

function cached(cache: Map<string, string>, raw: string): string {
  let clean = cache.get(raw);
  if (clean === undefined) {
    clean = neutraliseFormula(stripFormatting(raw));
    if (cache.size > 100_000) cache.clear();
    cache.set(raw, clean);
  }
  return clean;
}

/** csv-stringify's encoding of some cells: RFC 4180 quoting, no record delimiter. */
function encode(cells: (string | number)[]): string {
  return stringify([cells], CSV_OPTIONS).slice(0, -2);
}

/** Text made only of these characters, not starting like a formula, comes out of csv-stringify unchanged. */
const PLAIN = '[0-9A-Za-z_.:/][0-9A-Za-z_.:/-]*';
const PLAIN_TEXT = new RegExp(`^${PLAIN}$`);

/**
 * A record's cells as the export cursor joins them (game mode, scope, time, score, respawns, medal, hidden, timestamp,
 * record ID, replay file) whose every text cell is plain: csv-stringify would write each unchanged, so the joined text
 * is already the CSV. Text with a comma has a comma too many and never matches.
 */
const PLAIN_RECORD_CELLS = new RegExp(`^${PLAIN},${PLAIN},(?:-?\\d+)?,(?:-?\\d+)?,(?:-?\\d+)?,-?\\d+,(?:true|false),${PLAIN},${PLAIN},(?:${PLAIN})?$`);

/** A record of an export row, as the shared leaderboard rules read it. */
function recordOf(t: ExportTuple): RankableRecord {
  return { hidden: t[5] === 1, time: t[6], score: t[7], respawnCount: t[8], medal: t[9], timestamp: t[13] };
}

/** The world position stored for an export row, as the shared rules read it; null without one. */
function askedOf(t: ExportTuple): AskedPosition | null {
  return t[11] === null || t[10] === null ? null : { score: t[10], state: 'ranked', position: t[11], asOf: t[12] ?? '' };
}

/** What ranks an export's rows beside their records: the account that read them (settings.viewer()) and the players' IDs. */
export interface ExportFacts {
  viewer: string | null | undefined;
  accountOf: (playerRef: number) => string;
}

/**
 * The rank of each of one map's rows among the exported players of that map (those of the list, or every stored
 * player), per scope, as every view ranks them (shared rankStoredBoard, with the map's medal scores, the reader and
 * the stored world positions; formatRank): "3", or "2–4" where secret entries leave the order unknown, a secret
 * entry's too; empty for a result that cannot be ranked. `records[i]` is `rows[i]`'s record.
 */
export function exportRanks(map: ExportMap, rows: readonly ExportTuple[], records: readonly RankableRecord[], facts: ExportFacts): string[] {
  const byScope = new Map<string, number[]>();
  rows.forEach((t, i) => {
    const scope = byScope.get(t[4]);
    if (scope) scope.push(i);
    else byScope.set(t[4], [i]);
  });
  const board = { mapType: map[3], hasClones: map[4] === 1, medals: { author: map[5], gold: map[6], silver: map[7], bronze: map[8] } };
  const ranks: string[] = new Array<string>(rows.length).fill('');
  for (const group of byScope.values()) {
    const contenders = group.map((i) => ({ player: i, accountId: facts.accountOf(rows[i]![1]), name: '', record: records[i]!, position: askedOf(rows[i]!) }));
    for (const standing of rankStoredBoard(board, contenders, facts.viewer).entries) ranks[standing.player] = formatRank(standing.rankRange);
  }
  return ranks;
}

/**
 * The friendly cells of a row (result, medal name, rank, world position): the result in the map kind's unit, the
 * position only when it was asked for this very result (shared positionOfResult, as the window shows it).
 */
export function friendlyCells(kind: MapKind, t: ExportTuple, record: RankableRecord, rank: string): string {
  const position = positionOfResult(kind, askedOf(t), record)?.position ?? '';
  return `${plain(formatResult(kind, record))},${medalName(t[9])},${rank},${position}`;
}

/**
 * Writes an export cursor's rows as CSV, map by map. A map's cells and a player's are encoded once per export
 * (csv-stringify, names stripped and neutralised); a record's cells come joined from SQLite and are written as they
 * are when plain (nearly always: IDs, ISO times, numbers), else read again and encoded cell by cell; its friendly
 * cells are made from its values with the shared rules. Unit tests hold the output byte-for-byte equal to
 * csv-stringify run over whole rows (test/unit/export/reference.ts).
 */
export class CsvWriter {
  readonly #viewer: string | null | undefined;
  readonly #names = new NameCache();
  readonly #maps = new Map<number, string>();
  readonly #players = new Map<number, string>();

  /** `viewer`: the account the records were read with (settings.viewer()), which the ranks read as every view does. */
  constructor(viewer?: string | null) {
    this.#viewer = viewer;
  }

  header(bom: boolean): string {
    return stringify([[...CSV_COLUMNS]], { ...CSV_OPTIONS, bom });
  }

  /** The lines of one map (every row the export has for it, in the cursor's order), each ending in CRLF. */
  mapRows(rows: readonly ExportTuple[], cursor: ExportCursor): string[] {
    if (rows.length === 0) return [];
    const map = cursor.maps.get(rows[0]![0])!;
    const kind = mapKind({ mapType: map[3], hasClones: map[4] === 1 });
    const records = rows.map(recordOf);
    const ranks = exportRanks(map, rows, records, { viewer: this.#viewer, accountOf: (ref) => cursor.players.get(ref)![0] });
    const lines = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i += 1) lines[i] = `${this.row(rows[i]!, cursor)},${friendlyCells(kind, rows[i]!, records[i]!, ranks[i]!)}\r\n`;
    return lines;
  }

  /** The raw cells of one row of an export cursor, without the line's end. */
  row(t: ExportTuple, cursor: ExportCursor): string {
    let map = this.#maps.get(t[0]);
    if (map === undefined) {
      const [uid, id, name] = cursor.maps.get(t[0])!;
      map = encode([neutraliseFormula(uid), neutraliseFormula(id), this.#names.map(name)]);
      remember(this.#maps, t[0], map);
    }
    let player = this.#players.get(t[1]);
    if (player === undefined) {
      const [accountId, displayName, nickname] = cursor.players.get(t[1])!;
      player = encode([neutraliseFormula(accountId), this.#names.player(playerLabel({ accountId, displayName, nickname }))]);
      remember(this.#players, t[1], player);
    }
    return `${map},${player},${PLAIN_RECORD_CELLS.test(t[2]) ? t[2] : recordCells(cursor.values(t[3]))}`;
  }
}

/** A record's cells from its values, each text cell neutralised and quoted as csv-stringify would. */
function recordCells([gameMode, scope, numberCells, timestamp, recordId, replayPath]: ExportValues): string {
  return `${encode([neutraliseFormula(gameMode), neutraliseFormula(scope)])},${numberCells},${plain(timestamp)},` +
    `${plain(recordId)},${replayPath === null ? '' : plain(replayPath)}`;
}

/** Cells that are not plain, encoded: a result such as `1,234 pts` repeats over a map's rows and an export's maps. */
const encoded = new Map<string, string>();

/** A text cell as csv-stringify would write it: as is when it cannot need quoting or neutralising. */
function plain(text: string): string {
  if (PLAIN_TEXT.test(text)) return text;
  let cell = encoded.get(text);
  if (cell === undefined) {
    cell = encode([neutraliseFormula(text)]);
    remember(encoded, text, cell);
  }
  return cell;
}

function remember<K, V>(cache: Map<K, V>, key: K, value: V): void {
  if (cache.size > 100_000) cache.clear();
  cache.set(key, value);
}

/** Bytes per chunk handed to the output: few write calls, and still short-lived. */
const CHUNK_BYTES = 1 << 18;

/**
 * The export's bytes, in chunks of whole lines. Each line is encoded on its own: joining a chunk's lines into one
 * text first made V8 flatten ropes of thousands of pieces, and one rank's en dash ("2–4") turned the whole chunk into
 * two-byte text, slow to encode (most of the export's writing time).
 */
class LineChunks {
  #chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  #used = 0;
  #ready: Buffer[] = [];
  #readyBytes = 0;

  /** Adds text made of whole lines. */
  add(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    const most = 3 * text.length;
    if (this.#used + most > CHUNK_BYTES) {
      this.#close();
      if (most > CHUNK_BYTES) {
        this.#push(Buffer.from(text));
        return;
      }
    }
    this.#used += this.#chunk.write(text, this.#used);
  }

  /** Bytes waiting to be written. */
  get size(): number {
    return this.#readyBytes + this.#used;
  }

  /** The chunks so far, emptied. */
  take(): Buffer[] {
    this.#close();
    const ready = this.#ready;
    this.#ready = [];
    this.#readyBytes = 0;
    return ready;
  }

  #close(): void {
    if (this.#used === 0) return;
    this.#push(this.#chunk.subarray(0, this.#used));
    this.#chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    this.#used = 0;
  }

  #push(bytes: Buffer): void {
    this.#ready.push(bytes);
    this.#readyBytes += bytes.length;
  }
}

async function writeCsv(store: Store, options: ExportCsvOptions, out: Writable): Promise<number> {
  let failure: unknown;
  const onError = (error: unknown): void => {
    failure ??= error;
  };
  out.on('error', onError);
  options.signal?.throwIfAborted();
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
    if (failure !== undefined) throw failure;
  };
  try {
    for (const [text, rows] of source.rows) {
      if (typeof text === 'string') chunks.add(text);
      else for (const line of text) chunks.add(line);
      count += rows;
      if (chunks.size >= CHUNK_BYTES) await flush();
    }
    await flush();
    return count;
  } finally {
    source.close();
    out.off('error', onError);
  }
}

/** What an export writes: its header, its rows (each a CSV line), and what to close when done or stopped. */
export interface CsvSource {
  header: string;
  /** Text of one or more rows (or their lines), and how many rows it holds. */
  rows: Iterable<readonly [text: string | readonly string[], rows: number]>;
  close(): void;
}

function recordsSource(store: Store, list: WatchlistRef | undefined, bom: boolean): CsvSource {
  const writer = new CsvWriter(store.settings.viewer());
  const cursor = store.records.openExport({ list });
  return {
    header: writer.header(bom),
    rows: (function* () {
      // A map's rows come together (the cursor's order): they are ranked as one, then written.
      let map: ExportTuple[] = [];
      for (const row of cursor.rows) {
        if (map.length > 0 && map[0]![0] !== row[0]) {
          yield [writer.mapRows(map, cursor), map.length] as const;
          map = [];
        }
        map.push(row);
      }
      if (map.length > 0) yield [writer.mapRows(map, cursor), map.length] as const;
    })(),
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
    close: () => {},
  };
}

function nextTurn(): Promise<void> {
  return new Promise((done) => setImmediate(done));
}

/** Waits for the stream to take more; rejects if it fails or closes first. */
function drained(out: Writable): Promise<void> {
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

// The CSV export: one row per stored record, streamed from SQLite so a million rows keep memory flat.
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { stringify, type Options as StringifyOptions } from 'csv-stringify/sync';
import { formatTime, stripFormatting } from '../../contract/format.ts';
import { withTempFile } from '../store/files.ts';
import type { ExportRow, Store, WatchlistRef } from '../store/index.ts';

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
  'time',
] as const;

/** Rows per csv-stringify call: large enough to amortise the call, small enough to keep memory flat. */
const BATCH_ROWS = 2000;

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
}

export interface ExportCsvResult {
  rows: number;
  /** The file written, when `out` was a path. */
  file?: string;
}

/**
 * Writes the export to a stream (left open for the caller to end) or to a file path. A file is written under a
 * temp name and renamed when complete, so the final name never holds a half-written CSV.
 */
export async function exportCsv(store: Store, out: Writable | string, options: ExportCsvOptions = {}): Promise<ExportCsvResult> {
  const rows = store.records.exportRows({ list: options.list });
  if (typeof out !== 'string') return { rows: await writeCsv(rows, out, options.bom ?? false) };

  const file = resolve(out);
  await mkdir(dirname(file), { recursive: true });
  const count = await withTempFile(file, async (temp) => {
    // flush: the data reaches the disk before the rename makes it the export.
    const stream = createWriteStream(temp, { flags: 'wx', flush: true, highWaterMark: 1 << 16 });
    const closed = new Promise<void>((done, fail) => {
      stream.once('error', fail);
      stream.once('close', done);
    });
    try {
      const written = await writeCsv(rows, stream, options.bom ?? false);
      stream.end();
      await closed;
      return written;
    } catch (error) {
      stream.destroy();
      await closed.catch(() => {});
      throw error;
    }
  });
  return { rows: count, file };
}

/** A text cell a spreadsheet would run as a formula gets a leading apostrophe (OWASP's CSV injection advice). */
export function neutraliseFormula(text: string): string {
  const first = text.charCodeAt(0);
  // = + - @ tab carriage-return
  return first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13 ? `'${text}` : text;
}

/** The cells of one row, in CSV_COLUMNS order; numbers stay numbers, text is neutralised. */
export function toCells(row: ExportRow, names: NameCache): (string | number)[] {
  const hidden = row.hidden === 1;
  return [
    neutraliseFormula(row.mapUid),
    neutraliseFormula(row.mapId),
    names.map(row.mapName),
    neutraliseFormula(row.accountId),
    names.player(row.displayName || row.nickname || row.accountId),
    neutraliseFormula(row.gameMode),
    neutraliseFormula(row.scope),
    hidden || row.time === null ? '' : row.time,
    row.score,
    row.respawnCount ?? '',
    row.medal,
    hidden ? 'true' : 'false',
    neutraliseFormula(row.timestamp),
    neutraliseFormula(row.mapRecordId),
    row.replayPath === null ? '' : neutraliseFormula(row.replayPath),
    hidden ? '' : formatTime(row.time),
  ];
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

async function writeCsv(rows: Iterable<ExportRow>, out: Writable, bom: boolean): Promise<number> {
  let failure: unknown;
  const onError = (error: unknown): void => {
    failure ??= error;
  };
  out.on('error', onError);
  const names = new NameCache();
  let batch: (string | number)[][] = [];
  let first = true;
  let count = 0;
  const flush = async (): Promise<void> => {
    const text = stringify(batch, { ...CSV_OPTIONS, header: first, columns: [...CSV_COLUMNS], bom: first && bom });
    first = false;
    batch = [];
    if (!out.write(text)) await drained(out);
    if (failure !== undefined) throw failure;
  };
  try {
    for (const row of rows) {
      batch.push(toCells(row, names));
      count += 1;
      if (batch.length >= BATCH_ROWS) await flush();
    }
    await flush();
    return count;
  } finally {
    out.off('error', onError);
  }
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

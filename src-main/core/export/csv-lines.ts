// The CSV export's lines: a record's row encoded as csv-stringify would write it, ranked with the shared rules, and
// packed into chunks of whole lines. Plain code with no file or thread of its own: the export runs it in the calling
// thread or in worker threads (csv-parallel.ts, csv-worker.ts), with the same bytes either way.
import { stringify, type Options as StringifyOptions } from 'csv-stringify/sync';
import { medalName, stripFormatting } from '../../shared/format.ts';
import {
  formatRank, formatResult, mapKind, playerLabel, positionOfResult, storedBoardRanks, type AskedPosition, type MapKind, type RankableRecord,
} from '../../shared/leaderboard.ts';
import type { ExportCursor, ExportMap, ExportTuple } from '../store/export-cursor.ts';

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

export const CSV_OPTIONS: StringifyOptions = {
  record_delimiter: 'windows',
  // csv-stringify only quotes its own record delimiter (CRLF); RFC 4180 wants any line break inside a field quoted.
  quoted_match: /[\r\n]/,
};

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

/** A record of an export row, as the shared leaderboard rules read it. */
function recordOf(t: ExportTuple): RankableRecord {
  return { hidden: t[4] === 1, time: t[5], score: t[6], respawnCount: t[7], medal: t[8], timestamp: t[9] };
}

/** The world position stored for an export row, as the shared rules read it; null without one. */
function askedOf(t: ExportTuple): AskedPosition | null {
  return t[13] === null || t[12] === null ? null : { score: t[12], state: 'ranked', position: t[13], asOf: t[14] ?? '' };
}

/** What ranks an export's rows beside their records: the account that read them (settings.viewer()) and the players' IDs. */
interface ExportFacts {
  viewer: string | null | undefined;
  accountOf: (playerRef: number) => string;
}

/**
 * The rank of each of one map's rows among the exported players of that map (those of the list, or every stored
 * player), per scope, as every view ranks them (shared storedBoardRanks: rankStoredBoard's ranks, with the map's medal
 * scores, the reader and the stored world positions; formatRank): "3", or "2–4" where secret entries leave the order
 * unknown, a secret entry's too; empty for a result that cannot be ranked. `records[i]` is `rows[i]`'s record. As
 * byte text (byteText).
 */
function exportRanks(map: ExportMap, rows: readonly ExportTuple[], records: readonly RankableRecord[], facts: ExportFacts): string[] {
  const byScope = new Map<string, number[]>();
  rows.forEach((t, i) => {
    const scope = byScope.get(t[3]);
    if (scope) scope.push(i);
    else byScope.set(t[3], [i]);
  });
  const board = { mapType: map[3], hasClones: map[4] === 1, medals: { author: map[5], gold: map[6], silver: map[7], bronze: map[8] } };
  const ranks: string[] = new Array<string>(rows.length).fill('');
  for (const group of byScope.values()) {
    const contenders = group.map((i, k) => ({ player: k, accountId: facts.accountOf(rows[i]![1]), name: '', record: records[i]!, position: askedOf(rows[i]!) }));
    storedBoardRanks(board, contenders, facts.viewer).forEach((range, k) => (ranks[group[k]!] = cachedBytes(formatRank(range))));
  }
  return ranks;
}

/**
 * The friendly cells of a row (result, medal name, rank, world position) as byte text: the result in the map kind's
 * unit, the position only when it was asked for this very result (shared positionOfResult, as the window shows it).
 */
function friendlyCells(kind: MapKind, t: ExportTuple, record: RankableRecord, rank: string): string {
  const position = positionOfResult(kind, askedOf(t), record)?.position ?? '';
  return `${plain(formatResult(kind, record))},${cachedBytes(medalName(t[8]))},${rank},${position}`;
}

/**
 * Writes an export cursor's rows as CSV, map by map. A map's cells and a player's are encoded once per export
 * (csv-stringify, names stripped and neutralised); a record's cells are made from its values, each text cell written
 * as it is when plain (nearly always: IDs, ISO times, file names), else neutralised and quoted; its friendly cells are
 * made from the same values with the shared rules. Unit tests hold the output byte-for-byte equal to csv-stringify run
 * over whole rows (test/unit/export/reference.ts).
 */
export class CsvWriter {
  readonly #viewer: string | null | undefined;
  readonly #names = new NameCache();
  readonly #maps = new Map<number, string>();
  readonly #players = new Map<number, string>();
  /** Game modes and scopes: a few texts that repeat on every row, each checked once. */
  readonly #repeated = new Map<string, string>();

  /** `viewer`: the account the records were read with (settings.viewer()), which the ranks read as every view does. */
  constructor(viewer?: string | null) {
    this.#viewer = viewer;
  }

  header(bom: boolean): string {
    return stringify([[...CSV_COLUMNS]], { ...CSV_OPTIONS, bom });
  }

  /** The lines of one map (every row the export has for it, in the cursor's order), each ending in CRLF, as byte text. */
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

  /** The raw cells of one row of an export cursor, without the line's end, as byte text. */
  row(t: ExportTuple, cursor: ExportCursor): string {
    let map = this.#maps.get(t[0]);
    if (map === undefined) {
      const [uid, id, name] = cursor.maps.get(t[0])!;
      map = byteText(encode([neutraliseFormula(uid), neutraliseFormula(id), this.#names.map(name)]));
      remember(this.#maps, t[0], map);
    }
    let player = this.#players.get(t[1]);
    if (player === undefined) {
      const [accountId, displayName, nickname] = cursor.players.get(t[1])!;
      player = byteText(encode([neutraliseFormula(accountId), this.#names.player(playerLabel({ accountId, displayName, nickname }))]));
      remember(this.#players, t[1], player);
    }
    return `${map},${player},${this.#recordCells(t)}`;
  }

  /**
   * A record's cells: game mode, scope, time, score, respawns, medal, hidden, record timestamp, record ID, replay
   * file. A secret record has no time, score or respawn count wherever Trackwatch exports it (docs/game-rules.md).
   */
  #recordCells(t: ExportTuple): string {
    const numbers = t[4] === 1 ? `,,,${t[8]},true` : `${t[5] ?? ''},${t[6] ?? ''},${t[7] ?? ''},${t[8]},false`;
    return `${this.#repeatedCell(t[2])},${this.#repeatedCell(t[3])},${numbers},${plain(t[9])},${plain(t[10])},${t[11] === null ? '' : plain(t[11])}`;
  }

  #repeatedCell(raw: string): string {
    let cell = this.#repeated.get(raw);
    if (cell === undefined) {
      cell = plain(raw);
      remember(this.#repeated, raw, cell);
    }
    return cell;
  }
}

/** Cells that are not plain, encoded: a result such as `1,234 pts` repeats over a map's rows and an export's maps. */
const encoded = new Map<string, string>();

/** A text cell as csv-stringify would write it, as byte text: as is when it cannot need quoting or neutralising. */
function plain(text: string): string {
  if (PLAIN_TEXT.test(text)) return text;
  let cell = encoded.get(text);
  if (cell === undefined) {
    cell = byteText(encode([neutraliseFormula(text)]));
    remember(encoded, text, cell);
  }
  return cell;
}

/**
 * Text as its UTF-8 bytes, a character per byte (codes 0 to 255): "byte text". V8 keeps such a string at one byte a
 * character, and a line made only of byte text is written with 'latin1' as exactly its UTF-8 bytes (LineChunks.addBytes).
 * A single character beyond Latin-1 (a name's U+FFFD, a rank's en dash) would make a whole line two bytes a character,
 * and Buffer.write's UTF-16 to UTF-8 path costs four times the instructions of a one-byte line (cachegrind, 300-byte
 * lines): a third of the bench's lines took it. ASCII is its own byte text.
 */
function byteText(text: string): string {
  return ASCII.test(text) ? text : Buffer.from(text, 'utf8').toString('latin1');
}
// eslint-disable-next-line no-control-regex
const ASCII = /^[\u0000-\u007f]*$/;

/** Short texts that repeat on many rows (ranks, medal names) as byte text, each converted once. */
const asBytes = new Map<string, string>();
function cachedBytes(text: string): string {
  let bytes = asBytes.get(text);
  if (bytes === undefined) {
    bytes = byteText(text);
    remember(asBytes, text, bytes);
  }
  return bytes;
}

function remember<K, V>(cache: Map<K, V>, key: K, value: V): void {
  if (cache.size > 100_000) cache.clear();
  cache.set(key, value);
}

/** Bytes per chunk handed to the output: few write calls, and still short-lived. */
export const CHUNK_BYTES = 1 << 18;

/**
 * The export's bytes, in chunks of whole lines. Each line is encoded on its own: joining a chunk's lines into one
 * text first made V8 flatten ropes of thousands of pieces. The records' lines come as byte text (byteText), so that no
 * line is two-byte text, slow to encode.
 */
export class LineChunks {
  readonly #allocate: () => Buffer;
  #chunk: Buffer;
  #used = 0;
  #ready: Buffer[] = [];
  #readyBytes = 0;

  /** `allocate`: a chunk's memory, CHUNK_BYTES long (a worker thread reuses the chunks the output has written). */
  constructor(allocate: () => Buffer = () => Buffer.allocUnsafe(CHUNK_BYTES)) {
    this.#allocate = allocate;
    this.#chunk = allocate();
  }

  /** Adds text made of whole lines. */
  add(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    this.#put(text, 3 * text.length, 'utf8');
  }

  /** Adds byte text (byteText) made of whole lines: its characters are the bytes written. */
  addBytes(text: string): void {
    this.#put(text, text.length, 'latin1');
  }

  #put(text: string, most: number, encoding: 'utf8' | 'latin1'): void {
    if (this.#used + most > CHUNK_BYTES) {
      this.#close();
      if (most > CHUNK_BYTES) {
        // Never from Buffer's shared pool, like every chunk: a chunk's memory may be handed to another thread.
        const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, encoding));
        bytes.write(text, encoding);
        this.#push(bytes);
        return;
      }
    }
    this.#used += this.#chunk.write(text, this.#used, encoding);
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
    this.#chunk = this.#allocate();
    this.#used = 0;
  }

  #push(bytes: Buffer): void {
    this.#ready.push(bytes);
    this.#readyBytes += bytes.length;
  }
}

/**
 * The lines of a cursor's rows, map by map (the rows come map by map: the cursor's order), each map's ranked as one:
 * the lines of each map's rows (byte text) and how many rows it holds.
 */
export function* mapLines(writer: CsvWriter, cursor: ExportCursor, rows: Iterable<ExportTuple>): Generator<readonly [readonly string[], number], void, undefined> {
  let map: ExportTuple[] = [];
  for (const row of rows) {
    if (map.length > 0 && map[0]![0] !== row[0]) {
      yield [writer.mapRows(map, cursor), map.length] as const;
      map = [];
    }
    map.push(row);
  }
  if (map.length > 0) yield [writer.mapRows(map, cursor), map.length] as const;
}

// The export's read of every current record (of a list, or all), streamed from one snapshot so that a million rows
// keep memory flat and a sync can write meanwhile.
import type { Database, Statement } from 'better-sqlite3';
import { openConnection } from './db.ts';
import { IN_LIST, NOT_ONLY_HOLDERS } from './record-sql.ts';

// A record with its downloaded replay, and the world position asked for the player on the map (the writer keeps it
// only when it was asked for this result).
const FROM = `FROM records r LEFT JOIN replays rp ON rp.record_id = r.map_record_id AND rp.state = 'downloaded'
  LEFT JOIN positions ps ON ps.map_ref = r.map_ref AND ps.player_ref = r.player_ref AND ps.scope = r.scope AND ps.state = 'ranked'`;

/**
 * Rows per page of the full export: one call reads a page, far cheaper per row than stepping one by one; pages are
 * short-lived (a page of 2,000 rows is about half a megabyte), so the heap stays flat over a million rows.
 */
const EXPORT_PAGE_ROWS = 2000;

/**
 * A row of the export, as SQLite stores it: map ref, player ref, the record's own values (game mode, scope, hidden as
 * 0/1, time, score, respawns, medal, when it was set, record ID), its downloaded replay's file, and the world position
 * stored for it with the score it was asked for and when (a world position bounds the secret entries set before it
 * was asked: shared/leaderboard.ts rankStoredBoard). The writer makes every cell from these (export/csv-lines.ts):
 * joining the record's cells in SQL instead cost SQLite about a quarter more work per row than handing over the
 * values (cachegrind, 100,000 rows), and the values that rank a row had to cross anyway.
 */
export type ExportTuple = [
  mapRef: number, playerRef: number, gameMode: string, scope: string, hidden: number, time: number | null, score: number | null,
  respawnCount: number | null, medal: number, timestamp: string, recordId: string, replayPath: string | null,
  positionScore: number | null, position: number | null, positionAsOf: string | null,
];

/**
 * The export's query: one list's current records (through the list's maps and players), or a page of every current
 * record; both map by map (the writer ranks each map's rows), the pages keyed on records_by_map (@map, @player,
 * @scope: the last row of the page before; @limit). `ranged`: only the maps whose refs lie in [@first, @last] (a list)
 * or up to @last (the pages, which start at @first): a block of an export split across threads (export/csv-parallel.ts).
 */
export function exportQuery(withList: boolean, ranged = false): string {
  const columns = `r.map_ref, r.player_ref, r.game_mode, r.scope, r.hidden = 1, r.time, r.score, r.respawn_count, r.medal,
    r.timestamp, r.map_record_id, rp.path, ps.score, ps.position, ps.as_of`;
  return withList
    ? `SELECT ${columns} ${FROM} WHERE ${IN_LIST} AND r.current = 1 ${ranged ? 'AND r.map_ref BETWEEN @first AND @last' : ''}
       ORDER BY r.map_ref, r.player_ref, r.scope`
    : `SELECT ${columns} ${FROM} WHERE r.current = 1 AND (r.map_ref, r.player_ref, r.scope) > (@map, @player, @scope)
       ${ranged ? 'AND r.map_ref <= @last' : ''} AND ${NOT_ONLY_HOLDERS} ORDER BY r.map_ref, r.player_ref, r.scope LIMIT @limit`;
}

/** A block of an export: the rows of the maps whose refs lie in [first, last]. */
export interface MapRange {
  first: number;
  last: number;
}

interface PageKey {
  map: number;
  player: number;
  scope: string;
  limit: number;
  last?: number;
}

function* pages(stmt: Statement<PageKey, ExportTuple>, range?: MapRange): Generator<ExportTuple, void, undefined> {
  // A ranged walk starts before every row of its first map: no player ref is below the smallest integer.
  let key: PageKey = range ? { map: range.first, player: Number.MIN_SAFE_INTEGER, scope: '', limit: EXPORT_PAGE_ROWS, last: range.last }
    : { map: 0, player: 0, scope: '', limit: EXPORT_PAGE_ROWS };
  for (;;) {
    const page = stmt.all(key);
    for (const row of page) yield row;
    if (page.length < EXPORT_PAGE_ROWS) return;
    const last = page[page.length - 1]!;
    key = { ...key, map: last[0], player: last[1], scope: last[3] };
  }
}

/**
 * A map of the export: UID, ID, name, type, clones (0/1), and its author, gold, silver and bronze scores (a secret
 * entry's medal bounds its result by them, as in every view).
 */
export type ExportMap = readonly [
  mapUid: string, mapId: string, name: string, mapType: string, hasClones: number, author: number, gold: number, silver: number, bronze: number,
];

/** The export's rows as tuples plus the map and player lookups they refer to, all from one snapshot. */
export interface ExportCursor {
  /** map ref → the map's cells and what ranks its records (its kind, its medal scores: ExportMap) */
  readonly maps: ReadonlyMap<number, ExportMap>;
  /** player ref → [account ID, display name, nickname] */
  readonly players: ReadonlyMap<number, readonly [string, string | null, string | null]>;
  readonly rows: IterableIterator<ExportTuple>;
  close(): void;
}

/** A cursor that also reads blocks of maps: a worker thread's part of an export split across threads. */
export interface ExportReader extends ExportCursor {
  /** The rows of one block of maps, in the same order and from the same snapshot. */
  between(range: MapRange): IterableIterator<ExportTuple>;
}

/**
 * Opens a cursor over one list's current records (`listId`) or all of them. With `reader` (a read-only connection
 * of its own, which the cursor closes) the store stays usable while it runs; otherwise it reads through `db`.
 */
export function openExportCursor(db: Database, reader: Database | undefined, listId: number | undefined): ExportReader {
  const source = reader ?? db;
  const close = (): void => {
    if (!reader) return;
    if (reader.inTransaction) reader.exec('COMMIT');
    reader.close();
  };
  try {
    // One snapshot for the lookups and the rows, so every row finds its map and player.
    if (reader) reader.exec('BEGIN');
    const maps = new Map<number, ExportMap>();
    const mapsQuery = 'SELECT id, map_uid, map_id, name, map_type, has_clones, author_score, gold_score, silver_score, bronze_score FROM maps';
    for (const [id, ...map] of source.prepare<[], [number, ...ExportMap]>(mapsQuery).raw().iterate()) maps.set(id, map);
    const players = new Map<number, [string, string | null, string | null]>();
    for (const [id, ...player] of source
      .prepare<[], [number, string, string | null, string | null]>('SELECT id, account_id, display_name, nickname FROM players')
      .raw()
      .iterate()) {
      players.set(id, player);
    }
    const rows = listId === undefined
      ? pages(source.prepare<PageKey, ExportTuple>(exportQuery(false)).raw(true))
      : source.prepare<{ list: number }, ExportTuple>(exportQuery(true)).raw(true).iterate({ list: listId });
    let ranged: Statement<PageKey, ExportTuple> | Statement<{ list: number } & MapRange, ExportTuple> | undefined;
    return {
      maps,
      players,
      rows,
      between: (range) => {
        if (listId === undefined) {
          ranged ??= source.prepare<PageKey, ExportTuple>(exportQuery(false, true)).raw(true);
          return pages(ranged as Statement<PageKey, ExportTuple>, range);
        }
        ranged ??= source.prepare<{ list: number } & MapRange, ExportTuple>(exportQuery(true, true)).raw(true);
        return (ranged as Statement<{ list: number } & MapRange, ExportTuple>).iterate({ list: listId, ...range });
      },
      close: () => {
        rows.return?.();
        close();
      },
    };
  } catch (error) {
    close();
    throw error;
  }
}

/** Where a reader of the export opens its own connection: the database file, on read-only media or not, and the list. */
export interface ExportSource {
  file: string;
  immutable: boolean;
  listId: number | undefined;
}

/** A streaming read touches each page once: a small cache keeps the export's memory flat. */
const EXPORT_CACHE_KIB = 2048;

/** A read-only connection of the export's own (the store's, or a worker thread's). */
export function openExportConnection(source: Pick<ExportSource, 'file' | 'immutable'>): Database {
  return openConnection(source.file, { readonly: true, immutable: source.immutable, cacheKib: EXPORT_CACHE_KIB });
}

/** A cursor on a connection of its own (which it closes), from any thread: its snapshot starts when it opens. */
export function openExportReader(source: ExportSource): ExportReader {
  const reader = openExportConnection(source);
  return openExportCursor(reader, reader, source.listId);
}

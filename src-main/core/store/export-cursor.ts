// The export's read of every current record (of a list, or all), streamed from one snapshot so that a million rows
// keep memory flat and a sync can write meanwhile.
import type { Database, Statement } from 'better-sqlite3';
import { IN_LIST } from './record-sql.ts';

// Maps and players come from lookups read once: a row carries their row IDs, not their text again.
const EXPORT_COLUMNS = `r.map_ref, r.player_ref, r.game_mode, r.scope, r.time, r.score, r.respawn_count, r.medal,
  r.hidden, r.timestamp, r.map_record_id, rp.path, r.id`;

/**
 * Rows per page of the full export: one call reads a page, far cheaper per row than stepping one by one; small
 * enough that pages die young (larger ones got promoted and grew the heap to 250 MB on a million rows).
 */
const EXPORT_PAGE_ROWS = 500;

/** A row of exportQuery, in its column order: map ref, player ref, game mode, scope, time, score, respawns, medal,
 * hidden, record timestamp, record ID, replay path, row ID. */
export type ExportTuple = [
  number, number, string, string, number | null, number, number | null, number, number, string, string, string | null,
  number,
];

/**
 * The export's query: one list's current records (through the list's maps and players), or a page of every current
 * record in the order stored (keyset on the row ID: @after, @limit).
 */
export function exportQuery(withList: boolean): string {
  const from = "FROM records r LEFT JOIN replays rp ON rp.record_id = r.map_record_id AND rp.state = 'downloaded'";
  return withList
    ? `SELECT ${EXPORT_COLUMNS} ${from} WHERE ${IN_LIST} AND r.current = 1 ORDER BY r.map_ref, r.player_ref, r.scope`
    : `SELECT ${EXPORT_COLUMNS} ${from} WHERE r.current = 1 AND r.id > @after ORDER BY r.id LIMIT @limit`;
}

function* pages(stmt: Statement<{ after: number; limit: number }, ExportTuple>): Generator<ExportTuple, void, undefined> {
  let after = 0;
  for (;;) {
    const page = stmt.all({ after, limit: EXPORT_PAGE_ROWS });
    for (const row of page) yield row;
    if (page.length < EXPORT_PAGE_ROWS) return;
    after = page[page.length - 1]![12];
  }
}

/** The export's rows as tuples plus the map and player lookups they refer to, all from one snapshot. */
export interface ExportCursor {
  /** map ref → [map UID, map ID, name] */
  readonly maps: ReadonlyMap<number, readonly [string, string, string]>;
  /** player ref → [account ID, display name, nickname] */
  readonly players: ReadonlyMap<number, readonly [string, string | null, string | null]>;
  readonly rows: IterableIterator<ExportTuple>;
  close(): void;
}

/**
 * Opens a cursor over one list's current records (`listId`) or all of them. With `reader` (a read-only connection
 * of its own, which the cursor closes) the store stays usable while it runs; otherwise it reads through `db`.
 */
export function openExportCursor(db: Database, reader: Database | undefined, listId: number | undefined): ExportCursor {
  const source = reader ?? db;
  const close = (): void => {
    if (!reader) return;
    if (reader.inTransaction) reader.exec('COMMIT');
    reader.close();
  };
  try {
    // One snapshot for the lookups and the rows, so every row finds its map and player.
    if (reader) reader.exec('BEGIN');
    const maps = new Map<number, [string, string, string]>();
    for (const [id, ...map] of source.prepare<[], [number, string, string, string]>('SELECT id, map_uid, map_id, name FROM maps').raw().iterate()) {
      maps.set(id, map);
    }
    const players = new Map<number, [string, string | null, string | null]>();
    for (const [id, ...player] of source
      .prepare<[], [number, string, string | null, string | null]>('SELECT id, account_id, display_name, nickname FROM players')
      .raw()
      .iterate()) {
      players.set(id, player);
    }
    const rows = listId === undefined
      ? pages(source.prepare<{ after: number; limit: number }, ExportTuple>(exportQuery(false)).raw(true))
      : source.prepare<{ list: number }, ExportTuple>(exportQuery(true)).raw(true).iterate({ list: listId });
    return {
      maps,
      players,
      rows,
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

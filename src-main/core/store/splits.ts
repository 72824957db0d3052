// Splits: the checkpoint times read from each downloaded replay, keyed by its record ID (schema 8), and the cursor of
// the first-start reading of replays archived before them.
import type { RepoContext } from './context.ts';
import { uuid } from './ids.ts';
import { NOT_ONLY_HOLDERS } from './record-sql.ts';
import type { WatchlistRef } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

export type SplitsState = 'read' | 'unreadable';

/** A ghost's splits as read from its file: the run's totals and the time (and Stunt score) at each checkpoint. */
export interface GhostSplits {
  ghostName: string | null;
  raceTime: number | null;
  respawns: number | null;
  stuntScore: number | null;
  /** Empty when unreadable. */
  checkpoints: (number | null)[];
  stuntScores: (number | null)[];
  laps: number | null;
}

/** What one reading of a replay file gave (core/splits/read.ts reads it): its record's ghost, or why not. */
export type SplitsRead =
  | ({ state: 'read'; ghostIndex: number } & GhostSplits)
  | { state: 'unreadable'; errorCode: string; error: string };

/** A reading as stored: with the reader's version and the file's sha256. */
export type SplitsWrite = { readerVersion: number; sha256: string } & SplitsRead;

/** A record's stored splits: a reading, or an unreadable file's ghost fields left empty with the reason. */
export interface SplitsEntry extends GhostSplits {
  recordId: string;
  state: SplitsState;
  readerVersion: number;
  sha256: string;
  errorCode: string | null;
  error: string | null;
  readAt: string;
}

/** A downloaded replay whose splits are still to read, with what finds its ghost. */
export interface UnreadReplay {
  recordId: string;
  path: string;
  sha256: string;
  accountId: string | null;
  time: number | null;
  score: number | null;
}

interface Row {
  record_id: string;
  state: SplitsState;
  reader_version: number;
  sha256: string;
  ghost_name: string | null;
  race_time: number | null;
  respawns: number | null;
  stunt_score: number | null;
  checkpoints: string | null;
  stunt_scores: string | null;
  laps: number | null;
  error_code: string | null;
  error: string | null;
  read_at: string;
}

interface UnreadRow {
  record_id: string;
  path: string;
  sha256: string;
  account_id: string | null;
  time: number | null;
  score: number | null;
}

// A downloaded replay needs reading when it has no splits, another file was read under its record ID, or an older
// reader read it (core/splits/version.ts: a newer one reads more of a file, or files an older one could not read).
const NEEDS_READ = `rp.state = 'downloaded' AND rp.path IS NOT NULL AND rp.sha256 IS NOT NULL
  AND (s.record_id IS NULL OR s.sha256 <> rp.sha256 OR s.reader_version < @reader)`;

export const SPLITS_QUERIES = {
  unread: `SELECT rp.record_id, rp.path, rp.sha256, p.account_id,
      (SELECT r.time FROM records r WHERE r.map_ref = rp.map_ref AND r.player_ref = rp.player_ref AND r.map_record_id = rp.record_id LIMIT 1) AS time,
      (SELECT r.score FROM records r WHERE r.map_ref = rp.map_ref AND r.player_ref = rp.player_ref AND r.map_record_id = rp.record_id LIMIT 1) AS score
    FROM replays rp LEFT JOIN splits s ON s.record_id = rp.record_id LEFT JOIN players p ON p.id = rp.player_ref
    WHERE rp.record_id > @after AND ${NEEDS_READ}
    ORDER BY rp.record_id LIMIT @limit`,
  unreadCount: `SELECT count(*) AS n FROM replays rp LEFT JOIN splits s ON s.record_id = rp.record_id WHERE ${NEEDS_READ}`,
  /** The same count over the next `limit` downloaded replays after a record ID: a large archive counted in small steps. */
  unreadCountStep: `SELECT coalesce(sum(CASE WHEN s.record_id IS NULL OR s.sha256 <> rp.sha256
        OR s.reader_version < @reader THEN 1 ELSE 0 END), 0) AS n,
      max(rp.record_id) AS last
    FROM (SELECT record_id, sha256 FROM replays WHERE record_id > @after AND state = 'downloaded' AND path IS NOT NULL
      AND sha256 IS NOT NULL ORDER BY record_id LIMIT @limit) rp
    LEFT JOIN splits s ON s.record_id = rp.record_id`,
} as const;

export interface SplitsExportRow {
  mapUid: string;
  mapName: string;
  accountId: string;
  displayName: string | null;
  nickname: string | null;
  recordId: string;
  current: boolean;
  time: number | null;
  timestamp: string;
  checkpoints: (number | null)[];
  stuntScores: (number | null)[];
  respawns: number | null;
  laps: number | null;
}

interface ExportRow {
  id: number;
  map_uid: string;
  map_name: string;
  account_id: string;
  display_name: string | null;
  nickname: string | null;
  map_record_id: string;
  current: number | null;
  time: number | null;
  timestamp: string;
  checkpoints: string;
  stunt_scores: string;
  respawns: number | null;
  laps: number | null;
}

// A ghost file holds no map, so its laps are the map's, from any replay of the map that embeds it (docs/gbx.md, "Laps").
const EXPORT_SELECT = `SELECT r.id, m.map_uid, m.name AS map_name, p.account_id, p.display_name, p.nickname, r.map_record_id,
    r.current, r.time, r.timestamp, s.checkpoints, s.stunt_scores, s.respawns,
    COALESCE(s.laps, (SELECT s2.laps FROM records r2 JOIN splits s2 ON s2.record_id = r2.map_record_id
      WHERE r2.map_ref = r.map_ref AND s2.laps IS NOT NULL LIMIT 1)) AS laps
  FROM records r JOIN splits s ON s.record_id = r.map_record_id JOIN maps m ON m.id = r.map_ref
    JOIN players p ON p.id = r.player_ref`;
const EXPORT_WHERE = `AND r.scope = 'PersonalBest' AND s.state = 'read' ORDER BY r.id LIMIT @limit`;

function parseList(text: string | null): (number | null)[] {
  if (text === null) return [];
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.map((v) => (typeof v === 'number' ? v : null)) : [];
}

function toEntry(row: Row): SplitsEntry {
  return {
    recordId: row.record_id,
    state: row.state,
    readerVersion: row.reader_version,
    sha256: row.sha256,
    ghostName: row.ghost_name,
    raceTime: row.race_time,
    respawns: row.respawns,
    stuntScore: row.stunt_score,
    checkpoints: parseList(row.checkpoints),
    stuntScores: parseList(row.stunt_scores),
    laps: row.laps,
    errorCode: row.error_code,
    error: row.error,
    readAt: row.read_at,
  };
}

export class SplitsRepo {
  readonly #ctx: RepoContext;
  readonly #put;
  readonly #get;
  readonly #unread;
  readonly #unreadCount;
  readonly #unreadCountStep;
  readonly #cursor;
  readonly #checkpoint;
  readonly #setCursor;

  readonly #lists: WatchlistsRepo;
  readonly #exportAll;
  readonly #exportList;

  constructor(ctx: RepoContext, lists: WatchlistsRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    const { db } = ctx;
    this.#put = db.prepare(
      `INSERT INTO splits (record_id, state, reader_version, sha256, ghost_index, ghost_name, race_time, respawns,
         stunt_score, checkpoints, stunt_scores, laps, error_code, error, read_at)
       VALUES (@recordId, @state, @readerVersion, @sha256, @ghostIndex, @ghostName, @raceTime, @respawns, @stuntScore,
         @checkpoints, @stuntScores, @laps, @errorCode, @error, @readAt)
       ON CONFLICT (record_id) DO UPDATE SET state = excluded.state, reader_version = excluded.reader_version,
         sha256 = excluded.sha256, ghost_index = excluded.ghost_index, ghost_name = excluded.ghost_name,
         race_time = excluded.race_time, respawns = excluded.respawns, stunt_score = excluded.stunt_score,
         checkpoints = excluded.checkpoints, stunt_scores = excluded.stunt_scores, laps = excluded.laps,
         error_code = excluded.error_code, error = excluded.error, read_at = excluded.read_at`,
    );
    this.#get = db.prepare<[string], Row>('SELECT * FROM splits WHERE record_id = ?');
    this.#unread = db.prepare<{ after: string; limit: number; reader: number }, UnreadRow>(SPLITS_QUERIES.unread);
    this.#unreadCount = db.prepare<{ reader: number }, { n: number }>(SPLITS_QUERIES.unreadCount);
    this.#unreadCountStep = db.prepare<{ after: string; limit: number; reader: number }, { n: number; last: string | null }>(SPLITS_QUERIES.unreadCountStep);
    this.#checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
    // Watched players' records only (schema 10): a world-record holder's ghost is no watched player's PB.
    this.#exportAll = db.prepare<{ after: number; limit: number }, ExportRow>(`${EXPORT_SELECT} WHERE r.id > @after AND ${NOT_ONLY_HOLDERS} ${EXPORT_WHERE}`);
    this.#exportList = db.prepare<{ after: number; limit: number; list: number }, ExportRow>(
      `${EXPORT_SELECT} WHERE r.id > @after
         AND r.map_ref IN (SELECT map_ref FROM watchlist_maps WHERE watchlist_id = @list AND map_ref IS NOT NULL)
         AND r.player_ref IN (SELECT player_ref FROM watchlist_players WHERE watchlist_id = @list) ${EXPORT_WHERE}`,
    );
    this.#cursor = db.prepare<[], { cursor: string }>('SELECT cursor FROM splits_backfill WHERE id = 1');
    this.#setCursor = db.prepare<[string, string]>(
      `INSERT INTO splits_backfill (id, cursor, updated_at) VALUES (1, ?, ?)
       ON CONFLICT (id) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`,
    );
  }

  /** Stores one reading of a record's replay file, replacing an earlier one. */
  put(recordId: string, read: SplitsWrite): void {
    const ok = read.state === 'read';
    this.#put.run({
      recordId: uuid(recordId, 'record ID'),
      state: read.state,
      readerVersion: read.readerVersion,
      sha256: read.sha256.toLowerCase(),
      ghostIndex: ok ? read.ghostIndex : null,
      ghostName: ok ? read.ghostName : null,
      raceTime: ok ? read.raceTime : null,
      respawns: ok ? read.respawns : null,
      stuntScore: ok ? read.stuntScore : null,
      checkpoints: ok ? JSON.stringify(read.checkpoints) : null,
      stuntScores: ok ? JSON.stringify(read.stuntScores) : null,
      laps: ok ? read.laps : null,
      errorCode: ok ? null : read.errorCode.slice(0, 40),
      error: ok ? null : read.error.slice(0, 2000),
      readAt: this.#ctx.now(),
    });
  }

  get(recordId: string): SplitsEntry | undefined {
    const row = typeof recordId === 'string' ? this.#get.get(recordId.toLowerCase()) : undefined;
    return row && toEntry(row);
  }

  /** The splits of these records (record IDs), those that have any. */
  forRecords(recordIds: readonly string[]): Map<string, SplitsEntry> {
    const found = new Map<string, SplitsEntry>();
    for (const id of recordIds) {
      const entry = this.get(id);
      if (entry) found.set(entry.recordId, entry);
    }
    return found;
  }

  /** Downloaded replays still to read, in record ID order after `after`, at most `limit`. */
  unread(after: string, limit: number, readerVersion: number): UnreadReplay[] {
    return this.#unread.all({ after, limit: Math.max(0, Math.floor(limit)), reader: readerVersion }).map((r) => ({
      recordId: r.record_id, path: r.path, sha256: r.sha256, accountId: r.account_id, time: r.time, score: r.score,
    }));
  }

  unreadCount(readerVersion: number): number {
    return this.#unreadCount.get({ reader: readerVersion })?.n ?? 0;
  }

  /**
   * Every personal-best record version (of a list's maps and players, or all) whose splits were read, in record row
   * order; read a page at a time, so the connection is free between pages for the sync's writes.
   */
  *exportRows(list?: WatchlistRef): Generator<SplitsExportRow> {
    const listId = list === undefined ? undefined : this.#lists.require(list).id;
    let after = 0;
    for (let page = 0; page < 100_000_000; page++) {
      const rows = listId === undefined ? this.#exportAll.all({ after, limit: 1000 }) : this.#exportList.all({ after, limit: 1000, list: listId });
      if (rows.length === 0) return;
      for (const r of rows) {
        yield {
          mapUid: r.map_uid, mapName: r.map_name, accountId: r.account_id, displayName: r.display_name, nickname: r.nickname,
          recordId: r.map_record_id, current: r.current === 1, time: r.time, timestamp: r.timestamp,
          checkpoints: parseList(r.checkpoints), stuntScores: parseList(r.stunt_scores), respawns: r.respawns, laps: r.laps,
        };
      }
      after = rows.at(-1)!.id;
    }
  }

  /** unreadCount over the next `limit` downloaded replays after `after`; `last` null when none is left. */
  unreadCountStep(after: string, limit: number, readerVersion: number): { n: number; last: string | null } {
    const row = this.#unreadCountStep.get({ after, limit: Math.max(1, Math.floor(limit)), reader: readerVersion });
    return { n: row?.n ?? 0, last: row?.last ?? null };
  }

  /**
   * Copies the write-ahead log into the database now, without waiting on readers: a long backfill calls it every few
   * slices, so no single commit carries the automatic checkpoint of a 40 MB log (it held the event loop 437 ms).
   */
  checkpointLog(): void {
    this.#checkpoint.run();
  }

  /** Where the backfill got to: the last record ID it read ('' at the start). */
  backfillCursor(): string {
    return this.#cursor.get()?.cursor ?? '';
  }

  setBackfillCursor(cursor: string): void {
    this.#setCursor.run(cursor, this.#ctx.now());
  }
}

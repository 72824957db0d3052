// Splits: the checkpoint times read from each downloaded replay, keyed by its record ID (schema 8), and the cursor of
// the first-start reading of replays archived before them.
import type { RepoContext } from './context.ts';
import { uuid } from './ids.ts';

export type SplitsState = 'read' | 'unreadable';

/** What one reading of a replay file gave (core/splits/read.ts SplitsRead, with the reader's version and the file). */
export type SplitsWrite = {
  readerVersion: number;
  sha256: string;
} & (
  | {
    state: 'read';
    ghostIndex: number;
    ghostName: string | null;
    raceTime: number | null;
    respawns: number | null;
    stuntScore: number | null;
    checkpoints: (number | null)[];
    stuntScores: (number | null)[];
    laps: number | null;
  }
  | { state: 'unreadable'; errorCode: string; error: string }
);

export interface SplitsEntry {
  recordId: string;
  state: SplitsState;
  readerVersion: number;
  sha256: string;
  ghostName: string | null;
  raceTime: number | null;
  respawns: number | null;
  stuntScore: number | null;
  /** Empty when unreadable. */
  checkpoints: (number | null)[];
  stuntScores: (number | null)[];
  laps: number | null;
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
// reader could not read it.
const NEEDS_READ = `rp.state = 'downloaded' AND rp.path IS NOT NULL AND rp.sha256 IS NOT NULL
  AND (s.record_id IS NULL OR s.sha256 <> rp.sha256 OR (s.state = 'unreadable' AND s.reader_version < @reader))`;

export const SPLITS_QUERIES = {
  unread: `SELECT rp.record_id, rp.path, rp.sha256, p.account_id,
      (SELECT r.time FROM records r WHERE r.map_ref = rp.map_ref AND r.player_ref = rp.player_ref AND r.map_record_id = rp.record_id LIMIT 1) AS time,
      (SELECT r.score FROM records r WHERE r.map_ref = rp.map_ref AND r.player_ref = rp.player_ref AND r.map_record_id = rp.record_id LIMIT 1) AS score
    FROM replays rp LEFT JOIN splits s ON s.record_id = rp.record_id LEFT JOIN players p ON p.id = rp.player_ref
    WHERE rp.record_id > @after AND ${NEEDS_READ}
    ORDER BY rp.record_id LIMIT @limit`,
  unreadCount: `SELECT count(*) AS n FROM replays rp LEFT JOIN splits s ON s.record_id = rp.record_id WHERE ${NEEDS_READ}`,
} as const;

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
  readonly #cursor;
  readonly #setCursor;

  constructor(ctx: RepoContext) {
    this.#ctx = ctx;
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

  /** Where the backfill got to: the last record ID it read ('' at the start). */
  backfillCursor(): string {
    return this.#cursor.get()?.cursor ?? '';
  }

  setBackfillCursor(cursor: string): void {
    this.#setCursor.run(cursor, this.#ctx.now());
  }
}

// World records: each map's best on the world leaderboard as the Live services' top route last gave it, the holder's
// Core record when a sync's records request brought it (its replay is the WR's ghost), and the per-list setting that
// says whether a sync asks (schema 9). Facts: docs/nadeo-api.md ("Beyond the seed", "Top Secret").
import type { RepoContext } from './context.ts';
import { invalidInput, notFound } from './errors.ts';
import { describe, uuid } from './ids.ts';
import { replayPath } from './replays.ts';
import type { PendingReplay, WatchlistRef } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

/** Lists of more maps than this do not ask for world records unless told to (a request per map). */
export const WORLD_RECORD_DEFAULT_MAX_MAPS = 100;

/** A list's world-record setting: what the player set (null: the default), and whether syncs ask. */
export interface WorldRecordSetting {
  set: boolean | null;
  on: boolean;
}

export interface StoredWorldRecord {
  mapId: string;
  mapUid: string;
  accountId: string;
  /** Milliseconds (or Stunt points); null when secret. */
  score: number | null;
  /** Hidden by a secret threshold: the service says who, never the score. */
  secret: boolean;
  setAt: string | null;
  readAt: string;
  /** The holder's Core record, when a sync read it; its replay is the WR's ghost. */
  mapRecordId: string | null;
}

export interface WorldRecordAnswer {
  mapId: string;
  accountId: string;
  /** null: secret. */
  score: number | null;
  setAt: string | null;
  readAt: string;
}

interface Row {
  map_id: string;
  map_uid: string;
  account_id: string;
  score: number | null;
  secret: number;
  set_at: string | null;
  read_at: string;
  map_record_id: string | null;
}

const COLUMNS = 'm.map_id, m.map_uid, w.account_id, w.score, w.secret, w.set_at, w.read_at, w.map_record_id';

function toStored(row: Row): StoredWorldRecord {
  return {
    mapId: row.map_id, mapUid: row.map_uid, accountId: row.account_id, score: row.score, secret: row.secret === 1,
    setAt: row.set_at, readAt: row.read_at, mapRecordId: row.map_record_id,
  };
}

function isoOrNull(value: unknown, what: string): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw invalidInput(`${what} must be an ISO date or null, got ${describe(value)}`);
  return new Date(Date.parse(value)).toISOString();
}

export class WorldRecordsRepo {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #setting;
  readonly #set;
  readonly #mapRef;
  readonly #upsert;
  readonly #holderRecord;
  readonly #one;
  readonly #ofList;
  readonly #replaysOfList;

  constructor(ctx: RepoContext, lists: WatchlistsRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    const { db } = ctx;
    this.#setting = db.prepare<[number], { world_record: number | null; maps: number }>(
      `SELECT w.world_record, (SELECT count(*) FROM watchlist_maps wm WHERE wm.watchlist_id = w.id) AS maps
       FROM watchlists w WHERE w.id = ?`,
    );
    this.#set = db.prepare<[number | null, number]>('UPDATE watchlists SET world_record = ? WHERE id = ?');
    this.#mapRef = db.prepare<[string], { id: number }>('SELECT id FROM maps WHERE map_id = ?');
    // A new holder (or a new read) keeps the record ID only while the holder is the same account.
    this.#upsert = db.prepare<[number, string, number | null, number, string | null, string]>(
      `INSERT INTO world_records (map_ref, account_id, score, secret, set_at, read_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (map_ref) DO UPDATE SET score = excluded.score, secret = excluded.secret, set_at = excluded.set_at,
         read_at = excluded.read_at,
         map_record_id = CASE WHEN account_id = excluded.account_id THEN map_record_id END,
         account_id = excluded.account_id`,
    );
    this.#holderRecord = db.prepare<[string, number, string]>(
      'UPDATE world_records SET map_record_id = ? WHERE map_ref = ? AND account_id = ?',
    );
    this.#one = db.prepare<[string], Row>(`SELECT ${COLUMNS} FROM world_records w JOIN maps m ON m.id = w.map_ref WHERE m.map_id = ?`);
    this.#ofList = db.prepare<[number], Row>(
      `SELECT ${COLUMNS} FROM watchlist_maps wm JOIN world_records w ON w.map_ref = wm.map_ref JOIN maps m ON m.id = w.map_ref
       WHERE wm.watchlist_id = ? ORDER BY wm.id`,
    );
    // The WR's replay is due like a watched one: a visible current record, never tried or tried fewer than @max times.
    this.#replaysOfList = db.prepare<{ list: number; max: number }, { map_id: string; account_id: string; map_record_id: string; url: string; attempts: number }>(
      `SELECT m.map_id, p.account_id, r.map_record_id, r.url, coalesce(rp.attempts, 0) AS attempts
       FROM watchlist_maps wm
       JOIN world_records w ON w.map_ref = wm.map_ref AND w.map_record_id IS NOT NULL AND w.secret = 0
       JOIN records r ON r.map_record_id = w.map_record_id AND r.map_ref = w.map_ref AND r.current = 1 AND r.hidden = 0
       JOIN players p ON p.id = r.player_ref AND p.account_id = w.account_id
       JOIN maps m ON m.id = w.map_ref
       LEFT JOIN replays rp ON rp.record_id = r.map_record_id
       WHERE wm.watchlist_id = @list
         AND (rp.record_id IS NULL OR (rp.state IN ('failed', 'hidden') AND rp.attempts < @max))
       ORDER BY wm.id`,
    );
  }

  /** Whether the list's syncs ask for world records: as set, else on for lists of at most 100 maps. */
  setting(list: WatchlistRef): WorldRecordSetting {
    const row = this.#setting.get(this.#lists.require(list).id)!;
    const set = row.world_record === null ? null : row.world_record === 1;
    return { set, on: set ?? row.maps <= WORLD_RECORD_DEFAULT_MAX_MAPS };
  }

  /** Sets the list's world-record setting (null: back to the default); returns it as it now stands. */
  setSetting(list: WatchlistRef, on: boolean | null): WorldRecordSetting {
    if (on !== null && typeof on !== 'boolean') throw invalidInput(`the world-record setting is on, off or the default, got ${describe(on)}`);
    const id = this.#lists.require(list).id;
    this.#set.run(on === null ? null : on ? 1 : 0, id);
    return this.setting(id);
  }

  /** Stores the top route's answers in one transaction; a holder that changed loses the old holder's record ID. */
  save(answers: readonly WorldRecordAnswer[]): void {
    const checked = answers.map((a) => {
      const mapId = uuid(a?.mapId, 'mapId');
      const accountId = uuid(a.accountId, 'the world record holder');
      if (a.score !== null && (!Number.isSafeInteger(a.score) || a.score < 0)) {
        throw invalidInput(`a world record's score is a whole number of at least 0 or null (secret), got ${describe(a.score)}`);
      }
      const readAt = isoOrNull(a.readAt, 'readAt');
      if (readAt === null) throw invalidInput('readAt must be an ISO date');
      return { mapId, accountId, score: a.score, setAt: isoOrNull(a.setAt, 'setAt'), readAt };
    });
    this.#ctx.db.transaction(() => {
      for (const a of checked) {
        const ref = this.#mapRef.get(a.mapId);
        if (!ref) throw notFound(`map ${a.mapId} is not stored`);
        this.#upsert.run(ref.id, a.accountId, a.score, a.score === null ? 1 : 0, a.setAt, a.readAt);
      }
    })();
  }

  /** The holder's Core record on the map (read in the watched players' request); ignored when the holder changed since. */
  setHolderRecord(mapId: string, accountId: string, mapRecordId: string): void {
    const ref = this.#mapRef.get(uuid(mapId, 'mapId'));
    if (!ref) throw notFound(`map ${mapId} is not stored`);
    this.#holderRecord.run(uuid(mapRecordId, 'mapRecordId'), ref.id, uuid(accountId, 'the world record holder'));
  }

  get(mapId: string): StoredWorldRecord | undefined {
    if (typeof mapId !== 'string') return undefined;
    const row = this.#one.get(mapId.toLowerCase());
    return row && toStored(row);
  }

  /** The world records of a list's maps, in list order (maps never asked about are absent). */
  forList(list: WatchlistRef): StoredWorldRecord[] {
    return this.#ofList.all(this.#lists.require(list).id).map(toStored);
  }

  /** The WR replays a list wants downloaded: its maps' WR holders' visible records whose replay is due. */
  pendingReplays(list: WatchlistRef, maxAttempts: number): PendingReplay[] {
    return this.#replaysOfList.all({ list: this.#lists.require(list).id, max: maxAttempts }).map((r) => ({
      mapId: r.map_id, accountId: r.account_id, mapRecordId: r.map_record_id, url: r.url,
      path: replayPath(r.map_id, r.account_id, r.map_record_id), attempts: r.attempts,
    }));
  }
}

// Named watchlists: each holds maps and players; a map or player can sit in several lists.
import { SqliteError } from 'better-sqlite3';
import type { RepoContext } from './context.ts';
import { StoreError, StoreErrorCode, invalidInput, notFound } from './errors.ts';
import { describe } from './ids.ts';
import { FINISHED, lastRunCoveringList } from './sync-run-sql.ts';
import type { SyncOutcome, Watchlist, WatchlistRef, WatchlistSummary } from './types.ts';

export const WATCHLIST_NAME_MAX = 64;

/**
 * Which replays a list's syncs download: every watched player's ('all', the default), only "me" and the list's best
 * `best` per map ('best'), or none ('none': fetched one at a time on demand). `best` is kept when the mode changes.
 */
export interface ReplayPolicy {
  mode: 'all' | 'best' | 'none';
  best: number;
}

export const REPLAY_POLICY_MODES = ['all', 'best', 'none'] as const;
export const REPLAY_BEST_MAX = 100;
export const DEFAULT_REPLAY_POLICY: ReplayPolicy = { mode: 'all', best: 3 };

/** A policy as given by a caller (the CLI, the window), checked: the clean policy, or an error saying what to change. */
export function replayPolicy(raw: unknown): ReplayPolicy {
  if (typeof raw !== 'object' || raw === null) throw invalidInput('a replay policy is { mode, best }');
  const value = raw as Partial<Record<keyof ReplayPolicy, unknown>>;
  if (!REPLAY_POLICY_MODES.includes(value.mode as ReplayPolicy['mode'])) {
    throw invalidInput(`a replay policy is ${REPLAY_POLICY_MODES.map((m) => `'${m}'`).join(', ')}; got ${describe(value.mode)}`);
  }
  const best = value.best ?? DEFAULT_REPLAY_POLICY.best;
  if (typeof best !== 'number' || !Number.isInteger(best) || best < 1 || best > REPLAY_BEST_MAX) {
    throw invalidInput(`the best N per map is a whole number from 1 to ${REPLAY_BEST_MAX}, got ${describe(best)}`);
  }
  return { mode: value.mode as ReplayPolicy['mode'], best };
}

interface ListRow {
  id: number;
  name: string;
  created_at: string;
}

/** Trimmed, 1-64 characters, no control characters; the clean name, or an error saying what to change. */
export function watchlistName(raw: unknown): string {
  if (typeof raw !== 'string') throw invalidInput('a list name must be text');
  const name = raw.normalize('NFC').trim();
  if (name === '') throw invalidInput('a list needs a name');
  const length = [...name].length;
  if (length > WATCHLIST_NAME_MAX) {
    throw invalidInput(`list names are at most ${WATCHLIST_NAME_MAX} characters; this one has ${length}`);
  }
  if (/\p{Cc}/u.test(name)) throw invalidInput('list names cannot hold line breaks, tabs or other control characters');
  return name;
}

export class WatchlistsRepo {
  readonly #ctx: RepoContext;
  readonly #insert;
  readonly #byName;
  readonly #byId;
  readonly #rename;
  readonly #renameRuns;
  readonly #delete;
  readonly #all;
  readonly #counts;
  readonly #policy;
  readonly #setPolicy;
  readonly #unsynced;
  readonly #lastFinished;

  constructor(ctx: RepoContext) {
    this.#ctx = ctx;
    const { db } = ctx;
    this.#insert = db.prepare<[string, string]>('INSERT INTO watchlists (name, created_at) VALUES (?, ?)');
    this.#byName = db.prepare<[string], ListRow>('SELECT id, name, created_at FROM watchlists WHERE name = ?');
    this.#byId = db.prepare<[number], ListRow>('SELECT id, name, created_at FROM watchlists WHERE id = ?');
    this.#rename = db.prepare<[string, number]>('UPDATE watchlists SET name = ? WHERE id = ?');
    this.#renameRuns = db.prepare<[string, number]>('UPDATE sync_runs SET watchlist_name = ? WHERE watchlist_id = ?');
    this.#delete = db.prepare<[number]>('DELETE FROM watchlists WHERE id = ?');
    this.#all = db.prepare<[], ListRow>('SELECT id, name, created_at FROM watchlists ORDER BY name, id');
    this.#counts = db.prepare<{ id: number }, { maps: number; unresolved: number; players: number }>(
      `SELECT
         (SELECT count(*) FROM watchlist_maps WHERE watchlist_id = @id AND map_ref IS NOT NULL) AS maps,
         (SELECT count(*) FROM watchlist_maps WHERE watchlist_id = @id AND map_ref IS NULL) AS unresolved,
         (SELECT count(*) FROM watchlist_players WHERE watchlist_id = @id) AS players`,
    );
    this.#policy = db.prepare<[number], { replay_policy: ReplayPolicy['mode']; replay_best: number }>(
      'SELECT replay_policy, replay_best FROM watchlists WHERE id = ?',
    );
    this.#setPolicy = db.prepare<[string, number, number]>('UPDATE watchlists SET replay_policy = ?, replay_best = ? WHERE id = ?');
    // Maps no sync has brought a record of this list's players for yet (a first sync's share of the list), and refs
    // still to look up.
    this.#unsynced = db.prepare<{ id: number }, { n: number }>(
      `SELECT count(*) AS n FROM watchlist_maps wm
       WHERE wm.watchlist_id = @id AND (wm.map_ref IS NULL OR NOT EXISTS (
         SELECT 1 FROM records r WHERE r.map_ref = wm.map_ref AND r.current = 1
           AND r.player_ref IN (SELECT player_ref FROM watchlist_players WHERE watchlist_id = @id)))`,
    );
    this.#lastFinished = db.prepare<{ list: number }, { finished_at: string; outcome: SyncOutcome }>(lastRunCoveringList(FINISHED));
  }

  /** Which replays the list's syncs download. */
  replayPolicy(list: WatchlistRef): ReplayPolicy {
    const row = this.#policy.get(this.require(list).id)!;
    return { mode: row.replay_policy, best: row.replay_best };
  }

  /** Sets which replays the list's syncs download; returns the policy as stored. */
  setReplayPolicy(list: WatchlistRef, policy: Partial<ReplayPolicy>): ReplayPolicy {
    const id = this.require(list).id;
    const clean = replayPolicy({ ...this.replayPolicy(id), ...policy });
    this.#setPolicy.run(clean.mode, clean.best, id);
    return clean;
  }

  /** Maps of the list without any record of its players yet (never synced, or added since), pending refs included. */
  unsyncedMaps(list: WatchlistRef): number {
    return this.#unsynced.get({ id: this.require(list).id })?.n ?? 0;
  }

  create(name: string, createdAt: string = this.#ctx.now()): Watchlist {
    const clean = watchlistName(name);
    const existing = this.#byName.get(clean);
    if (existing) throw conflict(existing.name);
    try {
      const info = this.#insert.run(clean, createdAt);
      return { id: Number(info.lastInsertRowid), name: clean, createdAt };
    } catch (error) {
      // Another process created it between our check and our insert.
      if (isUniqueViolation(error)) throw conflict(clean);
      throw error;
    }
  }

  rename(list: WatchlistRef, newName: string): Watchlist {
    const clean = watchlistName(newName);
    return this.#ctx.db.transaction((): Watchlist => {
      const row = this.require(list);
      const clash = this.#byName.get(clean);
      if (clash && clash.id !== row.id) throw conflict(clash.name);
      this.#rename.run(clean, row.id);
      this.#renameRuns.run(clean, row.id);
      return { id: row.id, name: clean, createdAt: row.createdAt };
    })();
  }

  /** Removes the list and its memberships; maps, players, records, history and replays stay. */
  delete(list: WatchlistRef): void {
    const row = this.require(list);
    this.#delete.run(row.id);
  }

  /** Every list with its counts and last sync, by name. */
  list(): WatchlistSummary[] {
    return this.#all.all().map((row) => this.#summary(row));
  }

  get(list: WatchlistRef): WatchlistSummary | undefined {
    const row = this.#find(list);
    return row && this.#summary(row);
  }

  /** The list, or a NOT_FOUND error naming it. */
  require(list: WatchlistRef): Watchlist {
    const row = this.#find(list);
    if (!row) throw notFound(`there is no list ${typeof list === 'number' ? `#${list}` : describe(list)}`);
    return { id: row.id, name: row.name, createdAt: row.created_at };
  }

  #find(list: WatchlistRef): ListRow | undefined {
    if (typeof list === 'number') return this.#byId.get(list);
    if (typeof list !== 'string') throw invalidInput('a list is named by its name or its ID');
    return this.#byName.get(list.normalize('NFC').trim());
  }

  #summary(row: ListRow): WatchlistSummary {
    const counts = this.#counts.get({ id: row.id })!;
    const last = this.#lastFinished.get({ list: row.id });
    return {
      id: row.id,
      name: row.name,
      createdAt: row.created_at,
      maps: counts.maps,
      unresolvedMaps: counts.unresolved,
      players: counts.players,
      lastSyncAt: last?.finished_at ?? null,
      lastSyncOutcome: last?.outcome ?? null,
    };
  }
}

function conflict(name: string): StoreError {
  return new StoreError(StoreErrorCode.CONFLICT, `a list named ${describe(name)} already exists`);
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof SqliteError && error.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

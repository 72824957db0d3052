// The log of sync runs: when, over which list, how it ended, what it counted and which maps failed.
import type { RepoContext } from './context.ts';
import { invalidInput, notFound } from './errors.ts';
import type { SyncCounts, SyncOutcome, SyncRun, SyncRunError, SyncRunState, WatchlistRef } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';
import { describe } from './ids.ts';
import { FINISHED, lastRunCoveringList } from './sync-run-sql.ts';

/** How syncs of one list went; see SyncRunsRepo.stateOf. */
export interface ListSyncState {
  last: { runId: number; finishedAt: string; outcome: SyncOutcome; failedMaps: number; firstError: string | null } | undefined;
  /** When a run last read every map of the list (ended ok); null if none did. */
  lastOkAt: string | null;
}

const OUTCOMES: ReadonlySet<string> = new Set<SyncOutcome>(['ok', 'partial', 'failed', 'cancelled']);

interface RunRow {
  id: number;
  watchlist_name: string | null;
  started_at: string;
  finished_at: string | null;
  outcome: SyncRunState;
  maps: number;
  requests: number;
  records: number;
  new_pbs: number;
  replays: number;
}

const RUN_COLUMNS = 'id, watchlist_name, started_at, finished_at, outcome, maps, requests, records, new_pbs, replays';

export class SyncRunsRepo {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #insert;
  readonly #finish;
  readonly #addError;
  readonly #get;
  readonly #errors;
  readonly #lastAny;
  readonly #lastForList;
  readonly #lastFinishedForList;
  readonly #lastOkForList;
  readonly #failedMaps;
  readonly #firstError;
  readonly #readRuns;
  readonly #failedMapIds;
  readonly #memberships;
  readonly #recent;
  readonly #running;

  constructor(ctx: RepoContext, lists: WatchlistsRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    const { db } = ctx;
    this.#insert = db.prepare<[number | null, string | null, string]>(
      'INSERT INTO sync_runs (watchlist_id, watchlist_name, started_at) VALUES (?, ?, ?)',
    );
    this.#finish = db.prepare<[string, string, number, number, number, number, number, number]>(
      `UPDATE sync_runs SET outcome = ?, finished_at = ?, maps = ?, requests = ?, records = ?, new_pbs = ?, replays = ?
       WHERE id = ?`,
    );
    this.#addError = db.prepare<[number, string | null, string, string]>(
      'INSERT INTO sync_errors (sync_run_id, map_id, message, at) VALUES (?, ?, ?, ?)',
    );
    this.#get = db.prepare<[number], RunRow>(`SELECT ${RUN_COLUMNS} FROM sync_runs WHERE id = ?`);
    this.#errors = db.prepare<[number], { map_id: string | null; message: string; at: string }>(
      'SELECT map_id, message, at FROM sync_errors WHERE sync_run_id = ? ORDER BY id',
    );
    this.#lastAny = db.prepare<[], RunRow>(`SELECT ${RUN_COLUMNS} FROM sync_runs ORDER BY id DESC LIMIT 1`);
    this.#lastForList = db.prepare<[number], RunRow>(
      `SELECT ${RUN_COLUMNS} FROM sync_runs WHERE watchlist_id = ? ORDER BY id DESC LIMIT 1`,
    );
    this.#lastFinishedForList = db.prepare<{ list: number }, { id: number; finished_at: string; outcome: SyncOutcome }>(
      lastRunCoveringList(FINISHED),
    );
    this.#lastOkForList = db.prepare<{ list: number }, { id: number; finished_at: string; outcome: SyncOutcome }>(lastRunCoveringList("outcome = 'ok'"));
    this.#failedMaps = db.prepare<[number], { failed: number }>(
      'SELECT count(DISTINCT map_id) AS failed FROM sync_errors WHERE sync_run_id = ? AND map_id IS NOT NULL',
    );
    // The run's own trouble (no map) first: it says why the whole run failed.
    this.#firstError = db.prepare<[number], { message: string }>(
      'SELECT message FROM sync_errors WHERE sync_run_id = ? ORDER BY map_id IS NOT NULL, id LIMIT 1',
    );
    this.#readRuns = db.prepare<[], { id: number; watchlist_id: number | null; watchlist_name: string | null; started_at: string; finished_at: string }>(
      `SELECT id, watchlist_id, watchlist_name, started_at, finished_at FROM sync_runs
       WHERE outcome IN ('ok', 'partial') ORDER BY id DESC`,
    );
    this.#failedMapIds = db.prepare<[number], { map_id: string }>(
      'SELECT DISTINCT map_id FROM sync_errors WHERE sync_run_id = ? AND map_id IS NOT NULL',
    );
    this.#memberships = db.prepare<[number], { map_id: string; watchlist_id: number; added_at: string }>(
      `SELECT m.map_id, other.watchlist_id, other.added_at
       FROM watchlist_maps wm JOIN maps m ON m.id = wm.map_ref JOIN watchlist_maps other ON other.map_ref = wm.map_ref
       WHERE wm.watchlist_id = ?`,
    );
    this.#recent = db.prepare<[number], RunRow>(`SELECT ${RUN_COLUMNS} FROM sync_runs ORDER BY id DESC LIMIT ?`);
    this.#running = db.prepare<[], { id: number }>(`SELECT id FROM sync_runs WHERE outcome = 'running' ORDER BY id`);
  }

  /** Records the start of a sync over one list, or over every list; returns the run's ID. */
  start(list?: string | number, startedAt: string = this.#ctx.now()): number {
    const target = list === undefined ? null : this.#lists.require(list);
    const info = this.#insert.run(target?.id ?? null, target?.name ?? null, startedAt);
    return Number(info.lastInsertRowid);
  }

  finish(id: number, outcome: SyncOutcome, counts: Partial<SyncCounts> = {}, finishedAt: string = this.#ctx.now()): void {
    if (!OUTCOMES.has(outcome)) throw invalidInput(`a sync ends ok, partial, failed or cancelled, not ${describe(outcome)}`);
    const c = { maps: 0, requests: 0, records: 0, newPbs: 0, replays: 0, ...counts };
    const info = this.#finish.run(outcome, finishedAt, c.maps, c.requests, c.records, c.newPbs, c.replays, id);
    if (info.changes === 0) throw notFound(`no sync run ${id}`);
  }

  /** Notes what went wrong for one map (or for the run as a whole when mapId is null). */
  addError(id: number, mapId: string | null, message: string, at: string = this.#ctx.now()): void {
    if (!this.#get.get(id)) throw notFound(`no sync run ${id}`);
    this.#addError.run(id, mapId, message, at);
  }

  get(id: number): SyncRun | undefined {
    const row = this.#get.get(id);
    return row && this.#toRun(row);
  }

  /** The most recent run (running or not) for the list, or of any kind when no list is given. */
  last(list?: string | number): SyncRun | undefined {
    const row = list === undefined ? this.#lastAny.get() : this.#lastForList.get(this.#lists.require(list).id);
    return row && this.#toRun(row);
  }

  /**
   * Ends runs still marked running as failed, with a note: the caller holds the sync lock, so no process is running
   * them (they were killed or crashed). Returns how many there were.
   */
  closeInterrupted(message = 'interrupted: the sync stopped before it could finish (killed, crashed, or the machine shut down)'): number {
    return this.#ctx.db.transaction((): number => {
      const runs = this.#running.all();
      const at = this.#ctx.now();
      for (const { id } of runs) {
        this.#addError.run(id, null, message, at);
        this.#finish.run('failed', at, 0, 0, 0, 0, 0, id);
      }
      return runs.length;
    })();
  }

  /** Newest first. */
  list(limit = 20): SyncRun[] {
    return this.#recent.all(Math.max(0, Math.floor(limit))).map((row) => this.#toRun(row));
  }

  /**
   * How syncs of a list went: the latest finished run covering it (a run over every list counts for the lists that
   * existed when it started), with its failed maps and first error, and when a run last read every map (ended ok).
   */
  stateOf(list: WatchlistRef): ListSyncState {
    const { id } = this.#lists.require(list);
    const last = this.#lastFinishedForList.get({ list: id });
    const ok = last?.outcome === 'ok' ? last : this.#lastOkForList.get({ list: id });
    return {
      last: last && {
        runId: last.id,
        finishedAt: last.finished_at,
        outcome: last.outcome,
        failedMaps: this.#failedMaps.get(last.id)?.failed ?? 0,
        firstError: this.#firstError.get(last.id)?.message ?? null,
      },
      lastOkAt: ok?.finished_at ?? null,
    };
  }

  /**
   * When a sync last read each map of a list: the end of the newest run that ended ok or partial, covered the map
   * (its list, or every list, after the map joined) and noted no error for it. A cancelled run is not counted: which
   * maps it reached is not logged. Maps no such run checked are left out.
   */
  mapsCheckedAt(list: WatchlistRef): Map<string, string> {
    const { id } = this.#lists.require(list);
    // Per map, the lists holding it and since when: a run of any of them checks the map too.
    const joined = new Map<string, Map<number, string>>();
    for (const row of this.#memberships.all(id)) {
      const lists = joined.get(row.map_id) ?? new Map<number, string>();
      lists.set(row.watchlist_id, row.added_at);
      joined.set(row.map_id, lists);
    }
    const checked = new Map<string, string>();
    if (joined.size === 0) return checked;
    // Newest first, stopping once every map has its answer: usually the newest run answers them all.
    for (const run of this.#readRuns.iterate()) {
      const everyList = run.watchlist_id === null && run.watchlist_name === null;
      if (!everyList && run.watchlist_id === null) continue;
      let failed: Set<string> | undefined;
      for (const [mapId, lists] of joined) {
        if (checked.has(mapId)) continue;
        const since = everyList ? [...lists.values()] : [lists.get(run.watchlist_id!)];
        if (!since.some((addedAt) => addedAt !== undefined && addedAt <= run.started_at)) continue;
        failed ??= new Set(this.#failedMapIds.all(run.id).map((e) => e.map_id));
        if (!failed.has(mapId)) checked.set(mapId, run.finished_at);
      }
      if (checked.size === joined.size) break;
    }
    return checked;
  }

  #toRun(row: RunRow): SyncRun {
    const errors: SyncRunError[] = this.#errors.all(row.id).map((e) => ({ mapId: e.map_id, message: e.message, at: e.at }));
    return {
      id: row.id,
      list: row.watchlist_name,
      startedAt: row.started_at,
      finishedAt: row.finished_at,
      outcome: row.outcome,
      counts: { maps: row.maps, requests: row.requests, records: row.records, newPbs: row.new_pbs, replays: row.replays },
      errors,
    };
  }
}

// The log of sync runs: when, over which list, how it ended, what it counted and which maps failed.
import type { RepoContext } from './context.ts';
import { invalidInput, notFound } from './errors.ts';
import type { SyncCounts, SyncOutcome, SyncRun, SyncRunError, SyncRunState } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';
import { describe } from './ids.ts';

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
    // A run over every list (no list, no remembered name) covers each list too.
    this.#lastFinishedForList = db.prepare<[number], { id: number; finished_at: string; outcome: SyncOutcome }>(
      `SELECT id, finished_at, outcome FROM (
         SELECT id, finished_at, outcome FROM sync_runs WHERE watchlist_id = ? AND outcome <> 'running'
         UNION ALL
         SELECT id, finished_at, outcome FROM sync_runs
         WHERE watchlist_id IS NULL AND watchlist_name IS NULL AND outcome <> 'running'
       ) ORDER BY id DESC LIMIT 1`,
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

  /** @internal for watchlist summaries */
  lastFinishedFor(watchlistId: number): { finishedAt: string; outcome: SyncOutcome } | undefined {
    const row = this.#lastFinishedForList.get(watchlistId);
    return row && { finishedAt: row.finished_at, outcome: row.outcome };
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

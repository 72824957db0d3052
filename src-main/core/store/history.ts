// The PB history: the record versions a sync wrote with a `change` (first sightings and changes), read back by map,
// player, list, scope and the time the record was set.
import type { Statement } from 'better-sqlite3';
import type { RepoContext } from './context.ts';
import { moment, scope as checkScope } from './ids.ts';
import type { MapsRepo } from './maps.ts';
import type { PlayersRepo } from './players.ts';
import { FROM_MAPS_THEN_RECORDS, FROM_RECORDS, IN_LIST } from './record-sql.ts';
import type { HistoryFilter, HistoryKind, HistoryRow } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

interface HistoryDbRow {
  id: number;
  change: HistoryKind;
  map_id: string;
  map_uid: string;
  account_id: string;
  scope: string;
  map_record_id: string;
  old_time: number | null;
  time: number | null;
  old_score: number | null;
  score: number;
  hidden: number;
  medal: number;
  timestamp: string;
  seen_at: string;
  sync_run_id: number | null;
}

const HISTORY_COLUMNS = `r.id, r.change, m.map_id, m.map_uid, p.account_id, r.scope, r.map_record_id, r.old_time,
  r.time, r.old_score, r.score, r.hidden, r.medal, r.timestamp, r.seen_at, r.sync_run_id`;

export type HistoryFilterKey = 'map' | 'player' | 'list' | 'scope' | 'since' | 'until' | 'limit' | 'oldestFirst';

/**
 * The year a record was set ('YYYY' of its UTC timestamp): the key of the history's time index, records_by_year
 * (migration 0004). A query uses the index only when it spells the expression exactly so.
 */
const SET_YEAR = 'substr(r.timestamp, 1, 4)';
const FROM_RECORDS_BY_YEAR = `FROM records r INDEXED BY records_by_year JOIN maps m ON m.id = r.map_ref
  JOIN players p ON p.id = r.player_ref`;

/** The history query for a set of filters (named parameters of the same names). */
export function historyQuery(filters: ReadonlySet<HistoryFilterKey>): string {
  const byPlayerOnly = filters.has('player') && !filters.has('map');
  // With no map, player or list to seek on, the time index leads: years in order, then the time within a year.
  const byTime = !filters.has('map') && !filters.has('player') && !filters.has('list');
  const where = ['r.change IS NOT NULL'];
  if (filters.has('map')) where.push('r.map_ref = @map');
  if (filters.has('player')) where.push('r.player_ref = @player');
  if (filters.has('list')) where.push(IN_LIST);
  if (filters.has('scope')) where.push('r.scope = @scope');
  if (filters.has('since')) where.push('r.timestamp >= @since');
  if (filters.has('until')) where.push('r.timestamp < @until');
  // The same bounds on the year, so the index range holds only the years they can fall in.
  if (byTime && filters.has('since')) where.push(`${SET_YEAR} >= substr(@since, 1, 4)`);
  if (byTime && filters.has('until')) where.push(`${SET_YEAR} <= substr(@until, 1, 4)`);
  const direction = filters.has('oldestFirst') ? 'ASC' : 'DESC';
  const order = `${byTime ? `${SET_YEAR} ${direction}, ` : ''}r.timestamp ${direction}, r.id ${direction}`;
  // Pinned: with statistics from a database whose history sits in one year, the planner would rather read every
  // map's records and sort them all, which grows with the store; the index bounds it by the newest years.
  const from = byTime ? FROM_RECORDS_BY_YEAR : byPlayerOnly ? FROM_MAPS_THEN_RECORDS : FROM_RECORDS;
  const sql = `SELECT ${HISTORY_COLUMNS} ${from} WHERE ${where.join(' AND ')} ORDER BY ${order}`;
  return filters.has('limit') ? `${sql} LIMIT @limit` : sql;
}

/** Reads the history; each distinct query is prepared once. */
export class HistoryReader {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #maps: MapsRepo;
  readonly #players: PlayersRepo;
  readonly #queries = new Map<string, Statement<Record<string, string | number>, HistoryDbRow>>();

  constructor(ctx: RepoContext, lists: WatchlistsRepo, maps: MapsRepo, players: PlayersRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    this.#maps = maps;
    this.#players = players;
  }

  /**
   * History rows (first sightings and changes), newest record first unless `order: 'oldest'`, filtered by map (ID
   * or UID), player, list, scope and the record's own time (since inclusive, until exclusive).
   */
  read(filter: HistoryFilter = {}): HistoryRow[] {
    const keys = new Set<HistoryFilterKey>();
    const params: Record<string, string | number> = {};
    if (filter.map !== undefined) {
      const map = this.#maps.row(filter.map);
      if (!map) return [];
      keys.add('map');
      params.map = map.id;
    }
    if (filter.player !== undefined) {
      const player = this.#players.refOf(filter.player);
      if (!player) return [];
      keys.add('player');
      params.player = player;
    }
    if (filter.list !== undefined) {
      keys.add('list');
      params.list = this.#lists.require(filter.list).id;
    }
    if (filter.scope !== undefined) {
      keys.add('scope');
      params.scope = checkScope(filter.scope);
    }
    if (filter.since !== undefined) {
      keys.add('since');
      params.since = moment(filter.since, 'since');
    }
    if (filter.until !== undefined) {
      keys.add('until');
      params.until = moment(filter.until, 'until');
    }
    if (filter.limit !== undefined) {
      keys.add('limit');
      params.limit = Math.max(0, Math.floor(filter.limit));
    }
    if (filter.order === 'oldest') keys.add('oldestFirst');
    return this.#statement(historyQuery(keys)).all(params).map(toHistoryRow);
  }

  #statement(sql: string): Statement<Record<string, string | number>, HistoryDbRow> {
    let stmt = this.#queries.get(sql);
    if (!stmt) {
      stmt = this.#ctx.db.prepare<Record<string, string | number>, HistoryDbRow>(sql);
      this.#queries.set(sql, stmt);
    }
    return stmt;
  }
}

function toHistoryRow(row: HistoryDbRow): HistoryRow {
  return {
    id: row.id,
    kind: row.change,
    mapId: row.map_id,
    mapUid: row.map_uid,
    accountId: row.account_id,
    scope: row.scope,
    mapRecordId: row.map_record_id,
    oldTime: row.old_time,
    newTime: row.time,
    oldScore: row.old_score,
    newScore: row.score,
    hidden: row.hidden === 1,
    medal: row.medal,
    recordTimestamp: row.timestamp,
    seenAt: row.seen_at,
    syncRunId: row.sync_run_id,
  };
}

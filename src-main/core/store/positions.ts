// World positions of watched records: what the Live services answered for a record's score (world first, then the
// player's zones), and when. A record whose score changed since its position was asked is due again.
import { mapKind, worldScoreOf } from '../../shared/leaderboard.ts';
import type { RepoContext } from './context.ts';
import { invalidInput, notFound } from './errors.ts';
import { PERSONAL_BEST, describe, scope as checkScope, uuid } from './ids.ts';
import type { WatchlistRef } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

export type PositionState = 'ranked' | 'limitedByOwnRecord' | 'unavailable';

export interface ZoneRank {
  zoneId: string;
  zoneName: string;
  position: number;
}

export interface StoredPosition {
  mapId: string;
  mapUid: string;
  accountId: string;
  scope: string;
  /** The score asked about: the record's time in milliseconds, or its Stunt points. */
  score: number;
  /**
   * 'ranked': `position` and `zones` hold the answer. 'limitedByOwnRecord': the account Trackwatch logs in with holds
   * a worse record on the map, and the service gives no position better than it. 'unavailable': the service left the
   * map out (not on its leaderboards, or closed).
   */
  state: PositionState;
  /** World position; null unless ranked. */
  position: number | null;
  /** World first, then the zones the service gave (region, country...); empty unless ranked. */
  zones: ZoneRank[];
  /** The last ranked world position before this answer, if there was one. */
  previousPosition: number | null;
  /** When the service was asked: its positions can lag hours behind. */
  asOf: string;
}

/** A watched record whose position is due: never asked, or asked for another score. */
export interface DuePosition {
  mapId: string;
  mapUid: string;
  mapType: string;
  accountId: string;
  scope: string;
  /** The record's score on the world leaderboards (worldScoreOf). */
  score: number;
  /** The score last asked about, if any. */
  askedScore: number | null;
}

export interface PositionAnswer {
  mapId: string;
  accountId: string;
  scope?: string;
  score: number;
  state: PositionState;
  /** Required when ranked, world first. */
  zones?: readonly ZoneRank[];
  asOf: string;
}

/** A world position that changed with an answer: `before` null when the record had no ranked position yet. */
export interface PositionChange {
  mapId: string;
  accountId: string;
  before: number | null;
  after: number;
}

interface PositionRow {
  map_id: string;
  map_uid: string;
  account_id: string;
  scope: string;
  score: number;
  state: PositionState;
  position: number | null;
  zones: string | null;
  previous_position: number | null;
  as_of: string;
}

interface DueRow {
  map_id: string;
  map_uid: string;
  map_type: string;
  account_id: string;
  time: number | null;
  hidden: number;
  score: number;
  asked_score: number | null;
}

const POSITION_COLUMNS = `m.map_id, m.map_uid, p.account_id, pos.scope, pos.score, pos.state, pos.position, pos.zones,
  pos.previous_position, pos.as_of`;
const POSITION_FROM = 'positions pos JOIN maps m ON m.id = pos.map_ref JOIN players p ON p.id = pos.player_ref';

// Current records of a list's maps x players (or every list's), with the score last asked about. CROSS JOIN keeps
// the lists first: records are reached by their key, never scanned (without statistics SQLite would scan them).
const DUE_SELECT = `SELECT DISTINCT m.map_id, m.map_uid, m.map_type, p.account_id, r.time, r.hidden, r.score,
    pos.score AS asked_score
  FROM watchlist_maps wm
  CROSS JOIN watchlist_players wp ON wp.watchlist_id = wm.watchlist_id
  CROSS JOIN records r ON r.map_ref = wm.map_ref AND r.player_ref = wp.player_ref AND r.scope = @scope AND r.current = 1
  JOIN maps m ON m.id = r.map_ref
  JOIN players p ON p.id = r.player_ref
  LEFT JOIN positions pos ON pos.map_ref = r.map_ref AND pos.player_ref = r.player_ref AND pos.scope = r.scope`;

/** Hot queries (every sync asks them): exported for the query-plan test. */
export const DUE_ALL_SQL = `${DUE_SELECT} ORDER BY m.map_id, p.account_id`;
export const DUE_OF_LIST_SQL = `${DUE_SELECT} WHERE wm.watchlist_id = @list ORDER BY m.map_id, p.account_id`;

function toPosition(row: PositionRow): StoredPosition {
  return {
    mapId: row.map_id,
    mapUid: row.map_uid,
    accountId: row.account_id,
    scope: row.scope,
    score: row.score,
    state: row.state,
    position: row.position,
    zones: row.zones === null ? [] : (JSON.parse(row.zones) as ZoneRank[]),
    previousPosition: row.previous_position,
    asOf: row.as_of,
  };
}

function position(value: unknown, what: string): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1) throw invalidInput(`${what} must be a whole number of at least 1, got ${describe(value)}`);
  return value as number;
}

/** The zones as stored: world first, each a named zone with a position. */
function checkZones(zones: readonly ZoneRank[] | undefined): ZoneRank[] {
  if (!Array.isArray(zones) || zones.length === 0) throw invalidInput('a ranked position needs its zones, world first');
  return zones.map((z, i) => {
    if (typeof z?.zoneId !== 'string' || typeof z.zoneName !== 'string') throw invalidInput(`zone ${i + 1} needs an ID and a name`);
    return { zoneId: z.zoneId, zoneName: z.zoneName, position: position(z.position, `zone ${describe(z.zoneName)}'s position`) };
  });
}

const STATES: readonly PositionState[] = ['ranked', 'limitedByOwnRecord', 'unavailable'];

export class PositionsRepo {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #refs;
  readonly #old;
  readonly #upsert;
  readonly #one;
  readonly #ofMap;
  readonly #ofPlayer;
  readonly #ofList;
  readonly #dueAll;
  readonly #dueOfList;

  constructor(ctx: RepoContext, lists: WatchlistsRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    const { db } = ctx;
    this.#refs = db.prepare<[string, string], { map_ref: number | null; player_ref: number | null }>(
      'SELECT (SELECT id FROM maps WHERE map_id = ?) AS map_ref, (SELECT id FROM players WHERE account_id = ?) AS player_ref',
    );
    this.#old = db.prepare<[number, number, string], { state: PositionState; position: number | null; previous_position: number | null }>(
      'SELECT state, position, previous_position FROM positions WHERE map_ref = ? AND player_ref = ? AND scope = ?',
    );
    this.#upsert = db.prepare<[number, number, string, number, PositionState, number | null, string | null, number | null, string]>(
      `INSERT INTO positions (map_ref, player_ref, scope, score, state, position, zones, previous_position, as_of)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (map_ref, player_ref, scope) DO UPDATE SET score = excluded.score, state = excluded.state,
         position = excluded.position, zones = excluded.zones, previous_position = excluded.previous_position,
         as_of = excluded.as_of`,
    );
    this.#one = db.prepare<{ map: string; account: string; scope: string }, PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM ${POSITION_FROM} WHERE m.map_id = @map AND p.account_id = @account AND pos.scope = @scope`,
    );
    this.#ofMap = db.prepare<{ map: string; scope: string }, PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM ${POSITION_FROM} WHERE m.map_id = @map AND pos.scope = @scope ORDER BY pos.position, p.account_id`,
    );
    this.#ofPlayer = db.prepare<{ account: string; scope: string }, PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM ${POSITION_FROM} WHERE p.account_id = @account AND pos.scope = @scope ORDER BY m.map_id`,
    );
    this.#ofList = db.prepare<{ list: number; scope: string }, PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM watchlist_maps wm
       JOIN watchlist_players wp ON wp.watchlist_id = wm.watchlist_id
       JOIN positions pos ON pos.map_ref = wm.map_ref AND pos.player_ref = wp.player_ref AND pos.scope = @scope
       JOIN maps m ON m.id = pos.map_ref JOIN players p ON p.id = pos.player_ref
       WHERE wm.watchlist_id = @list ORDER BY wm.id, p.account_id`,
    );
    this.#dueAll = db.prepare<{ scope: string }, DueRow>(DUE_ALL_SQL);
    this.#dueOfList = db.prepare<{ list: number; scope: string }, DueRow>(DUE_OF_LIST_SQL);
  }

  /**
   * The watched records of a list (or of every list) whose position is due: never asked, or asked for a score the
   * record no longer has. Records with no score to ask about (hidden by a secret threshold) are never due.
   */
  due(list?: WatchlistRef, scope: string = PERSONAL_BEST): DuePosition[] {
    const s = checkScope(scope);
    const rows = list === undefined ? this.#dueAll.all({ scope: s }) : this.#dueOfList.all({ list: this.#lists.require(list).id, scope: s });
    const due: DuePosition[] = [];
    for (const row of rows) {
      const score = worldScoreOf(mapKind({ mapType: row.map_type }), { hidden: row.hidden === 1, time: row.time, score: row.score });
      if (score === null || score === row.asked_score) continue;
      due.push({ mapId: row.map_id, mapUid: row.map_uid, mapType: row.map_type, accountId: row.account_id, scope: s, score, askedScore: row.asked_score });
    }
    return due;
  }

  /**
   * Stores answers in one transaction. Returns the world positions that changed: a ranked answer whose position
   * differs from the last ranked one (or is the first).
   */
  save(answers: readonly PositionAnswer[]): PositionChange[] {
    const checked = answers.map((a) => {
      const mapId = uuid(a?.mapId, 'mapId');
      const accountId = uuid(a.accountId, 'account ID');
      if (!STATES.includes(a.state)) throw invalidInput(`a position's state is one of ${STATES.join(', ')}, got ${describe(a.state)}`);
      if (!Number.isSafeInteger(a.score) || a.score < 0) throw invalidInput(`the score asked about must be a whole number of at least 0, got ${describe(a.score)}`);
      if (typeof a.asOf !== 'string' || Number.isNaN(Date.parse(a.asOf))) throw invalidInput(`asOf must be an ISO date, got ${describe(a.asOf)}`);
      const zones = a.state === 'ranked' ? checkZones(a.zones) : null;
      return { mapId, accountId, scope: checkScope(a.scope ?? PERSONAL_BEST), score: a.score, state: a.state, zones, asOf: new Date(Date.parse(a.asOf)).toISOString() };
    });
    return this.#ctx.db.transaction((): PositionChange[] => {
      const changes: PositionChange[] = [];
      for (const a of checked) {
        const refs = this.#refs.get(a.mapId, a.accountId)!;
        if (refs.map_ref === null) throw notFound(`map ${a.mapId} is not stored`);
        if (refs.player_ref === null) throw notFound(`player ${a.accountId} is not stored`);
        const old = this.#old.get(refs.map_ref, refs.player_ref, a.scope);
        // The last ranked position before this answer, whatever came between (an unavailable answer keeps it).
        const lastRanked = old ? (old.position ?? old.previous_position) : null;
        const world = a.zones?.[0]?.position ?? null;
        this.#upsert.run(refs.map_ref, refs.player_ref, a.scope, a.score, a.state, world, a.zones ? JSON.stringify(a.zones) : null, lastRanked, a.asOf);
        if (world !== null && world !== lastRanked) changes.push({ mapId: a.mapId, accountId: a.accountId, before: lastRanked, after: world });
      }
      return changes;
    })();
  }

  get(mapId: string, accountId: string, scope: string = PERSONAL_BEST): StoredPosition | undefined {
    if (typeof mapId !== 'string' || typeof accountId !== 'string') return undefined;
    const row = this.#one.get({ map: mapId.toLowerCase(), account: accountId.trim().toLowerCase(), scope: checkScope(scope) });
    return row && toPosition(row);
  }

  /** A map's stored positions, best first. */
  forMap(mapId: string, scope: string = PERSONAL_BEST): StoredPosition[] {
    return this.#ofMap.all({ map: uuid(mapId, 'mapId'), scope: checkScope(scope) }).map(toPosition);
  }

  forPlayer(accountId: string, scope: string = PERSONAL_BEST): StoredPosition[] {
    return this.#ofPlayer.all({ account: uuid(accountId.trim(), 'account ID'), scope: checkScope(scope) }).map(toPosition);
  }

  /** Positions of a list's maps x players, in the list's map order. */
  forList(list: WatchlistRef, scope: string = PERSONAL_BEST): StoredPosition[] {
    return this.#ofList.all({ list: this.#lists.require(list).id, scope: checkScope(scope) }).map(toPosition);
  }
}

// Records: every version of each map x player x scope record a sync has seen. The current one carries current = 1;
// versions with a `change` are the PB history (first sightings and changes), the rest are corrections. This file
// applies what a sync fetched and reads the current records; the history (history.ts) and the export's cursor
// (export-cursor.ts) read the same table.
import type { Statement } from 'better-sqlite3';
import type { PlayerRecord } from '../model.ts';
import { isImprovement, mapKind, type MapKind, type RecordResult } from '../../shared/leaderboard.ts';
import { bit, type RepoContext } from './context.ts';
import { invalidInput, notFound } from './errors.ts';
import { PERSONAL_BEST, describe, scope as checkScope, timestamp as normalizeTimestamp, uuid } from './ids.ts';
import { openExportConnection, openExportCursor, type ExportCursor } from './export-cursor.ts';
import { planExport, type ExportPlan } from './export-split.ts';
import { HistoryReader } from './history.ts';
import type { MapsRepo } from './maps.ts';
import { playerName, type PlayersRepo } from './players.ts';
import { FROM_MAPS_THEN_RECORDS, FROM_RECORDS, IN_LIST, NOT_ONLY_HOLDERS } from './record-sql.ts';
import type {
  ApplyRecordsInput,
  ApplyRecordsResult,
  HistoryFilter,
  HistoryKind,
  HistoryRow,
  MapRecords,
  StoredRecord,
  WatchlistRef,
} from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

/** The stored columns of a current record, as applyRecords compares them. */
interface CurrentRow {
  id: number;
  player_ref: number;
  map_record_id: string;
  time: number | null;
  hidden: number;
  score: number;
  respawn_count: number | null;
  medal: number;
  game_mode: string;
  game_mode_custom_data: string;
  removed: number;
  timestamp: string;
  url: string;
  filename: string;
}

interface RecordRow extends CurrentRow {
  account_id: string;
  map_id: string;
  map_uid: string;
  scope: string;
  display_name: string | null;
  nickname: string | null;
  seen_at: string;
  updated_at: string;
}

/**
 * A record checked and put in stored form (lower-case IDs, UTC timestamp, no booleans), shaped like a stored row
 * so that, once written, it stands in for the current row without another object.
 */
interface Incoming extends CurrentRow {
  source: PlayerRecord;
  account_id: string;
  hidden: 0 | 1;
  removed: 0 | 1;
}

const RECORD_COLUMNS = `r.id, r.player_ref, p.account_id, r.map_record_id, r.time, r.hidden, r.score, r.respawn_count,
  r.medal, r.game_mode, r.game_mode_custom_data, r.removed, r.timestamp, r.url, r.filename, m.map_id, m.map_uid,
  r.scope, p.display_name, p.nickname, r.seen_at, r.updated_at`;

/** The hot queries, by name: the repository runs exactly these, and the query-plan tests check they use indexes. */
export const RECORD_QUERIES = {
  // By player row ID: the players' refs are known from their cache, so no player row is read per record.
  currentOfMap: `SELECT r.id, r.player_ref, r.map_record_id, r.time, r.hidden, r.score, r.respawn_count,
      r.medal, r.game_mode, r.game_mode_custom_data, r.removed, r.timestamp, r.url, r.filename
    FROM records r WHERE r.map_ref = @map AND r.scope = @scope AND r.current = 1`,
  one: `SELECT ${RECORD_COLUMNS} ${FROM_RECORDS}
    WHERE r.map_ref = @map AND r.player_ref = @player AND r.scope = @scope AND r.current = 1`,
  // A map's records are watched players' (schema 10): a world-record holder's stays out (worldRecords has it).
  ofMap: `SELECT ${RECORD_COLUMNS} ${FROM_RECORDS} WHERE r.map_ref = @map AND r.current = 1 AND ${NOT_ONLY_HOLDERS}
    ORDER BY r.scope, r.player_ref`,
  ofMapScope: `SELECT ${RECORD_COLUMNS} ${FROM_RECORDS}
    WHERE r.map_ref = @map AND r.scope = @scope AND r.current = 1 AND ${NOT_ONLY_HOLDERS} ORDER BY r.player_ref`,
  ofPlayer: `SELECT ${RECORD_COLUMNS} ${FROM_MAPS_THEN_RECORDS}
    WHERE r.player_ref = @player AND r.current = 1 ORDER BY r.scope, m.id`,
  ofPlayerScope: `SELECT ${RECORD_COLUMNS} ${FROM_MAPS_THEN_RECORDS}
    WHERE r.player_ref = @player AND r.scope = @scope AND r.current = 1 ORDER BY m.id`,
  ofList: `SELECT ${RECORD_COLUMNS} ${FROM_RECORDS} WHERE ${IN_LIST} AND r.current = 1
    ORDER BY r.map_ref, r.player_ref, r.scope`,
  ofListScope: `SELECT ${RECORD_COLUMNS} ${FROM_RECORDS} WHERE ${IN_LIST} AND r.scope = @scope AND r.current = 1
    ORDER BY r.map_ref, r.player_ref, r.scope`,
} as const;

/**
 * First sightings per INSERT statement. Measured as the bench writes them (CPU time, 200,000 records, foreign keys
 * on, a commit per map, against the bare loop): 1 row per statement 0.89 x, 8-12 rows 0.97-1.0 x, 16 or 50 rows
 * 0.87-0.9 x; RETURNING id instead of the consecutive IDs 0.84 x.
 */
const FIRSTS_PER_INSERT = 10;
/** Parameters per first-sighting row, in insertFirstsSql's order. */
const FIRST_COLUMNS = 18;

/** An INSERT of `rows` first sightings; what a first sighting cannot vary is spelled out ('first', no old values). */
function insertFirstsSql(rows: number): string {
  const row = "(?, ?, ?, 1, 'first', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?)";
  return `INSERT INTO records (map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score,
      respawn_count, medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, old_time, old_score,
      seen_at, updated_at, sync_run_id)
    VALUES ${Array.from({ length: rows }, () => row).join(', ')}`;
}
type InsertParams = [
  number, number, string, HistoryKind | null, string, number | null, 0 | 1, number, number | null, number, string,
  string, 0 | 1, string, string, string, number | null, number | null, number | null, string, string, number,
];

export class RecordsRepo {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #maps: MapsRepo;
  readonly #players: PlayersRepo;
  readonly #reader: { file: string; immutable: boolean } | undefined;
  readonly #mapOf;
  readonly #currentOf;
  readonly #insert;
  readonly #insertFirsts: (rows: number) => Statement<unknown[]>;
  /** The multi-row first-sighting inserts by row count (1 to FIRSTS_PER_INSERT), prepared when first needed. */
  readonly #firstsBy: Statement<unknown[]>[] = [];
  readonly #retire;
  readonly #updateDetails;
  readonly #one;
  readonly #ofMap;
  readonly #ofMapScope;
  readonly #ofPlayer;
  readonly #ofPlayerScope;
  readonly #ofList;
  readonly #ofListScope;
  readonly #apply;
  readonly #history: HistoryReader;
  /** Account IDs as a sync hands them over → checked (lower case): the same players come map after map. */
  readonly #accounts = new Map<string, string>();

  constructor(ctx: RepoContext, lists: WatchlistsRepo, maps: MapsRepo, players: PlayersRepo, reader?: { file: string; immutable: boolean }) {
    this.#ctx = ctx;
    this.#lists = lists;
    this.#maps = maps;
    this.#players = players;
    this.#reader = reader;
    this.#history = new HistoryReader(ctx, lists, maps, players);
    const { db } = ctx;
    this.#mapOf = db.prepare<[string], { id: number; map_uid: string; map_type: string; has_clones: number }>(
      'SELECT id, map_uid, map_type, has_clones FROM maps WHERE map_id = ?',
    );
    this.#currentOf = db.prepare<{ map: number; scope: string }, CurrentRow>(RECORD_QUERIES.currentOfMap);
    this.#insert = db.prepare<InsertParams>(
      `INSERT INTO records (map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score,
         respawn_count, medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, old_time, old_score,
         old_respawn_count, seen_at, updated_at, sync_run_id)
       VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // First sightings (most rows of any sync that adds maps or players) go in FIRSTS_PER_INSERT rows per statement.
    this.#insertFirsts = (rows: number) => db.prepare<unknown[]>(insertFirstsSql(rows));
    this.#retire = db.prepare<[number]>('UPDATE records SET current = NULL WHERE id = ?');
    this.#updateDetails = db.prepare<[number | null, number, string, string, 0 | 1, string, string, string, string, number]>(
      `UPDATE records SET respawn_count = ?, medal = ?, game_mode = ?, game_mode_custom_data = ?, removed = ?,
         timestamp = ?, url = ?, filename = ?, updated_at = ?
       WHERE id = ?`,
    );
    this.#one = db.prepare<{ map: number; player: number; scope: string }, RecordRow>(RECORD_QUERIES.one);
    this.#ofMap = db.prepare<{ map: number }, RecordRow>(RECORD_QUERIES.ofMap);
    this.#ofMapScope = db.prepare<{ map: number; scope: string }, RecordRow>(RECORD_QUERIES.ofMapScope);
    this.#ofPlayer = db.prepare<{ player: number }, RecordRow>(RECORD_QUERIES.ofPlayer);
    this.#ofPlayerScope = db.prepare<{ player: number; scope: string }, RecordRow>(RECORD_QUERIES.ofPlayerScope);
    this.#ofList = db.prepare<{ list: number }, RecordRow>(RECORD_QUERIES.ofList);
    this.#ofListScope = db.prepare<{ list: number; scope: string }, RecordRow>(RECORD_QUERIES.ofListScope);
    // IMMEDIATE: it reads then writes, and another process (the CLI next to the app) may be writing too.
    const apply = db.transaction((input: CheckedInput) => this.#write(input));
    this.#apply = (input: CheckedInput): ApplyRecordsResult => {
      try {
        return apply.immediate(input);
      } catch (error) {
        players.forgetCachedRefs(); // rows it read may have been created by what just rolled back
        throw error;
      }
    };
  }

  /**
   * Writes one map's records for one scope, as a sync fetched them, in ONE transaction. Each is compared with the
   * stored record of the same player: a first sighting, a better time (or Stunt score), a record that is no longer
   * hidden, or a different record ID becomes a new version with a history row, and comes back in `newRecords`.
   * Idempotent: the same records applied again write nothing. The map's info must be stored first (maps.upsert).
   */
  applyRecords(input: ApplyRecordsInput): ApplyRecordsResult {
    const mapId = uuid(input.mapId, 'mapId');
    const scope = checkScope(input.scope);
    if (!Number.isInteger(input.syncRunId)) throw invalidInput(`syncRunId must be a sync run's ID, got ${describe(input.syncRunId)}`);
    if (typeof input.seenAt !== 'string') throw invalidInput('seenAt must be an ISO date');
    const incoming = input.records.map((r) => checkRecord(r, mapId, scope, this.#accounts));
    const beside = (input.beside ?? []).map((a) => uuid(a, 'an account read beside the watched players'));
    return this.#apply({ mapId, scope, seenAt: normalizeTimestamp(input.seenAt), syncRunId: input.syncRunId, incoming, beside });
  }

  #write({ mapId, scope, seenAt, syncRunId, incoming, beside }: CheckedInput): ApplyRecordsResult {
    const map = this.#mapOf.get(mapId);
    if (!map) throw notFound(`map ${mapId} is not stored; store its info (maps.upsert) before its records`);
    const kind = mapKind({ mapType: map.map_type, hasClones: map.has_clones === 1 });
    const refs = this.#players.refsFor(incoming.map((rec) => rec.account_id));
    // Asked after refsFor (the rows exist) and before the writes (a record of this very call is not one "before").
    const notHistory = this.#players.onlyHolders(beside);
    const current = new Map<number, CurrentRow>();
    for (const row of this.#currentOf.all({ map: map.id, scope })) current.set(row.player_ref, row);

    const newRecords: PlayerRecord[] = [];
    const improvements: HistoryRow[] = [];
    const firsts: Incoming[] = []; // first sightings not yet written: they go in several rows per statement
    const writeFirsts = (): void => {
      this.#writeFirsts(firsts, map.id, scope, seenAt, syncRunId);
      for (const rec of firsts) improvements.push(this.#historyRow(rec, 'first', mapId, map.map_uid, scope, NO_OLD_VALUES, seenAt, syncRunId));
      firsts.length = 0;
    };
    for (let i = 0; i < incoming.length; i += 1) {
      const rec = incoming[i]!;
      rec.player_ref = refs[i]!;
      const cur = current.get(rec.player_ref);
      const history = notHistory.size === 0 || !notHistory.has(rec.account_id);
      if (!cur && history) {
        firsts.push(rec);
        newRecords.push(rec.source);
        // A player listed twice in one batch is compared with what we are writing.
        current.set(rec.player_ref, rec);
        continue;
      }
      // Every other write goes after the first sightings before it, so row IDs keep the incoming order.
      if (firsts.length !== 0) writeFirsts();
      const change = classify(cur, rec, kind);
      if (cur && change === null && sameResult(cur, rec)) {
        // The same record: only its details (medal, URL...) may have moved.
        if (differs(cur, rec)) {
          this.#updateDetails.run(rec.respawn_count, rec.medal, rec.game_mode, rec.game_mode_custom_data, rec.removed,
            rec.timestamp, rec.url, rec.filename, seenAt, cur.id);
        }
        rec.id = cur.id;
      } else {
        if (cur) this.#retire.run(cur.id);
        const old: OldValues = cur ? { time: cur.time, score: cur.score, respawnCount: cur.respawn_count } : NO_OLD_VALUES;
        rec.id = Number(this.#insert.run(
          map.id, rec.player_ref, scope, history ? change : null, rec.map_record_id, rec.time, rec.hidden, rec.score, rec.respawn_count,
          rec.medal, rec.game_mode, rec.game_mode_custom_data, rec.removed, rec.timestamp, rec.url, rec.filename,
          old.time, old.score, old.respawnCount, seenAt, seenAt, syncRunId,
        ).lastInsertRowid);
        if (change !== null) {
          newRecords.push(rec.source);
          if (history) improvements.push(this.#historyRow(rec, change, mapId, map.map_uid, scope, old, seenAt, syncRunId));
        }
      }
      // A player listed twice in one batch is compared with what we just wrote.
      current.set(rec.player_ref, rec);
    }
    if (firsts.length !== 0) writeFirsts();
    return { newRecords, improvements };
  }

  /**
   * Inserts first sightings, FIRSTS_PER_INSERT rows per statement, and sets each one's row ID: a multi-row INSERT
   * gives its rows consecutive IDs ending at the last one (docs/sqlite-facts.md).
   */
  #writeFirsts(firsts: readonly Incoming[], mapRef: number, scope: string, seenAt: string, syncRunId: number): void {
    for (let from = 0; from < firsts.length; from += FIRSTS_PER_INSERT) {
      const rows = Math.min(FIRSTS_PER_INSERT, firsts.length - from);
      const params = new Array<unknown>(rows * FIRST_COLUMNS);
      let k = 0;
      for (let i = from; i < from + rows; i += 1) {
        const rec = firsts[i]!;
        params[k++] = mapRef;
        params[k++] = rec.player_ref;
        params[k++] = scope;
        params[k++] = rec.map_record_id;
        params[k++] = rec.time;
        params[k++] = rec.hidden;
        params[k++] = rec.score;
        params[k++] = rec.respawn_count;
        params[k++] = rec.medal;
        params[k++] = rec.game_mode;
        params[k++] = rec.game_mode_custom_data;
        params[k++] = rec.removed;
        params[k++] = rec.timestamp;
        params[k++] = rec.url;
        params[k++] = rec.filename;
        params[k++] = seenAt;
        params[k++] = seenAt;
        params[k++] = syncRunId;
      }
      const statement = (this.#firstsBy[rows] ??= this.#insertFirsts(rows));
      const { changes, lastInsertRowid } = statement.run(params);
      if (changes !== rows) throw new Error(`inserted ${changes} first sightings of ${rows}`);
      const first = Number(lastInsertRowid) - rows + 1;
      for (let i = 0; i < rows; i += 1) firsts[from + i]!.id = first + i;
    }
  }

  #historyRow(rec: Incoming, kind: HistoryKind, mapId: string, mapUid: string, scope: string, old: OldValues, seenAt: string,
    syncRunId: number): HistoryRow {
    return {
      id: rec.id, kind, mapId, mapUid, accountId: rec.account_id, scope, mapRecordId: rec.map_record_id, oldTime: old.time,
      newTime: rec.time, oldScore: old.score, newScore: rec.score, oldRespawnCount: old.respawnCount,
      newRespawnCount: rec.respawn_count, hidden: rec.hidden === 1, medal: rec.medal, recordTimestamp: rec.timestamp, seenAt,
      syncRunId,
    };
  }

  /** One player's current record on a map (ID or UID) in a scope. */
  get(map: string, accountId: string, scope: string = PERSONAL_BEST): StoredRecord | undefined {
    const mapRow = this.#maps.row(map);
    const player = this.#players.refOf(accountId);
    if (!mapRow || !player) return undefined;
    const found = this.#one.get({ map: mapRow.id, player, scope: checkScope(scope) });
    return found && toStoredRecord(found);
  }

  /** Every current record of a watched player, in a list now or before, on a map (ID or UID), optionally of one scope. */
  forMap(map: string, options: { scope?: string } = {}): StoredRecord[] {
    const row = this.#maps.row(map);
    if (!row) return [];
    const rows = options.scope === undefined
      ? this.#ofMap.all({ map: row.id })
      : this.#ofMapScope.all({ map: row.id, scope: checkScope(options.scope) });
    return rows.map(toStoredRecord);
  }

  /** Every current record of an account, optionally of one scope. */
  forPlayer(accountId: string, options: { scope?: string } = {}): StoredRecord[] {
    const player = this.#players.refOf(accountId);
    if (!player) return [];
    const rows = options.scope === undefined
      ? this.#ofPlayer.all({ player })
      : this.#ofPlayerScope.all({ player, scope: checkScope(options.scope) });
    return rows.map(toStoredRecord);
  }

  /** The current records of a list's players on the list's maps. */
  forList(list: WatchlistRef, options: { scope?: string } = {}): StoredRecord[] {
    const { id } = this.#lists.require(list);
    const rows = options.scope === undefined
      ? this.#ofList.all({ list: id })
      : this.#ofListScope.all({ list: id, scope: checkScope(options.scope) });
    return rows.map(toStoredRecord);
  }

  /**
   * The list's maps (in list order), each with the current records of the list's players on it: the rows a
   * leaderboard is made of, unranked (shared/leaderboard.ts ranks them).
   */
  leaderboards(list: WatchlistRef, options: { scope?: string | undefined } = {}): MapRecords[] {
    const { id } = this.#lists.require(list);
    const scope = checkScope(options.scope ?? PERSONAL_BEST);
    const byMap = new Map<string, StoredRecord[]>();
    for (const row of this.#ofListScope.all({ list: id, scope })) {
      let records = byMap.get(row.map_id);
      if (!records) byMap.set(row.map_id, (records = []));
      records.push(toStoredRecord(row));
    }
    return this.#maps.list(id).map((map) => ({ map, records: byMap.get(map.mapId) ?? [] }));
  }

  /**
   * History rows (first sightings and changes), newest record first unless `order: 'oldest'`, filtered by map (ID
   * or UID), player, list, scope and the record's own time (since inclusive, until exclusive).
   */
  history(filter: HistoryFilter = {}): HistoryRow[] {
    return this.#history.read(filter);
  }

  /**
   * Every current record (of a list, or all) as tuples, plus the map and player lookups they refer to, all from one
   * snapshot; streamed. On a file database it reads through its own read-only connection, so the store stays usable
   * (and a sync can write) while it runs. The caller must close() it.
   */
  openExport(options: { list?: WatchlistRef | undefined } = {}): ExportCursor {
    const listId = options.list === undefined ? undefined : this.#lists.require(options.list).id;
    return openExportCursor(this.#ctx.db, this.#reader && openExportConnection(this.#reader), listId);
  }

  /**
   * The same export as openExport's, planned for readers in other threads (store/export-split.ts): each opens its own
   * connection from the plan's source. Null for an in-memory database, which no other connection can open.
   */
  planExport(options: { list?: WatchlistRef | undefined } = {}): ExportPlan | null {
    const listId = options.list === undefined ? undefined : this.#lists.require(options.list).id;
    return this.#reader ? planExport({ ...this.#reader, listId }) : null;
  }
}

/** What a new version replaced, kept on it for the history. */
interface OldValues {
  time: number | null;
  score: number | null;
  respawnCount: number | null;
}
const NO_OLD_VALUES: OldValues = { time: null, score: null, respawnCount: null };

interface CheckedInput {
  mapId: string;
  scope: string;
  seenAt: string;
  syncRunId: number;
  incoming: Incoming[];
  beside: string[];
}

/** Why this incoming record is history, or null when it is not. */
function classify(cur: CurrentRow | undefined, rec: Incoming, kind: MapKind): HistoryKind | null {
  if (!cur) return 'first';
  if (isImprovement(kind, resultOf(cur), resultOf(rec))) return 'improved';
  if (cur.hidden === 1 && rec.hidden === 0) return 'unhidden';
  if (rec.map_record_id !== cur.map_record_id) return 'changed';
  return null;
}

/** A stored row as the leaderboard's rules read it. */
function resultOf(row: CurrentRow): RecordResult & { mapRecordId: string } {
  return { hidden: row.hidden === 1, time: row.time, score: row.score, respawnCount: row.respawn_count, mapRecordId: row.map_record_id };
}

/** Same record and same result: nothing a history or a leaderboard would show changed. */
function sameResult(cur: CurrentRow, rec: Incoming): boolean {
  return cur.map_record_id === rec.map_record_id && cur.time === rec.time && cur.hidden === rec.hidden && cur.score === rec.score;
}

function differs(cur: CurrentRow, rec: Incoming): boolean {
  return (
    cur.respawn_count !== rec.respawn_count || cur.medal !== rec.medal || cur.game_mode !== rec.game_mode ||
    cur.game_mode_custom_data !== rec.game_mode_custom_data || cur.removed !== rec.removed ||
    cur.timestamp !== rec.timestamp || cur.url !== rec.url || cur.filename !== rec.filename
  );
}

/** `accounts` remembers the account IDs already checked (as given → lower case), so a known one costs a lookup. */
function checkRecord(r: PlayerRecord, mapId: string, scope: string, accounts: Map<string, string>): Incoming {
  if (r === null || typeof r !== 'object') throw invalidInput('a record must be an object');
  let accountId = accounts.get(r.accountId);
  if (accountId === undefined) {
    accountId = uuid(r.accountId, 'record accountId');
    remember(accounts, r.accountId, accountId);
  }
  const mapRecordId = uuid(r.mapRecordId, 'mapRecordId');
  // Equal to the checked map ID, so a UUID too.
  if (typeof r.mapId !== 'string' || (r.mapId !== mapId && r.mapId.toLowerCase() !== mapId)) {
    throw invalidInput(`record ${mapRecordId} is on map ${describe(r.mapId)}, not on ${mapId}`);
  }
  const recordScope = r.scopeId === null || r.scopeId === undefined ? PERSONAL_BEST : r.scopeId.toLowerCase();
  if (recordScope !== scope) throw invalidInput(`record ${mapRecordId} is in scope ${recordScope}, not in ${scope}`);
  const hidden = r.hidden || r.time === null;
  return {
    source: r,
    id: 0, // set once written
    player_ref: 0, // set once the player's row is known
    account_id: accountId,
    map_record_id: mapRecordId,
    time: hidden ? null : r.time,
    hidden: bit(hidden),
    score: r.score,
    respawn_count: r.respawnCount,
    medal: r.medal,
    game_mode: r.gameMode,
    game_mode_custom_data: r.gameModeCustomData ?? '',
    removed: bit(r.removed === true),
    timestamp: normalizeTimestamp(r.timestamp),
    url: r.url,
    filename: r.filename,
  };
}

function remember(cache: Map<string, string>, key: string, value: string): void {
  if (cache.size >= 100_000) cache.clear();
  cache.set(key, value);
}

function toStoredRecord(row: RecordRow): StoredRecord {
  const personalBest = row.scope === PERSONAL_BEST;
  return {
    mapRecordId: row.map_record_id,
    mapId: row.map_id,
    accountId: row.account_id,
    gameMode: row.game_mode,
    gameModeCustomData: row.game_mode_custom_data,
    scopeType: personalBest ? PERSONAL_BEST : 'Season',
    scopeId: personalBest ? null : row.scope,
    time: row.time,
    hidden: row.hidden === 1,
    score: row.score,
    respawnCount: row.respawn_count,
    medal: row.medal,
    removed: row.removed === 1,
    timestamp: row.timestamp,
    url: row.url,
    filename: row.filename,
    scope: row.scope,
    mapUid: row.map_uid,
    playerName: playerName(row.account_id, row.display_name, row.nickname),
    firstSeenAt: row.seen_at,
    updatedAt: row.updated_at,
  };
}

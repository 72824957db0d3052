// Maps: the service's info objects, and which lists hold them (by ID or UID, resolved once a sync looks them up).
import type { MapInfo } from '../model.ts';
import { bit, type RepoContext } from './context.ts';
import { invalidInput } from './errors.ts';
import { isMapUid, isUuid } from '../../shared/ids.ts';
import { describe, moment, uuid } from './ids.ts';
import type { AddMapsResult, ListedMapRef, MapRefInput, StoredMap, WatchlistRef } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

export interface MapRow {
  id: number;
  map_id: string;
  map_uid: string;
  name: string;
  author: string;
  submitter: string;
  author_score: number;
  gold_score: number;
  silver_score: number;
  bronze_score: number;
  map_type: string;
  map_style: string;
  collection_name: string;
  filename: string;
  has_clones: number;
  is_playable: number;
  created_with_gamepad_editor: number;
  created_with_simple_editor: number;
  timestamp: string;
  file_url: string;
  thumbnail_url: string;
  fetched_at: string;
}

export const MAP_COLUMNS = `m.id, m.map_id, m.map_uid, m.name, m.author, m.submitter, m.author_score, m.gold_score,
  m.silver_score, m.bronze_score, m.map_type, m.map_style, m.collection_name, m.filename, m.has_clones, m.is_playable,
  m.created_with_gamepad_editor, m.created_with_simple_editor, m.timestamp, m.file_url, m.thumbnail_url, m.fetched_at`;

export function toStoredMap(row: MapRow): StoredMap {
  return {
    mapId: row.map_id,
    mapUid: row.map_uid,
    name: row.name,
    author: row.author,
    submitter: row.submitter,
    authorScore: row.author_score,
    goldScore: row.gold_score,
    silverScore: row.silver_score,
    bronzeScore: row.bronze_score,
    mapType: row.map_type,
    mapStyle: row.map_style,
    collectionName: row.collection_name,
    filename: row.filename,
    hasClones: row.has_clones === 1,
    isPlayable: row.is_playable === 1,
    createdWithGamepadEditor: row.created_with_gamepad_editor === 1,
    createdWithSimpleEditor: row.created_with_simple_editor === 1,
    timestamp: row.timestamp,
    fileUrl: row.file_url,
    thumbnailUrl: row.thumbnail_url,
    fetchedAt: row.fetched_at,
  };
}

/** A list's resolved maps in the order added (a hot query: every list view and sync starts here). */
export const LIST_MAPS_SQL = `SELECT ${MAP_COLUMNS} FROM watchlist_maps wm JOIN maps m ON m.id = wm.map_ref
  WHERE wm.watchlist_id = @list ORDER BY wm.id`;

type Upsert = [
  string, string, string, string, string, number, number, number, number, string, string, string, string,
  number, number, number, number, string, string, string, string,
];

export class MapsRepo {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #byId;
  readonly #byUid;
  readonly #upsert;
  readonly #resolveUid;
  readonly #resolveId;
  readonly #dropResolvedDuplicates;
  readonly #addResolved;
  readonly #addPending;
  readonly #removeResolved;
  readonly #removePendingId;
  readonly #removePendingUid;
  readonly #markNotFound;
  readonly #unresolvedUidsAll;
  readonly #unresolvedUidsOfList;
  readonly #listAll;
  readonly #listOf;
  readonly #refsOf;
  readonly #staleAll;
  readonly #staleOfList;

  constructor(ctx: RepoContext, lists: WatchlistsRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    const { db } = ctx;
    this.#byId = db.prepare<[string], MapRow>(`SELECT ${MAP_COLUMNS} FROM maps m WHERE m.map_id = ?`);
    this.#byUid = db.prepare<[string], MapRow>(`SELECT ${MAP_COLUMNS} FROM maps m WHERE m.map_uid = ?`);
    this.#upsert = db.prepare<Upsert, { id: number }>(
      `INSERT INTO maps (map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score, bronze_score,
         map_type, map_style, collection_name, filename, has_clones, is_playable, created_with_gamepad_editor,
         created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (map_id) DO UPDATE SET map_uid = excluded.map_uid, name = excluded.name, author = excluded.author,
         submitter = excluded.submitter, author_score = excluded.author_score, gold_score = excluded.gold_score,
         silver_score = excluded.silver_score, bronze_score = excluded.bronze_score, map_type = excluded.map_type,
         map_style = excluded.map_style, collection_name = excluded.collection_name, filename = excluded.filename,
         has_clones = excluded.has_clones, is_playable = excluded.is_playable,
         created_with_gamepad_editor = excluded.created_with_gamepad_editor,
         created_with_simple_editor = excluded.created_with_simple_editor, timestamp = excluded.timestamp,
         file_url = excluded.file_url, thumbnail_url = excluded.thumbnail_url, fetched_at = excluded.fetched_at
       RETURNING id`,
    );
    // OR IGNORE: a list that already holds the map keeps its row; the pending duplicate goes just below.
    this.#resolveUid = db.prepare<[number, string]>(
      `UPDATE OR IGNORE watchlist_maps SET map_ref = ?, pending_id = NULL, pending_uid = NULL, not_found_at = NULL
       WHERE pending_uid = ?`,
    );
    this.#resolveId = db.prepare<[number, string]>(
      `UPDATE OR IGNORE watchlist_maps SET map_ref = ?, pending_id = NULL, pending_uid = NULL, not_found_at = NULL
       WHERE pending_id = ?`,
    );
    this.#dropResolvedDuplicates = db.prepare<[string, string]>(
      'DELETE FROM watchlist_maps WHERE pending_uid = ? OR pending_id = ?',
    );
    this.#addResolved = db.prepare<[number, number, string]>(
      'INSERT OR IGNORE INTO watchlist_maps (watchlist_id, map_ref, added_at) VALUES (?, ?, ?)',
    );
    this.#addPending = db.prepare<[number, string | null, string | null, string]>(
      'INSERT OR IGNORE INTO watchlist_maps (watchlist_id, pending_id, pending_uid, added_at) VALUES (?, ?, ?, ?)',
    );
    this.#removeResolved = db.prepare<[number, number]>('DELETE FROM watchlist_maps WHERE watchlist_id = ? AND map_ref = ?');
    this.#removePendingId = db.prepare<[number, string]>(
      'DELETE FROM watchlist_maps WHERE watchlist_id = ? AND pending_id = ?',
    );
    this.#removePendingUid = db.prepare<[number, string]>(
      'DELETE FROM watchlist_maps WHERE watchlist_id = ? AND pending_uid = ?',
    );
    this.#markNotFound = db.prepare<[string, string, string]>(
      'UPDATE watchlist_maps SET not_found_at = ? WHERE pending_uid = ? OR pending_id = ?',
    );
    this.#unresolvedUidsAll = db.prepare<[], { uid: string }>(
      'SELECT DISTINCT pending_uid AS uid FROM watchlist_maps WHERE pending_uid IS NOT NULL ORDER BY pending_uid',
    );
    this.#unresolvedUidsOfList = db.prepare<[number], { uid: string }>(
      `SELECT pending_uid AS uid FROM watchlist_maps WHERE watchlist_id = ? AND pending_uid IS NOT NULL
       ORDER BY pending_uid`,
    );
    this.#listAll = db.prepare<[], MapRow>(`SELECT ${MAP_COLUMNS} FROM maps m ORDER BY m.id`);
    this.#listOf = db.prepare<{ list: number }, MapRow>(LIST_MAPS_SQL);
    this.#refsOf = db.prepare<
      [number],
      { map_id: string | null; map_uid: string | null; resolved: number; added_at: string; not_found_at: string | null }
    >(
      `SELECT coalesce(m.map_id, wm.pending_id) AS map_id, coalesce(m.map_uid, wm.pending_uid) AS map_uid,
         wm.map_ref IS NOT NULL AS resolved, wm.added_at, wm.not_found_at
       FROM watchlist_maps wm LEFT JOIN maps m ON m.id = wm.map_ref
       WHERE wm.watchlist_id = ? ORDER BY wm.id`,
    );
    // Never fetched (a pending ID) counts as stale; pending UIDs are unresolvedUids' business.
    this.#staleAll = db.prepare<[string], { map_id: string }>(
      `SELECT m.map_id FROM maps m
       WHERE m.fetched_at < ? AND EXISTS (SELECT 1 FROM watchlist_maps wm WHERE wm.map_ref = m.id)
       UNION
       SELECT pending_id FROM watchlist_maps WHERE pending_id IS NOT NULL`,
    );
    this.#staleOfList = db.prepare<{ list: number; before: string }, { map_id: string }>(
      `SELECT m.map_id FROM watchlist_maps wm JOIN maps m ON m.id = wm.map_ref
       WHERE wm.watchlist_id = @list AND m.fetched_at < @before
       UNION
       SELECT pending_id FROM watchlist_maps WHERE watchlist_id = @list AND pending_id IS NOT NULL`,
    );
  }

  /**
   * Adds maps to a list by ID and/or UID. A map whose info is already stored joins at once; the others wait as
   * pending refs until a sync looks them up (see unresolvedUids and staleIds). Bad refs are reported, not thrown.
   */
  addRefs(list: WatchlistRef, refs: readonly MapRefInput[], addedAt: string = this.#ctx.now()): AddMapsResult {
    const result: AddMapsResult = { added: [], alreadyListed: [], invalid: [] };
    this.#ctx.db.transaction(() => {
      const { id: listId } = this.#lists.require(list);
      for (const ref of refs) {
        const checked = checkRef(ref);
        if ('reason' in checked) {
          result.invalid.push({ ref, reason: checked.reason });
          continue;
        }
        const { mapId, mapUid } = checked;
        const label = mapUid ?? mapId!;
        const known = (mapId && this.#byId.get(mapId)) || (mapUid && this.#byUid.get(mapUid)) || undefined;
        const info = known
          ? this.#addResolved.run(listId, known.id, addedAt)
          : this.#addPending.run(listId, mapId, mapUid, addedAt);
        (info.changes > 0 ? result.added : result.alreadyListed).push(label);
      }
    })();
    return result;
  }

  /** UIDs added to a list (or to any list) whose map info no sync has fetched yet. */
  unresolvedUids(list?: WatchlistRef): string[] {
    const rows = list === undefined ? this.#unresolvedUidsAll.all() : this.#unresolvedUidsOfList.all(this.#lists.require(list).id);
    return rows.map((r) => r.uid);
  }

  /** Notes that the service did not know these UIDs or IDs; they stay pending, and the lists can say so. */
  markNotFound(refs: readonly string[], checkedAt: string = this.#ctx.now()): void {
    this.#ctx.db.transaction(() => {
      for (const ref of refs) this.#markNotFound.run(checkedAt, ref, ref.toLowerCase());
    })();
  }

  /** Stores (or refreshes) map info, and resolves every pending ref to these maps in every list. */
  upsert(maps: readonly MapInfo[], fetchedAt: string = this.#ctx.now()): void {
    this.#ctx.db.transaction(() => {
      for (const map of maps) {
        const mapId = uuid(map.mapId, 'mapId');
        if (typeof map.mapUid !== 'string' || map.mapUid === '') throw invalidInput(`map ${mapId} has no UID`);
        const { id } = this.#upsert.get(
          mapId, map.mapUid, map.name, map.author, map.submitter, map.authorScore, map.goldScore, map.silverScore,
          map.bronzeScore, map.mapType, map.mapStyle, map.collectionName, map.filename, bit(map.hasClones),
          bit(map.isPlayable), bit(map.createdWithGamepadEditor), bit(map.createdWithSimpleEditor), map.timestamp,
          map.fileUrl, map.thumbnailUrl, fetchedAt,
        )!;
        this.#resolveUid.run(id, map.mapUid);
        this.#resolveId.run(id, mapId);
        this.#dropResolvedDuplicates.run(map.mapUid, mapId);
      }
    })();
  }

  /** Takes maps out of a list (resolved or pending); returns how many memberships went. Nothing else is deleted. */
  removeFromList(list: WatchlistRef, refs: MapRefInput | readonly MapRefInput[]): number {
    const all: readonly MapRefInput[] = Array.isArray(refs) ? refs : [refs as MapRefInput];
    return this.#ctx.db.transaction((): number => {
      const { id: listId } = this.#lists.require(list);
      let removed = 0;
      for (const ref of all) {
        const mapId = typeof ref.mapId === 'string' ? ref.mapId.toLowerCase() : undefined;
        const mapUid = ref.mapUid;
        const known = (mapId && this.#byId.get(mapId)) || (mapUid && this.#byUid.get(mapUid)) || undefined;
        if (known) removed += this.#removeResolved.run(listId, known.id).changes;
        if (mapId) removed += this.#removePendingId.run(listId, mapId).changes;
        if (mapUid) removed += this.#removePendingUid.run(listId, mapUid).changes;
      }
      return removed;
    })();
  }

  /** The maps of a list in the order they were added, or every stored map. Pending refs are in refs(). */
  list(list?: WatchlistRef): StoredMap[] {
    const rows = list === undefined ? this.#listAll.all() : this.#listOf.all({ list: this.#lists.require(list).id });
    return rows.map(toStoredMap);
  }

  /** Every map membership of a list, resolved or pending, in the order added. */
  refs(list: WatchlistRef): ListedMapRef[] {
    return this.#refsOf.all(this.#lists.require(list).id).map((r) => ({
      mapId: r.map_id,
      mapUid: r.map_uid,
      resolved: r.resolved === 1,
      addedAt: r.added_at,
      notFoundAt: r.not_found_at,
    }));
  }

  /** By map ID or map UID. */
  get(mapIdOrUid: string): StoredMap | undefined {
    const row = this.#row(mapIdOrUid);
    return row && toStoredMap(row);
  }

  /** Map IDs of a list (or of every list) whose info was fetched before `olderThan`, or never. */
  staleIds(olderThan: Date | string, list?: WatchlistRef): string[] {
    const before = moment(olderThan, 'olderThan');
    const rows = list === undefined ? this.#staleAll.all(before) : this.#staleOfList.all({ list: this.#lists.require(list).id, before });
    return rows.map((r) => r.map_id);
  }

  /** @internal the stored row, by ID or UID. */
  row(mapIdOrUid: string): MapRow | undefined {
    return this.#row(mapIdOrUid);
  }

  #row(mapIdOrUid: string): MapRow | undefined {
    if (typeof mapIdOrUid !== 'string') return undefined;
    return isUuid(mapIdOrUid) ? this.#byId.get(mapIdOrUid.toLowerCase()) : this.#byUid.get(mapIdOrUid);
  }
}

function checkRef(ref: MapRefInput): { mapId: string | null; mapUid: string | null } | { reason: string } {
  if (ref === null || typeof ref !== 'object') return { reason: 'a map is named by its ID or UID' };
  const { mapId, mapUid } = ref;
  if (mapId === undefined && mapUid === undefined) return { reason: 'a map is named by its ID or UID' };
  if (mapId !== undefined && (typeof mapId !== 'string' || !isUuid(mapId))) {
    return { reason: `map ID ${describe(mapId)} is not a UUID` };
  }
  if (mapUid !== undefined && (typeof mapUid !== 'string' || !isMapUid(mapUid))) {
    return { reason: `map UID ${describe(mapUid)} is not a map UID (18-32 letters and digits)` };
  }
  return { mapId: mapId?.toLowerCase() ?? null, mapUid: mapUid ?? null };
}

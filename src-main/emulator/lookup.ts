// Fast lookups over the live dataset: maps by ID and UID, records by map, leaderboard and account, files by object ID.
import type { Dataset, DatasetMap, DatasetRecord } from './dataset.ts';
import { uuidFromName } from './prng.ts';

/** Where a map's file is served: its fileUrl, or an object ID derived from the map. */
export function mapFileUrl(map: DatasetMap): string {
  return map.fileUrl ?? `/storageObjects/${uuidFromName(`map-file|${map.mapId.toLowerCase()}`)}`;
}

export function thumbnailUrl(map: DatasetMap): string {
  return map.thumbnailUrl ?? `/storageObjects/${uuidFromName(`thumbnail|${map.mapId.toLowerCase()}`)}.jpg`;
}

/** A record's replay address: its url, or one of the service's two forms, chosen by the record ID so both occur. */
export function replayUrl(record: DatasetRecord): string {
  if (record.url !== undefined) return record.url;
  const id = record.mapRecordId.toLowerCase();
  return parseInt(id.slice(-1), 16) % 2 === 0 ? `/mapRecords/${id}/replay` : `/storageObjects/${uuidFromName(`replay|${id}`)}`;
}

/** Relative addresses are the emulator's own: they get the origin the client reached it on. */
export function expandUrl(url: string, origin: string): string {
  return url.startsWith('/') ? origin + url : url;
}

/** The leaderboard a record belongs to: the season (empty for personal bests) and the game mode. */
function leaderboardKey(scopeId: string | null, gameMode: string): string {
  return `${scopeId ?? ''}|${gameMode}`;
}

export type StorageObject = { kind: 'map'; map: DatasetMap } | { kind: 'thumbnail'; map: DatasetMap } | { kind: 'replay'; record: DatasetRecord };

const STORAGE_PREFIX = '/storageObjects/';

/**
 * Indexes hold positions in the dataset's arrays and check the item found there, so edits of the live dataset are
 * served: changed fields at once, and pushed, removed or replaced items after a rebuild the index does by itself.
 */
export class DatasetIndex {
  readonly #dataset: Dataset;
  #maps: DatasetMap[] = [];
  #mapCount = -1;
  #records: DatasetRecord[] = [];
  #recordCount = -1;
  #mapsById = new Map<string, number>();
  #mapsByUid = new Map<string, number>();
  #leaderboards = new Map<string, Map<string, Map<string, number>>>();
  #recordsById = new Map<string, number>();
  #storage = new Map<string, { kind: 'map' | 'thumbnail' | 'replay'; at: number }>();

  constructor(dataset: Dataset) {
    this.#dataset = dataset;
    this.#ensureFresh();
  }

  /** Forces a rebuild before the next lookup (after a bulk change such as evolve). */
  markStale(): void {
    this.#mapCount = -1;
  }

  get dataset(): Dataset {
    return this.#dataset;
  }

  mapById(mapId: string): DatasetMap | undefined {
    const id = mapId.toLowerCase();
    return this.#checked(() => this.#mapsById.get(id), (at) => this.#dataset.maps[at], (map) => map.mapId.toLowerCase() === id);
  }

  mapByUid(mapUid: string): DatasetMap | undefined {
    return this.#checked(() => this.#mapsByUid.get(mapUid), (at) => this.#dataset.maps[at], (map) => map.mapUid === mapUid);
  }

  /** The account's record on one leaderboard of the map (seasonId null: personal bests). */
  record(mapId: string, seasonId: string | null, gameMode: string, accountId: string): DatasetRecord | undefined {
    const map = mapId.toLowerCase();
    const account = accountId.toLowerCase();
    const key = leaderboardKey(seasonId, gameMode);
    return this.#checked(
      () => this.#leaderboards.get(map)?.get(key)?.get(account),
      (at) => this.#dataset.records[at],
      (r) =>
        r.mapId.toLowerCase() === map && r.accountId.toLowerCase() === account && leaderboardKey(r.scopeId, r.gameMode) === key,
    );
  }

  recordById(mapRecordId: string): DatasetRecord | undefined {
    const id = mapRecordId.toLowerCase();
    return this.#checked(() => this.#recordsById.get(id), (at) => this.#dataset.records[at], (r) => r.mapRecordId.toLowerCase() === id);
  }

  /** A file under /storageObjects/: `objectId` is the rest of the path, `.jpg` included for thumbnails. */
  storageObject(objectId: string): StorageObject | undefined {
    const path = STORAGE_PREFIX + objectId;
    const found = this.#checked(
      () => this.#storage.get(objectId),
      (at) => at,
      (entry) => this.#resolveStorage(entry, path) !== undefined,
    );
    return found ? this.#resolveStorage(found, path) : undefined;
  }

  #resolveStorage(entry: { kind: 'map' | 'thumbnail' | 'replay'; at: number }, path: string): StorageObject | undefined {
    if (entry.kind === 'replay') {
      const record = this.#dataset.records[entry.at];
      return record && replayUrl(record) === path ? { kind: 'replay', record } : undefined;
    }
    const map = this.#dataset.maps[entry.at];
    if (!map) return undefined;
    if (entry.kind === 'map') return mapFileUrl(map) === path ? { kind: 'map', map } : undefined;
    return thumbnailUrl(map) === path ? { kind: 'thumbnail', map } : undefined;
  }

  /** Looks up a position, checks the item still there; on a mismatch rebuilds once and looks again. */
  #checked<T, A>(position: () => A | undefined, itemAt: (at: A) => T | undefined, matches: (item: T) => boolean): T | undefined {
    this.#ensureFresh();
    for (let attempt = 0; attempt < 2; attempt++) {
      const at = position();
      if (at === undefined) return undefined;
      const item = itemAt(at);
      if (item !== undefined && matches(item)) return item;
      if (attempt === 0) this.#build();
    }
    return undefined;
  }

  #ensureFresh(): void {
    const { maps, records } = this.#dataset;
    if (maps !== this.#maps || maps.length !== this.#mapCount || records !== this.#records || records.length !== this.#recordCount)
      this.#build();
  }

  #build(): void {
    const { maps, records } = this.#dataset;
    this.#maps = maps;
    this.#mapCount = maps.length;
    this.#records = records;
    this.#recordCount = records.length;
    this.#mapsById = new Map();
    this.#mapsByUid = new Map();
    this.#leaderboards = new Map();
    this.#recordsById = new Map();
    this.#storage = new Map();
    const storageId = (url: string): string | undefined => (url.startsWith(STORAGE_PREFIX) ? url.slice(STORAGE_PREFIX.length) : undefined);
    maps.forEach((map, at) => {
      this.#mapsById.set(map.mapId.toLowerCase(), at);
      this.#mapsByUid.set(map.mapUid, at);
      const file = storageId(mapFileUrl(map));
      if (file !== undefined) this.#storage.set(file, { kind: 'map', at });
      const thumbnail = storageId(thumbnailUrl(map));
      if (thumbnail !== undefined) this.#storage.set(thumbnail, { kind: 'thumbnail', at });
    });
    records.forEach((record, at) => {
      const mapId = record.mapId.toLowerCase();
      let boards = this.#leaderboards.get(mapId);
      if (!boards) this.#leaderboards.set(mapId, (boards = new Map()));
      const key = leaderboardKey(record.scopeId, record.gameMode);
      let board = boards.get(key);
      if (!board) boards.set(key, (board = new Map()));
      board.set(record.accountId.toLowerCase(), at);
      this.#recordsById.set(record.mapRecordId.toLowerCase(), at);
      const replay = storageId(replayUrl(record));
      if (replay !== undefined) this.#storage.set(replay, { kind: 'replay', at });
    });
  }
}

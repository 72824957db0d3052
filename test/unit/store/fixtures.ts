// Builders for store tests: deterministic IDs, a valid map and a valid record with overrides.
import type { MapInfo, PlayerRecord } from '../../../src-main/core/model.ts';

/** A deterministic UUID from a label and a number: uuid('a', 1) → 0000000a-…-000000000001. */
export function uuid(kind: string, n: number): string {
  const k = [...kind].reduce((acc, c) => (acc * 31 + c.charCodeAt(0)) >>> 0, 7).toString(16).padStart(8, '0').slice(-8);
  return `${k}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export const mapId = (n: number): string => uuid('map', n);
export const accountId = (n: number): string => uuid('account', n);
export const recordId = (n: number): string => uuid('record', n);
export const seasonId = (n: number): string => uuid('season', n);
export const mapUid = (n: number): string => `Uid${String(n).padStart(6, '0')}abcdefghijklmnopq`;

export function makeMap(n: number, overrides: Partial<MapInfo> = {}): MapInfo {
  return {
    mapId: mapId(n),
    mapUid: mapUid(n),
    name: `$i$a1bMap ${n} $fff- Race`,
    author: accountId(900),
    submitter: accountId(900),
    authorScore: 26972,
    goldScore: 29000,
    silverScore: 33000,
    bronzeScore: 41000,
    mapType: 'TrackMania\\TM_Race',
    mapStyle: '',
    collectionName: 'Stadium',
    filename: `Map ${n}.Map.Gbx`,
    hasClones: false,
    isPlayable: true,
    createdWithGamepadEditor: false,
    createdWithSimpleEditor: false,
    timestamp: '2024-01-01T10:00:00+00:00',
    fileUrl: `https://storage.example/storageObjects/${uuid('file', n)}`,
    thumbnailUrl: `https://storage.example/storageObjects/${uuid('file', n)}.jpg`,
    ...overrides,
  };
}

export function makeRecord(map: number, account: number, overrides: Partial<PlayerRecord> = {}): PlayerRecord {
  return {
    mapRecordId: recordId(map * 1000 + account),
    mapId: mapId(map),
    accountId: accountId(account),
    gameMode: 'TimeAttack',
    gameModeCustomData: '',
    scopeType: 'PersonalBest',
    scopeId: null,
    time: 30000 + account,
    hidden: false,
    score: 0,
    respawnCount: null,
    medal: 2,
    removed: false,
    timestamp: '2024-02-01T12:00:00+00:00',
    url: `https://storage.example/mapRecords/${recordId(map * 1000 + account)}/replay`,
    filename: `Replays\\Downloaded\\${mapId(map)}_${accountId(account)}_(0'30''000).replay.gbx`,
    ...overrides,
  };
}

/** A fixed clock that moves one second per call, so ordering by time is deterministic. */
export function steppingClock(start = '2025-01-01T00:00:00.000Z'): () => Date {
  let t = Date.parse(start);
  return () => new Date((t += 1000));
}

/** Table → columns, and index names, as SQLite reports them: what a migration test compares. */
export function describeSchema(db: import('better-sqlite3').Database): { tables: Record<string, string[]>; indexes: string[] } {
  const tables: Record<string, string[]> = {};
  const names = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all();
  for (const { name } of names) {
    tables[name] = db.prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${name}') ORDER BY cid`).all().map((c) => c.name);
  }
  const indexes = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((i) => i.name);
  return { tables, indexes };
}

/** An in-memory store on a stepping clock. */
export async function memoryStore(): Promise<import('../../../src-main/core/store/index.ts').Store> {
  const { openStore } = await import('../../../src-main/core/store/index.ts');
  return openStore({ memory: true, now: steppingClock() });
}

/**
 * The export's rows in the friendly form (ExportRow): the rows records.openExport gives, in its order, with their
 * stored values read again here by the row's key, map, player and scope (a second reading, not the cursor's values).
 */
export function* exportRows(store: import('../../../src-main/core/store/index.ts').Store, list?: string): Generator<import('../export/reference.ts').ExportRow> {
  const values = store.db.prepare<[number, number, string], {
    game_mode: string; scope: string; time: number | null; score: number; respawn_count: number | null; medal: number;
    hidden: number; timestamp: string; map_record_id: string; path: string | null;
    map_type: string; has_clones: number; author_score: number; gold_score: number; silver_score: number; bronze_score: number;
    position: number | null; position_score: number | null; position_as_of: string | null;
  }>(`SELECT r.game_mode, r.scope, r.time, r.score, r.respawn_count, r.medal, r.hidden, r.timestamp, r.map_record_id, rp.path,
      m.map_type, m.has_clones, m.author_score, m.gold_score, m.silver_score, m.bronze_score, ps.position, ps.score AS position_score,
      ps.as_of AS position_as_of
    FROM records r JOIN maps m ON m.id = r.map_ref
    LEFT JOIN replays rp ON rp.record_id = r.map_record_id AND rp.state = 'downloaded'
    LEFT JOIN positions ps ON ps.map_ref = r.map_ref AND ps.player_ref = r.player_ref AND ps.scope = r.scope AND ps.state = 'ranked'
    WHERE r.map_ref = ? AND r.player_ref = ? AND r.scope = ? AND r.current = 1`);
  const cursor = store.records.openExport({ list });
  try {
    for (const [mapKey, playerKey, , scope] of cursor.rows) {
      const [mapUid, mapId, mapName] = cursor.maps.get(mapKey)!;
      const [accountId, displayName, nickname] = cursor.players.get(playerKey)!;
      const v = values.get(mapKey, playerKey, scope)!;
      yield {
        mapKey, playerKey, mapUid, mapId, mapName, accountId, displayName, nickname, gameMode: v.game_mode, scope: v.scope,
        time: v.time, score: v.score, respawnCount: v.respawn_count, medal: v.medal, hidden: v.hidden, timestamp: v.timestamp,
        mapRecordId: v.map_record_id, replayPath: v.path, mapType: v.map_type, hasClones: v.has_clones === 1,
        medals: { author: v.author_score, gold: v.gold_score, silver: v.silver_score, bronze: v.bronze_score },
        position: v.position, positionScore: v.position_score, positionAsOf: v.position_as_of,
      };
    }
  } finally {
    cursor.close();
  }
}

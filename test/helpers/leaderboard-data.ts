// A data folder holding one map of every kind with the leaderboard cases that matter (docs/game-rules.md): ties,
// secret entries ahead of the visible ones, a secret Stunt entry sent with a sentinel score, a Platform map whose
// medal scores are respawn counts, "me" near the next medal. Written straight into the store, so the tests do not
// depend on how a generator happens to build its maps.
import path from 'node:path';
import type { MapInfo, PlayerRecord } from '../../src-main/core/model.ts';
import { DATABASE_FILE_NAME } from '../../src-main/core/paths.ts';
import { openStore } from '../../src-main/core/store/index.ts';

/** A UUID whose first 8 characters (the short ID players see) differ from one `n` to the next. */
const uuid = (kind: number, n: number): string => `${String(n).padStart(4, '0')}${String(kind).padStart(4, 'a')}-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const LIST = 'Season';

export const PLAYERS = {
  me: { accountId: uuid(1, 1), nickname: 'Me' },
  rival: { accountId: uuid(1, 2), nickname: 'Rival', displayName: 'RivalTM' },
  baron: { accountId: uuid(1, 3), displayName: '$f00Red$z Baron' },
  anon: { accountId: uuid(1, 4) },
  late: { accountId: uuid(1, 5), nickname: 'Late' },
} as const;
type Who = keyof typeof PLAYERS;

function map(n: number, name: string, mapType: string, medals: [number, number, number, number], o: Partial<MapInfo> = {}): MapInfo {
  return {
    mapId: uuid(2, n), mapUid: `LeaderboardUid${String(n).padStart(4, '0')}xxxxx`, name, author: uuid(1, 99), submitter: uuid(1, 99),
    authorScore: medals[0], goldScore: medals[1], silverScore: medals[2], bronzeScore: medals[3], mapType, mapStyle: '',
    collectionName: 'Stadium', filename: `${n}.Map.Gbx`, hasClones: false, isPlayable: true, createdWithGamepadEditor: false,
    createdWithSimpleEditor: false, timestamp: '2026-01-01T00:00:00+00:00', fileUrl: 'https://storage.invalid/m', thumbnailUrl: 'https://storage.invalid/t.jpg', ...o,
  };
}

export const MAPS = {
  race: map(1, 'Spring 2026 - 01', 'TrackMania\\TM_Race', [45_000, 48_000, 54_000, 68_000]),
  secret: map(2, '$o$f80Secret Shorts', 'TrackMania\\TM_Race', [44_000, 47_500, 53_000, 66_000]),
  clones: map(3, 'Clone Valley', 'TrackMania\\TM_Race', [58_000, 62_000, 70_000, 90_000], { hasClones: true }),
  stunt: map(4, 'Stunt Park', 'TrackMania\\TM_Stunt', [6000, 5000, 4000, 3000]),
  // Platform medal scores are the most respawns each medal allows (map-page.md), not times.
  platform: map(5, 'Platform Tower', 'TrackMania\\TM_Platform', [0, 1, 3, 5]),
  royal: map(6, 'Royal Arena', 'TrackMania\\TM_Royal', [30_000, 33_000, 36_000, 45_000]),
} as const;

let recordNo = 0;
function rec(mapInfo: MapInfo, who: Who, o: Partial<PlayerRecord>): PlayerRecord {
  recordNo += 1;
  const mapRecordId = uuid(3, recordNo);
  return {
    mapRecordId, mapId: mapInfo.mapId, accountId: PLAYERS[who].accountId, gameMode: 'TimeAttack', gameModeCustomData: '', scopeType: 'PersonalBest',
    scopeId: null, time: 50_000, hidden: false, score: 0, respawnCount: null, medal: 0, removed: false,
    timestamp: `2026-02-0${1 + (recordNo % 9)}T12:00:00+00:00`, url: `https://storage.invalid/mapRecords/${mapRecordId}/replay`, filename: 'r.replay.gbx', ...o,
  };
}
const hidden = (medal: number, o: Partial<PlayerRecord> = {}): Partial<PlayerRecord> => ({ hidden: true, time: null, medal, ...o });

/** Records per map: who, and what. */
export function records(): [MapInfo, PlayerRecord[]][] {
  recordNo = 0;
  const m = MAPS;
  return [
    [m.race, [
      rec(m.race, 'me', { time: 45_412, medal: 3 }),
      rec(m.race, 'rival', { time: 45_000, medal: 4, timestamp: '2026-01-10T00:00:00+00:00' }),
      // The same time, set later: tied with the rival, listed after.
      rec(m.race, 'baron', { time: 45_000, medal: 4, timestamp: '2026-01-20T00:00:00+00:00' }),
      rec(m.race, 'anon', { time: 52_000, medal: 2 }),
    ]],
    // Three secret entries: two author ones surely ahead of me (gold, never hidden from myself), a gold one that may be
    // ahead or behind me, and Late's silver record (at or above the threshold) behind them all.
    [m.secret, [
      rec(m.secret, 'rival', hidden(4)),
      rec(m.secret, 'baron', hidden(4)),
      rec(m.secret, 'anon', hidden(3)),
      rec(m.secret, 'me', { time: 47_200, medal: 3 }),
      rec(m.secret, 'late', { time: 49_000, medal: 2 }),
    ]],
    [m.clones, [
      rec(m.clones, 'me', { time: 60_000, medal: 3, gameMode: 'TimeAttackClone' }),
      rec(m.clones, 'rival', { time: 59_000, medal: 3, gameMode: 'TimeAttackClone' }),
    ]],
    [m.stunt, [
      rec(m.stunt, 'me', { gameMode: 'Stunt', score: 4785, time: 70_000, medal: 2 }),
      rec(m.stunt, 'rival', { gameMode: 'Stunt', score: 6200, time: 90_000, medal: 4 }),
      // A secret Stunt entry as the service may send it: its score is the sentinel, never to be shown.
      rec(m.stunt, 'baron', hidden(4, { gameMode: 'Stunt', score: 4294967295 })),
    ]],
    [m.platform, [
      rec(m.platform, 'me', { gameMode: 'Platform', respawnCount: 1, time: 62_000, medal: 3 }),
      rec(m.platform, 'rival', { gameMode: 'Platform', respawnCount: 0, time: 90_000, medal: 4 }),
      rec(m.platform, 'baron', { gameMode: 'Platform', respawnCount: 3, time: 40_000, medal: 2 }),
      // As many respawns as me, and faster: ahead of me.
      rec(m.platform, 'anon', { gameMode: 'Platform', respawnCount: 1, time: 61_000, medal: 3 }),
    ]],
    [m.royal, [
      rec(m.royal, 'me', { time: 30_000, medal: 4 }),
      rec(m.royal, 'rival', { time: 31_000, medal: 3 }),
    ]],
  ];
}

/** Writes the list into the data folder's database (closing it after): ready for the CLI, the service or the app. */
export function writeLeaderboardData(dataDir: string): void {
  const store = openStore({ file: path.join(dataDir, DATABASE_FILE_NAME), dataDir });
  try {
    const maps = Object.values(MAPS);
    store.maps.upsert(maps);
    store.watchlists.create(LIST);
    store.maps.addRefs(LIST, maps.map((m) => ({ mapId: m.mapId })));
    store.players.add(LIST, Object.values(PLAYERS).map((p) => ({ accountId: p.accountId, ...('nickname' in p ? { nickname: p.nickname } : {}) })));
    store.players.setDisplayNames(new Map(Object.values(PLAYERS).flatMap((p) => ('displayName' in p ? [[p.accountId, p.displayName] as const] : []))));
    const run = store.syncRuns.start(LIST);
    for (const [info, list] of records()) {
      store.records.applyRecords({ mapId: info.mapId, scope: 'PersonalBest', records: list, seenAt: '2026-02-15T00:00:00.000Z', syncRunId: run });
    }
    store.syncRuns.finish(run, 'ok', { maps: maps.length });
    store.settings.setMe(PLAYERS.me.accountId);
    // The sync read the records as me (the account of its token): my own record is never hidden from me.
    store.settings.setViewer(PLAYERS.me.accountId);
    store.settings.set('app.setup', 'account');
  } finally {
    store.close();
  }
}

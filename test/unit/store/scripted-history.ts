// A store's life told as syncs: first sightings, the same records again, details that move, improvements, secret
// entries shown, corrections, season scopes, a player twice in one batch, replays in every state, hostile text in
// every column a sync can fill. The golden tests export it and dump it, so that work on the speed of the write path or
// of the export is held to the same stored rows and the same CSV bytes.
import type { PlayerRecord } from '../../../src-main/core/model.ts';
import { openStore, type ApplyRecordsResult, type Store } from '../../../src-main/core/store/index.ts';
import { replayPath } from '../../../src-main/core/store/index.ts';
import { accountId, makeMap, makeRecord, mapId, recordId, seasonId, steppingClock } from './fixtures.ts';

/** Text a name, a game mode or a timestamp may hold; each needs quoting, neutralising or nothing. */
const HOSTILE = [
  'crlf\r\nname, "q"', '=HYPERLINK("http://evil")', '$o$f80Laserhawk $fff- Megacity', 'Ünïcödé 名前 🏁', '-minus', '@at',
  '+plus', '\tlead', 'bell\u0007 and \u009b csi', ' spaced ', 'say "hi"', "it's", '$l[http://x]link$l',
];

/** Maps 1-6 are named with hostile text and of every kind; maps 7 onwards are plain, for volume. */
export const HOSTILE_MAPS = 6;
/** Enough rows to cross the export's page boundaries several times. */
export const BULK_MAPS = 14;
export const BULK_PLAYERS = 200;

export interface ScriptedHistory {
  store: Store;
  /** Every applyRecords result, in call order. */
  results: ApplyRecordsResult[];
}

const day = (n: number): string => `2025-01-0${n}T00:00:00.000Z`;

/**
 * Builds the history in a store at `file` (a file, so the export reads through its own connection) or in memory;
 * with `bulk`, plus BULK_MAPS plain maps of BULK_PLAYERS records each.
 */
export function scriptedHistory(options: { file?: string | undefined; bulk?: boolean } = {}): ScriptedHistory {
  const { file, bulk: withBulk = false } = options;
  const store = file ? openStore({ file, now: steppingClock() }) : openStore({ memory: true, now: steppingClock() });
  const bulkMaps = withBulk ? BULK_MAPS : 0;
  const results: ApplyRecordsResult[] = [];
  const kinds = ['TrackMania\\TM_Race', 'TrackMania\\TM_Stunt', 'TrackMania\\TM_Platform', 'TrackMania\\TM_Race'];
  store.maps.upsert([
    ...Array.from({ length: HOSTILE_MAPS }, (_, i) =>
      makeMap(i + 1, { name: HOSTILE[i]!, mapType: kinds[i % kinds.length]!, hasClones: i === 3 })),
    ...Array.from({ length: bulkMaps }, (_, i) => makeMap(HOSTILE_MAPS + i + 1)),
  ], day(1));
  store.watchlists.create('L');
  store.maps.addRefs('L', [1, 2, 3].map((m) => ({ mapId: mapId(m) })));
  store.players.add('L', [1, 2, 3, 4].map((p) => ({ accountId: accountId(p), nickname: HOSTILE[(p + 5) % HOSTILE.length]! })));
  store.players.setNickname(accountId(5), '=cmd()');
  store.players.setDisplayNames(new Map([[accountId(3), '-Speedy-'], [accountId(6), HOSTILE[0]!], [accountId(7), '$f00Red$$Baron']]), day(1));

  const apply = (map: number, records: PlayerRecord[], seenAt: string, run: number, scope = 'PersonalBest'): void => {
    results.push(store.records.applyRecords({ mapId: mapId(map), scope, records, seenAt, syncRunId: run }));
  };
  const modes = ['TimeAttack', 'Stunt', 'Platform', 'TimeAttack', '+Weird', 'Time,Attack"'];
  const first = (m: number, p: number): PlayerRecord => makeRecord(m, p, {
    gameMode: modes[m - 1]!,
    time: 30000 + m * 100 + p,
    score: m === 2 ? 1000 + p : p === 8 ? -5 : 0,
    respawnCount: m === 3 ? p % 4 : p % 3 === 0 ? null : p,
    medal: p % 5,
    hidden: p === 2 && m < 4,
    removed: p === 7,
    timestamp: p === 6 ? 'not a date' : p === 5 ? '2024-03-01T10:00:00.5Z' : `2024-0${1 + (m % 9)}-1${p % 10}T12:00:00+00:00`,
  });

  // Sync 1: everything seen for the first time, a season scope beside the personal bests on map 1.
  const run1 = store.syncRuns.start();
  for (let m = 1; m <= HOSTILE_MAPS; m += 1) apply(m, Array.from({ length: 8 }, (_, p) => first(m, p + 1)), day(1), run1);
  apply(1, [1, 2, 3].map((p) => makeRecord(1, p, { scopeType: 'Season', scopeId: seasonId(1), mapRecordId: recordId(5000 + p), time: 29000 + p })),
    day(1), run1, seasonId(1));
  for (let m = HOSTILE_MAPS + 1; m <= HOSTILE_MAPS + bulkMaps; m += 1) {
    apply(m, Array.from({ length: BULK_PLAYERS }, (_, p) => makeRecord(m, p + 1, { time: 40000 + ((m * 7919 + p * 31) % 20000), medal: p % 5 })), day(1), run1);
  }
  store.syncRuns.finish(run1, 'ok');

  // Sync 2: the same records (nothing written), and details that moved (a medal, a URL, a removal).
  const run2 = store.syncRuns.start();
  for (let m = 1; m <= HOSTILE_MAPS; m += 1) {
    apply(m, Array.from({ length: 8 }, (_, p) => {
      const r = first(m, p + 1);
      return p === 0 ? { ...r, medal: 4, url: `${r.url}?v=2` } : p === 6 ? { ...r, removed: false } : r;
    }), day(2), run2);
  }
  store.syncRuns.finish(run2, 'ok');

  // Sync 3: improvements, a secret entry shown, a new record ID with a worse time, a worse time under the same ID, a
  // player listed twice in one batch, and a bulk map where every player improved.
  const run3 = store.syncRuns.start();
  for (let m = 1; m <= HOSTILE_MAPS; m += 1) {
    const b = (p: number): PlayerRecord => first(m, p);
    apply(m, [
      { ...b(1), time: b(1).time! - 500, score: m === 2 ? b(1).score + 50 : b(1).score, mapRecordId: recordId(9000 + m), timestamp: '2024-12-24T08:00:00+00:00' },
      { ...b(2), hidden: false },
      { ...b(3), time: b(3).time! + 700, mapRecordId: recordId(9100 + m) },
      { ...b(4), time: b(4).time! + 10 },
      { ...b(5), time: b(5).time! - 1, mapRecordId: recordId(9200 + m) },
      { ...b(5), time: b(5).time! - 2, mapRecordId: recordId(9300 + m) },
    ], day(3), run3);
  }
  const bulk = HOSTILE_MAPS + 1;
  if (withBulk) {
    apply(bulk, Array.from({ length: BULK_PLAYERS }, (_, p) => makeRecord(bulk, p + 1, { time: 30000 + p, mapRecordId: recordId(20000 + p), medal: 4 })), day(3), run3);
  }
  store.syncRuns.finish(run3, 'partial');

  // Replays: downloaded (one at a path no sync would choose), failed, refused, hidden with their records.
  const downloaded: (readonly [number, number])[] = [[1, 1], [1, 3], [2, 4], [4, 8]];
  if (withBulk) downloaded.push([bulk, 10], [bulk + 1, 11]);
  for (const [m, p] of downloaded) {
    const r = store.records.get(mapId(m), accountId(p))!;
    store.replays.markDownloaded(r, replayPath(mapId(m), accountId(p), r.mapRecordId), 1000 + m * 10 + p, `${m}${p}`.padEnd(64, 'a'));
  }
  store.replays.markDownloaded(store.records.get(mapId(5), accountId(4))!, 'replays/odd, "name"/x y.replay.gbx', 1, 'c'.repeat(64));
  store.replays.markFailed(store.records.get(mapId(2), accountId(1))!, 'HTTP 500');
  store.replays.markForbidden(store.records.get(mapId(3), accountId(3))!, 'HTTP 403');
  store.replays.markHidden(store.records.get(mapId(4), accountId(2))!);
  return { store, results };
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlayerRecord } from '../../../src-main/core/model.ts';
import type { Store } from '../../../src-main/core/store/index.ts';
import { describeCost, describeDuration, planSync, type SyncPlan, type SyncPlanOptions } from '../../../src-main/core/sync/plan.ts';
import { accountId, makeMap, makeRecord, mapId, mapUid, memoryStore } from '../store/fixtures.ts';

const plan = (over: Partial<SyncPlan>): SyncPlan => ({
  lists: ['Rivals'], maps: 26, players: 48, mapLookups: 0, recordRequests: 26, replayDownloads: 1250, positionRequests: 0, worldRecordRequests: 0,
  requests: 1276, maxRps: 1, liveMaxRps: 1, positionSeconds: 0, worldRecordSeconds: 0, seconds: 1276, firstSync: true, large: true, ...over,
});

describe('the cost line before a sync', () => {
  it('says the requests and the time at the pace kept, as the issue words it', () => {
    expect(describeCost(plan({}))).toBe('about 26 record requests and 1,250 replay downloads, about 21 min at 1 request/s');
  });

  it('names the position requests when some are due, and counts their time', () => {
    expect(describeCost(plan({ positionRequests: 50, requests: 1326, positionSeconds: 50, seconds: 1326 }))).toBe(
      'about 26 record requests, 1,250 replay downloads and 50 position requests, about 22 min at 1 request/s',
    );
    expect(describeCost(plan({ mapLookups: 1, positionRequests: 1, positionSeconds: 1 }))).toBe(
      'about 26 record requests, 1 map lookup, 1,250 replay downloads and 1 position request, about 21 min at 1 request/s',
    );
  });

  it('names the Live pace when it differs from the pace kept with Core', () => {
    expect(describeCost(plan({ positionRequests: 1600, liveMaxRps: 2, positionSeconds: 800, seconds: 2076 }))).toBe(
      'about 26 record requests, 1,250 replay downloads and 1,600 position requests, about 35 min at 1 request/s (positions at 2 requests/s)',
    );
    // With no position asked, the Live pace is no part of the cost.
    expect(describeCost(plan({ liveMaxRps: 2 }))).toBe('about 26 record requests and 1,250 replay downloads, about 21 min at 1 request/s');
  });

  it('names map lookups when there are some, and other paces', () => {
    expect(describeCost(plan({ mapLookups: 1, recordRequests: 1, replayDownloads: 0, maxRps: 2, seconds: 1 }))).toBe(
      'about 1 record request, 1 map lookup and 0 replay downloads, under a minute at 2 requests/s',
    );
  });

  it.each([
    [59, 'under a minute'],
    [60, 'about 1 min'],
    [89 * 60, 'about 89 min'],
    [90 * 60, 'about 1.5 h'],
    [16 * 3600 + 500, 'about 16 h'],
  ])('%d s reads "%s"', (seconds, text) => {
    expect(describeDuration(seconds)).toBe(text);
  });
});

describe('the world positions a sync will ask for', () => {
  let store: Store;
  let run: number;
  beforeEach(async () => {
    store = await memoryStore();
    run = store.syncRuns.start();
  });
  afterEach(() => store.close());

  /** A list of maps 1..maps (stored, so no lookup) and players 1..players, nothing read yet. */
  function list(name: string, maps: number, players: number, firstMap = 1): void {
    const numbers = Array.from({ length: maps }, (_, i) => firstMap + i);
    store.maps.upsert(numbers.map((n) => makeMap(n)));
    store.watchlists.create(name);
    store.maps.addRefs(name, numbers.map((n) => ({ mapUid: mapUid(n) })));
    store.players.add(name, Array.from({ length: players }, (_, i) => ({ accountId: accountId(i + 1) })));
  }
  function read(map: number, records: PlayerRecord[], syncRunId = run): void {
    store.records.applyRecords({ mapId: mapId(map), scope: 'PersonalBest', records, seenAt: '2026-11-20T10:00:00.000Z', syncRunId });
  }
  /** A sync of the list: its records read (a PB of every player on every map, all different), the sync finished. */
  function sync(name: string, maps: number, players: number): void {
    const listRun = store.syncRuns.start(name);
    for (let m = 1; m <= maps; m++) read(m, Array.from({ length: players }, (_, p) => makeRecord(m, p + 1, { time: 40_000 + m * 100 + p })), listRun);
    store.syncRuns.finish(listRun, 'ok');
  }
  /** The plan an hour after the maps were stored: their info is fresh, nothing to look up; world records apart. */
  const planOf = (options: SyncPlanOptions): SyncPlan => planSync(store, { now: new Date('2025-01-01T01:00:00Z'), worldRecords: false, ...options });
  /** Every due position answered, as a sync would store them. */
  function answerAll(): void {
    store.positions.save(store.positions.due().map((q) => ({ mapId: q.mapId, accountId: q.accountId, score: q.score, state: 'unavailable', asOf: '2026-11-20T10:05:00.000Z' })));
  }

  it('PBs due: packed as the Live client packs them, 50 maps a request, players with one score on a map asked once', () => {
    list('Fall', 60, 2);
    sync('Fall', 60, 2);
    // Player 2 ties player 1 on map 7: one question. 60 + 59 distinct questions need 3 requests of 50 maps.
    read(7, [makeRecord(7, 2, { time: 40_000 + 7 * 100, mapRecordId: '00000000-0000-4000-8000-0000000000aa' })]);
    const p = planOf({ list: 'Fall', replays: false, maxRps: 1 });
    expect(p).toMatchObject({ recordRequests: 60, replayDownloads: 0, positionRequests: 3, requests: 63, positionSeconds: 3, seconds: 63, firstSync: false });
    expect(describeCost(p)).toBe('about 60 record requests, 0 replay downloads and 3 position requests, about 1 min at 1 request/s');
  });

  it('a map asked about for many players takes a request per player: one score per map a request', () => {
    list('Fall', 1, 7);
    sync('Fall', 1, 7);
    expect(planOf({ replays: false }).positionRequests).toBe(7);
  });

  it('none due: no position part, and no time for them', () => {
    list('Fall', 3, 4);
    sync('Fall', 3, 4);
    answerAll();
    const p = planOf({ list: 'Fall', replays: false, maxRps: 2 });
    expect(p).toMatchObject({ positionRequests: 0, positionSeconds: 0, requests: 3, seconds: 1.5 });
    expect(describeCost(p)).toBe('about 3 record requests and 0 replay downloads, under a minute at 2 requests/s');
  });

  it('positions off (sync --no-positions): none counted though some are due', () => {
    list('Fall', 3, 4);
    sync('Fall', 3, 4);
    expect(planOf({ replays: false }).positionRequests).toBe(4);
    const off = planOf({ replays: false, positions: false });
    expect(off).toMatchObject({ positionRequests: 0, requests: 3, seconds: 3 });
    expect(describeCost(off)).not.toContain('position');
  });

  it('a list without players asks no position, as the engine does not', () => {
    list('Empty', 5, 0);
    expect(planOf({}).positionRequests).toBe(0);
  });

  it('maps no sync has read: a PB per player each, estimated; 200 maps x 400 players take 1,600 requests, 27 min of the time', () => {
    list('Big', 200, 400);
    const p = planOf({ list: 'Big', replays: false, maxRps: 1 });
    expect(p).toMatchObject({ firstSync: true, recordRequests: 400, positionRequests: 1600, positionSeconds: 1600, large: true });
    expect(p.seconds).toBe(400 + 1600);
    expect(describeCost(p)).toBe('about 400 record requests, 0 replay downloads and 1,600 position requests, about 33 min at 1 request/s');
    // At 2 requests/s, the positions make the difference between a first sync that asks and one that starts at once.
    expect(planOf({ list: 'Big', replays: false, maxRps: 2 })).toMatchObject({ positionSeconds: 800, seconds: 1000, large: true });
    expect(planOf({ list: 'Big', replays: false, positions: false, maxRps: 2 })).toMatchObject({ positionRequests: 0, seconds: 200, large: false });
  });

  it('unsynced maps join the due questions in one packing: their busiest map, and their number', () => {
    // Fall: 30 maps read, 30 x 2 PBs due. Rivals: 2 maps never read, 40 players: 80 questions, 40 on each map.
    list('Fall', 30, 2);
    sync('Fall', 30, 2);
    list('Rivals', 2, 40, 100);
    // Every list: 60 + 80 = 140 questions (3 requests of 50) but a map asked 40 times needs 40.
    expect(planOf({ replays: false }).positionRequests).toBe(40);
    expect(planOf({ list: 'Fall', replays: false }).positionRequests).toBe(2);
    // 100 more maps never read, by 40 players: 60 + 80 + 4,000 = 4,140 questions, 83 requests of 50 maps.
    list('More', 100, 40, 200);
    expect(planOf({ replays: false }).positionRequests).toBe(83);
    answerAll();
    expect(planOf({ list: 'Rivals', replays: false }).positionRequests).toBe(40);
  });

  it('the Live pace of the positions, apart from the Core pace', () => {
    list('Big', 200, 400);
    const p = planOf({ list: 'Big', replays: false, maxRps: 2, liveMaxRps: 1 });
    expect(p).toMatchObject({ positionRequests: 1600, positionSeconds: 1600, seconds: 400 / 2 + 1600 });
  });
});

describe('the world records a sync will ask for', () => {
  let store: Store;
  beforeEach(async () => {
    store = await memoryStore();
  });
  afterEach(() => store.close());

  function list(name: string, maps: number, players: number, firstMap = 1): void {
    const numbers = Array.from({ length: maps }, (_, i) => firstMap + i);
    store.maps.upsert(numbers.map((n) => makeMap(n)));
    store.watchlists.create(name);
    store.maps.addRefs(name, numbers.map((n) => ({ mapUid: mapUid(n) })));
    store.players.add(name, Array.from({ length: players }, (_, i) => ({ accountId: accountId(i + 1) })));
  }
  const planOf = (options: SyncPlanOptions): SyncPlan => planSync(store, { now: new Date('2025-01-01T01:00:00Z'), positions: false, ...options });

  it('a request per map of a list that asks, counted in the requests, the time and the cost line', () => {
    list('Fall', 3, 2);
    const p = planOf({ list: 'Fall', replays: false, maxRps: 1 });
    expect(p).toMatchObject({ recordRequests: 3, worldRecordRequests: 3, requests: 6, worldRecordSeconds: 3, seconds: 6 });
    expect(describeCost(p)).toBe('about 3 record requests, 0 replay downloads and 3 world record requests, under a minute at 1 request/s');
    expect(describeCost(planOf({ list: 'Fall', replays: false, maxRps: 1, liveMaxRps: 2 }))).toContain('(world records at 2 requests/s)');
  });

  it('none for a list over 100 maps by default, for a list set off, without players, or with world records off', () => {
    list('Big', 101, 1);
    expect(planOf({ list: 'Big', replays: false }).worldRecordRequests).toBe(0);
    store.worldRecords.setSetting('Big', true);
    expect(planOf({ list: 'Big', replays: false }).worldRecordRequests).toBe(101);
    expect(planOf({ list: 'Big', replays: false, worldRecords: false }).worldRecordRequests).toBe(0);
    list('Empty', 2, 0, 500);
    expect(planOf({ list: 'Empty', replays: false }).worldRecordRequests).toBe(0);
    list('Off', 2, 1, 600);
    store.worldRecords.setSetting('Off', false);
    expect(planOf({ list: 'Off', replays: false }).worldRecordRequests).toBe(0);
  });

  it("maps no sync has read may bring the WR's ghost too, unless the list downloads no replays", () => {
    list('Fall', 4, 2);
    expect(planOf({ list: 'Fall' }).replayDownloads).toBe(4 * (2 + 1));
    expect(planOf({ list: 'Fall', worldRecords: false }).replayDownloads).toBe(4 * 2);
    store.watchlists.setReplayPolicy('Fall', { mode: 'none' });
    expect(planOf({ list: 'Fall' }).replayDownloads).toBe(0);
  });
});

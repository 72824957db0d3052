// The service's mapping of stored rows to the contract's view shapes: ranked through shared/leaderboard.ts.
import { describe, expect, it } from 'vitest';
import { compareTable, improvements, playerPbs, rankedEntries, replayInfos } from '../../../src-main/service/views.ts';
import type { HistoryRow, Player, StoredMap, StoredRecord } from '../../../src-main/core/store/index.ts';
import * as s from '../../../src-main/contract/schemas.ts';

const player = (accountId: string, nickname: string | null = null, displayName: string | null = null): Player => ({
  accountId, nickname, displayName, displayNameFetchedAt: null, name: accountId,
});

function record(accountId: string, time: number | null, o: Partial<StoredRecord> = {}): StoredRecord {
  return {
    mapRecordId: `rec-${accountId}`, mapId: 'map', accountId, gameMode: 'TimeAttack', gameModeCustomData: '', scopeType: 'PersonalBest', scopeId: null,
    time, hidden: time === null, score: 0, respawnCount: null, medal: 3, removed: false, timestamp: '2026-01-01T00:00:00Z', url: 'https://x/', filename: 'f',
    scope: 'PersonalBest', mapUid: 'uid', playerName: accountId, firstSeenAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', ...o,
  } as StoredRecord;
}

function map(mapType: string, o: Partial<StoredMap> = {}): StoredMap {
  return {
    mapId: 'map', mapUid: 'uid', name: 'Map', author: 'a', submitter: 'a', authorScore: 48_000, goldScore: 50_000, silverScore: 55_000,
    bronzeScore: 60_000, mapType, mapStyle: '', collectionName: '', filename: '', hasClones: false, isPlayable: true,
    createdWithGamepadEditor: false, createdWithSimpleEditor: false, timestamp: '', fileUrl: '', thumbnailUrl: '', fetchedAt: '', ...o,
  };
}

const RACE = 'TrackMania\\TM_Race';

describe('a map\'s entries (maps.get)', () => {
  it('ranks a map: secret entries placed and counted in the ranks, ties share a rank, absent players last', () => {
    const players = [player('a'), player('b', 'Bee'), player('c'), player('d'), player('me')];
    const records = [record('a', 50_000), record('b', 49_000), record('c', null, { score: 4294967295 }), record('me', 50_000)];
    // Read as "me": every other visible record is at or above the threshold, so the secret entry is ahead of them all.
    const { entries, secret, bestIsKnown } = rankedEntries(map(RACE), players, records, 'me', () => ({ state: 'downloaded', path: 'replays/x.gbx', size: 10 }), { viewer: 'me' });
    expect(secret).toBe(1);
    expect(bestIsKnown).toBe(false);
    expect(entries.map((e) => [e.player.accountId, e.name, e.rank, e.deltaToBestVisible?.value ?? null, e.deltaToMe?.value ?? null])).toEqual([
      ['c', 'c', 1, null, null],
      ['b', 'Bee', 2, 0, -1000],
      ['a', 'a', 3, 1000, 0],
      ['me', 'me', 3, 1000, null],
      ['d', 'd', null, null, null],
    ]);
    expect(entries.map((e) => [e.isBest, e.isBestVisible, e.deltaToBest])).toEqual([[true, false, null], [false, true, null], [false, false, null], [false, false, null], [false, false, null]]);
    expect(entries[0]).toMatchObject({ hidden: true, time: null, score: null, respawnCount: null, replay: { state: 'hidden' }, progress: { medal: 3, next: 4, gap: null } });
    expect(entries[4]).toMatchObject({ hasRecord: false, replay: { state: 'none' }, progress: null });
    expect(entries[1]!.replay).toEqual({ state: 'downloaded', file: 'replays/x.gbx', bytes: 10 });
    // 49.000 against gold 50.000 and author 48.000: gold held, author 1 s away.
    expect(entries[1]!.progress).toEqual({ medal: 3, next: 4, gap: { unit: 'time', value: 1000, time: null } });
    for (const entry of entries) expect(() => s.RankedEntry.parse(entry)).not.toThrow();
  });

  it('gives a range where the order is not known: the fastest visible record may be the reader\'s own, under the threshold', () => {
    const players = [player('a'), player('b', 'Bee'), player('c'), player('me')];
    const records = [record('a', 50_000), record('b', 49_000), record('c', null), record('me', 50_000)];
    // Reader not known: b (gold, like the secret entry) may be the reader's own record, better than the threshold.
    const unknown = rankedEntries(map(RACE), players, records, 'me', () => undefined);
    expect(unknown.entries.map((e) => [e.player.accountId, e.rank, e.rankRange, e.visibleRank, e.isBest])).toEqual([
      ['b', null, { min: 1, max: 2 }, 1, false],
      ['c', null, { min: 1, max: 2 }, null, false],
      ['a', 3, { min: 3, max: 3 }, 2, false],
      ['me', 3, { min: 3, max: 3 }, 2, false],
    ]);
    // Read as b: the same, and known. Read as someone else: b is at or above the threshold, behind the secret entry.
    expect(rankedEntries(map(RACE), players, records, 'me', () => undefined, { viewer: 'b' }).entries[0]!.rankRange).toEqual({ min: 1, max: 2 });
    expect(rankedEntries(map(RACE), players, records, 'me', () => undefined, { viewer: 'a' }).entries.map((e) => [e.player.accountId, e.rank])).toEqual([
      ['c', 1], ['b', 2], ['a', 3], ['me', 3],
    ]);
  });

  it('my own record under the threshold, read as me: a higher medal is ahead, a lower one behind, the same one either side', () => {
    // Medals: author 48.000, gold 50.000, silver 55.000. My gold 49.000 is visible though under the threshold.
    const players = [player('me'), player('hi'), player('same'), player('lo'), player('slow')];
    const records = [
      record('me', 49_000), record('hi', null, { medal: 4 }), record('same', null, { medal: 3 }), record('lo', null, { medal: 2 }), record('slow', 56_000, { medal: 1 }),
    ];
    const { entries, bestIsKnown } = rankedEntries(map(RACE), players, records, 'me', () => undefined, { viewer: 'me' });
    expect(entries.map((e) => [e.player.accountId, e.rank, e.rankRange, e.isBest])).toEqual([
      ['hi', 1, { min: 1, max: 1 }, true],
      ['me', null, { min: 2, max: 3 }, false],
      ['same', null, { min: 2, max: 3 }, false],
      ['lo', 4, { min: 4, max: 4 }, false],
      ['slow', 5, { min: 5, max: 5 }, false],
    ]);
    expect(bestIsKnown).toBe(false);
  });

  it('a world position bounds the secret entries set before it: a record 1st in the world has none ahead', () => {
    const players = [player('b'), player('c')];
    const records = [record('b', 49_000), record('c', null, { timestamp: '2025-12-01T00:00:00Z' })];
    const position = { mapId: 'map', mapUid: 'uid', accountId: 'b', scope: 'PersonalBest', score: 49_000, state: 'ranked' as const, zones: [{ zoneId: 'w', zoneName: 'World', position: 1 }], position: 1, previousPosition: null, asOf: '2026-01-02T00:00:00Z' };
    const { entries, bestIsKnown } = rankedEntries(map(RACE), players, records, 'b', () => undefined, { viewer: 'b', positionOf: (_m, a) => (a === 'b' ? position : undefined) });
    expect(entries.map((e) => [e.player.accountId, e.rank, e.isBest])).toEqual([['b', 1, true], ['c', 2, false]]);
    expect(bestIsKnown).toBe(true);
    expect(entries[0]!.deltaToBest).toEqual({ unit: 'time', value: 0, time: null });
    // Asked for another score (an older PB): it says nothing of this one.
    const stale = rankedEntries(map(RACE), players, records, 'b', () => undefined, { viewer: 'b', positionOf: () => ({ ...position, score: 50_000 }) });
    expect(stale.entries.map((e) => e.rankRange)).toEqual([{ min: 1, max: 2 }, { min: 1, max: 2 }]);
  });

  it('ranks Stunt maps by points, higher first, deltas as value − reference', () => {
    const { entries } = rankedEntries(map('TrackMania\\TM_Stunt'), [player('a'), player('b')], [record('a', 30_000, { score: 500 }), record('b', 40_000, { score: 900 })], 'a', () => undefined);
    expect(entries.map((e) => [e.player.accountId, e.rank, e.score, e.deltaToBest?.value])).toEqual([['b', 1, 900, 0], ['a', 2, 500, -400]]);
    expect(entries[0]!.deltaToMe).toEqual({ unit: 'points', value: 400, time: null });
  });

  it('ranks Platform maps by respawns, then time; medal scores are respawn counts', () => {
    const platform = map('TrackMania\\TM_Platform', { authorScore: 0, goldScore: 1, silverScore: 3, bronzeScore: 5 });
    const records = [record('fast', 40_000, { respawnCount: 2, medal: 2 }), record('clean', 70_000, { respawnCount: 0, medal: 4 }), record('one', 50_000, { respawnCount: 1, medal: 3 })];
    const { entries } = rankedEntries(platform, [player('fast'), player('clean'), player('one')], records, undefined, () => undefined);
    expect(entries.map((e) => [e.player.accountId, e.rank, e.respawnCount, e.time])).toEqual([['clean', 1, 0, 70_000], ['one', 2, 1, 50_000], ['fast', 3, 2, 40_000]]);
    expect(entries[2]!.deltaToBest).toEqual({ unit: 'respawns', value: 2, time: -30_000 });
    expect(entries[2]!.progress).toEqual({ medal: 2, next: 3, gap: { unit: 'respawns', value: 1, time: null } });
  });

  it('leaves out records of players not in the list', () => {
    const { entries } = rankedEntries(map(RACE), [player('a')], [record('a', 50_000), record('stranger', 1)], undefined, () => undefined);
    expect(entries.map((e) => [e.player.accountId, e.rank, e.isBest])).toEqual([['a', 1, true]]);
  });
});

describe('the compare grid and a player\'s PBs', () => {
  const players = [player('me'), player('x')];
  const table = compareTable('L', players, [
    { map: map(RACE, { mapUid: 'r', name: 'Race' }), records: [record('me', 50_500, { medal: 2 }), record('x', 50_000)] },
    { map: map('TrackMania\\TM_Stunt', { mapUid: 's', name: 'Stunt' }), records: [record('me', null, { score: 4294967295 }), record('x', 60_000, { score: 900 })] },
    { map: map(RACE, { mapUid: 'n', name: 'Nobody' }), records: [] },
  ], 'me');

  it('gives one sparse cell per player in column order, ranked, with its deltas and nothing of a secret entry\'s result', () => {
    expect(() => s.CompareTable.parse(table)).not.toThrow();
    expect(table.me).toBe(0);
    expect(table.rows.map((r) => [r.mapUid, r.kind, r.secret, r.bestIsKnown])).toEqual([['r', 'race', 0, true], ['s', 'stunt', 1, false], ['n', 'race', 0, false]]);
    expect(table.rows[0]!.cells).toEqual([
      { time: 50_500, medal: 2, rank: 2, deltaToBest: { unit: 'time', value: 500, time: null } },
      { time: 50_000, medal: 3, rank: 1, isBest: true, isBestVisible: true, deltaToBest: { unit: 'time', value: 0, time: null }, deltaToMe: { unit: 'time', value: -500, time: null } },
    ]);
    // A secret entry: its medal and the ranks it may hold, nothing of the sentinel the service sent as its score. On
    // Stunt the threshold (a time) says nothing of points: either may be ahead.
    expect(table.rows[1]!.cells[0]).toEqual({ hidden: true, medal: 3, rankRange: { min: 1, max: 2 } });
    expect(table.rows[1]!.cells[1]).toEqual({ time: 60_000, score: 900, medal: 3, rankRange: { min: 1, max: 2 }, isBestVisible: true, deltaToBestVisible: { unit: 'points', value: 0, time: null } });
    expect(table.rows[2]!.cells).toEqual([null, null]);
  });

  it('sends the same deltas as the map view shows, so the window never works them out again', () => {
    const maps = [
      { map: map(RACE, { mapUid: 'r' }), records: [record('me', 50_500), record('x', 50_000)] },
      { map: map('TrackMania\\TM_Platform', { mapUid: 'p' }), records: [record('me', 61_000, { respawnCount: 2 }), record('x', 55_000, { respawnCount: 1 })] },
    ];
    const grid = compareTable('L', players, maps, 'me');
    maps.forEach(({ map: m, records }, row) => {
      const { entries } = rankedEntries(m, players, records, 'me', () => undefined);
      players.forEach((p, column) => {
        const entry = entries.find((e) => e.player.accountId === p.accountId)!;
        const cell = grid.rows[row]!.cells[column]!;
        expect([cell.deltaToBest ?? null, cell.deltaToMe ?? null], `${m.mapUid} ${p.accountId}`).toEqual([entry.deltaToBest, entry.deltaToMe]);
      });
    });
    expect(grid.rows[1]!.cells[1]!.deltaToMe).toEqual({ unit: 'respawns', value: -1, time: -6000 });
  });

  it('reads one player\'s PBs, ranks, gaps and medal progress out of the table', () => {
    const pbs = playerPbs(table, 0, () => '2026-01-01T00:00:00Z');
    expect(pbs.map((pb) => [pb.mapUid, pb.hasRecord, pb.hidden, pb.time, pb.rank, pb.deltaToBest?.value ?? null, pb.secret])).toEqual([
      ['r', true, false, 50_500, 2, 500, 0],
      ['s', true, true, null, null, null, 1],
      ['n', false, false, null, null, null, 0],
    ]);
    expect(pbs[0]!.progress).toEqual({ medal: 2, next: 3, gap: { unit: 'time', value: 500, time: null } });
    expect(pbs[2]!.setAt).toBeNull();
    for (const pb of pbs) expect(() => s.PlayerPb.parse(pb)).not.toThrow();
  });
});

describe('history and replays', () => {
  const row = (o: Partial<HistoryRow>): HistoryRow => ({
    id: 1, kind: 'improved', mapId: 'map', mapUid: 'uid', accountId: 'a', scope: 'PersonalBest', mapRecordId: 'r', oldTime: 51_000,
    newTime: 50_000, oldScore: 0, newScore: 0, oldRespawnCount: null, newRespawnCount: null, hidden: false, medal: 3,
    recordTimestamp: '2026-01-01T00:00:00Z', seenAt: '2026-01-02T00:00:00Z', syncRunId: 1, ...o,
  });

  it('a Platform improvement carries its respawns; a secret one shows no value; changes are left out', () => {
    const rows = [row({ oldRespawnCount: 2, newRespawnCount: 1, oldTime: 40_000, newTime: 45_000 }), row({ hidden: true, newTime: null, newScore: 4294967295 }), row({ kind: 'changed' })];
    const items = improvements(rows, () => map('TrackMania\\TM_Platform'));
    expect(items.map((i) => [i.kind, i.value, i.previous, i.respawnCount, i.previousRespawnCount])).toEqual([
      ['platform', 45_000, 40_000, 1, 2],
      ['platform', null, 51_000, null, null],
    ]);
  });

  it('a record that was secret before reads as such: no earlier result, never an empty time or a sentinel score', () => {
    const rows = [row({ oldTime: null, oldScore: 4294967295, newTime: 50_000 }), row({ kind: 'first', oldTime: null, oldScore: null }), row({})];
    const items = improvements(rows, () => map('TrackMania\\TM_Stunt'));
    expect(items.map((i) => [i.previousHidden, i.previous])).toEqual([[true, null], [false, null], [false, 0]]);
    for (const item of items) expect(() => s.Improvement.parse(item)).not.toThrow();
  });

  it('a replay of a secret Stunt record shows no score', () => {
    const list = replayInfos(
      [{ mapRecordId: 'rec-a', mapId: 'map', mapUid: 'uid', mapName: 'M', accountId: 'a', playerName: null, state: 'downloaded', path: 'p', size: 3, sha256: 'x', error: null, attempts: 0, updatedAt: '' }],
      '/f', (p) => `/abs/${p}`, () => record('a', null, { score: 4294967295 }), () => map('TrackMania\\TM_Stunt'),
    );
    expect(list.replays[0]).toMatchObject({ result: null, kind: 'stunt', playerName: 'a' });
  });

  it('a replay of a visible Platform PB reads in respawns, with the time', () => {
    const list = replayInfos(
      [{ mapRecordId: 'rec-a', mapId: 'map', mapUid: 'uid', mapName: 'M', accountId: 'a', playerName: null, state: 'downloaded', path: 'p', size: 3, sha256: 'x', error: null, attempts: 0, updatedAt: '' }],
      '/f', (p) => `/abs/${p}`, () => record('a', 45_120, { respawnCount: 2 }), () => map('TrackMania\\TM_Platform'),
    );
    expect(list.replays[0]).toMatchObject({ kind: 'platform', result: { hidden: false, time: 45_120, score: null, respawnCount: 2 } });
  });
});

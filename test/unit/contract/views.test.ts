// The service's mapping of stored rows to the contract's view shapes.
import { describe, expect, it } from 'vitest';
import { naturalDelta, playerPbs, rankedEntries } from '../../../src-main/service/views.ts';
import type { Player, StoredRecord } from '../../../src-main/core/store/index.ts';

const player = (accountId: string, nickname: string | null = null): Player => ({ accountId, nickname, displayName: null, displayNameFetchedAt: null, name: accountId });

function record(accountId: string, time: number | null, o: Partial<StoredRecord> = {}): StoredRecord {
  return {
    mapRecordId: `rec-${accountId}`, mapId: 'map', accountId, gameMode: 'TimeAttack', gameModeCustomData: '', scopeType: 'PersonalBest', scopeId: null,
    time, hidden: time === null, score: 0, respawnCount: null, medal: 3, removed: false, timestamp: '2026-01-01T00:00:00Z', url: 'https://x/', filename: 'f',
    scope: 'PersonalBest', mapUid: 'uid', playerName: accountId, firstSeenAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', ...o,
  } as StoredRecord;
}

describe('view mapping', () => {
  it('turns worse-is-positive deltas into value − reference', () => {
    expect(naturalDelta(120, false)).toBe(120);
    expect(naturalDelta(120, true)).toBe(-120);
    expect(naturalDelta(null, true)).toBeNull();
  });

  it('ranks a map: ties share a rank, hidden entries follow unranked, absent players last', () => {
    const players = [player('a'), player('b', 'Bee'), player('c'), player('d'), player('me')];
    const records = [record('a', 50_000), record('b', 49_000), record('c', null), record('me', 50_000)];
    const entries = rankedEntries({ mapType: 'TrackMania\\TM_Race' }, players, records, 'me', () => ({ state: 'downloaded', path: 'replays/x.gbx', size: 10 }));
    expect(entries.map((e) => [e.player.accountId, e.rank, e.deltaToBest, e.deltaToMe])).toEqual([
      ['b', 1, 0, -1000],
      ['a', 2, 1000, 0],
      ['me', 2, 1000, null],
      ['c', null, null, null],
      ['d', null, null, null],
    ]);
    expect(entries[3]).toMatchObject({ hidden: true, time: null, replay: { state: 'hidden' } });
    expect(entries[4]).toMatchObject({ hasRecord: false, replay: { state: 'none' } });
    expect(entries[0]!.replay).toEqual({ state: 'downloaded', file: 'replays/x.gbx', bytes: 10 });
  });

  it('ranks Stunt maps by score, higher first', () => {
    const entries = rankedEntries({ mapType: 'TrackMania\\TM_Stunt' }, [player('a'), player('b')], [record('a', 30_000, { score: 500 }), record('b', 40_000, { score: 900 })], 'a', () => undefined);
    expect(entries.map((e) => [e.player.accountId, e.rank, e.score, e.deltaToBest])).toEqual([
      ['b', 1, 900, 0],
      ['a', 2, 500, -400],
    ]);
    expect(entries[0]!.deltaToMe).toBe(400);
  });

  it('reads one player’s PBs, ranks and gaps out of a compare table', () => {
    const table = {
      list: 'L', me: 0, total: 2, complete: true,
      players: [{ accountId: 'me', nickname: null, displayName: null, isMe: true }, { accountId: 'x', nickname: null, displayName: null, isMe: false }],
      rows: [
        { mapUid: 'r', name: 'Race', isStunt: false, medals: { author: 1, gold: 2, silver: 3, bronze: 4 }, values: [50_500, 50_000], earned: [3, 4], hidden: [false, false] },
        { mapUid: 's', name: 'Stunt', isStunt: true, medals: { author: 1, gold: 2, silver: 3, bronze: 4 }, values: [null, 900], earned: [3, 4], hidden: [true, false] },
      ],
    };
    expect(playerPbs(table, 0, () => '2026-01-01T00:00:00Z')).toEqual([
      { mapUid: 'r', mapName: 'Race', isStunt: false, hasRecord: true, hidden: false, value: 50_500, medal: 3, setAt: '2026-01-01T00:00:00Z', rank: 2, deltaToBest: 500 },
      { mapUid: 's', mapName: 'Stunt', isStunt: true, hasRecord: true, hidden: true, value: null, medal: 3, setAt: '2026-01-01T00:00:00Z', rank: null, deltaToBest: null },
    ]);
  });
});

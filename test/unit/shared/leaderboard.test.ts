// The game's rules (docs/game-rules.md), one case each: every map kind, ties, secret entries, missing records, "me".
import { describe, expect, it } from 'vitest';
import {
  compareResults, contradictedMedal, countMedals, deltaDirection, deltaOf, formatDelta, formatGapLimit, formatImprovement, formatMedalGap, formatMedalScore,
  formatResult, GAP_LIMITS, isHiddenByThreshold, isImprovement, isWithin, kindLabel, mapKind, medalOf, medalProgress, playerLabel,
  playerLabelOf, positionOfResult, rankLeaderboard, rankStoredBoard, resultText, storedBoardRanks, unitOf, worldScoreOf,
  type Contender, type MapKind, type MedalScores, type RankableRecord,
} from '../../../src-main/shared/leaderboard.ts';

const race = (time: number, extra: Partial<RankableRecord> = {}): RankableRecord => ({ hidden: false, time, score: 0, respawnCount: null, medal: 0, ...extra });
const stunt = (score: number, extra: Partial<RankableRecord> = {}): RankableRecord => ({ hidden: false, time: 60_000, score, respawnCount: null, medal: 0, ...extra });
const platform = (respawnCount: number | null, time: number, extra: Partial<RankableRecord> = {}): RankableRecord => ({ hidden: false, time, score: 0, respawnCount, medal: 0, ...extra });
/** A secret entry: whatever the service put in its fields (here a sentinel and a score) must not count. */
const secret = (medal = 3): RankableRecord => ({ hidden: true, time: null, score: 4294967295, respawnCount: null, medal });

function board(kind: MapKind, entries: [string, RankableRecord | null, boolean?][]) {
  const contenders: Contender<string>[] = entries.map(([name, record, isMe]) => ({ player: name, name, record, isMe }));
  return rankLeaderboard(kind, contenders);
}
const order = (b: ReturnType<typeof board>) => b.entries.map((e) => e.player);
const ranks = (b: ReturnType<typeof board>) => Object.fromEntries(b.entries.map((e) => [e.player, e.rank]));

describe('map kinds', () => {
  it.each([
    ['TrackMania\\TM_Race', false, 'race', 'time', 'Race'],
    ['TrackMania\\TM_Race', true, 'clones', 'time', 'Race (clones)'],
    ['TrackMania\\TM_Stunt', false, 'stunt', 'points', 'Stunt'],
    ['TrackMania\\TM_Platform', false, 'platform', 'respawns', 'Platform'],
    ['TrackMania\\TM_Royal', false, 'other', 'time', 'Royal'],
    ['', false, 'other', 'time', 'Other'],
  ] as const)('%s (clones: %s) is %s, ranked by %s', (mapType, hasClones, kind, unit, label) => {
    expect(mapKind({ mapType, hasClones })).toBe(kind);
    expect(unitOf(kind)).toBe(unit);
    expect(kindLabel(kind, mapType)).toBe(label);
  });

  it('never throws on a map type that is not text', () => {
    expect(mapKind({ mapType: undefined })).toBe('other');
    expect(mapKind({ mapType: 42, hasClones: 'yes' })).toBe('other');
  });
});

describe('world positions', () => {
  it('are asked by time on race maps and by points on Stunt maps; never for a secret entry, a Platform map or no value', () => {
    expect(worldScoreOf('race', race(41_234))).toBe(41_234);
    expect(worldScoreOf('clones', race(41_234))).toBe(41_234);
    expect(worldScoreOf('other', race(41_234))).toBe(41_234);
    expect(worldScoreOf('stunt', stunt(5_120))).toBe(5_120);
    expect(worldScoreOf('race', { hidden: false, time: null, score: 0 })).toBeNull();
    expect(worldScoreOf('stunt', { hidden: false, time: 60_000, score: null })).toBeNull();
    expect(worldScoreOf('race', secret())).toBeNull();
    expect(worldScoreOf('stunt', secret())).toBeNull();
    expect(worldScoreOf('platform', platform(2, 45_000))).toBeNull();
  });
});

describe('ordering per kind', () => {
  it('Race and clones: fastest first', () => {
    for (const kind of ['race', 'clones', 'other'] as const) {
      expect(order(board(kind, [['slow', race(31_000)], ['fast', race(30_000)], ['mid', race(30_500)]]))).toEqual(['fast', 'mid', 'slow']);
    }
  });

  it('Stunt: most points first, whatever the run took', () => {
    const b = board('stunt', [['low', stunt(4000, { time: 10_000 })], ['high', stunt(5200, { time: 90_000 })]]);
    expect(order(b)).toEqual(['high', 'low']);
  });

  it('Platform: fewest respawns first, then the time; untracked respawns after counted ones', () => {
    const b = board('platform', [
      ['fast but 3', platform(3, 40_000)],
      ['slow but 0', platform(0, 90_000)],
      ['0 and faster', platform(0, 80_000)],
      ['untracked', platform(null, 10_000)],
    ]);
    expect(order(b)).toEqual(['0 and faster', 'slow but 0', 'fast but 3', 'untracked']);
    expect(ranks(b)).toEqual({ '0 and faster': 1, 'slow but 0': 2, 'fast but 3': 3, untracked: 4 });
  });

  it('compareResults is negative when the first is ahead, 0 when tied', () => {
    expect(compareResults('race', race(1), race(2))).toBeLessThan(0);
    expect(compareResults('stunt', stunt(1), stunt(2))).toBeGreaterThan(0);
    expect(compareResults('platform', platform(1, 5), platform(1, 5))).toBe(0);
    expect(compareResults('race', secret(), race(1))).toBeGreaterThan(0); // a hidden result is not rankable by value
  });
});

describe('ties share a rank (competition ranking)', () => {
  it('1, 2, 2, 4 with the earlier record listed first', () => {
    const b = board('race', [
      ['d', race(33_000)],
      ['c later', race(31_000, { timestamp: '2026-02-01T00:00:00Z' })],
      ['b earlier', race(31_000, { timestamp: '2026-01-01T00:00:00Z' })],
      ['a', race(30_000)],
    ]);
    expect(order(b)).toEqual(['a', 'b earlier', 'c later', 'd']);
    expect(b.entries.map((e) => e.rank)).toEqual([1, 2, 2, 4]);
  });

  it('equal best results are both best, with a zero delta', () => {
    const b = board('stunt', [['x', stunt(500)], ['y', stunt(500)], ['z', stunt(400)]]);
    expect(b.entries.map((e) => e.isBest)).toEqual([true, true, false]);
    expect(b.entries.map((e) => e.deltaToBest?.value)).toEqual([0, 0, -100]);
  });

  it('Platform ties only on respawns and time together', () => {
    const b = board('platform', [['a', platform(1, 50_000)], ['b', platform(1, 50_000)], ['c', platform(1, 50_001)]]);
    expect(b.entries.map((e) => e.rank)).toEqual([1, 1, 3]);
  });
});

describe('secret entries', () => {
  const medals: MedalScores = { author: 50_000, gold: 60_000, silver: 70_000, bronze: 80_000 };
  /** Facts of a map read by an account none of whose records is among these (a service account). */
  const notWatched = { medals, viewerKnown: true };
  const rangeOf = (b: ReturnType<typeof board>) => Object.fromEntries(b.entries.map((e) => [e.player, e.rankRange && (e.rankRange.min === e.rankRange.max ? e.rankRange.min : `${e.rankRange.min}-${e.rankRange.max}`)]));
  function boardOf(kind: MapKind, entries: [string, RankableRecord | null, Partial<Contender<string>>?][], facts: Parameters<typeof rankLeaderboard>[2]) {
    return rankLeaderboard(kind, entries.map(([name, record, extra]) => ({ player: name, name, record, ...extra })), facts);
  }

  it('come ahead of every visible entry when none is the reader\'s own: 3 secret, the best visible is 4th', () => {
    const b = boardOf('race', [['v1', race(61_000, { medal: 2 })], ['s1', secret(3)], ['v2', race(62_000, { medal: 2 })], ['s2', secret(4)], ['s3', secret(3)]], notWatched);
    expect(order(b)).toEqual(['s2', 's1', 's3', 'v1', 'v2']);
    expect(b.secret).toBe(3);
    // The author medal is ahead of both golds; the two golds' order is not known: each holds 2 or 3.
    expect(rangeOf(b)).toEqual({ s2: 1, s1: '2-3', s3: '2-3', v1: 4, v2: 5 });
    expect(ranks(b)).toEqual({ s2: 1, s1: null, s3: null, v1: 4, v2: 5 });
    expect(b.entries.filter((e) => e.status === 'secret').every((e) => e.deltaToBest === null && e.deltaToBestVisible === null)).toBe(true);
    expect(b.entries[0]).toMatchObject({ player: 's2', isBest: true });
    expect(b.bestIsKnown).toBe(false);
  });

  it('the best visible is "best" only when no secret entry can be ahead; its delta to best is then to it', () => {
    const b = boardOf('race', [['s', secret(3)], ['v1', race(65_000, { medal: 2 })], ['v2', race(65_250, { medal: 2 })]], notWatched);
    expect(b.entries.find((e) => e.player === 'v1')).toMatchObject({ isBest: false, isBestVisible: true, deltaToBest: null, deltaToBestVisible: { unit: 'time', value: 0 } });
    expect(b.entries.find((e) => e.player === 'v2')).toMatchObject({ deltaToBest: null, deltaToBestVisible: { unit: 'time', value: 250, time: null } });
    const clear = boardOf('race', [['v1', race(65_000)], ['v2', race(65_250)]], notWatched);
    expect(clear.bestIsKnown).toBe(true);
    expect(clear.entries[1]).toMatchObject({ isBest: false, deltaToBest: { unit: 'time', value: 250 } });
  });

  describe('your own record, visible though better than the threshold (the service never hides it from you)', () => {
    // Me: gold, 0:58.178, read with my own account. The threshold is a time: the secret entries are faster than it,
    // but I may be too, so only their medals say where they stand against me.
    const me = race(58_178, { medal: 3 });
    const cases: [string, number, string | number, string | number][] = [
      // [case, the secret entry's medal, its rank, my rank]
      ['a lower medal (bronze) is behind me', 1, 2, 1],
      ['a higher medal (author) is ahead of me', 4, 1, 2],
      ['the same medal (gold): either may be ahead', 3, '1-2', '1-2'],
    ];
    it.each(cases)('%s', (_case, medal, secretRank, myRank) => {
      const b = boardOf('race', [['me', me, { isMe: true, isViewer: true }], ['s', secret(medal)], ['rival', race(71_000, { medal: 1 })]], { medals, viewerKnown: true });
      expect(rangeOf(b)).toEqual({ me: myRank, s: secretRank, rival: 3 });
      expect(b.entries.find((e) => e.player === 'me')!.isBest).toBe(myRank === 1);
    });

    it('the shipped demo\'s case: two bronze secret entries are behind my gold, not ahead', () => {
      const b = boardOf('race', [
        ['me', me, { isMe: true, isViewer: true }], ['s1', secret(1)], ['s2', secret(1)], ['s3', secret(4)], ['r', race(72_000, { medal: 1 })],
      ], { medals, viewerKnown: true });
      expect(order(b)).toEqual(['s3', 'me', 's1', 's2', 'r']);
      expect(rangeOf(b)).toEqual({ s3: 1, me: 2, s1: '3-4', s2: '3-4', r: 5 });
    });

    it('a record as fast as mine that is not mine puts mine at or above the threshold: every secret entry is ahead', () => {
      const b = boardOf('race', [['me', race(58_178, { medal: 3 }), { isMe: true, isViewer: true }], ['s', secret(1)], ['twin', race(58_000, { medal: 3 })]], { medals, viewerKnown: true });
      expect(rangeOf(b)).toEqual({ s: 1, twin: 2, me: 3 });
    });

    it('with the reader not known, the fastest visible record may be theirs; the others are at or above the threshold', () => {
      const b = boardOf('race', [['a', race(58_178, { medal: 3 })], ['s', secret(3)], ['b', race(59_000, { medal: 3 })]], { medals });
      expect(rangeOf(b)).toEqual({ a: '1-2', s: '1-2', b: 3 });
      expect(b.entries.find((e) => e.player === 'a')).toMatchObject({ isBest: false, isBestVisible: true, deltaToBest: null });
    });

    it('without medal scores nothing is inferred from a medal', () => {
      const b = boardOf('race', [['me', me, { isMe: true, isViewer: true }], ['s', secret(1)]], { viewerKnown: true });
      expect(rangeOf(b)).toEqual({ me: '1-2', s: '1-2' });
      const crooked = boardOf('race', [['me', me, { isMe: true, isViewer: true }], ['s', secret(1)]], { viewerKnown: true, medals: { ...medals, gold: 90_000 } });
      expect(rangeOf(crooked)).toEqual({ me: '1-2', s: '1-2' });
    });
  });

  describe('the threshold is a time on every map kind', () => {
    const platformMedals: MedalScores = { author: 0, gold: 1, silver: 3, bronze: 5 };
    const stuntMedals: MedalScores = { author: 6_000, gold: 5_000, silver: 4_000, bronze: 3_000 };

    it('Platform: a secret entry ranks by its respawns first, which its medal bounds; with as many, its time is ahead', () => {
      const b = boardOf('platform', [
        ['zero', platform(0, 90_000, { medal: 4 })], ['two', platform(2, 40_000, { medal: 2 })], ['seven', platform(7, 30_000)],
        ['s gold', secret(3)], ['s silver', secret(2)], ['s none', secret(0)],
      ], { medals: platformMedals, viewerKnown: true });
      // gold = exactly 1 respawn: behind 0, ahead of 2. silver = 2 or 3 respawns: against "two" (2 respawns, its time at or
      // above the threshold) ahead with 2, behind with 3, so not known. none = 6 or more: behind "two", not known
      // against "seven".
      expect(rangeOf(b)).toEqual({ zero: 1, 's gold': 2, 's silver': '3-4', two: '3-4', 's none': '5-6', seven: '5-6' });
    });

    it('Platform: a secret entry holding the same respawns as a visible one is ahead of it (a faster time)', () => {
      const b = boardOf('platform', [['one', platform(1, 40_000, { medal: 3 })], ['s', secret(3)]], { medals: platformMedals, viewerKnown: true });
      expect(rangeOf(b)).toEqual({ s: 1, one: 2 });
    });

    it('Stunt: a faster run says nothing of its points: only a medal places a secret entry', () => {
      const b = boardOf('stunt', [
        ['high', stunt(6_500, { medal: 4 })], ['mid', stunt(4_500, { medal: 2 })], ['s silver', secret(2)], ['s author', secret(4)], ['s bronze', secret(1)],
      ], { medals: stuntMedals, viewerKnown: true });
      expect(rangeOf(b)).toEqual({ high: '1-2', 's author': '1-2', mid: '3-4', 's silver': '3-4', 's bronze': 5 });
      expect(resultText('stunt', b.entries.find((e) => e.player === 's author')!.record!)).toEqual({ main: 'SECRET', beside: null });
      expect(deltaOf('stunt', secret(), stunt(900))).toBeNull();
    });

    it('isHiddenByThreshold hides a time strictly faster than the threshold, whatever the points or respawns', () => {
      expect([29_999, 30_000, 30_001].map((time) => isHiddenByThreshold({ time }, 30_000))).toEqual([true, false, false]);
      expect(isHiddenByThreshold({ time: 1 }, 30_000)).toBe(true);
      expect(isHiddenByThreshold({ time: null }, 30_000)).toBe(false);
    });
  });

  describe('world positions bound how many are ahead', () => {
    const asOf = '2026-11-20T10:00:00Z';
    const before = '2026-11-01T00:00:00Z';
    const after = '2026-11-25T00:00:00Z';

    it('my world #2 with one secret entry surely ahead: the other gold secret entry, set before, is behind', () => {
      const b = boardOf('race', [
        ['me', race(58_178, { medal: 3, timestamp: before }), { isMe: true, isViewer: true, worldPosition: { position: 2, asOf } }],
        ['s author', { ...secret(4), timestamp: before }], ['s gold', { ...secret(3), timestamp: before }],
      ], { medals, viewerKnown: true });
      expect(rangeOf(b)).toEqual({ 's author': 1, me: 2, 's gold': 3 });
    });

    it('a secret entry set after the position was asked is not bound by it', () => {
      const b = boardOf('race', [
        ['me', race(58_178, { medal: 3, timestamp: before }), { isMe: true, isViewer: true, worldPosition: { position: 2, asOf } }],
        ['s author', { ...secret(4), timestamp: before }], ['s gold', { ...secret(3), timestamp: after }],
      ], { medals, viewerKnown: true });
      expect(rangeOf(b)).toEqual({ 's author': 1, me: '2-3', 's gold': '2-3' });
    });

    it('world #1 puts every secret entry set before behind me', () => {
      const b = boardOf('race', [
        ['me', race(58_178, { medal: 3, timestamp: before }), { isMe: true, isViewer: true, worldPosition: { position: 1, asOf } }],
        ['s', { ...secret(3), timestamp: before }],
      ], { medals, viewerKnown: true });
      expect(rangeOf(b)).toEqual({ me: 1, s: 2 });
      expect(b.entries[0]).toMatchObject({ player: 'me', isBest: true });
      expect(b.bestIsKnown).toBe(true);
    });

    it('of two secret entries holding the same medal, only the one set before the position was asked is bound by it', () => {
      const b = boardOf('race', [
        ['me', race(58_178, { medal: 3, timestamp: before }), { isMe: true, isViewer: true, worldPosition: { position: 1, asOf } }],
        ['s before', { ...secret(3), timestamp: before }], ['s after', { ...secret(3), timestamp: after }],
      ], { medals, viewerKnown: true });
      expect(rangeOf(b)).toEqual({ me: '1-2', 's before': '2-3', 's after': '1-3' });
    });
  });
});

describe('missing records', () => {
  it('players without a record come last, unranked, in the order given', () => {
    const b = board('race', [['none 1', null], ['v', race(30_000)], ['none 2', null]]);
    expect(order(b)).toEqual(['v', 'none 1', 'none 2']);
    expect(b.entries.slice(1).map((e) => [e.status, e.rank, e.deltaToBest, e.deltaToMe])).toEqual([['none', null, null, null], ['none', null, null, null]]);
  });

  it('a visible record with nothing its kind ranks by is kept, unranked, after the ranked ones', () => {
    const b = board('race', [['odd', race(0, { time: null })], ['v', race(30_000)]]);
    expect(b.entries.map((e) => [e.player, e.status, e.rank])).toEqual([['v', 'ranked', 1], ['odd', 'unranked', null]]);
  });

  it('an empty map is an empty leaderboard', () => {
    expect(board('platform', [])).toEqual({ kind: 'platform', entries: [], secret: 0, bestIsKnown: false });
  });
});

describe('"me"', () => {
  it('delta to me is value − mine; empty on my own entry', () => {
    const b = board('race', [['me', race(30_500), true], ['ahead', race(30_000)], ['behind', race(31_000)]]);
    const by = Object.fromEntries(b.entries.map((e) => [e.player, e.deltaToMe?.value ?? null]));
    expect(by).toEqual({ ahead: -500, me: null, behind: 500 });
    expect(b.entries.find((e) => e.player === 'me')?.isMe).toBe(true);
  });

  it('on Stunt a positive delta to me is more points; on Platform it is in respawns with the time beside', () => {
    const s = board('stunt', [['me', stunt(1000), true], ['x', stunt(1200)]]);
    expect(s.entries[0]!.deltaToMe).toEqual({ unit: 'points', value: 200, time: null });
    const p = board('platform', [['me', platform(2, 50_000), true], ['x', platform(1, 52_000)]]);
    expect(p.entries[0]!.deltaToMe).toEqual({ unit: 'respawns', value: -1, time: 2000 });
  });

  it('no delta to me when my entry is secret, missing, or there is no me', () => {
    expect(board('race', [['me', secret(), true], ['x', race(1)]]).entries[1]!.deltaToMe).toBeNull();
    expect(board('race', [['me', null, true], ['x', race(1)]]).entries[0]!.deltaToMe).toBeNull();
    expect(board('race', [['x', race(1)], ['y', race(2)]]).entries[1]!.deltaToMe).toBeNull();
  });
});

describe('deltas: one sign convention, one formatter', () => {
  it.each([
    [{ unit: 'time', value: 412, time: null }, '+0:00.412', 'behind'],
    [{ unit: 'time', value: -120, time: null }, '-0:00.120', 'ahead'],
    [{ unit: 'time', value: 0, time: null }, '+0:00.000', 'level'],
    [{ unit: 'points', value: 215, time: null }, '+215 pts', 'ahead'],
    [{ unit: 'points', value: -1020, time: null }, '-1,020 pts', 'behind'],
    [{ unit: 'respawns', value: 1, time: -3000 }, '+1 respawn', 'behind'],
    [{ unit: 'respawns', value: -2, time: 5000 }, '-2 respawns', 'ahead'],
    [{ unit: 'respawns', value: 0, time: 250 }, '+0:00.250', 'behind'],
    [{ unit: 'respawns', value: 0, time: null }, '+0 respawns', 'level'],
  ] as const)('%j reads %s (%s)', (delta, text, direction) => {
    expect(formatDelta(delta)).toBe(text);
    expect(deltaDirection(delta)).toBe(direction);
  });

  it('no delta reads as nothing', () => {
    expect(formatDelta(null)).toBe('');
  });

  it('Platform without respawn counts falls back to the time', () => {
    expect(deltaOf('platform', platform(null, 50_000), platform(2, 49_000))).toEqual({ unit: 'time', value: 1000, time: null });
  });
});

describe('how results read', () => {
  it.each([
    ['race', race(61_234), '1:01.234'],
    ['stunt', stunt(12_345), '12,345 pts'],
    ['platform', platform(2, 45_120), '2 respawns (0:45.120)'],
    ['platform', platform(1, 45_120), '1 respawn (0:45.120)'],
    ['platform', platform(null, 45_120), '0:45.120'],
    ['race', secret(), 'SECRET'],
  ] as const)('%s: %j → %s', (kind, record, text) => expect(formatResult(kind, record)).toBe(text));

  it.each([
    ['race', race(41_924), race(42_324), '0:41.924, -0:00.400'],
    ['stunt', stunt(1266), stunt(1222), '1,266 pts, +44 pts'],
    ['platform', platform(1, 67_102), platform(2, 67_978), '1 respawn (1:07.102), -1 respawn'],
    ['platform', platform(2, 67_102), platform(2, 67_978), '2 respawns (1:07.102), -0:00.876'],
    ['race', race(41_924), null, '0:41.924'],
    ['race', secret(), race(42_324), 'SECRET'],
    ['race', race(41_924), secret(), '0:41.924'],
  ] as const)('a new PB on %s: %j after %j → %s', (kind, now, before, text) => expect(formatImprovement(kind, now, before)).toBe(text));

  it('points are grouped exactly as toLocaleString(\'en-US\') groups them, whatever the value', () => {
    const values = [0, -0, 0.4, -0.4, 999, 1000, -1000, 999_999, 1_000_000, -1_234_567, 12.5, -12.5, 2 ** 53, 2 ** 53 + 2, 1e21];
    for (let digits = 1; digits <= 16; digits += 1) values.push(10 ** digits - 1, 10 ** digits, -(10 ** digits) + 7, 1234567890123456 % 10 ** digits);
    for (const points of values) expect(formatResult('stunt', stunt(points)), String(points)).toBe(`${Math.round(points).toLocaleString('en-US')} pts`);
  });

  it('medal scores read in the kind\'s unit: Platform\'s are respawn counts', () => {
    expect(formatMedalScore('race', 45_000)).toBe('0:45.000');
    expect(formatMedalScore('stunt', 5000)).toBe('5,000 pts');
    expect(formatMedalScore('platform', 0)).toBe('0 respawns');
    expect(formatMedalScore('platform', 1)).toBe('1 respawn');
  });
});

describe('medals and medal progress', () => {
  const raceMedals: MedalScores = { author: 40_000, gold: 43_000, silver: 48_000, bronze: 60_000 };
  const stuntMedals: MedalScores = { author: 6000, gold: 5000, silver: 4000, bronze: 3000 };
  const platformMedals: MedalScores = { author: 0, gold: 1, silver: 3, bronze: 5 };

  it('a result earns a medal when it is at least as good as its score', () => {
    expect(medalOf('race', race(40_000), raceMedals)).toBe(4);
    expect(medalOf('race', race(40_001), raceMedals)).toBe(3);
    expect(medalOf('race', race(70_000), raceMedals)).toBe(0);
    expect(medalOf('stunt', stunt(5000), stuntMedals)).toBe(3);
    expect(medalOf('stunt', stunt(2999), stuntMedals)).toBe(0);
    expect(medalOf('platform', platform(0, 99_000), platformMedals)).toBe(4);
    expect(medalOf('platform', platform(2, 10_000), platformMedals)).toBe(2);
    expect(medalOf('platform', platform(6, 10_000), platformMedals)).toBe(0);
  });

  it('the next medal and the gap to it, in the kind\'s unit', () => {
    expect(formatMedalGap(medalProgress('race', race(43_412, { medal: 2 }), raceMedals))).toBe('0:00.412 to gold');
    expect(formatMedalGap(medalProgress('platform', platform(1, 50_000, { medal: 3 }), platformMedals))).toBe('1 respawn to author');
    expect(formatMedalGap(medalProgress('stunt', stunt(4785, { medal: 2 }), stuntMedals))).toBe('215 pts to gold');
    expect(medalProgress('stunt', stunt(4785, { medal: 2 }), stuntMedals)).toEqual({ medal: 2, next: 3, gap: { unit: 'points', value: -215, time: null } });
  });

  it('the medal held is the higher of the service\'s and the result\'s; at author there is no next medal', () => {
    expect(medalProgress('race', race(39_000, { medal: 3 }), raceMedals)).toEqual({ medal: 4, next: null, gap: null });
    expect(formatMedalGap(medalProgress('race', race(39_000, { medal: 4 }), raceMedals))).toBe('');
    expect(medalProgress('race', race(70_000, { medal: 0 }), raceMedals)?.next).toBe(1);
  });

  it('a secret entry keeps its medal; its gap is unknown', () => {
    const p = medalProgress('race', secret(3), raceMedals);
    expect(p).toEqual({ medal: 3, next: 4, gap: null });
    expect(formatMedalGap(p)).toBe('author next');
  });

  it('no record, no progress', () => {
    expect(medalProgress('race', null, raceMedals)).toBeNull();
  });

  it('counts medals and the maps within a limit of the next medal, each gap in its own unit', () => {
    const limit = { time: 500, points: 250, respawns: 1 };
    const progress = [
      medalProgress('race', race(43_412, { medal: 2 }), raceMedals), // 412 ms to gold: near
      medalProgress('race', race(44_000, { medal: 2 }), raceMedals), // 1 s to gold: not near
      medalProgress('stunt', stunt(4785), stuntMedals), // 215 pts to gold: near
      medalProgress('platform', platform(3, 1, { medal: 2 }), platformMedals), // 2 respawns to gold: not near
      medalProgress('race', race(39_000, { medal: 4 }), raceMedals), // author
      medalProgress('race', race(70_000), raceMedals), // none
      medalProgress('race', secret(3), raceMedals), // gold, gap unknown
      null, // no record
    ];
    expect(countMedals(progress, limit)).toEqual({ author: 1, gold: 1, silver: 4, bronze: 0, none: 1, missing: 1, near: 2 });
    expect(isWithin(progress[0], limit)).toBe(true);
    expect(isWithin(progress[3], { ...limit, respawns: 2 })).toBe(true);
    expect(formatGapLimit(GAP_LIMITS[1]!)).toBe('0:00.500 · 250 pts · 1 respawn');
  });
});

describe('what counts as an improvement (the history)', () => {
  it('a better result by the kind\'s order', () => {
    expect(isImprovement('race', race(31_000), race(30_999))).toBe(true);
    expect(isImprovement('race', race(31_000), race(31_000))).toBe(false);
    expect(isImprovement('stunt', stunt(900), stunt(901))).toBe(true);
    expect(isImprovement('stunt', stunt(900), stunt(899))).toBe(false);
  });

  it('Platform: fewer respawns even if slower, or as many and faster', () => {
    expect(isImprovement('platform', platform(2, 40_000), platform(1, 60_000))).toBe(true);
    expect(isImprovement('platform', platform(1, 60_000), platform(1, 59_000))).toBe(true);
    expect(isImprovement('platform', platform(1, 40_000), platform(2, 30_000))).toBe(false);
  });

  it('a new record behind the secret threshold beats a visible one; an unhidden one is not an improvement', () => {
    expect(isImprovement('race', { ...race(31_000), mapRecordId: 'a' }, { ...secret(), mapRecordId: 'b' })).toBe(true);
    expect(isImprovement('race', { ...race(31_000), mapRecordId: 'a' }, { ...secret(), mapRecordId: 'a' })).toBe(false);
    expect(isImprovement('race', secret(), race(20_000))).toBe(false);
    expect(isImprovement('stunt', secret(), secret())).toBe(false);
  });
});

describe('the name shown for a player', () => {
  it('your nickname for them, else their display name, else the start of the account ID', () => {
    expect(playerLabel({ accountId: 'abcdef12-3456', nickname: 'Rival', displayName: 'RealName' })).toBe('Rival');
    expect(playerLabel({ accountId: 'abcdef12-3456', nickname: null, displayName: '$f00Red$z Baron' })).toBe('$f00Red$z Baron');
    expect(playerLabel({ accountId: 'abcdef12-3456', nickname: '  ', displayName: null })).toBe('abcdef12');
    expect(playerLabel({ accountId: 'abcdef12-3456', displayName: '$f00' })).toBe('abcdef12'); // nothing but codes
  });

  it('says where the name shown comes from, so a window renders a display name with its formatting', () => {
    expect(playerLabelOf({ accountId: 'abcdef12-3456', nickname: ' Rival ', displayName: 'RealName' })).toEqual({ label: 'Rival', source: 'nickname' });
    expect(playerLabelOf({ accountId: 'abcdef12-3456', nickname: '', displayName: '$f00Red$z Baron' })).toEqual({ label: '$f00Red$z Baron', source: 'displayName' });
    expect(playerLabelOf({ accountId: 'abcdef12-3456', nickname: null, displayName: '$o $z' })).toEqual({ label: 'abcdef12', source: 'accountId' });
  });

  it('orders secret entries of the same medal by the name shown, formatting codes aside', () => {
    const b = rankLeaderboard('race', [
      { player: 1, name: '$f00zed', record: secret(3) },
      { player: 2, name: 'Alpha', record: secret(3) },
    ]);
    expect(b.entries.map((e) => e.player)).toEqual([2, 1]);
  });
});

describe('a stored map\'s board: the facts every view and the CSV export rank with (rankStoredBoard)', () => {
  const medals: MedalScores = { author: 44_000, gold: 47_500, silver: 53_000, bronze: 66_000 };
  const map = { mapType: 'TrackMania\\TM_Race', medals };
  const stored = (player: string, record: RankableRecord, position: { score: number; position: number } | null = null) => ({
    player, accountId: player, name: player, record,
    position: position && { ...position, state: 'ranked', asOf: '2026-03-01T00:00:00Z' },
  });
  const rangeOf = (b: ReturnType<typeof rankStoredBoard<string>>, player: string) => b.entries.find((e) => e.player === player)!.rankRange;

  it('a position counts only when asked for this very result and ranked', () => {
    const r = race(47_200);
    expect(positionOfResult('race', { score: 47_200, state: 'ranked', position: 2, asOf: 'x' }, r)).toEqual({ position: 2, asOf: 'x' });
    expect(positionOfResult('race', { score: 48_000, state: 'ranked', position: 2, asOf: 'x' }, r)).toBeNull();
    expect(positionOfResult('race', { score: 47_200, state: 'unavailable', position: null, asOf: 'x' }, r)).toBeNull();
    expect(positionOfResult('platform', { score: 47_200, state: 'ranked', position: 2, asOf: 'x' }, r)).toBeNull();
  });

  it('the medal scores place a secret author entry ahead of a visible gold one; without them, a range', () => {
    const contenders = [stored('me', race(47_200, { medal: 3 })), stored('rival', secret(4))];
    expect(rangeOf(rankStoredBoard(map, contenders, 'me'), 'me')).toEqual({ min: 2, max: 2 });
    expect(rangeOf(rankStoredBoard({ ...map, medals: null }, contenders, 'me'), 'me')).toEqual({ min: 1, max: 2 });
  });

  it('the reader: only their own record may be visible under the threshold; unknown (undefined) is not "nobody" (null)', () => {
    // Two visible golds and a secret gold entry: ahead of every visible record at or above the threshold.
    const contenders = [stored('a', race(45_000, { medal: 3 })), stored('b', race(46_000, { medal: 3 })), stored('h', secret(3))];
    expect(rangeOf(rankStoredBoard(map, contenders, null), 'a')).toEqual({ min: 2, max: 2 });
    expect(rangeOf(rankStoredBoard(map, contenders, 'a'), 'a')).toEqual({ min: 1, max: 2 });
    expect(rangeOf(rankStoredBoard(map, contenders, undefined), 'a')).toEqual({ min: 1, max: 2 });
  });

  it('a stored world position bounds the secret entries set before it was asked; one asked for another result does not', () => {
    const contenders = (position: { score: number; position: number }) => [
      stored('me', race(47_200, { medal: 3, timestamp: '2026-02-01T00:00:00Z' }), position),
      stored('h', secret(3), null),
    ];
    const withPosition = contenders({ score: 47_200, position: 1 });
    withPosition[1]!.record.timestamp = '2026-01-01T00:00:00Z';
    expect(rangeOf(rankStoredBoard(map, withPosition, 'me'), 'me')).toEqual({ min: 1, max: 1 });
    const stale = contenders({ score: 48_000, position: 1 });
    stale[1]!.record.timestamp = '2026-01-01T00:00:00Z';
    expect(rangeOf(rankStoredBoard(map, stale, 'me'), 'me')).toEqual({ min: 1, max: 2 });
  });

  it('storedBoardRanks (the CSV export\'s) gives rankStoredBoard\'s ranks, in the contenders\' order, on 300 mixed boards', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return Math.floor(seed / 65_536) % n;
    };
    const types = ['TrackMania\\TM_Race', 'TrackMania\\TM_Stunt', 'TrackMania\\TM_Platform'];
    let secrets = 0;
    let bounded = 0;
    for (let b = 0; b < 300; b += 1) {
      const board = { mapType: types[b % 3]!, medals: b % 7 === 0 ? null : medals };
      const contenders = Array.from({ length: 1 + next(12) }, (_, player) => {
        const timestamp = `2026-0${1 + next(3)}-01T00:00:00Z`;
        const time = next(5) === 0 ? null : 43_000 + 500 * next(10);
        const shape = next(6);
        const record: RankableRecord | null = shape === 0 ? null : shape === 1 ? { ...secret(next(5)), timestamp }
          : { hidden: false, time, score: next(4) === 0 ? null : next(3000), respawnCount: next(3) === 0 ? null : next(4), medal: next(5), timestamp };
        const asked = record && !record.hidden && next(3) === 0 ? worldScoreOf(mapKind(board), record) : null;
        if (record?.hidden) secrets += 1;
        if (asked !== null) bounded += 1;
        return {
          player, accountId: `a${player}`, name: `p${next(4)}`, record,
          position: asked === null ? null : { score: asked, state: 'ranked', position: 1 + next(4), asOf: '2026-02-15T00:00:00Z' },
        };
      });
      const viewer = [undefined, null, 'a0', 'a1'][next(4)];
      const whole = rankStoredBoard(board, contenders, viewer);
      const expected = contenders.map((c) => whole.entries.find((e) => e.player === c.player)!.rankRange);
      expect(storedBoardRanks(board, contenders, viewer), `board ${b}`).toEqual(expected);
    }
    // The boards hold what makes ranks subtle: secret entries and world positions that bound them.
    expect(secrets).toBeGreaterThan(200);
    expect(bounded).toBeGreaterThan(200);
  });
});

describe('a medal the result contradicts (contradictedMedal)', () => {
  const medals: MedalScores = { author: 44_000, gold: 47_500, silver: 53_000, bronze: 66_000 };
  it('gives the medal the result earns where the service\'s says otherwise, null where they agree', () => {
    expect(contradictedMedal('race', race(70_000, { medal: 4 }), medals)).toBe(0);
    expect(contradictedMedal('race', race(44_000, { medal: 1 }), medals)).toBe(4);
    expect(contradictedMedal('race', race(47_500, { medal: 3 }), medals)).toBeNull();
    expect(contradictedMedal('stunt', stunt(1_000, { medal: 4 }), { author: 6000, gold: 5000, silver: 4000, bronze: 3000 })).toBe(0);
    expect(contradictedMedal('platform', platform(0, 60_000, { medal: 1 }), { author: 0, gold: 1, silver: 3, bronze: 5 })).toBe(4);
  });
  it('says nothing of a secret entry, a run without its unit\'s value, or medal scores out of order or empty', () => {
    expect(contradictedMedal('race', secret(4), medals)).toBeNull();
    expect(contradictedMedal('platform', platform(null, 60_000, { medal: 4 }), { author: 0, gold: 1, silver: 3, bronze: 5 })).toBeNull();
    expect(contradictedMedal('race', race(70_000, { medal: 4 }), { author: 50_000, gold: 47_500, silver: 53_000, bronze: 66_000 })).toBeNull();
    expect(contradictedMedal('race', race(70_000, { medal: 4 }), { author: 0, gold: 0, silver: 0, bronze: 0 })).toBeNull();
    expect(contradictedMedal('race', race(70_000, { medal: 4 }), null)).toBeNull();
  });
});

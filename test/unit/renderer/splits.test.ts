// The splits views' model (src-renderer/lib/splits.ts): best splits, where you lose most, the chart's references and
// line, the checkpoint pager, the list's sorting, where an improvement found its time. Fixtures have the contract's shape.
import { describe, expect, it } from 'vitest';
import {
  bestSplits, chartData, checkpointsThatFit, checkpointWindow, cumulative, foundTime, lapEndedAt, lapStartsOf, MAX_RIVAL_REFERENCES, meOf, newestFirst, previousPbSplits, referencesOf, sortListRows, worstSectors,
} from '../../../src-renderer/lib/splits.ts';
import type { SplitsHistory, SplitsListRow, SplitsRun, SplitsView } from '../../../src-main/contract/index.ts';
import { deltasTo } from '../../../src-main/shared/splits.ts';

function run(accountId: string, checkpoints: (number | null)[], o: Partial<SplitsRun> = {}): SplitsRun {
  const sectors = checkpoints.map((t, i) => (t === null ? null : i === 0 ? t : checkpoints[i - 1] === null ? null : t - checkpoints[i - 1]!));
  return {
    accountId, name: accountId, recordId: `r-${accountId}`, time: checkpoints.at(-1) ?? null, isMe: false, checkpoints, sectors,
    deltaToBest: [], deltaToMe: [], respawns: null, stuntScores: [], comparable: true, note: null, setAt: null, ...o,
  };
}

const map = { mapUid: 'M', mapId: 'm', name: '$f00Red', authorId: 'a', authorName: null, mapType: 'TrackMania\\TM_Race', kind: 'race' as const, isStunt: false, medals: { author: 1, gold: 2, silver: 3, bronze: 4 } };
const me = run('me', [10_000, 21_000, 30_000, 42_000], { isMe: true });
const rival = run('rival', [9_500, 20_000, 30_500, 41_000]);
const third = run('third', [10_200, 20_800, 29_000, 41_500]);
const stale = run('stale', [5_000, 12_000], { comparable: false, note: 'a ghost of 2 checkpoints' });

// The best watched cumulative times, as main sends them through each run's deltaToBest.
const BEST = [9_500, 20_000, 29_000, 41_000];
const withDeltas = (r: SplitsRun): SplitsRun => (r.comparable ? { ...r, deltaToBest: deltasTo(r.checkpoints, BEST) } : r);

function view(o: Partial<SplitsView> = {}): SplitsView {
  return {
    map, list: 'L', checkpoints: 4, laps: null, players: [rival, third, me, stale].map(withDeltas),
    // Best sectors: 9_500 (rival), 10_500 (rival), 8_200 (third), 11_000 (me).
    ideal: { time: 39_200, sectors: [9_500, 10_500, 8_200, 11_000], owners: ['rival', 'rival', 'third', 'me'], gain: 2_800 },
    loseMostAt: { checkpoint: 3, ms: 800 }, vs: null, missing: [], worldRecord: null, ...o,
  };
}

describe('splits model', () => {
  it('the best split per checkpoint is the one main measured the deltas against, from comparable runs only', () => {
    expect(bestSplits(view())).toEqual(BEST);
    // Each run gives it back: its time there minus its delta to the best.
    expect(bestSplits(view({ players: [withDeltas(third)] }))).toEqual(BEST);
    // The stale ghost's faster 5_000 at CP 1 is not a split of this map's version; no deltas, no best.
    expect(bestSplits(view({ players: [stale] }))).toEqual([null, null, null, null]);
    expect(bestSplits(view({ players: [{ ...withDeltas(me), deltaToBest: [null, 1_000, null, null] }] }))).toEqual([null, 20_000, null, null]);
  });

  it('says "Lap n" at each lap\'s first checkpoint after the first, and each lap\'s time where the lap ends', () => {
    const laps = view({ laps: { count: 2, ends: [2, 4] }, players: [{ ...me, lapTimes: [21_000, 21_000] }] });
    expect([...lapStartsOf(laps)]).toEqual([[2, 2]]);
    expect([0, 1, 2, 3].map((i) => lapEndedAt(laps, laps.players[0]!, i))).toEqual([null, { lap: 1, time: 21_000 }, null, { lap: 2, time: 21_000 }]);
    expect([...lapStartsOf(view())]).toEqual([]);
    expect(lapEndedAt(view(), me, 1)).toBeNull();
  });

  it('me is my comparable run; none when mine is not comparable', () => {
    expect(meOf(view())?.accountId).toBe('me');
    expect(meOf(view({ players: [rival, { ...me, comparable: false }] }))).toBeNull();
  });

  it('the sectors where I lose most to the ideal: largest first, real losses only', () => {
    // My sectors: 10_000, 11_000, 9_000, 12_000 against 9_500, 10_500, 8_200, 11_000.
    expect(worstSectors(me, view().ideal.sectors)).toEqual([{ checkpoint: 4, ms: 1_000 }, { checkpoint: 3, ms: 800 }, { checkpoint: 1, ms: 500 }]);
    expect(worstSectors(me, view().ideal.sectors, 1)).toEqual([{ checkpoint: 4, ms: 1_000 }]);
    expect(worstSectors(me, me.sectors)).toEqual([]);
  });

  it('the ideal run cumulates its sectors and stops at the first unknown one', () => {
    expect(cumulative([9_500, 10_500, 8_200])).toEqual([9_500, 20_000, 28_200]);
    expect(cumulative([1, null, 3])).toEqual([1, null, null]);
  });

  it('the chart offers the best watched, the world record, my previous PB and each rival, never myself', () => {
    const wrRun = run('wr', [9_000, 19_000, 28_000, 40_000]);
    const base = { accountId: 'wr', name: 'Holder', secret: false, time: 40_000, score: null, setAt: null, readAt: '2026-11-01T00:00:00.000Z', mapRecordId: 'r-wr' };
    const wr = { ...base, run: wrRun, missing: null };
    const refs = referencesOf(view({ worldRecord: wr }), [10_500, 21_500, 30_500, 42_500]);
    expect(refs.map((r) => r.id)).toEqual(['best', 'wr', 'pb', 'player:rival', 'player:third']);
    expect(refs[1]).toMatchObject({ label: 'World record (wr)', checkpoints: wrRun.checkpoints });
    expect(referencesOf(view()).map((r) => r.id)).toEqual(['best', 'player:rival', 'player:third']);
    expect(referencesOf(view({ worldRecord: { ...wr, run: { ...wrRun, comparable: false } } })).map((r) => r.id)).not.toContain('wr');
    // A secret WR (or one without its ghost) is no reference: the section says why in one line instead.
    expect(referencesOf(view({ worldRecord: { ...base, secret: true, time: null, run: null, missing: { reason: 'secret', note: 'secret' } } })).map((r) => r.id)).not.toContain('wr');
  });

  it('offers at most the rivals nearest my time, in main\'s order', () => {
    const many = Array.from({ length: 50 }, (_, i) => run(`p${i}`, [10_000, 21_000, 30_000, 30_000 + i * 1_000]));
    const ids = referencesOf(view({ players: [...many, me] })).filter((r) => r.id.startsWith('player:')).map((r) => r.id);
    // My time 42_000: p12 is level, then p11/p13, ... out to p0 at 30_000 and p27 beyond; the far ones are left out.
    expect(ids).toHaveLength(MAX_RIVAL_REFERENCES);
    expect(ids).toContain('player:p12');
    expect(ids).not.toContain('player:p49');
    expect(ids).toEqual([...ids].sort((a, b) => Number(a.slice(8)) - Number(b.slice(8))));
  });

  it('the chart line is my delta to the reference at each checkpoint, x the checkpoint number', () => {
    const [best] = referencesOf(view());
    expect(chartData(me, best!)).toEqual([[1, 2, 3, 4], [500, 1_000, 1_000, 1_000]]);
    const rivalRef = referencesOf(view()).find((r) => r.id === 'player:rival')!;
    expect(chartData(me, rivalRef)[1]).toEqual([500, 1_000, -500, 1_000]);
  });

  it('pages checkpoints a screen at a time, kept inside the range', () => {
    expect(checkpointWindow(20, 8, 0)).toEqual({ first: 0, last: 8, previous: null, next: 8 });
    expect(checkpointWindow(20, 8, 8)).toEqual({ first: 8, last: 16, previous: 0, next: 16 });
    expect(checkpointWindow(20, 8, 16)).toEqual({ first: 12, last: 20, previous: 4, next: null });
    expect(checkpointWindow(5, 8, 3)).toEqual({ first: 0, last: 5, previous: null, next: null });
    expect(checkpointsThatFit(1000, 300, 86)).toBe(8);
    expect(checkpointsThatFit(0, 300, 86)).toBe(1);
  });
});

describe('the list\'s where-you-lose-most rows', () => {
  const row = (mapName: string, gain: number | null, cp: number | null, ms = 0): SplitsListRow => ({
    mapUid: mapName, mapName, possibleGain: gain, loseMostAt: cp === null ? null : { checkpoint: cp, ms }, myTime: null, idealTime: null, runs: 2,
  });
  const rows = [row('B', 300, 2, 200), row('a', 900, 5, 100), row('C', null, null), row('D', 300, 1, 300)];

  it('sorts by possible gain, either way, maps without one last', () => {
    expect(sortListRows(rows, 'gain', true).map((r) => r.mapName)).toEqual(['a', 'B', 'D', 'C']);
    expect(sortListRows(rows, 'gain', false).map((r) => r.mapName)).toEqual(['B', 'D', 'a', 'C']);
  });

  it('sorts by the time lost at the worst checkpoint, by its number, by name', () => {
    expect(sortListRows(rows, 'loss', true).map((r) => r.mapName)).toEqual(['D', 'B', 'a', 'C']);
    expect(sortListRows(rows, 'checkpoint', false).map((r) => r.mapName)).toEqual(['D', 'B', 'a', 'C']);
    expect(sortListRows(rows, 'map', false).map((r) => r.mapName)).toEqual(['a', 'B', 'C', 'D']);
  });
});

describe('the PB history\'s splits', () => {
  it('says where an improvement found its time, most first', () => {
    expect(foundTime([-120, 40, -300, null, 0])).toEqual([{ checkpoint: 3, ms: 300 }, { checkpoint: 1, ms: 120 }]);
    expect(foundTime(null)).toEqual([]);
  });

  it('lists improvements newest first without changing main\'s order', () => {
    const improvement = (recordId: string) => ({ recordId, time: 1, setAt: null, seenAt: '', checkpoints: null, sectors: null, sectorGains: null, respawns: null, missing: null });
    const history: SplitsHistory = { map, accountId: 'p', name: 'p', improvements: [improvement('1'), improvement('2')] };
    expect(newestFirst(history).map((i) => i.recordId)).toEqual(['2', '1']);
    expect(history.improvements.map((i) => i.recordId)).toEqual(['1', '2']);
  });
});

describe('my previous PB as a chart reference', () => {
  const improvement = (recordId: string, checkpoints: number[] | null) => ({ recordId, time: 1, setAt: null, seenAt: '', checkpoints, sectors: null, sectorGains: null, respawns: null, missing: null });
  const history = (...items: ReturnType<typeof improvement>[]): SplitsHistory => ({ map, accountId: 'me', name: 'me', improvements: items });

  it('is the newest improvement before the current record that has splits', () => {
    expect(previousPbSplits(history(improvement('1', [1, 2]), improvement('2', [3, 4]), improvement('3', [5, 6])), '3')).toEqual([3, 4]);
    expect(previousPbSplits(history(improvement('1', [1, 2]), improvement('2', null), improvement('3', [5, 6])), '3')).toEqual([1, 2]);
  });

  it('is none for a first PB, or when no earlier ghost was read', () => {
    expect(previousPbSplits(history(improvement('3', [5, 6])), '3')).toBeNull();
    expect(previousPbSplits(history(improvement('2', null), improvement('3', [5, 6])), '3')).toBeNull();
  });
});

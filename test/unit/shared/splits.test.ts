import { describe, expect, it } from 'vitest';
import {
  checkpointCountOf, compareSplits, deltasTo, lapEnds, lapOf, lapTimesOf, loseMostAt, MAX_SPLITS, sectorGains, sectorsOf, splitsProblem,
} from '../../../src-main/shared/splits.ts';

describe('sectors and deltas', () => {
  it('takes each sector from the cumulative times, the first from the start', () => {
    expect(sectorsOf([1000, 2500, 4000])).toEqual([1000, 1500, 1500]);
  });

  it('leaves a sector unknown where either of its checkpoints is missing (-1 read as null)', () => {
    expect(sectorsOf([1000, null, 4000, 5000])).toEqual([1000, null, null, 1000]);
    expect(deltasTo([1000, null, 4000], [900, 2000, null])).toEqual([100, null, null]);
  });

  it('says where a run loses most, and nothing where it loses nowhere', () => {
    expect(loseMostAt([1000, 1600, 1500], [1000, 1500, 1200])).toEqual({ checkpoint: 3, ms: 300 });
    expect(loseMostAt([900, 1400], [1000, 1500])).toBeNull();
    expect(loseMostAt([null, 1600], [1000, 1500])).toEqual({ checkpoint: 2, ms: 100 });
  });

  it('gives the sectors an improvement gained, only against a run of the same shape', () => {
    expect(sectorGains([1000, 1500, 1500], [1000, 1400, 1550])).toEqual([0, -100, 50]);
    expect(sectorGains(null, [1000])).toBeNull();
    expect(sectorGains([1000, 1500], [1000, 1500, 1500])).toBeNull();
  });
});

describe('laps', () => {
  it('puts a lap boundary every count / laps checkpoints', () => {
    expect(lapEnds(12, 3)).toEqual([4, 8, 12]);
  });

  it('says nothing when the lap count is unknown, 1, or does not divide the checkpoints', () => {
    expect(lapEnds(12, null)).toBeNull();
    expect(lapEnds(12, 1)).toBeNull();
    expect(lapEnds(10, 3)).toBeNull();
  });

  it("gives each lap's time from the checkpoints ending the laps, null where a time is missing", () => {
    expect(lapTimesOf([10, 20, 31, 40, 52, 60], [2, 4, 6])).toEqual([20, 20, 20]);
    expect(lapTimesOf([10, 25, 31, 43, 52, 60], [3, 6])).toEqual([31, 29]);
    expect(lapTimesOf([10, null, 31, 40], [2, 4])).toEqual([null, null]);
    expect(lapTimesOf([10, 20, 31, null], [2, 4])).toEqual([20, null]);
  });

  it('says which lap a checkpoint is crossed in', () => {
    expect([1, 2, 3, 4, 5, 6].map((cp) => lapOf(cp, [2, 4, 6]))).toEqual([1, 1, 2, 2, 3, 3]);
  });
});

describe('compareSplits', () => {
  const me = { id: 'me', checkpoints: [1100, 2600, 4300] };
  const ace = { id: 'ace', checkpoints: [1000, 2400, 4000] };
  const mid = { id: 'mid', checkpoints: [1050, 2400, 4100] };

  it('compares every run with the best watched split and with mine at each checkpoint', () => {
    const c = compareSplits([me, ace, mid], 'me');
    expect(c.checkpoints).toBe(3);
    const byId = new Map(c.runs.map((r) => [r.id, r]));
    expect(byId.get('ace')!.deltaToBest).toEqual([0, 0, 0]);
    expect(byId.get('mid')!.deltaToBest).toEqual([50, 0, 100]);
    expect(byId.get('mid')!.deltaToMe).toEqual([-50, -200, -200]);
    expect(byId.get('me')!.deltaToMe).toEqual([null, null, null]);
  });

  it('sums the best sectors into the ideal run, says who set each, and what I would gain', () => {
    const c = compareSplits([me, ace, mid], 'me');
    // Sectors: me 1100/1500/1700, ace 1000/1400/1600, mid 1050/1350/1700.
    expect(c.ideal.sectors).toEqual([1000, 1350, 1600]);
    expect(c.ideal.owners).toEqual(['ace', 'mid', 'ace']);
    expect(c.ideal.time).toBe(3950);
    expect(c.ideal.gain).toBe(4300 - 3950);
    expect(c.loseMostAt).toEqual({ checkpoint: 2, ms: 150 });
  });

  it('measures against a rival instead of the best sectors when one is named', () => {
    const c = compareSplits([me, ace, mid], 'me', 'mid');
    expect(c.loseMostAt).toEqual({ checkpoint: 2, ms: 150 });
    expect(c.runs.find((r) => r.id === 'ace')!.deltaToVs).toEqual([-50, 0, -100]);
    expect(compareSplits([me, ace], 'me').runs[0]!.deltaToVs).toBeUndefined();
  });

  it('has no ideal time while a sector has no time in any run', () => {
    const c = compareSplits([{ id: 'a', checkpoints: [1000, null, 3000] }, { id: 'b', checkpoints: [1100, null, 3200] }], 'a');
    expect(c.ideal.sectors).toEqual([1000, null, null]);
    expect(c.ideal.time).toBeNull();
    expect(c.ideal.gain).toBeNull();
  });

  it('says a ghost of another checkpoint count (an older map version) is not compared, rather than comparing it wrongly', () => {
    const old = { id: 'old', checkpoints: [900, 2000] };
    const c = compareSplits([me, ace, old], 'me');
    expect(c.checkpoints).toBe(3);
    const shown = c.runs.find((r) => r.id === 'old')!;
    expect(shown.comparable).toBe(false);
    expect(shown.note).toMatch(/2 checkpoints where the map has 3/);
    expect(shown.deltaToBest).toEqual([null, null, null]);
    // Its faster first checkpoint does not become the best split.
    expect(c.runs.find((r) => r.id === 'ace')!.deltaToBest[0]).toBe(0);
    expect(c.ideal.sectors[0]).toBe(1000);
  });

  it('takes the count most runs have, the larger on a tie', () => {
    expect(checkpointCountOf([{ checkpoints: [1, 2] }, { checkpoints: [1, 2, 3] }])).toBe(3);
    expect(checkpointCountOf([{ checkpoints: [1, 2] }, { checkpoints: [1, 2] }, { checkpoints: [1, 2, 3] }])).toBe(2);
    expect(checkpointCountOf([])).toBe(0);
  });

  it('without my run, nothing is measured against me', () => {
    const c = compareSplits([ace, mid], 'me');
    expect(c.ideal.gain).toBeNull();
    expect(c.loseMostAt).toBeNull();
    expect(c.runs[0]!.deltaToMe).toEqual([null, null, null]);
  });
});

describe('splitsProblem', () => {
  it('accepts rising times with missing checkpoints', () => {
    expect(splitsProblem([1000, null, 3000])).toBeNull();
  });

  it('refuses what no run holds, in one line', () => {
    expect(splitsProblem([])).toMatch(/no checkpoint/);
    expect(splitsProblem(Array.from({ length: MAX_SPLITS + 1 }, (_, i) => i))).toMatch(/claims 1001 checkpoints/);
    expect(splitsProblem([1000, -5, 3000])).toMatch(/checkpoint 2 has a negative/);
    expect(splitsProblem([1000, 900])).toMatch(/go backwards at checkpoint 2/);
    expect(splitsProblem([25 * 3600 * 1000])).toMatch(/more than a day/);
  });
});

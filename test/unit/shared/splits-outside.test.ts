// A run outside the watched ones (the world record) compared with them: never in their best, ideal or "lose most".
import { describe, expect, it } from 'vitest';
import { compareOutside, compareSplits } from '../../../src-main/shared/splits.ts';

const me = { id: 'me', checkpoints: [10_000, 21_000, 30_000] };
const rival = { id: 'rival', checkpoints: [9_800, 21_500, 29_900] };
const old = { id: 'old', checkpoints: [15_000, 31_000] };
const wr = { id: 'wr', checkpoints: [9_000, 19_000, 28_000] };

describe('compareOutside', () => {
  it("measures it against the best watched split, mine and vs's, and each comparable run against it", () => {
    const { run, deltasToIt } = compareOutside(wr, [me, rival, old], 'me', 'rival');
    expect(run).toEqual({
      id: 'wr', comparable: true, note: null, sectors: [9_000, 10_000, 9_000],
      deltaToBest: [-800, -2_000, -1_900], deltaToMe: [-1_000, -2_000, -2_000], deltaToVs: [-800, -2_500, -1_900],
    });
    expect([...deltasToIt]).toEqual([['me', [1_000, 2_000, 2_000]], ['rival', [800, 2_500, 1_900]]]);
    // The watched comparison is the same with it or without it.
    expect(compareSplits([me, rival, old], 'me', 'rival').ideal.time).toBe(9_800 + 11_000 + 8_400);
  });

  it('is not compared when its checkpoint count is not the map\'s, and stands alone without watched runs', () => {
    const other = compareOutside({ id: 'wr', checkpoints: [14_000, 28_000] }, [me, rival], 'me');
    expect(other.run).toMatchObject({ comparable: false, note: expect.stringContaining('2 checkpoints where the map has 3'), deltaToMe: [null, null, null] });
    expect(other.deltasToIt.size).toBe(0);
    const alone = compareOutside(wr, [], null);
    expect(alone.run).toMatchObject({ comparable: true, deltaToBest: [null, null, null], deltaToMe: [null, null, null] });
    expect(alone.run.deltaToVs).toBeUndefined();
  });
});

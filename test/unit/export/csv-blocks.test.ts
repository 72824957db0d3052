// The blocks an export split across threads takes turns on (core/export/csv-parallel.ts cutBlocks): whole maps,
// contiguous, covering every map ref, so a map the plan did not count still falls in one block and none in two.
import { describe, expect, it } from 'vitest';
import { cutBlocks } from '../../../src-main/core/export/csv-parallel.ts';

function expectContiguous(blocks: ReturnType<typeof cutBlocks>): void {
  expect(blocks[0]![1]).toBe(Number.MIN_SAFE_INTEGER);
  expect(blocks.at(-1)![2]).toBe(Number.MAX_SAFE_INTEGER);
  blocks.forEach(([index, first, last], i) => {
    expect(index).toBe(i);
    expect(first).toBeLessThanOrEqual(last);
    if (i > 0) expect(first).toBe(blocks[i - 1]![2] + 1);
  });
}

describe('cutBlocks', () => {
  it('cuts a million rows into blocks of at most 4,000 rows of whole maps', () => {
    const maps = Array.from({ length: 5000 }, (_, i) => [i + 1, 200] as const);
    const blocks = cutBlocks(maps);
    expectContiguous(blocks);
    expect(blocks).toHaveLength(250);
    expect(blocks[0]).toEqual([0, Number.MIN_SAFE_INTEGER, 20]);
  });

  it('cuts a small export into about 64 blocks, so both workers take turns', () => {
    const maps = [[3, 1], [4, 40], [9, 1], [10, 300], [12, 2]] as const;
    const blocks = cutBlocks(maps);
    expectContiguous(blocks);
    // 344 rows: blocks of 6 rows; a map of 300 rows is one block of its own, never split.
    expect(blocks.map(([, first, last]) => [first, last])).toEqual([
      [Number.MIN_SAFE_INTEGER, 4], [5, 10], [11, Number.MAX_SAFE_INTEGER],
    ]);
  });

  it('gives one block covering everything when no map has rows', () => {
    expect(cutBlocks([])).toEqual([[0, Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER]]);
  });
});

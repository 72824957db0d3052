// The blocks the worker threads of a split export claim (core/export/csv-blocks.ts claimBlock): whole maps,
// contiguous, in claim order, covering every map ref from below the first to past the last, none claimed twice.
import { describe, expect, it } from 'vitest';
import { BLOCK_ROWS, claimBlock, type Block, type Seen } from '../../../src-main/core/export/csv-blocks.ts';

/** Two workers claiming in turn until both are told nothing is left; each block "holds" rowsPerMap rows a map. */
function claimAll(refs: readonly number[], rowsPerMap: (ref: number) => number): Block[] {
  const claims = new Int32Array(new SharedArrayBuffer(4));
  const seen: Seen[] = [{ maps: 0, rows: 0 }, { maps: 0, rows: 0 }];
  const done = [false, false];
  const blocks: Block[] = [];
  for (let turn = 0; !done[0] || !done[1]; turn += 1) {
    const w = turn % 2;
    if (done[w]) continue;
    const block = claimBlock(claims, refs, seen[w]!);
    if (!block) {
      done[w] = true;
      continue;
    }
    blocks.push(block);
    seen[w]!.maps += block.next - block.index;
    seen[w]!.rows += refs.slice(block.index, block.next).reduce((sum, ref) => sum + rowsPerMap(ref), 0);
  }
  return blocks;
}

function expectContiguous(blocks: readonly Block[], refs: readonly number[]): void {
  expect(blocks[0]!.index).toBe(0);
  expect(blocks[0]!.first).toBe(Number.MIN_SAFE_INTEGER);
  expect(blocks.at(-1)!.next).toBe(refs.length);
  expect(blocks.at(-1)!.last).toBe(Number.MAX_SAFE_INTEGER);
  blocks.forEach((block, i) => {
    expect(block.index).toBeLessThan(block.next);
    expect(block.first).toBeLessThanOrEqual(refs[block.index]!);
    if (block.next < refs.length) expect(block.last).toBe(refs[block.next]! - 1);
    if (i > 0) {
      expect(block.index).toBe(blocks[i - 1]!.next);
      expect(block.first).toBe(blocks[i - 1]!.last + 1);
    }
  });
}

describe('claimBlock', () => {
  it('claims a million rows as one map, then blocks of about 4,000 rows of whole maps', () => {
    const refs = Array.from({ length: 5000 }, (_, i) => i + 1);
    const blocks = claimAll(refs, () => 200);
    expectContiguous(blocks, refs);
    expect(blocks.slice(0, 3).map((b) => b.next - b.index)).toEqual([1, 1, BLOCK_ROWS / 200]);
    expect(blocks.slice(2, -1).every((b) => b.next - b.index === BLOCK_ROWS / 200)).toBe(true);
  });

  it('covers the gaps between map refs, and takes at most 1/64 of the maps in a block of empty maps', () => {
    const refs = Array.from({ length: 640 }, (_, i) => 3 * i + 2);
    // Rows on the first two maps only (a list of a few maps among many): then blocks of 10 empty maps.
    const blocks = claimAll(refs, (ref) => (ref <= 5 ? 1 : 0));
    expectContiguous(blocks, refs);
    expect(Math.max(...blocks.map((b) => b.next - b.index))).toBe(10);
  });

  it('claims one map at a time on a small export, so the workers alternate', () => {
    const refs = [3, 4, 9, 10, 12];
    const blocks = claimAll(refs, (ref) => (ref === 10 ? 300 : 1));
    expectContiguous(blocks, refs);
    expect(blocks.map((b) => [b.first, b.last])).toEqual([
      [Number.MIN_SAFE_INTEGER, 3], [4, 8], [9, 9], [10, 11], [12, Number.MAX_SAFE_INTEGER],
    ]);
  });

  it('claims nothing when the snapshot has no map', () => {
    expect(claimBlock(new Int32Array(new SharedArrayBuffer(4)), [], { maps: 0, rows: 0 })).toBeUndefined();
  });
});

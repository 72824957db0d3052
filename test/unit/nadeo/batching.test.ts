import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_URI_LENGTH, halve, packByLength, targetLength } from '../../../src-main/core/nadeo/http/batching.ts';
import { InputError } from '../../../src-main/core/nadeo/http/errors.ts';
import { mulberry32 } from '../../../src-main/emulator/prng.ts';

const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function uids(n: number, seed: number, min = 24, max = 27): string[] {
  const r = mulberry32(seed);
  const out = new Set<string>();
  while (out.size < n) {
    const len = min + Math.floor(r() * (max - min + 1));
    let s = '';
    for (let i = 0; i < len; i++) s += ALPHA[Math.floor(r() * ALPHA.length)];
    out.add(s);
  }
  return [...out];
}
function uuids(n: number, seed: number): string[] {
  const r = mulberry32(seed);
  const hex = () => Math.floor(r() * 16).toString(16);
  return Array.from({ length: n }, () => [8, 4, 4, 4, 12].map((l) => Array.from({ length: l }, hex).join('')).join('-'));
}

const prefix = '/maps/by-uid/?mapUidList=';

describe('packByLength', () => {
  it('keeps every request-target within the limit and uses the minimum number of requests (varying-length UIDs)', () => {
    for (const [n, seed] of [[1000, 1], [300, 2], [5000, 3], [37, 4]] as const) {
      const keys = uids(n, seed);
      const spec = { limit: DEFAULT_MAX_URI_LENGTH, fixedLength: prefix.length };
      const batches = packByLength(keys, spec);
      for (const b of batches) {
        const target = prefix + b.join(',');
        expect(target.length).toBeLessThanOrEqual(DEFAULT_MAX_URI_LENGTH);
        expect(target.length).toBe(targetLength(b, spec));
      }
      expect(batches.flat().sort()).toEqual([...keys].sort());
      // Independent minimum: total characters over the room a request has.
      const room = DEFAULT_MAX_URI_LENGTH - prefix.length + 1;
      const total = keys.reduce((s, k) => s + k.length + 1, 0);
      expect(batches.length, `n=${n}`).toBe(Math.ceil(total / room));
    }
  });

  it('beats naive next-fit where next-fit wastes a request', () => {
    // Limit 20, no prefix: next-fit in this order makes [a] [b,c] [d]; the optimum is [a,c] [b,d].
    const keys = ['a'.repeat(15), 'b'.repeat(15), 'cccc', 'dddd'];
    const batches = packByLength(keys, { limit: 20, fixedLength: 0 });
    expect(batches).toHaveLength(2);
    for (const b of batches) expect(b.join(',').length).toBeLessThanOrEqual(20);
  });

  it('packs equal-length IDs ceil(n / perRequest) to a request', () => {
    const ids = uuids(1000, 5);
    const fixed = '/maps/by-id/?mapIdList='.length;
    const perRequest = Math.floor((DEFAULT_MAX_URI_LENGTH - fixed + 1) / 37);
    const batches = packByLength(ids, { limit: DEFAULT_MAX_URI_LENGTH, fixedLength: fixed });
    expect(batches).toHaveLength(Math.ceil(1000 / perRequest));
    expect(Math.max(...batches.map((b) => b.length))).toBe(perRequest);
    // The fewest batches any packing could use: every ID and its comma, over what one request holds.
    const minimumBatches = Math.ceil(ids.reduce((n, id) => n + id.length + 1, 0) / (DEFAULT_MAX_URI_LENGTH - fixed + 1));
    expect(minimumBatches).toBe(batches.length);
  });

  it('fills exactly to the limit and not one character over', () => {
    const fixed = 10;
    const keys = ['abcd', 'efgh', 'ijkl'];
    // 10 + 4 + 1 + 4 = 19: two keys fit a limit of 19, three would need 24.
    expect(packByLength(keys, { limit: 19, fixedLength: fixed })).toEqual([['abcd', 'efgh'], ['ijkl']]);
    expect(packByLength(keys, { limit: 18, fixedLength: fixed })).toHaveLength(3);
  });

  it('respects a count cap and longer separators', () => {
    const ids = uuids(120, 6);
    const sep = '&accountId[]='.length;
    const batches = packByLength(ids, { limit: 8219, fixedLength: 30, separatorLength: sep, maxKeys: 50 });
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
  });

  it('refuses a key that could never fit', () => {
    expect(() => packByLength(['x'.repeat(100)], { limit: 50, fixedLength: 10 })).toThrow(InputError);
  });

  it('packs nothing into nothing', () => {
    expect(packByLength([], { limit: 100, fixedLength: 10 })).toEqual([]);
  });
});

describe('halve', () => {
  it('splits into two non-empty halves in order', () => {
    expect(halve([1, 2, 3])).toEqual([[1, 2], [3]]);
    expect(halve([1, 2])).toEqual([[1], [2]]);
  });
});

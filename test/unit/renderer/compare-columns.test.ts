// The compare grid's columns: how many players fit a width, me always shown, the others a page at a time.
import { describe, expect, it } from 'vitest';
import { columnsThatFit, GRID_WIDTHS, pageColumns } from '../../../src-renderer/lib/compare-columns.ts';

const fixed = GRID_WIDTHS.map + GRID_WIDTHS.gap + GRID_WIDTHS.more + GRID_WIDTHS.scrollbar;

describe('columnsThatFit', () => {
  it('counts the whole player columns left beside the map, gap and link columns', () => {
    expect(columnsThatFit(fixed + 3 * GRID_WIDTHS.cell)).toBe(3);
    expect(columnsThatFit(fixed + 3 * GRID_WIDTHS.cell - 1)).toBe(2);
    expect(columnsThatFit(fixed + 10 * GRID_WIDTHS.cell + GRID_WIDTHS.cell / 2)).toBe(10);
  });

  it('keeps one column however narrow the grid, before it is measured too', () => {
    expect(columnsThatFit(0)).toBe(1);
    expect(columnsThatFit(fixed)).toBe(1);
  });

  it('leaves room for the world record column when the list has one', () => {
    expect(columnsThatFit(fixed + 3 * GRID_WIDTHS.cell, GRID_WIDTHS, true)).toBe(2);
    expect(columnsThatFit(fixed + GRID_WIDTHS.worldRecord + 3 * GRID_WIDTHS.cell, GRID_WIDTHS, true)).toBe(3);
  });

  it('reads the widths it is given', () => {
    expect(columnsThatFit(1000, { ...GRID_WIDTHS, map: 100, gap: 100, more: 0, scrollbar: 0, cell: 200 })).toBe(4);
  });
});

describe('pageColumns', () => {
  it('shows every player, in the table order with me first, when all fit', () => {
    expect(pageColumns(4, 2, 4, 0)).toEqual({ columns: [2, 0, 1, 3], first: 1, last: 3, others: 3, previous: null, next: null });
    expect(pageColumns(3, null, 10, 0)).toEqual({ columns: [0, 1, 2], first: 1, last: 3, others: 3, previous: null, next: null });
  });

  it('keeps me on every page and pages through the others', () => {
    // 12 players, me the fifth: 4 columns are me and 3 others.
    const pages = [0, 3, 6, 9].map((start) => pageColumns(12, 4, 4, start));
    expect(pages.map((p) => p.columns)).toEqual([[4, 0, 1, 2], [4, 3, 5, 6], [4, 7, 8, 9], [4, 10, 11]]);
    expect(pages.map((p) => [p.first, p.last, p.others])).toEqual([[1, 3, 11], [4, 6, 11], [7, 9, 11], [10, 11, 11]]);
    expect(pages.map((p) => [p.previous, p.next])).toEqual([[null, 3], [0, 6], [3, 9], [6, null]]);
    // Every player is on some page, once.
    expect(new Set(pages.flatMap((p) => p.columns))).toEqual(new Set(Array.from({ length: 12 }, (_, i) => i)));
  });

  it('without a me, every column pages', () => {
    const first = pageColumns(5, null, 2, 0);
    expect(first).toEqual({ columns: [0, 1], first: 1, last: 2, others: 5, previous: null, next: 2 });
    expect(pageColumns(5, null, 2, first.next!).columns).toEqual([2, 3]);
    expect(pageColumns(5, null, 2, 4)).toEqual({ columns: [4], first: 5, last: 5, others: 5, previous: 2, next: null });
  });

  it('a resize keeps the player at the start on screen: the page holding it shows', () => {
    // Players 7 to 9 (start 6) with 4 columns; at 3 columns (2 others a page) the page holding the 7th is 7–8.
    expect(pageColumns(12, 0, 3, 6).columns).toEqual([0, 7, 8]);
    // At 2 columns, 7 alone.
    expect(pageColumns(12, 0, 2, 6).columns).toEqual([0, 7]);
  });

  it('a start past the end shows the last page; one column still shows an other beside me', () => {
    expect(pageColumns(6, 0, 3, 99)).toMatchObject({ columns: [0, 5], first: 5, last: 5, next: null });
    expect(pageColumns(6, 0, 1, 0).columns).toEqual([0, 1]);
  });

  it('a list of me alone, or of nobody', () => {
    expect(pageColumns(1, 0, 3, 0)).toEqual({ columns: [0], first: 0, last: 0, others: 0, previous: null, next: null });
    expect(pageColumns(0, null, 3, 0)).toEqual({ columns: [], first: 0, last: 0, others: 0, previous: null, next: null });
  });
});

// The compare view's model: computed once per table, then filtered, sorted and totalled without touching the DOM.
import type { CompareTable } from '../../src-main/contract/index.ts';
import { compareValues, stripFormatting } from './format.ts';

export interface CompareCell {
  /** ms, or points on Stunt; null when hidden or absent. */
  value: number | null;
  medal: number;
  hidden: boolean;
  /** The best visible value of the row (ties share it). */
  isBest: boolean;
  /** value − my value, in the map's unit; null without both. */
  deltaToMe: number | null;
}

export interface CompareModelRow {
  /** Position in the table as main sent it. */
  index: number;
  mapUid: string;
  name: string;
  /** Lower-case, formatting stripped: what the filter and the name sort read. */
  plain: string;
  isStunt: boolean;
  authorScore: number;
  cells: CompareCell[];
  best: number | null;
  /** My value − the best, in the map's unit; 0 when I am the best; null without my record. */
  myGap: number | null;
}

export function buildCompareModel(table: CompareTable): CompareModelRow[] {
  const me = table.me;
  return table.rows.map((row, index) => {
    let best: number | null = null;
    for (const value of row.values) {
      if (value !== null && (best === null || compareValues(value, best, row.isStunt) < 0)) best = value;
    }
    const mine = me === null ? null : (row.values[me] ?? null);
    const cells = row.values.map((value, column): CompareCell => ({
      value,
      medal: row.earned[column] ?? 0,
      hidden: row.hidden[column] ?? false,
      isBest: value !== null && value === best,
      deltaToMe: value !== null && mine !== null && column !== me ? value - mine : null,
    }));
    const plain = stripFormatting(row.name);
    return {
      index,
      mapUid: row.mapUid,
      name: row.name,
      plain: plain.toLowerCase(),
      isStunt: row.isStunt,
      authorScore: row.medals.author,
      cells,
      best,
      myGap: mine !== null && best !== null ? mine - best : null,
    };
  });
}

export const SHOW = ['all', 'notBest', 'missing', 'hidden'] as const;
export type Show = (typeof SHOW)[number];

export interface CompareFilter {
  text: string;
  show: Show;
}

export function filterRows(rows: readonly CompareModelRow[], filter: CompareFilter, me: number | null): CompareModelRow[] {
  const needle = filter.text.trim().toLowerCase();
  return rows.filter((row) => {
    if (needle && !row.plain.includes(needle) && !row.mapUid.toLowerCase().includes(needle)) return false;
    switch (filter.show) {
      case 'all':
        return true;
      case 'notBest':
        return me !== null && !(row.cells[me]?.isBest ?? false);
      case 'missing':
        return me !== null && (row.cells[me]?.value ?? null) === null && !(row.cells[me]?.hidden ?? false);
      case 'hidden':
        return row.cells.some((cell) => cell.hidden);
    }
  });
}

export type SortBy = { by: 'map' } | { by: 'player'; column: number } | { by: 'gap' } | { by: 'table' };
export interface Sort {
  key: SortBy;
  descending: boolean;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Lower is better, whatever the map's unit, so one column sorts race and Stunt rows together. */
function goodness(value: number, isStunt: boolean): number {
  return isStunt ? -value : value;
}

/** Sorts a copy; rows without a value go last in both directions. */
export function sortRows(rows: readonly CompareModelRow[], sort: Sort): CompareModelRow[] {
  const sign = sort.descending ? -1 : 1;
  const key = sort.key;
  const copy = rows.slice();
  if (key.by === 'table') return sort.descending ? copy.reverse() : copy;
  if (key.by === 'map') return copy.sort((a, b) => sign * collator.compare(a.plain, b.plain) || a.index - b.index);
  const measure = (row: CompareModelRow): number | null => {
    if (key.by === 'gap') return row.myGap === null ? null : Math.abs(row.myGap);
    const value = row.cells[key.column]?.value ?? null;
    return value === null ? null : goodness(value, row.isStunt);
  };
  return copy.sort((a, b) => {
    const x = measure(a);
    const y = measure(b);
    if (x === null || y === null) return x === y ? a.index - b.index : x === null ? 1 : -1;
    return sign * (x - y) || a.index - b.index;
  });
}

export interface ColumnTotals {
  /** Sum of times on race maps where the player has a visible time. */
  sumTime: number;
  timedMaps: number;
  /** Sum of Stunt points. */
  sumScore: number;
  scoredMaps: number;
  /** Count per medal: index 1 bronze … 4 author (index 0 unused); hidden records count, their medal is known. */
  medals: [number, number, number, number, number];
  /** Rows where this player holds the best value (ties count for each). */
  wins: number;
  hidden: number;
  missing: number;
}

export function totalsOf(rows: readonly CompareModelRow[], columns: number): ColumnTotals[] {
  const totals = Array.from({ length: columns }, (): ColumnTotals => ({
    sumTime: 0,
    timedMaps: 0,
    sumScore: 0,
    scoredMaps: 0,
    medals: [0, 0, 0, 0, 0],
    wins: 0,
    hidden: 0,
    missing: 0,
  }));
  for (const row of rows) {
    for (let column = 0; column < columns; column++) {
      const cell = row.cells[column];
      const total = totals[column]!;
      if (cell && cell.medal >= 1 && cell.medal <= 4) total.medals[cell.medal as 1 | 2 | 3 | 4] += 1;
      if (!cell || cell.value === null) {
        if (cell?.hidden) total.hidden += 1;
        else total.missing += 1;
        continue;
      }
      if (row.isStunt) {
        total.sumScore += cell.value;
        total.scoredMaps += 1;
      } else {
        total.sumTime += cell.value;
        total.timedMaps += 1;
      }
      if (cell.isBest) total.wins += 1;
    }
  }
  return totals;
}

// The compare view's model: computed once per table, then filtered, sorted and totalled without touching the DOM.
// Ranks, best marks and deltas come with the table (main ranks through shared/leaderboard.ts); medal progress, the
// order of two results and the units come from the same module here.
import type { CompareTable, Delta, MapKind, MedalScores } from '../../src-main/contract/index.ts';
import {
  compareResults, countMedals, isWithin, medalProgress, unitOf, type GapLimit, type MedalCounts, type MedalProgress,
  type RankRange, type RecordResult, type Unit,
} from '../../src-main/shared/leaderboard.ts';
import { stripFormatting } from './format.ts';

/** A cell in full (the table's are sparse: schemas.ts CompareCell), with what the view works out from it. */
export interface CompareModelCell extends RecordResult {
  medal: number;
  /** On the board, secret entries counted, when known exactly. */
  rank: number | null;
  /** The ranks it may hold ("2–4" where secret entries blur the order); null when unranked. */
  rankRange: RankRange | null;
  /** Surely the best on the board. */
  isBest: boolean;
  /** Holds the best visible result; a secret entry may still be ahead. */
  isBestVisible: boolean;
  /** value − the best on the board; null unless the row's best is known. */
  deltaToBest: Delta | null;
  /** value − the best visible result of the row. */
  deltaToBestVisible: Delta | null;
  /** value − mine; null in my own column. */
  deltaToMe: Delta | null;
  /** value − the map's world record; null without a visible WR or result. */
  deltaToWorldRecord: Delta | null;
  progress: MedalProgress | null;
}

export interface CompareModelRow {
  /** Position in the table as main sent it. */
  index: number;
  mapUid: string;
  name: string;
  /** Lower-case, formatting stripped: what the filter and the name sort read. */
  plain: string;
  mapType: string;
  kind: MapKind;
  unit: Unit;
  medals: MedalScores;
  /** Secret entries among the players. */
  secret: number;
  /** Whether the best visible result is surely the best (no secret entry can be ahead): else gaps are to it. */
  bestIsKnown: boolean;
  /** One per player; null without a record. */
  cells: (CompareModelCell | null)[];
  /** My result − the best visible one; null without my visible result. */
  myGap: Delta | null;
  /** I surely hold the best result on the board. */
  myBest: boolean;
  /** The map's world record, when the list asks for it and a sync read it. */
  worldRecord: CompareTable['rows'][number]['worldRecord'] | null;
}

export function buildCompareModel(table: CompareTable): CompareModelRow[] {
  const me = table.me;
  return table.rows.map((row, index) => {
    const cells = row.cells.map((c): CompareModelCell | null => {
      if (!c) return null;
      const record = { hidden: c.hidden ?? false, time: c.time ?? null, score: c.score ?? null, respawnCount: c.respawnCount ?? null, medal: c.medal };
      const rank = c.rank ?? null;
      return {
        ...record, rank, rankRange: c.rankRange ?? (rank === null ? null : { min: rank, max: rank }),
        isBest: c.isBest ?? false, isBestVisible: c.isBestVisible ?? false,
        // One of the two deltas to the best is sent (schemas.ts CompareCell): they are the same where the best is known.
        deltaToBest: c.deltaToBest ?? null, deltaToBestVisible: c.deltaToBestVisible ?? c.deltaToBest ?? null, deltaToMe: c.deltaToMe ?? null,
        deltaToWorldRecord: c.deltaToWorldRecord ?? null,
        progress: medalProgress(row.kind, record, row.medals),
      };
    });
    const mine = me === null ? null : (cells[me] ?? null);
    return {
      index,
      mapUid: row.mapUid,
      name: row.name,
      plain: stripFormatting(row.name).toLowerCase(),
      mapType: row.mapType,
      kind: row.kind,
      unit: unitOf(row.kind),
      medals: row.medals,
      secret: row.secret,
      bestIsKnown: row.bestIsKnown,
      cells,
      myGap: mine?.deltaToBestVisible ?? null,
      myBest: mine?.isBest ?? false,
      worldRecord: row.worldRecord ?? null,
    };
  });
}

export const SHOW = ['all', 'notBest', 'missing', 'hidden'] as const;
export type Show = (typeof SHOW)[number];

export interface CompareFilter {
  text: string;
  show: Show;
  /** Only maps where my next medal is within this gap (each map in its own unit); null: no such filter. */
  near: GapLimit | null;
}

export function filterRows(rows: readonly CompareModelRow[], filter: CompareFilter, me: number | null): CompareModelRow[] {
  const needle = filter.text.trim().toLowerCase();
  return rows.filter((row) => {
    if (needle && !row.plain.includes(needle) && !row.mapUid.toLowerCase().includes(needle)) return false;
    const mine = me === null ? null : (row.cells[me] ?? null);
    if (filter.near && !(me !== null && isWithin(mine?.progress, filter.near))) return false;
    switch (filter.show) {
      case 'all':
        return true;
      case 'notBest':
        return me !== null && !(mine?.isBest ?? false);
      case 'missing':
        return me !== null && mine === null;
      case 'hidden':
        return row.secret > 0;
    }
  });
}

export type SortBy = { by: 'map' } | { by: 'player'; column: number } | { by: 'gap' } | { by: 'table' };
export interface Sort {
  key: SortBy;
  descending: boolean;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Times, then respawns, then points: a column sorts within one unit and never mixes them. */
const UNIT_ORDER: Record<Unit, number> = { time: 0, respawns: 1, points: 2 };

/** How far a gap is, in its own unit (Platform: respawns, then the time). */
function gapSize(gap: Delta): [number, number] {
  return [Math.abs(gap.value), Math.abs(gap.time ?? 0)];
}

/**
 * Sorts a copy. By a player's column: rows grouped by unit (times, respawns, points), each group best first by the
 * map kind's order (secret entries ahead); by my gap: grouped the same, closest first. The direction flips the order
 * within each group; rows without a value go last either way.
 */
export function sortRows(rows: readonly CompareModelRow[], sort: Sort): CompareModelRow[] {
  const sign = sort.descending ? -1 : 1;
  const key = sort.key;
  const copy = rows.slice();
  if (key.by === 'table') return sort.descending ? copy.reverse() : copy;
  if (key.by === 'map') return copy.sort((a, b) => sign * collator.compare(a.plain, b.plain) || a.index - b.index);
  if (key.by === 'gap') {
    return copy.sort((a, b) => {
      if (a.myGap === null || b.myGap === null) return a.myGap === b.myGap ? a.index - b.index : a.myGap === null ? 1 : -1;
      const [x, y] = [gapSize(a.myGap), gapSize(b.myGap)];
      return UNIT_ORDER[a.unit] - UNIT_ORDER[b.unit] || sign * (x[0] - y[0] || x[1] - y[1]) || a.index - b.index;
    });
  }
  const column = key.column;
  return copy.sort((a, b) => {
    const x = a.cells[column] ?? null;
    const y = b.cells[column] ?? null;
    if (x === null || y === null) return x === y ? a.index - b.index : x === null ? 1 : -1;
    const group = UNIT_ORDER[a.unit] - UNIT_ORDER[b.unit];
    if (group !== 0) return group;
    // A secret entry, whose result is not shown, goes first; two secret ones are level (their results are unknown).
    const order = x.hidden || y.hidden ? Number(y.hidden) - Number(x.hidden) : compareResults(a.kind, x, y);
    return sign * order || a.index - b.index;
  });
}

/** Maps counted in the totals: those where every player has a visible result, per unit. */
export interface TotalsBasis {
  maps: number;
  time: number;
  points: number;
  respawns: number;
}

export interface ColumnTotals {
  /** Over the basis's maps only, so players' totals compare. */
  sumTime: number;
  sumPoints: number;
  sumRespawns: number;
  /** Medals held over every row shown, and how many are within the chosen gap of the next medal. */
  medals: MedalCounts;
  /** Rows where this player surely holds the best result (ties count for each). */
  wins: number;
  hidden: number;
}

export interface Totals {
  basis: TotalsBasis;
  columns: ColumnTotals[];
}

/**
 * Totals per player column: sums of times, points and respawns over the maps where every player has a visible result
 * (else the players' sums would cover different maps); medals, near medals, wins and secret entries over every row.
 */
export function totalsOf(rows: readonly CompareModelRow[], columns: number, near: GapLimit): Totals {
  const basis: TotalsBasis = { maps: 0, time: 0, points: 0, respawns: 0 };
  const totals = Array.from({ length: columns }, () => ({ sumTime: 0, sumPoints: 0, sumRespawns: 0, wins: 0, hidden: 0, progress: [] as (MedalProgress | null)[] }));
  for (const row of rows) {
    const everyone = columns > 0 && row.cells.length === columns && row.cells.every((cell) => cell !== null && !cell.hidden && cell.rankRange !== null);
    if (everyone) {
      basis.maps += 1;
      basis[row.unit] += 1;
    }
    for (let column = 0; column < columns; column++) {
      const cell = row.cells[column] ?? null;
      const total = totals[column]!;
      total.progress.push(cell?.progress ?? null);
      if (!cell) continue;
      if (cell.hidden) total.hidden += 1;
      if (cell.isBest) total.wins += 1;
      if (!everyone) continue;
      if (row.unit === 'points') total.sumPoints += cell.score ?? 0;
      else if (row.unit === 'respawns') total.sumRespawns += cell.respawnCount ?? 0;
      else total.sumTime += cell.time ?? 0;
    }
  }
  return {
    basis,
    columns: totals.map(({ progress, ...total }) => ({ ...total, medals: countMedals(progress, near) })),
  };
}

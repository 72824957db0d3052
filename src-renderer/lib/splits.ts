// The splits views' model (issue 15 part 3): what the map page's Splits section, the list's "where you lose most" and
// the player page's PB history show, worked out from the splits main sends. Pure: the components only lay it out.
// Times are ms; a checkpoint main could not read is null; a delta is value − reference (positive: slower).
import type { SplitsHistory, SplitsListRow, SplitsRun, SplitsView } from '../../src-main/contract/index.ts';
import { deltasTo, sectorLosses } from '../../src-main/shared/splits.ts';

/** A reference the chart measures your run against. */
export interface SplitsReference {
  /** Stable within a view: `best`, `player:<accountId>`, `wr`, `pb`. */
  id: string;
  label: string;
  checkpoints: readonly (number | null)[];
}



/** The world record's run when main compared its ghost with the watched runs (same checkpoint count), else null. */
export function worldRecordRun(view: SplitsView): SplitsRun | null {
  const run = view.worldRecord?.run;
  return run && run.comparable ? run : null;
}

/** The player the view calls "me", when they are watched and have a ghost. */
export function meOf(view: SplitsView): SplitsRun | null {
  return view.players.find((p) => p.isMe && p.comparable) ?? null;
}

/**
 * The best watched split at each checkpoint, as main measured every delta against it (a run's time there minus its
 * delta to the best), so the window never ranks splits by a rule of its own; null where nobody has one.
 */
export function bestSplits(view: SplitsView): (number | null)[] {
  return Array.from({ length: view.checkpoints }, (_, i) => {
    for (const p of view.players) {
      const [t, d] = [p.checkpoints[i], p.deltaToBest[i]];
      if (p.comparable && t !== null && t !== undefined && d !== null && d !== undefined) return t - d;
    }
    return null;
  });
}

/**
 * The sectors where `me` loses most to the ideal (the best watched sector there): the `count` largest losses, largest
 * first, only real losses (a sector where you are the best is never one).
 */
export function worstSectors(me: SplitsRun, ideal: readonly (number | null)[], count = 3): { checkpoint: number; ms: number }[] {
  return sectorLosses(me.sectors, ideal, count);
}


/** Cumulative times of the ideal run from its sectors (null from the first unknown sector on). */
export function cumulative(sectors: readonly (number | null)[]): (number | null)[] {
  let sum: number | null = 0;
  return sectors.map((s) => (sum = sum === null || s === null ? null : sum + s));
}


/** Rivals offered to the chart at most: those nearest your time (a list of 200 names is no choice). */
export const MAX_RIVAL_REFERENCES = 30;

/**
 * What the chart may measure you against: the best watched split at each checkpoint, the world record when main has
 * its ghost, your previous PB when its splits are known, and the watched rivals nearest your time, fastest first.
 */
export function referencesOf(view: SplitsView, previousPb: readonly (number | null)[] | null = null): SplitsReference[] {
  const me = meOf(view);
  const refs: SplitsReference[] = [{ id: 'best', label: 'Best watched', checkpoints: bestSplits(view) }];
  const wr = worldRecordRun(view);
  if (wr) refs.push({ id: 'wr', label: `World record (${wr.name})`, checkpoints: wr.checkpoints });
  if (previousPb && previousPb.length > 0) refs.push({ id: 'pb', label: 'My previous PB', checkpoints: previousPb });
  const gap = (p: SplitsRun) => (!me || me.time === null || p.time === null ? Infinity : Math.abs(p.time - me.time));
  const rivals = view.players
    .filter((p) => p !== me && p.comparable)
    .map((p, index) => ({ p, index }))
    .sort((a, b) => gap(a.p) - gap(b.p) || a.index - b.index)
    .slice(0, MAX_RIVAL_REFERENCES)
    .sort((a, b) => a.index - b.index);
  for (const { p } of rivals) refs.push({ id: `player:${p.accountId}`, label: p.name, checkpoints: p.checkpoints });
  return refs;
}

/** The chart's line: your delta to the reference at each checkpoint, x = checkpoint number (1-based). */
export function chartData(me: SplitsRun, reference: SplitsReference): [number[], (number | null)[]] {
  const deltas = deltasTo(me.checkpoints, reference.checkpoints);
  return [deltas.map((_, i) => i + 1), deltas];
}

/** The checkpoints shown at once when only `fit` columns fit: a window starting at `start`, kept inside the range. */
export function checkpointWindow(total: number, fit: number, start: number): { first: number; last: number; previous: number | null; next: number | null } {
  const size = Math.max(1, Math.min(fit, total));
  const first = Math.max(0, Math.min(start, total - size));
  const last = Math.min(total, first + size);
  return { first, last, previous: first > 0 ? Math.max(0, first - size) : null, next: last < total ? last : null };
}

/** How many checkpoint columns fit a width beside the name and total columns. */
export function checkpointsThatFit(width: number, fixed: number, cell: number): number {
  return Math.max(1, Math.floor((width - fixed) / cell));
}

export type ListSortKey = 'map' | 'gain' | 'loss' | 'checkpoint';

/**
 * The list's splits rows sorted by a column: by possible gain or by the time lost at the worst checkpoint (largest
 * first when descending), by that checkpoint's number, or by map name; maps without the figure always last.
 */
export function sortListRows(rows: readonly SplitsListRow[], key: ListSortKey, descending: boolean): SplitsListRow[] {
  const figure = (r: SplitsListRow): number | string | null =>
    key === 'map' ? r.mapName.toLowerCase() : key === 'gain' ? r.possibleGain : key === 'loss' ? (r.loseMostAt?.ms ?? null) : (r.loseMostAt?.checkpoint ?? null);
  const sign = descending ? -1 : 1;
  return [...rows].sort((a, b) => {
    const [x, y] = [figure(a), figure(b)];
    if (x === null || y === null) return x === null && y === null ? a.mapName.localeCompare(b.mapName) : x === null ? 1 : -1;
    const order = typeof x === 'string' ? x.localeCompare(y as string) : x - (y as number);
    return sign * order || a.mapName.localeCompare(b.mapName);
  });
}

/** Where an improvement found its time: the sectors it gained over the PB before, most gained first. */
export function foundTime(gains: readonly (number | null)[] | null, count = 3): { checkpoint: number; ms: number }[] {
  if (!gains) return [];
  const found: { checkpoint: number; ms: number }[] = [];
  gains.forEach((g, i) => {
    if (g !== null && g < 0) found.push({ checkpoint: i + 1, ms: -g });
  });
  return found.sort((a, b) => b.ms - a.ms || a.checkpoint - b.checkpoint).slice(0, count);
}

/** The player's PB history newest first, as the player page lists it. */
export function newestFirst(history: SplitsHistory): SplitsHistory['improvements'] {
  return [...history.improvements].reverse();
}

/** The splits of the PB before `currentRecordId` (the newest earlier improvement whose ghost was read); null if none. */
export function previousPbSplits(history: SplitsHistory, currentRecordId: string): (number | null)[] | null {
  const at = history.improvements.findIndex((i) => i.recordId === currentRecordId);
  const earlier = (at < 0 ? history.improvements : history.improvements.slice(0, at)).filter((i) => i.recordId !== currentRecordId);
  return earlier.findLast((i) => i.checkpoints !== null && i.checkpoints.length > 0)?.checkpoints ?? null;
}

/** Where the grid says "Lap n": each lap's first checkpoint after the first lap (0-based index) → its lap number. */
export function lapStartsOf(view: SplitsView): Map<number, number> {
  const inside = (view.laps?.ends ?? []).filter((end) => end < view.checkpoints);
  return new Map(inside.map((end, i) => [end, i + 2]));
}

/** The lap a checkpoint (0-based) ends and the run's time for it, or null when it ends no lap or the time is unknown. */
export function lapEndedAt(view: SplitsView, run: SplitsRun, index: number): { lap: number; time: number } | null {
  const lap = view.laps?.ends.indexOf(index + 1) ?? -1;
  const time = lap >= 0 ? run.lapTimes?.[lap] : undefined;
  return time === undefined || time === null ? null : { lap: lap + 1, time };
}

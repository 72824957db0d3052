// The rules of checkpoint splits, in one place: sectors from cumulative times, deltas per checkpoint, the ideal run
// (the best sectors summed), where a player loses most, lap boundaries, and when two runs cannot be compared.
// Pure: the store, the service, the CLI and the renderer all ask here. Times in ms; null where a ghost stores -1.

export type Split = number | null;

/** More checkpoints than any map holds: a ghost claiming them is not shown (the reader allows 10,000). */
export const MAX_SPLITS = 1000;
/** A run longer than a day is not a run: a time past this is refused as a lie. */
export const MAX_SPLIT_MS = 24 * 3600 * 1000;

/**
 * What is wrong with a ghost's checkpoint times, in one line, or null when they can be shown: too many, a negative
 * time other than -1 (read as null), a time past a day, or times that go backwards.
 */
export function splitsProblem(checkpoints: readonly Split[]): string | null {
  if (checkpoints.length === 0) return 'the ghost holds no checkpoint times';
  if (checkpoints.length > MAX_SPLITS) return `the ghost claims ${checkpoints.length} checkpoints, more than the ${MAX_SPLITS} a map can hold`;
  let last = 0;
  for (let i = 0; i < checkpoints.length; i++) {
    const t = checkpoints[i];
    if (t === null || t === undefined) continue;
    if (!Number.isInteger(t) || t < 0) return `checkpoint ${i + 1} has a negative or broken time (${t} ms)`;
    if (t > MAX_SPLIT_MS) return `checkpoint ${i + 1} has a time of ${t} ms, more than a day`;
    if (t < last) return `the checkpoint times go backwards at checkpoint ${i + 1} (${t} ms after ${last} ms)`;
    last = t;
  }
  return null;
}

/** Each sector's time: a checkpoint's cumulative time − the one before (the start, 0, for the first). */
export function sectorsOf(checkpoints: readonly Split[]): Split[] {
  return checkpoints.map((t, i) => {
    const before = i === 0 ? 0 : checkpoints[i - 1];
    return t === null || t === undefined || before === null || before === undefined ? null : t - before;
  });
}

/**
 * The checkpoint count the view compares on: the one most runs have (a map's current version), the larger on a tie.
 * Runs with another count (a ghost of an older version of the map) are said, never compared checkpoint by checkpoint.
 */
export function checkpointCountOf(runs: readonly { checkpoints: readonly Split[] }[]): number {
  const counts = new Map<number, number>();
  for (const r of runs) counts.set(r.checkpoints.length, (counts.get(r.checkpoints.length) ?? 0) + 1);
  let best = 0;
  let bestRuns = 0;
  for (const [count, n] of counts) if (n > bestRuns || (n === bestRuns && count > best)) [best, bestRuns] = [count, n];
  return best;
}

/** Why a run cannot be compared with the others, or null when it can. */
export function notComparable(run: { checkpoints: readonly Split[] }, count: number): string | null {
  if (run.checkpoints.length === count) return null;
  return `a ghost of ${run.checkpoints.length} checkpoints where the map has ${count} (an older version of the map?): not compared`;
}

/** The checkpoints (1-based) that end a lap, or null when the laps are not known, 1, or do not divide the count. */
export function lapEnds(count: number, laps: number | null | undefined): number[] | null {
  if (laps === null || laps === undefined || !Number.isInteger(laps) || laps < 2 || count % laps !== 0) return null;
  const perLap = count / laps;
  return Array.from({ length: laps }, (_, i) => (i + 1) * perLap);
}

/** Each lap's time, from the checkpoints that end the laps (`lapEnds`): a lap's end − the one before; null where missing. */
export function lapTimesOf(checkpoints: readonly Split[], ends: readonly number[]): Split[] {
  return ends.map((end, i) => {
    const at = checkpoints[end - 1];
    const before = i === 0 ? 0 : checkpoints[ends[i - 1]! - 1];
    return at === null || at === undefined || before === null || before === undefined ? null : at - before;
  });
}

/** The lap (1-based) that a checkpoint (1-based) is crossed in, from the checkpoints that end the laps. */
export function lapOf(checkpoint: number, ends: readonly number[]): number {
  const lap = ends.findIndex((end) => checkpoint <= end);
  return lap < 0 ? ends.length : lap + 1;
}

/** value − reference at each checkpoint; null where either is missing. */
export function deltasTo(checkpoints: readonly Split[], reference: readonly Split[]): Split[] {
  return checkpoints.map((t, i) => {
    const r = reference[i];
    return t === null || r === null || r === undefined ? null : t - r;
  });
}

/** The best (lowest) value at each index among the rows, and whose it is (the first on a tie). */
function bestPerIndex(rows: readonly { id: string; values: readonly Split[] }[], count: number): { value: Split; owner: string | null }[] {
  return Array.from({ length: count }, (_, i) => {
    let value: Split = null;
    let owner: string | null = null;
    for (const row of rows) {
      const v = row.values[i];
      if (v !== null && v !== undefined && (value === null || v < value)) [value, owner] = [v, row.id];
    }
    return { value, owner };
  });
}

export interface LoseMost {
  /** The checkpoint ending the sector, 1-based (the finish is the count). */
  checkpoint: number;
  ms: number;
}

/**
 * The sectors where `mine` loses time against `reference` (both sector times): the `count` largest losses, largest
 * first (the earlier checkpoint first on a tie); a sector where `mine` is as fast or faster is never one.
 */
export function sectorLosses(mine: readonly Split[], reference: readonly Split[], count = Infinity): LoseMost[] {
  const losses: LoseMost[] = [];
  mine.forEach((t, i) => {
    const r = reference[i];
    if (t === null || r === null || r === undefined) return;
    if (t - r > 0) losses.push({ checkpoint: i + 1, ms: t - r });
  });
  return losses.sort((a, b) => b.ms - a.ms || a.checkpoint - b.checkpoint).slice(0, count);
}

/** The sector where `mine` loses most against `reference` (both sector times), or null when it loses nowhere. */
export function loseMostAt(mine: readonly Split[], reference: readonly Split[]): LoseMost | null {
  return sectorLosses(mine, reference, 1)[0] ?? null;
}

/** Sector − the same sector of the run before (negative: time found there); null where either is missing. */
export function sectorGains(previous: readonly Split[] | null, next: readonly Split[]): Split[] | null {
  if (previous === null || previous.length !== next.length) return null;
  return deltasTo(next, previous);
}

export interface SplitsInput {
  id: string;
  checkpoints: readonly Split[];
}

export interface ComparedRun {
  id: string;
  comparable: boolean;
  note: string | null;
  sectors: Split[];
  deltaToBest: Split[];
  deltaToMe: Split[];
  deltaToVs: Split[] | undefined;
}

export interface SplitsComparison {
  checkpoints: number;
  runs: ComparedRun[];
  ideal: { time: number | null; sectors: Split[]; owners: (string | null)[]; gain: number | null };
  /** Mine against the best sectors, or against `vs`'s sectors when given. */
  loseMostAt: LoseMost | null;
}

/**
 * Compares runs checkpoint by checkpoint: the best watched cumulative time at each, mine and a rival's (`vs`), the
 * ideal run (the best sectors summed; null while a sector has no time) and what I would gain by it. Runs whose
 * checkpoint count differs from the map's are listed with a note and no deltas.
 */
export function compareSplits(inputs: readonly SplitsInput[], me: string | null, vs: string | null = null): SplitsComparison {
  const count = checkpointCountOf(inputs);
  const comparable = inputs.filter((r) => r.checkpoints.length === count);
  const sectors = new Map(inputs.map((r) => [r.id, sectorsOf(r.checkpoints)]));
  const bestCumulative = bestPerIndex(comparable.map((r) => ({ id: r.id, values: r.checkpoints })), count).map((b) => b.value);
  const bestSectors = bestPerIndex(comparable.map((r) => ({ id: r.id, values: sectors.get(r.id)! })), count);
  const mine = comparable.find((r) => r.id === me);
  const rival = vs === null ? undefined : comparable.find((r) => r.id === vs);
  const none = (): Split[] => new Array<Split>(count).fill(null);

  const runs = inputs.map((r): ComparedRun => {
    const note = notComparable(r, count);
    const ok = note === null;
    return {
      id: r.id,
      comparable: ok,
      note,
      sectors: sectors.get(r.id)!,
      deltaToBest: ok ? deltasTo(r.checkpoints, bestCumulative) : none(),
      deltaToMe: ok && mine && r.id !== me ? deltasTo(r.checkpoints, mine.checkpoints) : none(),
      deltaToVs: vs === null ? undefined : ok && rival && r.id !== vs ? deltasTo(r.checkpoints, rival.checkpoints) : none(),
    };
  });

  const idealSectors = bestSectors.map((b) => b.value);
  const complete = count > 0 && idealSectors.every((s) => s !== null);
  const idealTime = complete ? idealSectors.reduce<number>((sum, s) => sum + (s ?? 0), 0) : null;
  const myTime = mine?.checkpoints[count - 1] ?? null;
  const reference = rival ? sectors.get(rival.id)! : idealSectors;
  return {
    checkpoints: count,
    runs,
    ideal: {
      time: idealTime,
      sectors: idealSectors,
      owners: bestSectors.map((b) => b.owner),
      gain: idealTime !== null && myTime !== null ? myTime - idealTime : null,
    },
    loseMostAt: mine && !(rival && rival.id === mine.id) ? loseMostAt(sectors.get(mine.id)!, reference) : null,
  };
}

/**
 * A run outside the watched ones (the world record) against them: its sectors, its deltas to the best watched split,
 * to mine and to `vs`, and each comparable watched run's delta to it. It never counts in their best, ideal or "lose
 * most"; with no watched run its own checkpoint count is the map's.
 */
export function compareOutside(
  outside: SplitsInput,
  inputs: readonly SplitsInput[],
  me: string | null,
  vs: string | null = null,
): { run: ComparedRun; deltasToIt: Map<string, Split[]> } {
  const count = inputs.length > 0 ? checkpointCountOf(inputs) : outside.checkpoints.length;
  const comparable = inputs.filter((r) => r.checkpoints.length === count);
  const note = notComparable(outside, count);
  const ok = note === null;
  const none = (): Split[] => new Array<Split>(count).fill(null);
  const best = bestPerIndex(comparable.map((r) => ({ id: r.id, values: r.checkpoints })), count).map((b) => b.value);
  const mine = comparable.find((r) => r.id === me);
  const rival = vs === null ? undefined : comparable.find((r) => r.id === vs);
  const run: ComparedRun = {
    id: outside.id,
    comparable: ok,
    note,
    sectors: sectorsOf(outside.checkpoints),
    deltaToBest: ok && comparable.length > 0 ? deltasTo(outside.checkpoints, best) : none(),
    deltaToMe: ok && mine ? deltasTo(outside.checkpoints, mine.checkpoints) : none(),
    deltaToVs: vs === null ? undefined : ok && rival ? deltasTo(outside.checkpoints, rival.checkpoints) : none(),
  };
  const deltasToIt = new Map(ok ? comparable.map((r) => [r.id, deltasTo(r.checkpoints, outside.checkpoints)] as const) : []);
  return { run, deltasToIt };
}

import { formatPoints, formatResult, formatRespawns, unitOf, type MapKind, type RecordResult } from '../../src-main/shared/leaderboard.ts';
import { formatTime } from '../../src-main/shared/format.ts';

/** One line of a progression chart: when each PB was set (ms since epoch) and its value. */
export interface ChartSeries {
  label: string;
  color: string;
  points: ChartPoint[];
}

export interface ChartPoint {
  at: number;
  value: number;
  /** The whole result, for the point's tooltip: on Platform the time beside the respawns the line plots. */
  result?: RecordResult;
}

/** uPlot wants one shared x axis: the union of every series' instants (seconds), nulls where a series has none. */
export function alignSeries(series: readonly ChartSeries[]): [number[], ...(number | null)[][]] {
  const instants = [...new Set(series.flatMap((s) => s.points.map((p) => p.at)))].sort((a, b) => a - b);
  const position = new Map(instants.map((at, i) => [at, i]));
  const columns = series.map((s) => {
    const column: (number | null)[] = new Array<number | null>(instants.length).fill(null);
    for (const point of s.points) column[position.get(point.at)!] = point.value;
    return column;
  });
  return [instants.map((at) => at / 1000), ...columns];
}

/**
 * What a progression chart plots on a map, by how the map ranks (docs/game-rules.md): the time, Stunt points, or
 * Platform respawns (a Platform run whose respawns were not counted is left out). Null: nothing to plot.
 */
export function chartValue(kind: MapKind, r: RecordResult): number | null {
  if (r.hidden) return null;
  switch (unitOf(kind)) {
    case 'points':
      return r.score;
    case 'respawns':
      return r.respawnCount;
    case 'time':
      return r.time;
  }
}

/** A value on the chart's axis and in its legend, in the map kind's unit. */
export function formatChartValue(kind: MapKind, value: number): string {
  switch (unitOf(kind)) {
    case 'points':
      return formatPoints(value);
    case 'respawns':
      return formatRespawns(value);
    case 'time':
      return formatTime(value);
  }
}

/** Room above and below the line: a PB moves by tenths of a second on a minute-long map, by points, or by a respawn. */
export function chartPadding(kind: MapKind, min: number, max: number): [number, number] {
  const unit = unitOf(kind);
  const pad = Math.max(unit === 'time' ? 200 : unit === 'points' ? 10 : 1, (max - min) * 0.15);
  return [Math.max(0, min - pad), max + pad];
}

/** A point as its tooltip says it: the whole result where known (`2 respawns (1:07.102)`), else the value plotted. */
export function pointText(kind: MapKind, point: ChartPoint): string {
  return point.result ? formatResult(kind, point.result) : formatChartValue(kind, point.value);
}

/** The steps between the y axis's ticks: whole respawns and whole points only, never 2.5 of either; times as uPlot likes. */
export function tickSteps(kind: MapKind): number[] | undefined {
  if (unitOf(kind) === 'time') return undefined;
  const steps: number[] = [];
  for (let magnitude = 1; magnitude <= 1e7; magnitude *= 10) steps.push(magnitude, 2 * magnitude, 5 * magnitude);
  return steps;
}

const DAY_S = 86_400;

/**
 * A date on the chart's time axis, in the reader's locale with the month's name ("24 Oct", "Oct 24"), never the
 * numeric "10/24" that reads as a day or a month depending on where one lives. A span of a day or two shows the time
 * too; a span of many months the month and year. `at` and `span` are in seconds, as uPlot gives them.
 */
export function formatChartDate(at: number, span: number, locale?: string): string {
  const options: Intl.DateTimeFormatOptions =
    span <= 2 * DAY_S ? { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }
      : span >= 300 * DAY_S ? { month: 'short', year: 'numeric' }
        : { day: 'numeric', month: 'short' };
  return new Intl.DateTimeFormat(locale, options).format(at * 1000);
}

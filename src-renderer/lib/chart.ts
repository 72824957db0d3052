/** One line of a progression chart: when each PB was set (ms since epoch) and its value. */
export interface ChartSeries {
  label: string;
  color: string;
  points: { at: number; value: number }[];
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

// Mounting a uPlot chart, the same for every chart of the window: the theme's colours for its axes, as wide as its
// element and following it, removed with the component.
import uPlot from 'uplot';

/** A theme colour from the element's CSS custom properties, or `fallback` where the property is not set. */
export function themeColor(styles: CSSStyleDeclaration, name: string, fallback: string): string {
  return styles.getPropertyValue(name).trim() || fallback;
}

/** The colour axes are drawn in: the theme's muted text. */
export function axisColor(styles: CSSStyleDeclaration): string {
  return themeColor(styles, '--text-muted', '#9ba2b1');
}

/** Axes drawn in axisColor over the theme's border-coloured grid. */
export function themeAxis(styles: CSSStyleDeclaration): uPlot.Axis {
  const grid = themeColor(styles, '--border', '#252a35');
  return { stroke: axisColor(styles), grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
}

/** The narrowest a chart is drawn, whatever its element's width. */
const MIN_WIDTH = 200;

/** Draws a chart in `target`, `height` tall and as wide as `target` as it resizes; returns what removes it. */
export function mountPlot(target: HTMLElement, height: number, options: Omit<uPlot.Options, 'width' | 'height'>, data: uPlot.AlignedData): () => void {
  const width = (): number => Math.max(MIN_WIDTH, target.clientWidth);
  const plot = new uPlot({ ...options, width: width(), height }, data, target);
  const observer = new ResizeObserver(() => plot.setSize({ width: width(), height }));
  observer.observe(target);
  return () => {
    observer.disconnect();
    plot.destroy();
  };
}

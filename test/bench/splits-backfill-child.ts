// The child of the backfill bench (splits-backfill.ts): a first start reading every archived replay, in a process
// that loads only what the app's backfill loads (the store and the reader), not the emulator that wrote the archive,
// so the peak memory it reports is the backfill's. Sends its figures to the parent and exits.
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { backfillSplits } from '../../src-main/core/splits/backfill.ts';
import { openStore } from '../../src-main/core/store/index.ts';

export interface ChildResult {
  wallMs: number;
  peakRssMb: number;
  startRssMb: number;
  read: number;
  unreadable: number;
  slices: number;
  maxBlockMs: number;
  p99BlockMs: number;
}

/** The first start, in a process of its own so its memory is the backfill's alone. */
async function child(dir: string): Promise<ChildResult> {
  const startRss = process.memoryUsage().rss;
  const store = openStore({ file: join(dir, 'trackwatch.sqlite') });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  let peak = process.memoryUsage().rss;
  let slices = 0;
  delay.enable();
  const started = performance.now();
  const done = await backfillSplits(store, dir, {
    onProgress: () => {
      slices += 1;
      peak = Math.max(peak, process.memoryUsage().rss);
    },
  });
  const wallMs = performance.now() - started;
  delay.disable();
  store.close();
  const maxRss = process.resourceUsage().maxRSS * 1024;
  return {
    wallMs, peakRssMb: Math.max(peak, maxRss) / 1e6, startRssMb: startRss / 1e6, read: done.read, unreadable: done.unreadable, slices,
    maxBlockMs: delay.max / 1e6, p99BlockMs: delay.percentile(99) / 1e6,
  };
}

const dir = process.argv[2];
if (dir) {
  const result = await child(dir);
  process.send?.(result);
  process.disconnect?.();
}

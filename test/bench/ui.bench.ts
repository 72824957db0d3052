// Benchmark of the compare view in Chromium: time to first render for 5,000 maps x 20 players and for 50 maps x 20
// players, in the same run and the same page setup, their ratio (target <= 2: the view's cost must not grow with the
// list), and how many rows the DOM holds (target < 200: a virtual list). Each run starts cold: main's cached tables
// are dropped first, as after a sync. Also printed: when the whole table is there (sorting, totals) and a sort's time.
// Prints; never asserts.
// Run: npm run bench:ui   (or node test/bench/ui.bench.ts [runs])
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { MapInfo, PlayerRecord } from '../../src-main/core/model.ts';
import { SENTINEL_U32 } from '../../src-main/core/model.ts';
import { openStore } from '../../src-main/core/store/index.ts';
import { generateDataset } from '../../src-main/emulator/index.ts';
import type { DatasetMap, DatasetRecord } from '../../src-main/emulator/index.ts';
import { ensureRendererBuilt, launchChromium, startTestApp } from '../helpers/browser.ts';
import type { TestApp } from '../helpers/browser.ts';
import { isMain, printRows, type BenchRow } from './report.ts';
import { runSplitsViewBench } from './ui-splits.ts';
import { DATA_NOW } from '../helpers/clock.ts';

const PLAYERS = 20;
const BIG = 5000;
const SMALL = 50;

function mapInfo(map: DatasetMap): MapInfo {
  return {
    ...map,
    fileUrl: map.fileUrl ?? `https://storage.invalid/storageObjects/${map.mapId}`,
    thumbnailUrl: map.thumbnailUrl ?? `https://storage.invalid/storageObjects/${map.mapId}.jpg`,
  };
}

function record(map: DatasetMap, r: DatasetRecord): PlayerRecord {
  const stunt = map.mapType.endsWith('TM_Stunt');
  const hidden = map.secretThreshold !== undefined && (stunt ? r.recordScore.score > map.secretThreshold : r.recordScore.time < map.secretThreshold);
  return {
    mapRecordId: r.mapRecordId, mapId: r.mapId, accountId: r.accountId, gameMode: r.gameMode, gameModeCustomData: r.gameModeCustomData,
    scopeType: r.scopeType, scopeId: r.scopeId, time: hidden ? null : r.recordScore.time, hidden, score: r.recordScore.score,
    respawnCount: r.recordScore.respawnCount === SENTINEL_U32 ? null : r.recordScore.respawnCount, medal: r.medal, removed: r.removed,
    timestamp: r.timestamp, url: `https://storage.invalid/mapRecords/${r.mapRecordId}/replay`, filename: r.filename,
  };
}

/** Two lists over one data folder, written straight into the store (a sync of 5,000 maps is not what is measured). */
function fillStore(dataDir: string): { accounts: string[] } {
  const dataset = generateDataset({ now: DATA_NOW, seed: 11, maps: BIG, players: PLAYERS });
  const store = openStore({ file: path.join(dataDir, 'trackwatch.sqlite'), dataDir });
  try {
    const accounts = [...new Set(dataset.records.map((r) => r.accountId))].sort().slice(0, PLAYERS);
    store.maps.upsert(dataset.maps.map(mapInfo));
    for (const [name, count] of [['Big', BIG], ['Small', SMALL]] as const) {
      store.watchlists.create(name);
      store.maps.addRefs(name, dataset.maps.slice(0, count).map((m) => ({ mapUid: m.mapUid })));
      store.players.add(name, accounts.map((accountId) => ({ accountId })));
    }
    const run = store.syncRuns.start();
    const seenAt = new Date().toISOString();
    const byMap = new Map<string, DatasetRecord[]>();
    for (const r of dataset.records) if (r.scopeType === 'PersonalBest') byMap.set(r.mapId, [...(byMap.get(r.mapId) ?? []), r]);
    for (const map of dataset.maps) {
      const records = (byMap.get(map.mapId) ?? []).filter((r) => accounts.includes(r.accountId)).map((r) => record(map, r));
      store.records.applyRecords({ mapId: map.mapId, scope: 'PersonalBest', records, seenAt, syncRunId: run });
    }
    store.syncRuns.finish(run, 'ok', { maps: BIG });
    // Straight to the lists, as a player who already set things up; "me" is the first account.
    store.settings.set('app.setup', 'account');
    store.settings.set('me', accounts[0]!);
    return { accounts };
  } finally {
    store.close();
  }
}

interface Measure {
  firstRenderMs: number;
  /** Until the whole table is there (sorting, filters, totals). */
  completeMs: number;
  rowsInDom: number;
  rowsAfterScroll: number;
  sortMs: number | null;
}

interface Marked {
  firstRowPainted?: number;
}

/**
 * Installed before the page's own code: when the first compare row enters the DOM, the next frame's time after it
 * (a rAF, then a task) is taken as painted. Busy main-thread work delays it, as it would delay the pixels.
 */
function markFirstRow(): void {
  new MutationObserver((_mutations, observer) => {
    if (!document.querySelector('[data-testid=compare-grid] [role=row][data-index]')) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => ((window as Marked).firstRowPainted = performance.now())));
  }).observe(document, { childList: true, subtree: true });
}

/** From navigation start to the first compare row painted, measured in the page; then a scroll and a sort. */
async function measure(page: Page, app: TestApp, list: string): Promise<Measure> {
  const { origin, token } = app.bridge;
  await page.goto('about:blank');
  await page.goto(`${origin}/#token=${token}`);
  await page.waitForSelector('.sidebar');
  await page.goto('about:blank');
  // Cold: as on the first visit after a sync, nothing of the table is cached in main.
  app.service.touch();
  await page.goto(`${origin}/#/lists/${list}/compare`);
  const handle = await page.waitForFunction(() => (window as Marked).firstRowPainted ?? false, undefined, { polling: 50, timeout: 60_000 });
  const firstRenderMs = (await handle.jsonValue()) as number;
  // Sorting needs the whole table: it follows the first screen.
  const completeHandle = await page.waitForFunction(
    () => (document.querySelector<HTMLButtonElement>('[data-testid=col-1]')?.disabled === false ? performance.now() : false),
    undefined,
    { polling: 'raf', timeout: 120_000 },
  );
  const completeMs = (await completeHandle.jsonValue()) as number;
  const rows = () => page.locator('[data-testid=compare-grid] [role=row][data-index]').count();
  const rowsInDom = await rows();
  await page.locator('[data-testid=compare-grid] [role=grid]').evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
  await page.waitForTimeout(100);
  const rowsAfterScroll = await rows();
  const sortMs = await page.evaluate(async () => {
    const button = document.querySelector<HTMLButtonElement>('[data-testid=col-1]')!;
    const before = document.querySelector('[data-testid=compare-grid] [role=row][data-index] [data-map-uid]')?.getAttribute('data-map-uid');
    const t0 = performance.now();
    button.click();
    for (let i = 0; i < 600; i++) {
      await new Promise((r) => requestAnimationFrame(r));
      const now = document.querySelector('[data-testid=compare-grid] [role=row][data-index] [data-map-uid]')?.getAttribute('data-map-uid');
      if (now !== before) return performance.now() - t0;
    }
    return null; // the first row never changed: no sort was seen, so there is no time to report
  });
  return { firstRenderMs, completeMs, rowsInDom, rowsAfterScroll, sortMs };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function runUiBench(runs = 5): Promise<BenchRow[]> {
  ensureRendererBuilt();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trackwatch-ui-bench-'));
  const started = Date.now();
  fillStore(dataDir);
  const filledMs = Date.now() - started;
  const app = await startTestApp({ dataDir });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    await page.addInitScript(markFirstRow);
    // One warm-up of each, so both measured series start with the same caches.
    await measure(page, app, 'Small');
    await measure(page, app, 'Big');
    const small: Measure[] = [];
    const big: Measure[] = [];
    for (let i = 0; i < runs; i++) {
      small.push(await measure(page, app, 'Small'));
      big.push(await measure(page, app, 'Big'));
    }
    const smallMs = median(small.map((m) => m.firstRenderMs));
    const bigMs = median(big.map((m) => m.firstRenderMs));
    const ratio = bigMs / smallMs;
    const maxRows = Math.max(...big.map((m) => Math.max(m.rowsInDom, m.rowsAfterScroll)));
    console.log(`compare view in Chromium (headless, 1360x860), nothing cached in main, median of ${runs} runs; store filled in ${filledMs} ms`);
    const line = (label: string, m: Measure[], firstMs: number) =>
      `  ${label}: first render ${firstMs.toFixed(0)} ms from navigation, whole table ${median(m.map((x) => x.completeMs)).toFixed(0)} ms, ` +
      `${m[0]!.rowsInDom} rows in the DOM (${m[0]!.rowsAfterScroll} after scrolling), a sort ${m.every((x) => x.sortMs !== null) ? `${median(m.map((x) => x.sortMs!)).toFixed(0)} ms` : 'not seen (the first row did not change)'}`;
    console.log(line(`${SMALL} maps x ${PLAYERS} players`, small, smallMs));
    console.log(line(`${BIG.toLocaleString('en-US')} maps x ${PLAYERS} players`, big, bigMs));
    return [
      { figure: `first render, ${BIG} maps / ${SMALL} maps`, measured: `${bigMs.toFixed(0)} / ${smallMs.toFixed(0)} ms = ${ratio.toFixed(2)}`, target: '<= 2', ok: ratio <= 2 },
      { figure: `rows in the DOM, ${BIG} maps`, measured: String(maxRows), target: '< 200', ok: maxRows < 200 },
    ];
  } finally {
    await browser.close();
    await app.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The bench runner's entry (`npm run bench -- ui`): prints its table and hands the rows back. */
export async function run(runs = 5): Promise<BenchRow[]> {
  // The map page's Splits (issue 15 (c)) rides along: test/bench/ui-splits.ts.
  const rows = [...(await runUiBench(runs)), ...(await runSplitsViewBench())];
  printRows(rows);
  return rows;
}

if (isMain(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 5);
  await run(Number.isInteger(runs) && runs > 0 ? runs : 5);
}

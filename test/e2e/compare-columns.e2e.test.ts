// The compare grid with more players than fit (the demo's 12 at 1024x640): me on every page of columns, the others
// paged with Previous/Next (by keyboard too), each cell the player's PB as the emulator holds it, sort and totals
// following the columns shown, the page following a resize, and a player not shown one click away on the map's page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SENTINEL_U32 } from '../../src-main/core/model.ts';
import { stripFormatting } from '../../src-main/shared/format.ts';
import { formatDelta, mapKind, resultText } from '../../src-main/shared/leaderboard.ts';
import { openAppInBrowser, screenshot } from '../helpers/browser.ts';
import type { AppInBrowser, TestApp } from '../helpers/browser.ts';
import { serviceCaller } from '../helpers/service.ts';
import { expectedPersonalBests } from '../helpers/sync.ts';

let app: TestApp;
let page: Page;
let problems: string[];
let opened: AppInBrowser | undefined;

const { call } = serviceCaller(() => app.service);

beforeAll(async () => {
  ({ app, page, problems } = opened = await openAppInBrowser({ app: { demo: { maxRps: 200 } }, page: { viewport: { width: 1024, height: 640 } } }));
  await call('setup.startDemo', {});
  // The demo list synced once, before the window opens: the grid shows it whole, with no toast over it.
  const finished = new Promise<unknown>((resolve) => {
    const stop = app.service.events.subscribe((name, payload) => {
      if (name !== 'sync.finished') return;
      stop();
      resolve(payload);
    });
  });
  await call('sync.start', { list: 'Demo' });
  expect(await finished).toMatchObject({ list: 'Demo', outcome: 'ok' });
  await page.goto(app.bridge.url);
}, 120_000);

afterAll(async () => {
  await opened?.close();
});

const grid = () => page.locator('[data-testid=compare-grid]');
const range = () => page.locator('[data-testid=column-range]');
const shownAccounts = () => grid().locator('[role=columnheader][data-account]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-account')!));
const mapOrder = () => grid().locator('[role=row][data-index] [data-map-uid]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-map-uid')!));

/** What a cell must read for this map and player: the emulator's PB, SECRET behind a threshold (never for me), or a dash. */
function expectedPb(mapUid: string, accountId: string): string {
  const demo = app.service.demo!;
  const map = demo.emulator.dataset.maps.find((m) => m.mapUid === mapUid)!;
  const pb = expectedPersonalBests(demo.emulator.dataset, new Set([accountId])).get(`${map.mapId}/${accountId}`);
  if (!pb) return '—';
  if (pb.hidden && accountId !== demo.me) return 'SECRET';
  const { time, score, respawnCount } = pb.record.recordScore;
  return resultText(mapKind(map), { hidden: false, time, score, respawnCount: respawnCount === SENTINEL_U32 ? null : respawnCount }).main;
}

/** Every rendered row's cells, one per column shown, against the emulator's truth. */
async function expectCellsMatchData(): Promise<void> {
  const accounts = await shownAccounts();
  const rows = await grid().locator('[role=row][data-index]').evaluateAll((elements) =>
    elements.map((row) => ({
      mapUid: row.querySelector('[data-map-uid]')!.getAttribute('data-map-uid')!,
      cells: [...row.querySelectorAll('[data-testid=cell] [data-testid=pb]')].map((v) => v.textContent!.trim()),
    })),
  );
  expect(rows.length).toBeGreaterThan(5);
  for (const row of rows) expect(row.cells, row.mapUid).toEqual(accounts.map((accountId) => expectedPb(row.mapUid, accountId)));
}

describe('the compare grid with more players than fit', () => {
  it('shows me and as many others as fit, and pages through the rest, by keyboard too', async () => {
    const table = await call('compare.get', { list: 'Demo' });
    const me = table.players[table.me!]!.accountId;
    await page.goto(`${app.bridge.origin}/#/lists/Demo/compare`);
    await grid().locator('[data-map-uid]').first().waitFor();
    await page.locator('[data-testid=col-0]:not([disabled])').waitFor();
    expect(await range().textContent()).toBe('You and players 1–2 of the other 11');
    const first = await shownAccounts();
    expect(first).toHaveLength(3);
    expect(first[0]).toBe(me);
    expect(await page.locator('[data-testid=columns-previous]').isDisabled()).toBe(true);
    await expectCellsMatchData();
    // The totals follow the columns: one per player shown, in the same order.
    const headers = await grid().locator('[role=columnheader] [data-testid^=col-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(4)));
    const totals = await grid().locator('[data-testid^=total-]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.slice(6)));
    expect(totals).toEqual(headers);
    await screenshot(page, 'compare-columns-first-1024x640');

    // Tab reaches Next (Previous is disabled on the first page), it shows its focus, and Enter pages.
    const next = page.locator('[data-testid=columns-next]');
    await page.locator('[data-testid=compare-filter]').focus();
    for (let i = 0; i < 8 && !(await next.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await next.evaluate((el) => el === document.activeElement && el.matches(':focus-visible'))).toBe(true);
    expect(await next.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    await expect.poll(() => range().textContent()).toBe('You and players 3–4 of the other 11');
    await screenshot(page, 'compare-columns-next-focus-1024x640');

    // Every page: me first, then two others, each cell the emulator's PB; every player is on a page once.
    const seen = [...first.slice(1)];
    for (;;) {
      const accounts = await shownAccounts();
      expect(accounts[0]).toBe(me);
      await expectCellsMatchData();
      seen.push(...accounts.slice(1));
      if (await next.isDisabled()) break;
      await next.click();
      await expect.poll(shownAccounts).not.toEqual(accounts);
    }
    expect(await range().textContent()).toBe('You and players 11 of the other 11');
    expect(seen.toSorted()).toEqual(table.players.map((p) => p.accountId).filter((a) => a !== me).toSorted());
    await screenshot(page, 'compare-columns-last-1024x640');
    await page.click('[data-testid=columns-previous]');
    await expect.poll(() => range().textContent()).toBe('You and players 9–10 of the other 11');
  });

  it('a sort by a player lasts while the column shows; paged away, the rows are in the table\'s order again', async () => {
    const tableOrder = await mapOrder();
    const [, player] = await shownAccounts();
    const header = grid().locator(`[role=columnheader][data-account="${player}"]`);
    await header.locator('button').click();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    const sorted = await mapOrder();
    expect(sorted).not.toEqual(tableOrder);
    await page.click('[data-testid=columns-previous]');
    await expect.poll(mapOrder).toEqual(tableOrder);
    expect(await grid().locator('[role=columnheader][aria-sort=ascending]').count()).toBe(0);
    await page.click('[data-testid=columns-next]');
    await expect.poll(mapOrder).toEqual(sorted);
    await grid().locator('[role=columnheader] button', { hasText: 'Map' }).click();
  });

  it('a resize keeps the players being looked at and fits more columns in a wider window', async () => {
    await expect.poll(() => range().textContent()).toBe('You and players 9–10 of the other 11');
    const before = await shownAccounts();
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(async () => (await shownAccounts()).length).toBe(4);
    expect(await range().textContent()).toBe('You and players 7–9 of the other 11');
    expect(await shownAccounts()).toContain(before[1]);
    await expectCellsMatchData();
    await screenshot(page, 'compare-columns-1280x800');
    await page.setViewportSize({ width: 1024, height: 640 });
    await expect.poll(async () => (await shownAccounts()).length).toBe(3);
  });

  it('a player not shown is one click away: the row\'s link opens the map, which ranks all twelve', async () => {
    const table = await call('compare.get', { list: 'Demo' });
    const shown = new Set(await shownAccounts());
    const rangeBefore = await range().textContent();
    // A map where a player not shown has a visible time: their PB is on the map's page.
    const rows = await mapOrder();
    const pick = rows
      .flatMap((mapUid) => table.players.filter((p) => !shown.has(p.accountId)).map((p) => ({ mapUid, accountId: p.accountId, pb: expectedPb(mapUid, p.accountId) })))
      .find((c) => c.pb !== '—' && c.pb !== 'SECRET')!;
    expect(pick).toBeDefined();
    const row = grid().locator('[role=row][data-index]', { has: page.locator(`[data-map-uid="${pick.mapUid}"]`) });
    expect(await row.locator('[data-testid=row-all]').textContent()).toBe(`+${table.players.length - shown.size}`);
    await row.locator('[data-testid=row-all]').click();
    await page.locator('[data-testid=ranking] [data-testid=entry]').first().waitFor();
    expect(decodeURIComponent(page.url())).toContain(`/maps/${pick.mapUid}`);
    expect(await page.locator('[data-testid=ranking] [data-testid=entry]').count()).toBe(12);
    const entry = page.locator('[data-testid=ranking] [data-testid=entry]', { has: page.locator(`a[href$="/players/${pick.accountId}"]`) });
    expect((await entry.locator('.pb').textContent())!.trim()).toContain(pick.pb);
    await screenshot(page, 'compare-columns-row-detail-1024x640');
    // Back on the comparison, the same players are columns.
    await page.goBack();
    await grid().locator('[data-map-uid]').first().waitFor();
    expect(await range().textContent()).toBe(rangeBefore);
    expect(new Set(await shownAccounts())).toEqual(shown);
  });

  it("shows each map's world record (in the map's line at 1024x640, a column of its own where it costs no player one) and the gap to it", async () => {
    page.setDefaultTimeout(8000);
    const table = await call('compare.get', { list: 'Demo' });
    const me = table.me!;
    const row = table.rows.find((r) => r.worldRecord && !r.worldRecord.secret && r.cells[me]?.deltaToWorldRecord)!;
    expect(row, 'a demo map with a visible WR and my PB').toBeDefined();
    await page.goto(`${app.bridge.origin}/#/lists/Demo/compare`);
    await page.locator('[data-testid=compare-filter]:not([disabled])').waitFor();
    const wrText = resultText(row.kind, { hidden: false, time: row.worldRecord!.time, score: row.worldRecord!.score, respawnCount: null }).main;
    await page.fill('[data-testid=compare-filter]', row.mapUid, { timeout: 5000 });
    const shown = grid().locator('[role=row][data-index]', { has: page.locator(`[data-map-uid="${row.mapUid}"]`) });
    await shown.waitFor({ timeout: 5000 });
    // 1024x640: the columns stay me and two others; the WR is said in the map's line.
    expect(await shownAccounts()).toHaveLength(3);
    expect(await grid().locator('[data-testid=wr-head]').count()).toBe(0);
    expect(await shown.locator('[data-testid=wr-inline]').textContent()).toBe(`WR ${wrText}`);
    // Under each PB, its gap to the WR instead of its delta to me: my own cell says mine.
    await page.check('[data-testid=under-wr]', { timeout: 5000 });
    expect(await shown.locator('[data-testid=cell]').first().locator('[data-delta]').textContent()).toBe(formatDelta(row.cells[me]!.deltaToWorldRecord!));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screenshot(page, 'compare-world-record-1024x640');
    // 1280x800: room for the WR's own column (holder and result) beside the same four player columns.
    await page.setViewportSize({ width: 1280, height: 800 });
    await grid().locator('[data-testid=wr-head]').waitFor({ timeout: 5000 });
    expect(await shownAccounts()).toHaveLength(4);
    const cell = shown.locator('[data-testid=wr-cell]');
    expect(await cell.locator('.wr-value').textContent()).toBe(wrText);
    expect(await cell.locator('.holder').textContent()).toBe(stripFormatting(row.worldRecord!.name));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screenshot(page, 'compare-world-record-1280x800');
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.uncheck('[data-testid=under-wr]');
    await page.fill('[data-testid=compare-filter]', '');
    page.setDefaultTimeout(30_000);
  });

  it('broke no rule of the page', () => {
    expect(problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
  });
});

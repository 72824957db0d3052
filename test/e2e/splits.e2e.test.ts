// The splits in the window (issue 15 part 3), on the demo's data after its sync: the list's "where you lose most"
// sorted by the possible gain, the map worth training next opened from it, its Splits section with the ideal run, the
// chart and the keyboard; the player page's PB splits. Both themes, 1024x640 and 1280x800, never sideways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Handlers } from '../../src-main/contract/index.ts';
import { createHandlers } from '../../src-main/service/handlers/index.ts';
import { formatDelta, formatTime } from '../../src-main/shared/format.ts';
import { deltasTo } from '../../src-main/shared/splits.ts';
import { openAppInBrowser, screenshot } from '../helpers/browser.ts';
import type { AppInBrowser, TestApp } from '../helpers/browser.ts';

let app: TestApp;
let page: Page;
let problems: string[];
let opened: AppInBrowser | undefined;
/** Main's own answers, to hold the window's figures to. */
let handlers: Handlers;

beforeAll(async () => {
  ({ app, page, problems } = opened = await openAppInBrowser({ app: { demo: { maxRps: 200 } }, page: { viewport: { width: 1024, height: 640 } } }));
  handlers = createHandlers(app.service);
  await page.goto(app.bridge.url);
  await page.click('[data-testid=try-demo]');
  // The demo syncs by itself; its replays are read as they are downloaded.
  await page.locator('.topbar [data-testid=last-sync][data-outcome=ok]').waitFor({ timeout: 120_000 });
}, 180_000);

afterAll(async () => {
  await opened?.close();
});

/** Whether the page scrolls sideways (the window must never). */
function sideways(): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth || [...document.querySelectorAll('main, .content')].some((el) => el.scrollWidth > el.clientWidth + 1));
}

describe('splits in the window', () => {
  it('the list says where you lose most per map, sorted by the possible gain, with the ideal list time', async () => {
    await page.goto(`${app.bridge.origin}/#/lists/Demo`);
    await page.click('[data-testid=open-splits]');
    await page.locator('[data-testid=splits-list] [role=row][data-index]').first().waitFor();
    const list = await handlers['splits.forList']({ list: 'Demo' });
    expect(list.totals.idealTime).not.toBeNull();
    expect(await page.locator('[data-testid=ideal-list-time]').textContent()).toBe(formatTime(list.totals.idealTime));
    // Largest possible gain first, as main's figures say.
    const gains = list.maps.map((m) => m.possibleGain).filter((g): g is number => g !== null).sort((a, b) => b - a);
    const shown = await page.locator('[data-testid=splits-list] [role=row][data-index] [data-testid=possible-gain]').allTextContents();
    expect(shown.slice(0, 3)).toEqual(gains.slice(0, 3).map((g) => formatTime(g)));
    // Sorting by the checkpoint turns the order around by the keyboard too.
    await page.locator('[data-testid=sort-checkpoint]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('[data-testid=splits-list] [role=columnheader][aria-sort=ascending]').count()).toBe(1);
    expect(await sideways()).toBe(false);
    await screenshot(page, 'splits-01-list-1024');
  });

  it('opens the map worth training next: every watched ghost, the ideal run, where you lose most, the chart', async () => {
    await page.locator('[data-testid=sort-gain]').click();
    await page.locator('[data-testid=splits-list] [role=columnheader][aria-sort=descending] [data-testid=sort-gain]').waitFor();
    await page.locator('[data-testid=splits-list] [role=row][data-index="0"] a').click();
    // Straight to the map page's Splits tab.
    await page.locator('[data-testid=splits-grid] [role=row][data-index]').first().waitFor();
    expect(page.url()).toMatch(/\/splits$/);
    const mapUid = decodeURIComponent(page.url().split('/maps/')[1]!.replace(/\/splits$/, ''));
    const view = await handlers['splits.forMap']({ map: mapUid, list: 'Demo' });
    const comparable = view.players.filter((p) => p.comparable);
    expect(comparable.length).toBeGreaterThan(1);
    expect(await page.locator('[data-testid=splits-grid] [role=grid]').getAttribute('aria-rowcount')).toBe(String(comparable.length));
    expect(await page.locator('[data-testid=ideal-row] .total').textContent()).toBe(formatTime(view.ideal.time));
    expect(await page.locator('[data-testid=ideal-gain] strong').textContent()).toBe(formatTime(view.ideal.gain));
    expect(await page.locator('[data-testid=lose-most]').textContent()).toContain(`CP ${view.loseMostAt!.checkpoint}`);
    // My row marks the sector I lose most in: paged to it when the checkpoints do not all fit.
    const myRow = page.locator('[data-testid=splits-grid] [role=row]', { has: page.locator('.badge', { hasText: 'me' }) });
    const worst = myRow.locator(`.lose[data-cp="${view.loseMostAt!.checkpoint}"]`);
    for (let i = 0; i < view.checkpoints && (await worst.count()) === 0; i++) await page.getByRole('button', { name: 'Later checkpoints' }).click();
    expect(await worst.count()).toBe(1);
    // The chart draws (uPlot's canvas) against the best watched, then against a rival.
    await page.locator('[data-testid=splits-chart] canvas').waitFor();
    const options = await page.locator('[data-testid=splits-reference] option').allTextContents();
    expect(options[0]).toBe('Best watched');
    expect(options.length).toBe(comparable.length + (view.worldRecord?.run?.comparable ? 1 : 0) + (options.includes('My previous PB') ? 1 : 0));
    await page.selectOption('[data-testid=splits-reference]', { index: options.length - 1 });
    expect(await page.locator('[data-testid=splits-chart]').getAttribute('aria-label')).toContain(`Your delta to ${options.at(-1)}`);
    await page.locator('[data-testid=splits]').evaluate((el) => el.scrollIntoView());
    expect(await sideways()).toBe(false);
    await screenshot(page, 'splits-02-map-1024-dark');
    await page.locator('[data-testid=splits-chart]').evaluate((el) => el.scrollIntoView());
    await screenshot(page, 'splits-02-chart-1024-dark');
    expect(problems).toEqual([]);
  });

  it('is usable by keyboard: rows by the arrows, the cells by the mode buttons', async () => {
    await page.locator('[data-testid=splits-grid] [role=grid]').focus();
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('[data-testid=splits-grid] [role=row].active').getAttribute('data-index')).toBe('1');
    const before = await page.locator('[data-testid=splits-grid] [role=row][data-index="0"] .cp .sub').first().textContent();
    await page.getByRole('radio', { name: 'Sector' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('radio', { name: 'Sector' }).getAttribute('aria-checked')).toBe('true');
    // The first checkpoint's sector is its cumulative time; Δ best it was not (unless the row leads there).
    const cell = page.locator('[data-testid=splits-grid] [role=row][data-index="0"] .cp').first();
    expect(await cell.locator('.sub').textContent()).toBe(await cell.locator('.time').textContent());
    expect(before).toMatch(/^[+-]\d|^$/);
  });

  it('reads in the light theme and at 1280x800 without sideways scrolling', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    expect(await sideways()).toBe(false);
    await screenshot(page, 'splits-03-map-1280-light');
    // The map page's two tabs: the ranking, and back to the splits.
    await page.getByRole('link', { name: 'Watched players' }).click();
    await page.locator('[data-testid=ranking]').waitFor();
    expect(await page.locator('[data-testid=splits]').count()).toBe(0);
    await page.click('[data-testid=open-map-splits]');
    await page.locator('[data-testid=splits-grid] [role=row][data-index]').first().waitFor();
    await page.setViewportSize({ width: 1024, height: 640 });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  });

  it('the player page shows where an improvement found its time (the demo\'s second sync improved some PBs)', async () => {
    // A player with an improvement on some map whose PB before it had its splits read: main says which sectors gained.
    const players = (await handlers['watchlists.get']({ list: 'Demo' })).players;
    let found: { accountId: string; mapUid: string; recordId: string; gains: (number | null)[] } | null = null;
    for (const player of players) {
      const detail = await handlers['players.get']({ list: 'Demo', accountId: player.accountId });
      for (const mapUid of new Set(detail.history.filter((h) => !h.first).map((h) => h.mapUid))) {
        const history = await handlers['splits.history']({ player: player.accountId, map: mapUid });
        const improved = history.improvements.findLast((i) => i.sectorGains?.some((g) => g !== null && g < 0));
        if (improved) found = { accountId: player.accountId, mapUid, recordId: improved.recordId, gains: improved.sectorGains! };
      }
      if (found) break;
    }
    expect(found).not.toBeNull();
    await page.goto(`${app.bridge.origin}/#/lists/Demo/players/${found!.accountId}`);
    await page.selectOption('select[aria-label="Map shown in the chart"]', found!.mapUid);
    const row = page.locator(`[data-testid=splits-history] [data-record="${found!.recordId}"]`);
    await row.waitFor();
    // The sector that gained most, as main measured it, leads the row.
    const most = found!.gains.reduce<{ cp: number; ms: number }>((best, g, i) => (g !== null && -g > best.ms ? { cp: i + 1, ms: -g } : best), { cp: 0, ms: 0 });
    expect(await row.locator('.gain').first().textContent()).toBe(`CP ${most.cp} -${formatTime(most.ms)}`);
    await row.evaluate((el) => el.scrollIntoView());
    expect(await sideways()).toBe(false);
    await screenshot(page, 'splits-04-player-1024');
    expect(problems).toEqual([]);
  });

  it('measures you against the world record: its ghost a chart reference, Δ WR under each time; a WR without one is said in a line', async () => {
    // Main's views of the demo's maps: one whose WR ghost compares with my run, one whose WR is no reference.
    const views = await Promise.all((await handlers['watchlists.get']({ list: 'Demo' })).maps.map((m) => handlers['splits.forMap']({ map: m.mapUid, list: 'Demo' })));
    const withWr = views.find((v) => v.worldRecord?.run?.comparable && v.players.some((p) => p.isMe && p.comparable));
    const without = views.find((v) => v.worldRecord?.missing && v.players.some((p) => p.comparable));
    expect(withWr, 'a demo map whose WR ghost was read').toBeDefined();
    expect(without, 'a demo map whose WR is secret or has no ghost').toBeDefined();
    const wr = withWr!.worldRecord!.run!;
    const me = withWr!.players.find((p) => p.isMe)!;
    expect(me.deltaToWorldRecord).toEqual(deltasTo(me.checkpoints, wr.checkpoints));

    await page.goto(`${app.bridge.origin}/#/lists/Demo/maps/${encodeURIComponent(withWr!.map.mapUid)}/splits`);
    await page.locator('[data-testid=wr-row]').waitFor();
    expect(await page.locator('[data-testid=wr-row] .total').textContent()).toBe(formatTime(wr.time));
    await page.selectOption('[data-testid=splits-reference]', 'wr');
    const label = await page.locator('[data-testid=splits-chart]').getAttribute('aria-label');
    expect(label).toContain(`Your delta to World record (${wr.name}) at each checkpoint: CP 1 ${formatDelta(me.deltaToWorldRecord![0]!)}`);
    // Δ WR under each time: the first row's first checkpoint, as main measured it.
    await page.getByRole('radio', { name: 'Δ WR' }).click();
    const first = withWr!.players.filter((p) => p.comparable)[0]!;
    const sub = await page.locator('[data-testid=splits-grid] [role=row][data-index="0"] .cp .sub').first().textContent();
    expect(sub).toBe(formatDelta(first.deltaToWorldRecord![0]!));
    await page.locator('[data-testid=splits-chart]').evaluate((el) => el.scrollIntoView());
    expect(await sideways()).toBe(false);
    await screenshot(page, 'splits-05-world-record-1024-dark');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await sideways()).toBe(false);
    await screenshot(page, 'splits-05-world-record-1280-dark');
    await page.setViewportSize({ width: 1024, height: 640 });

    await page.goto(`${app.bridge.origin}/#/lists/Demo/maps/${encodeURIComponent(without!.map.mapUid)}/splits`);
    await page.locator('[data-testid=wr-note]').waitFor();
    expect(await page.locator('[data-testid=wr-note]').textContent()).toContain(without!.worldRecord!.missing!.note);
    expect(await page.locator('[data-testid=splits-reference] option[value=wr]').count()).toBe(0);
    expect(problems).toEqual([]);
  });


});

// A campaign imported from the window, end to end: "New list from…" in the built renderer (Chromium, browser mode,
// the demo's emulator), the list created with the campaign's maps and synced, then each watched PB's world position
// in the map view and the player view, checked against the emulator's own leaderboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { WorldBoard } from '../../src-main/emulator/index.ts';
import { formatPosition } from '../../src-main/shared/format.ts';
import { openAppInBrowser, screenshot } from '../helpers/browser.ts';
import type { AppInBrowser, TestApp } from '../helpers/browser.ts';

let app: TestApp;
let page: Page;
let problems: string[];
let opened: AppInBrowser | undefined;

beforeAll(async () => {
  // The demo's world as of mid-November 2026 (Fall 2026, November 2026), as the names below say.
  ({ app, page, problems } = opened = await openAppInBrowser({ app: { demo: { maxRps: 200, asOf: Date.parse('2026-11-15T20:00:00Z') } }, page: { viewport: { width: 1360, height: 860 } } }));
  page.on('dialog', (dialog) => void dialog.accept());
}, 120_000);

afterAll(async () => {
  await opened?.close();
});

/** Closes the notices so a screenshot shows the page under them. */
async function dismissToasts(): Promise<void> {
  const close = page.locator('.toasts button[aria-label=Dismiss]');
  while ((await close.count()) > 0) await close.first().click();
}

function emulator() {
  return app.service.demo!.emulator;
}

/** Where the emulator ranks a score on a map's leaderboard: what the window must show. */
function expectedPosition(mapUid: string, score: number): number {
  const { dataset } = emulator();
  const map = dataset.maps.find((m) => m.mapUid === mapUid)!;
  return WorldBoard.of(dataset, map, 'Personal_Best')!.position(score);
}

describe('a list from what you play, in the window', () => {
  it('the demo starts, and "New list from…" makes a list of the current campaign with the Demo\'s players, and syncs it', async () => {
    await page.goto(app.bridge.url);
    await page.click('[data-testid=try-demo]');
    await page.locator('.topbar [data-testid=last-sync][data-outcome=ok]').waitFor({ timeout: 90_000 });

    await page.goto(`${app.bridge.origin}/#/`);
    await page.click('[data-testid=new-list-from-open]');
    const dialog = page.locator('[data-testid=new-list-from]');
    await dialog.waitFor();
    // The earlier campaigns are offered by name, from the Live services.
    await page.click('[data-testid=source-earlier]');
    await expect.poll(() => page.locator('#campaign-names option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['Summer 2026', 'Spring 2026']);
    // An unknown campaign is refused in the dialog, saying which there are.
    await page.fill('[data-testid=source-campaign]', 'Winter 1999');
    await page.click('[data-testid=new-list-from-submit]');
    await expect.poll(() => page.locator('[data-testid=new-list-from-error]').textContent()).toBe('There is no seasonal campaign named "Winter 1999". The latest are: Fall 2026, Summer 2026, Spring 2026.');

    await page.click('[data-testid=source-current]');
    await page.fill('[data-testid=source-list-name]', 'My campaign');
    await page.selectOption('[data-testid=source-players]', 'Demo');
    await screenshot(page, 'sources-01-new-list-from');
    await page.click('[data-testid=new-list-from-submit]');

    await page.getByRole('heading', { name: 'My campaign', level: 1 }).waitFor();
    const campaign = emulator().dataset.campaigns!.find((c) => c.name === 'Fall 2026')!;
    await expect.poll(() => page.locator('.sidebar [data-list="My campaign"]').textContent()).toContain(`${campaign.mapUids.length} maps · 12 players`);
    // Synced at once: the sidebar says so when it is done.
    await expect.poll(() => page.locator('.sidebar [data-list="My campaign"]').textContent(), { timeout: 90_000 }).toContain('just now');
    expect(app.service.active.store.sources.get('My campaign')).toMatchObject({ source: 'campaign:current', pinned: 'campaign:Fall 2026', title: 'Fall 2026' });
  }, 180_000);

  it('a Track of the Day month with no players yet; a player added by display name, an unknown name said plainly', async () => {
    await page.goto(`${app.bridge.origin}/#/`);
    await page.click('[data-testid=new-list-from-open]');
    await page.click('[data-testid=source-totd]');
    await page.fill('[data-testid=source-month]', '2026-11');
    await page.selectOption('[data-testid=source-players]', '');
    await page.click('[data-testid=new-list-from-submit]');
    await page.getByRole('heading', { name: 'Track of the Day 2026-11', level: 1 }).waitFor();
    const november = emulator().dataset.trackOfTheDay!.find((m) => m.month === '2026-11')!;
    const days = new Set(november.mapUids.filter((u) => u !== '')).size;
    await expect.poll(() => page.locator('.sidebar [data-list="Track of the Day 2026-11"]').textContent()).toContain(`${days} maps · 0 players`);

    await page.click('[data-testid=add-players]');
    await page.fill('[data-testid=player-id]', 'NoSuchPlayer42');
    await page.click('[data-testid=add-players-submit]');
    await expect.poll(() => page.getByRole('alert').last().textContent()).toContain('No player is named "NoSuchPlayer42" on Trackmania.');
    const [accountId, name] = Object.entries(emulator().dataset.displayNames!).find(([id]) => id !== app.service.active.store.settings.me() && !/\s/.test(emulator().dataset.displayNames![id]!))!;
    await page.fill('[data-testid=player-id]', name);
    await page.fill('[data-testid=player-nickname]', 'Found by name');
    await page.click('[data-testid=add-players-submit]');
    await expect.poll(() => app.service.active.store.players.list('Track of the Day 2026-11').map((p) => p.accountId)).toEqual([accountId]);
  }, 120_000);

  it('the map view shows each watched PB\'s world position, as of when it was asked, as the emulator ranks it', async () => {
    const store = app.service.active.store;
    const me = app.service.active.store.settings.me()!;
    const campaign = emulator().dataset.campaigns!.find((c) => c.name === 'Fall 2026')!;
    const mapUid = campaign.mapUids.find((uid) => store.records.forMap(uid).some((r) => r.accountId === me && !r.hidden))!;
    await page.goto(`${app.bridge.origin}/#/lists/${encodeURIComponent('My campaign')}/maps/${encodeURIComponent(mapUid)}`);
    const mine = page.locator('[data-testid=entry].me [data-testid=world-position]');
    await mine.waitFor();
    const myRecord = store.records.forMap(mapUid).find((r) => r.accountId === me)!;
    const expected = expectedPosition(mapUid, myRecord.time!);
    expect(await mine.getAttribute('data-position')).toBe(String(expected));
    expect((await mine.textContent())!.trim()).toContain(formatPosition(expected));
    expect(await page.locator('[data-testid=positions-as-of]').textContent()).toMatch(/^World positions as of /);
    // Every visible PB has its position, or says it is ahead of the logged-in account's own record.
    const shown = await page.locator('[data-testid=entry]:not([data-hidden]) [data-testid=world-position]').count();
    const visible = store.records.forMap(mapUid).filter((r) => !r.hidden && store.players.list('My campaign').some((p) => p.accountId === r.accountId)).length;
    expect(shown).toBe(visible);
    await dismissToasts();
    await mine.scrollIntoViewIfNeeded();
    await screenshot(page, 'sources-02-map-positions');
  });

  it('the player view lists my world position beside each PB', async () => {
    const me = app.service.active.store.settings.me()!;
    await page.goto(`${app.bridge.origin}/#/lists/${encodeURIComponent('My campaign')}/players/${me}`);
    const positions = page.locator('[data-testid=world-position][data-position]');
    await positions.first().waitFor();
    const mine = new Set(app.service.active.store.positions.forList('My campaign').filter((p) => p.accountId === me && p.state === 'ranked').map((p) => String(p.position)));
    // The rows on screen (the list is virtual): each shows one of my stored positions.
    const shown = await positions.evaluateAll((cells) => cells.map((c) => c.getAttribute('data-position')!));
    expect(shown.length).toBeGreaterThan(0);
    for (const value of shown) expect(mine).toContain(value);
    await dismissToasts();
    await screenshot(page, 'sources-03-player-positions');
    expect(problems).toEqual([]);
  });
});

// What the window says after a sync that did not go through: a cancel reads "cancelled" (never "the service cannot
// be reached"), a sync with a failed map reads "partial", one that could not reach the service reads "failed:
// service unreachable" — never "synced". The app talks to the emulator through a gate that holds, refuses or breaks
// the requests a test names, so each moment is chosen, not raced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { generateDataset, startEmulator, type RunningEmulator } from '../../src-main/emulator/index.ts';
import { openAppInBrowser, screenshot } from '../helpers/browser.ts';
import type { AppInBrowser, TestApp } from '../helpers/browser.ts';
import { startGate, type Gate } from '../helpers/gate.ts';
import { paceForEmulator, serviceCaller } from '../helpers/service.ts';
import { DATA_NOW } from '../helpers/clock.ts';

const LOGIN = { login: 'svc-login', password: 'svc-password', contact: 'player: Tester; contact: t@example.com' };
const dataset = generateDataset({ now: DATA_NOW, seed: 11, maps: 3, players: 3 });
const isRecords = (path: string) => path.startsWith('/v2/mapRecords/');

let emulator: RunningEmulator;
let gate: Gate;
let app: TestApp;
let page: Page;
let problems: string[];
let opened: AppInBrowser | undefined;

const { call } = serviceCaller(() => app.service);

beforeAll(async () => {
  emulator = await startEmulator({ dataset, auth: { login: LOGIN.login, password: LOGIN.password } });
  gate = await startGate(emulator.url);
  ({ app, page, problems } = opened = await openAppInBrowser({ app: { apiUrl: gate.url }, page: { viewport: { width: 1024, height: 640 } } }));
  // An account with one list, set up as the window would (these are the window's own commands).
  await call('setup.connect', LOGIN);
  await paceForEmulator(app.service);
  await call('watchlists.create', { name: 'Cup' });
  await call('watchlists.addMaps', { list: 'Cup', refs: dataset.maps.map((m) => m.mapUid) });
  await call('watchlists.addPlayers', { list: 'Cup', players: [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })) });
  await page.goto(app.bridge.url);
  await page.goto(`${app.bridge.origin}/#/lists/Cup`);
  await page.getByRole('heading', { name: 'Cup', level: 1 }).waitFor();
}, 120_000);

afterAll(async () => {
  await opened?.close();
  await gate?.close();
  await emulator?.close();
});

const topbar = () => page.locator('.topbar [data-testid=last-sync]');

/** What of the top bar sticks out of it, above or below (its height is fixed): nothing, when it fits. */
function outsideTopbar(): Promise<string[]> {
  return page.evaluate(() => {
    const bar = document.querySelector('.topbar')!.getBoundingClientRect();
    return [...document.querySelectorAll('.topbar *')].filter((el) => {
      const b = el.getBoundingClientRect();
      return b.height > 0 && (b.top < bar.top - 0.5 || b.bottom > bar.bottom + 0.5);
    }).map((el) => `${String(el.className)} "${el.textContent?.trim().slice(0, 30)}"`);
  });
}

/** Starts a sync of the list from the top bar and waits for the top bar to tell how it ended. */
async function syncUntil(outcome: string): Promise<string> {
  await page.click('[data-testid=sync-start]');
  await page.locator(`.topbar [data-testid=last-sync][data-outcome=${outcome}]`).waitFor({ timeout: 60_000 });
  return (await topbar().textContent())!;
}

describe('the window tells the truth about syncs', () => {
  it('a sync that read every map: "Synced just now"', async () => {
    expect(await syncUntil('ok')).toBe('Synced just now');
    expect(await page.locator('.head [data-testid=last-sync]').textContent()).toBe('synced just now');
  }, 60_000);

  it('a sync with a map it could not read: "partial", with how many maps failed', async () => {
    const broken = dataset.maps[1]!;
    gate.rule = (p) => (isRecords(p) && p.includes(broken.mapId) ? { status: 400, body: JSON.stringify({ code: 'C-AA-00-03', message: 'broken on purpose' }) } : 'pass');
    try {
      expect(await syncUntil('partial')).toBe('Partial sync just now: 1 map failed');
    } finally {
      gate.rule = () => 'pass';
    }
    expect(await page.locator('.sidebar [data-list=Cup] [data-testid=last-sync]').textContent()).toBe('partial just now');
    await screenshot(page, 'sync-partial-1024x640');
  }, 60_000);

  it('a cancelled sync: "Sync cancelled", and no word of an unreachable service', async () => {
    gate.rule = (p) => (isRecords(p) ? 'hold' : 'pass');
    try {
      await page.click('[data-testid=sync-start]');
      // A records request is open at the gate: the cancel cuts it short, as a player's would.
      await gate.seen(isRecords);
      // While it runs, the top bar holds its phase, progress and cost line within its 52px, at both sizes.
      await page.locator('[data-testid=sync-cost]').waitFor();
      for (const size of [{ width: 1280, height: 800 }, { width: 1024, height: 640 }]) {
        await page.setViewportSize(size);
        await screenshot(page, `sync-running-${size.width}x${size.height}`);
        expect(await outsideTopbar(), `${size.width}x${size.height}`).toEqual([]);
        const cost = page.locator('[data-testid=sync-cost]');
        expect(await cost.getAttribute('title')).toContain(await cost.textContent());
      }
      await page.click('[data-testid=sync-cancel]');
      await page.locator('.topbar [data-testid=last-sync][data-outcome=cancelled]').waitFor();
    } finally {
      gate.rule = () => 'pass';
    }
    expect(await topbar().textContent()).toBe('Sync cancelled just now');
    await page.getByText('Sync cancelled', { exact: true }).waitFor();
    expect(await page.locator('[data-testid=banner-offline]').count()).toBe(0);
    expect(await page.getByText(/cannot be reached/).count()).toBe(0);
    await screenshot(page, 'sync-cancelled-1024x640');
  }, 60_000);

  it('a sync that cannot reach the service: "Last sync failed just now: service unreachable", never "synced"', async () => {
    await gate.refuse();
    expect(await syncUntil('failed')).toBe('Last sync failed just now: service unreachable');
    expect(await page.locator('.head [data-testid=last-sync]').textContent()).toBe('last sync failed just now: service unreachable');
    expect(await page.locator('.sidebar [data-list=Cup] [data-testid=last-sync]').textContent()).toBe('failed just now');
    await page.getByText('Sync failed: service unreachable').waitFor();
    await screenshot(page, 'sync-failed-1024x640');
  }, 90_000);

  it('broke no rule of the page', () => {
    expect(problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
  });
});

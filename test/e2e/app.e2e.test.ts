// The built window in Debian's Chromium, through browser mode, against the demo's emulator: what a player sees.
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { SENTINEL_U32 } from '../../src-main/core/model.ts';
import { describeCost } from '../../src-main/core/sync/plan.ts';
import { stripFormatting } from '../../src-main/shared/format.ts';
import { mapKind, resultText } from '../../src-main/shared/leaderboard.ts';
import { generateDataset, type DatasetMap, type DatasetRecord } from '../../src-main/emulator/index.ts';
import * as oracle from '../../src-main/emulator/rules.ts';
import { openAppInBrowser, screenshot } from '../helpers/browser.ts';
import type { AppInBrowser, TestApp } from '../helpers/browser.ts';
import { DATA_NOW } from '../helpers/clock.ts';
import { startGate } from '../helpers/gate.ts';

let app: TestApp;
let page: Page;
let problems: string[];
let opened: AppInBrowser | undefined;
const dialogs: string[] = [];

beforeAll(async () => {
  // The demo's emulator is local: its syncs go fast (the one whose progress bar is looked at is held mid-way).
  ({ app, page, problems } = opened = await openAppInBrowser({ app: { demo: { maxRps: 200 } }, page: { viewport: { width: 1360, height: 860 }, acceptDownloads: true } }));
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
}, 120_000);

afterAll(async () => {
  await opened?.close();
});

/** The emulator's own truth, which the window must show after a sync. */
function dataset() {
  const emulator = app.service.demo!.emulator;
  return emulator.dataset;
}

/** Hidden from the demo's login (the emulator's own rule): behind the map's secret threshold, a time on every kind, and not the player's own (the demo plays as "me"). */
function isHidden(map: DatasetMap, record: DatasetRecord): boolean {
  return oracle.isHiddenFrom(map, record, app.service.demo!.me.toLowerCase());
}

function expectedCell(map: DatasetMap, accountId: string): string {
  const record = dataset().records.find((r) => r.mapId === map.mapId && r.accountId === accountId && r.scopeType === 'PersonalBest');
  if (!record) return '—';
  if (isHidden(map, record)) return 'SECRET';
  const { time, score, respawnCount } = record.recordScore;
  // The grid shows what the map ranks by (Platform's time goes on the line below).
  return resultText(mapKind(map), { hidden: false, time, score, respawnCount: respawnCount === SENTINEL_U32 ? null : respawnCount }).main;
}

describe('Trackwatch in a browser', () => {
  it('first run: the welcome screen, then straight into the demo, which syncs by itself', async () => {
    await page.goto(app.bridge.url);
    await page.getByRole('heading', { name: 'Welcome to Trackwatch' }).waitFor();
    // The token left the address bar as soon as the page took it.
    expect(page.url()).not.toContain('token=');
    await screenshot(page, '01-first-run');
    await page.click('[data-testid=try-demo]');
    await page.getByRole('heading', { name: /^Compare/ }).waitFor();
    await page.locator('.topbar [data-testid=last-sync][data-outcome=ok]').waitFor({ timeout: 90_000 });
    await page.locator('.sidebar [data-list=Demo]').click();
    await page.getByRole('heading', { name: 'Demo', level: 1 }).waitFor();
    await page.locator('[role=row][data-index]').first().waitFor();
    expect(await page.locator('.sidebar [data-list=Demo]').textContent()).toContain('24 maps · 12 players');
    await screenshot(page, '02-list-maps');
  });

  it('adds maps by UID and by link, says which were not found, and adds a player with a nickname', async () => {
    const [first, second] = dataset().maps;
    await page.getByRole('button', { name: 'New list' }).click();
    await page.fill('[data-testid=list-name]', 'Picks');
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.getByRole('heading', { name: 'Picks', level: 1 }).waitFor();

    await page.click('[data-testid=add-maps]');
    await page.fill('[data-testid=map-refs]', `${first!.mapUid}\nhttps://trackmania.io/#/leaderboard/${second!.mapUid}\nZZZZZZZZZZZZZZZZZZZZZZZZZZZ, not-a-map!`);
    await page.click('[data-testid=add-maps-submit]');
    const result = page.locator('[data-testid=add-maps-result]');
    await result.waitFor();
    expect(await result.textContent()).toContain('2 added.');
    expect(await result.textContent()).toContain('ZZZZZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(await result.textContent()).toContain('not-a-map!');
    // Only the turned-down refs are left in the box: nothing is offered to add until one is fixed (issue 17 §2.10).
    const submit = page.locator('[data-testid=add-maps-submit]');
    expect(await submit.isDisabled()).toBe(true);
    expect((await submit.textContent())!.trim()).toBe('Add maps');
    expect(await page.locator('[data-testid=map-refs-count]').textContent()).toBe('1 not found or not a map: fix or remove it');
    await screenshot(page, '03-add-maps');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.locator('[role=row][data-index]').count()).toBe(2);

    // A player the demo gave no nickname: the one typed here is theirs (a nickname already given would be kept).
    const accountId = app.service.active.store.players.list('Demo').find((p) => !p.nickname)!.accountId;
    await page.click('[data-testid=add-players]');
    await page.fill('[data-testid=player-id]', accountId);
    await page.fill('[data-testid=player-nickname]', 'Speedy Friend');
    await page.click('[data-testid=add-players-submit]');
    await page.getByRole('link', { name: /^Players/ }).click();
    await page.getByRole('link', { name: 'Speedy Friend' }).waitFor();
    await screenshot(page, '04-list-players');
  });

  it('syncs with a visible progress bar, counts and time left, and the cost line the command line says', async () => {
    await page.locator('.sidebar [data-list=Demo]').click();
    await page.getByRole('heading', { name: 'Demo', level: 1 }).waitFor();
    // The sync is held at its records requests (a gate in front of the demo's emulator) while the bar is looked at.
    const demo = app.service.demo!;
    const gate = await startGate(demo.emulator.url);
    const isRecords = (path: string) => path.startsWith('/v2/mapRecords/');
    try {
      gate.rule = (path) => (isRecords(path) ? 'hold' : 'pass');
      await demo.trackwatch.reconfigure({ apiUrl: gate.url });
      // The window's line is the command line's (describeCost), from the plan sync.plan makes.
      const plan = app.service.active.planSync({ list: 'Demo' });
      await page.click('[data-testid=sync-start]');
      await gate.seen(isRecords);
      const counts = page.locator('[data-testid=sync-counts]');
      await counts.waitFor({ timeout: 20_000 });
      expect(await counts.textContent()).toMatch(/^\d+ \/ \d+$/);
      expect(await page.getByRole('progressbar', { name: 'Sync progress' }).isVisible()).toBe(true);
      expect(await page.locator('[data-testid=sync-cost]').textContent()).toBe(describeCost(plan));
      await screenshot(page, '05-sync-progress');
      gate.rule = () => 'pass';
      gate.release();
      await page.locator('[data-testid=sync-start]').waitFor({ timeout: 90_000 });
    } finally {
      gate.rule = () => 'pass';
      gate.release();
      await demo.trackwatch.reconfigure({ apiUrl: demo.emulator.url });
      await gate.close();
    }
    await page.getByText('Sync finished').last().waitFor();
    expect(await page.locator('.sidebar [data-list=Demo]').textContent()).toContain('just now');
  }, 120_000);

  it('compare shows each watched player’s PB as the emulator holds it, secret ones as secret', async () => {
    await page.click('[data-testid=open-compare]');
    const grid = page.locator('[data-testid=compare-grid]');
    await grid.locator('[data-map-uid]').first().waitFor();
    await screenshot(page, '06-compare');
    // The players that do not fit the window's width are paged: every page, every cell as the emulator holds it.
    const next = page.locator('[data-testid=columns-next]');
    const seen = new Set<string>();
    let hidden = 0;
    for (;;) {
      const accounts = await grid.locator('[role=columnheader][data-account]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-account')!));
      accounts.forEach((a) => seen.add(a));
      const rows = await grid.locator('[role=row][data-index]').evaluateAll((elements) =>
        elements.map((row) => ({
          mapUid: row.querySelector('[data-map-uid]')!.getAttribute('data-map-uid')!,
          cells: [...row.querySelectorAll('[data-testid=cell] [data-testid=pb]')].map((v) => v.textContent!.trim()),
        })),
      );
      expect(rows.length).toBeGreaterThan(8);
      expect(rows.length).toBeLessThan(200);
      for (const row of rows) {
        const map = dataset().maps.find((m) => m.mapUid === row.mapUid)!;
        const expected = accounts.map((accountId) => expectedCell(map, accountId));
        expect(row.cells, stripFormatting(map.name)).toEqual(expected);
        hidden += expected.filter((v) => v === 'SECRET').length;
      }
      if (await next.isDisabled()) break;
      await next.click();
      await expect.poll(() => grid.locator('[role=columnheader][data-account]').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-account')!))).not.toEqual(accounts);
    }
    expect(seen.size).toBe(12);
    expect(hidden).toBeGreaterThan(0);
    expect(await grid.locator('[data-hidden]').first().textContent()).toContain('SECRET');
  });

  it('a name holding markup renders as text and injects no element', async () => {
    const scriptsBefore = await page.locator('script').count();
    // The demo reads like a season; hostile names live in the generator's other style. One such map joins the
    // emulator's live world, and the Picks list.
    const hostile = generateDataset({ now: DATA_NOW, seed: 7, maps: 12, players: 2, style: 'hostile' }).maps.find((m) => m.name.includes('<script'))!;
    dataset().maps.push(hostile);
    await page.goto(`${app.bridge.origin}/#/lists/Picks`);
    await page.click('[data-testid=add-maps]');
    await page.fill('[data-testid=map-refs]', hostile.mapUid);
    await page.click('[data-testid=add-maps-submit]');
    // Every ref added: the dialog closes by itself, and the list shows the map.
    await expect.poll(() => page.locator('[role=row][data-index]').count()).toBe(3);
    await page.goto(`${app.bridge.origin}/#/lists/Picks/compare`);
    const cell = page.locator(`[data-map-uid="${hostile.mapUid}"] [data-name]`);
    await page.fill('[data-testid=compare-filter]', 'script');
    await cell.waitFor();
    expect(await cell.textContent()).toBe(stripFormatting(hostile.name));
    expect(await cell.locator('script, img, iframe, a, b').count()).toBe(0);
    await cell.click({ position: { x: 5, y: 5 } });
    await page.locator('[data-testid=map-name]').waitFor();
    const title = page.locator('[data-testid=map-name] [data-name]');
    expect(await title.textContent()).toBe(stripFormatting(hostile.name));
    expect(await title.locator('*:not(span)').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(scriptsBefore);
    expect(dialogs).toEqual([]);
    await screenshot(page, '07-map-markup');
  });

  it('a map view ranks the watched players as the game would: each rank shown, or range, holds the true one', async () => {
    const on = (m: DatasetMap) => dataset().records.filter((r) => r.mapId === m.mapId && r.scopeType === 'PersonalBest');
    const withHidden = dataset().maps.find((m) => on(m).some((r) => isHidden(m, r)) && on(m).some((r) => !isHidden(m, r)))!;
    await page.goto(`${app.bridge.origin}/#/lists/Demo/maps/${encodeURIComponent(withHidden.mapUid)}`);
    await page.locator('[data-testid=map-name] [data-name]').filter({ hasText: stripFormatting(withHidden.name) }).waitFor();
    await page.locator('[data-testid=ranking] [data-testid=entry]').first().waitFor();
    const hiddenRows = page.locator('[data-testid=entry][data-hidden=true]');
    expect(await hiddenRows.count()).toBeGreaterThan(0);
    expect(await hiddenRows.first().textContent()).toContain('SECRET');
    // Every watched record's rank is the true one among the watched records (the emulator knows them all), or a range
    // ("2–4") that holds it where secret entries blur the order; a secret entry is ranked too.
    const kind = oracle.kindOf(withHidden);
    const records = on(withHidden);
    const shown = await page.locator('[data-testid=entry]').evaluateAll((rows) => rows.map((row) => ({
      accountId: (row.querySelector('a[href*="/players/"]')?.getAttribute('href') ?? '').split('/players/')[1] ?? '',
      rank: (row.querySelector('td')?.textContent ?? '').trim(),
    })));
    const ranked = shown.filter((row) => records.some((r) => r.accountId === decodeURIComponent(row.accountId)));
    expect(ranked.length).toBe(records.length);
    for (const row of ranked) {
      const record = records.find((r) => r.accountId === decodeURIComponent(row.accountId))!;
      const truly = 1 + records.filter((other) => oracle.compareResults(kind, other.recordScore, record.recordScore) < 0).length;
      const [min, max = min] = row.rank.split('–').map(Number);
      expect(truly, `${row.accountId} shown ${row.rank}`).toBeGreaterThanOrEqual(min!);
      expect(truly, `${row.accountId} shown ${row.rank}`).toBeLessThanOrEqual(max!);
    }
    await screenshot(page, '08-map-hidden');
  });

  it('the player view shows PBs and the progression', async () => {
    await page.locator('[data-testid=entry] a').first().click();
    await page.getByRole('heading', { name: 'Personal bests' }).waitFor();
    await page.getByRole('heading', { name: 'Progression' }).waitFor();
    await screenshot(page, '09-player');
  });

  it('exports the list as CSV', async () => {
    await page.locator('.sidebar [data-list=Demo]').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-csv]')]);
    expect(download.suggestedFilename()).toMatch(/^trackwatch-Demo-\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.csv$/);
    // Read as a stream: a browser the run shares is remote, and a remote download has no local path.
    const content = await text(await download.createReadStream());
    const [header, ...lines] = content.trim().split(/\r?\n/);
    expect(header).toMatch(/map_?uid/i);
    expect(lines.length).toBeGreaterThan(100);
    await page.getByText('CSV exported').waitFor();
  });

  it('replays, settings and the overview', async () => {
    await page.goto(`${app.bridge.origin}/#/replays`);
    await page.getByRole('heading', { name: 'Replays', exact: true }).waitFor();
    await page.locator('[role=row][data-index]').first().waitFor();
    await screenshot(page, '10-replays');
    await page.goto(`${app.bridge.origin}/#/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await screenshot(page, '11-settings');
    // Saving one setting keeps what was typed, unsaved, in another.
    const folder = page.locator('[data-testid=settings-replay-folder]');
    await folder.fill('/tmp/typed-not-saved');
    const notify = page.getByLabel('Notify me when a watched player sets a new PB');
    const wasOn = await notify.isChecked();
    await notify.click();
    await page.getByText('Saved', { exact: true }).first().waitFor();
    await expect.poll(() => app.service.settings.get('notify') ?? true).toBe(!wasOn);
    expect(await folder.inputValue()).toBe('/tmp/typed-not-saved');
    // Back as it was; turning them on asks the browser's permission first, which a test browser grants here.
    await page.context().grantPermissions(['notifications'], { origin: app.bridge.origin });
    const saving = page.waitForResponse((r) => r.url().endsWith('/api/invoke') && r.request().postData()?.includes('settings.update') === true);
    await notify.click();
    await expect.poll(() => app.service.settings.get('notify') ?? true).toBe(wasOn);
    await saving;
    // The second save's "Saved" replaced the first's: toasts never stack the same words.
    await page.waitForFunction(() => document.querySelectorAll('.toasts .toast').length > 0);
    expect(await page.locator('.toasts .toast').filter({ hasText: /^Saved/ }).count()).toBeLessThanOrEqual(1);
    await page.goto(`${app.bridge.origin}/#/`);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await screenshot(page, '12-overview');
  });

  it('says which replays syncs gave up on, and downloads them again on request', async () => {
    const store = app.service.active.store;
    const target = store.records.forMap(store.maps.list('Demo')[0]!.mapId).find((r) => !r.hidden)!;
    // What three failed downloads leave: a failed row that syncs no longer ask for, and no file.
    store.db.prepare("UPDATE replays SET state = 'failed', path = NULL, size = NULL, sha256 = NULL, attempts = 3 WHERE record_id = ?").run(target.mapRecordId);
    await page.goto(`${app.bridge.origin}/#/settings`);
    await page.goto(`${app.bridge.origin}/#/replays`);
    const notice = page.getByRole('status').filter({ hasText: 'syncs stopped asking for it' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('1 replay failed to download several times');
    await screenshot(page, '10b-replays-given-up');
    await notice.getByRole('button', { name: 'Try again' }).click();
    await page.getByText('Downloading 1 replay again').waitFor();
    await notice.waitFor({ state: 'detached' });
    for (let i = 0; i < 400 && !store.replays.has(target.mapRecordId); i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(store.replays.get(target.mapRecordId)).toMatchObject({ state: 'downloaded' });
  });

  it('is quick with the keyboard: shortcuts, g-jumps, rows and Enter', async () => {
    await page.goto(`${app.bridge.origin}/#/lists/Demo`);
    await page.getByRole('heading', { name: 'Demo', level: 1 }).waitFor();
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('g');
    await page.keyboard.press('c');
    await page.locator('[data-testid=compare-grid] [data-map-uid]').first().waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const active = page.locator('[data-testid=compare-grid] [role=row].active');
    expect(await active.getAttribute('data-index')).toBe('1');
    const mapUid = await active.locator('[data-map-uid]').getAttribute('data-map-uid');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=map-name]').waitFor();
    expect(decodeURIComponent(page.url())).toContain(`/maps/${mapUid}`);
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('INPUT');
    await page.keyboard.press('g');
    await page.keyboard.press('h');
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // Away from any list, "g m" leads to the last list viewed.
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.keyboard.press('g');
    await page.keyboard.press('m');
    await page.getByRole('heading', { name: 'Demo', level: 1 }).waitFor();
    expect(decodeURIComponent(page.url())).toMatch(/#\/lists\/Demo$/);
  });

  it('says so when the service cannot be reached, and still browses what was synced', async () => {
    await app.service.demo!.emulator.close();
    await page.goto(`${app.bridge.origin}/#/lists/Demo/compare`);
    await page.locator('[data-testid=compare-grid] [data-map-uid]').first().waitFor();
    await page.click('[data-testid=sync-start]');
    await page.locator('[data-testid=banner-offline]').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid=compare-grid] [data-map-uid]').count()).toBeGreaterThan(5);
    await screenshot(page, '13-offline');
  }, 60_000);

  it('broke no rule of the page: no CSP violation, no error', () => {
    expect(problems.filter((p) => !/Failed to load resource/.test(p))).toEqual([]);
  });
});

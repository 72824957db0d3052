// The window's backend on a data folder on read-only media (issue 9): `trackwatch serve` (the service behind the
// browser bridge) starts on it, shows everything stored, answers every write with the read_only error value, and
// leaves the database and the folder as they were. The same when only the database file cannot be written.
import { cpSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { ensureRendererBuilt, launchChromium, watchPage } from '../../helpers/browser.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { canMakeReadOnly, databaseOf, inspect, sha256, trackwatch, type Result } from './helpers.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 23, maps: 4, players: 4 });
const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
const NEW_PLAYER = '00000000-0000-4000-8000-000000000001';
const READ_ONLY = /^The data folder .+ is read-only: Trackwatch can show what is stored but cannot change it\. Copy the folder somewhere writable/;

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };
type Invoke = (name: string, input?: unknown) => Promise<Answer>;

let emulator: RunningEmulator;
let scratch: { dir: string; remove: () => Promise<void> };
/** A data folder with a list, its players and one sync behind it, copied for each case. */
let template: string;

beforeAll(async () => {
  if (!canMakeReadOnly()) return;
  ensureRendererBuilt();
  emulator = await startEmulator({ dataset });
  scratch = await tempDataDir('trackwatch-read-only-');
  template = join(scratch.dir, 'template');
  for (const args of [['maps', 'add', ...dataset.maps.map((m) => m.mapUid)], ['players', 'add', ...accounts], ['sync', '--no-replays']]) {
    const r = await trackwatch(['--data-dir', template, '--api-url', emulator.url, '--max-rps', '500', ...args]);
    if (r.code !== 0) throw new Error(`setting up: ${args.join(' ')}: ${r.stderr}`);
  }
}, 120_000);
afterAll(async () => {
  await emulator?.close();
  await scratch?.remove();
});

/** `trackwatch serve` on `data`, with `readOnly` (the folder, or its database file) on read-only media. */
async function serveReadOnly(data: string, readOnly: string): Promise<{ url: string; invoke: Invoke; stop: () => Promise<Result> }> {
  let kill!: () => void;
  let printed!: (address: string) => void;
  const address = new Promise<string>((resolve) => (printed = resolve));
  const exited = trackwatch(['--data-dir', data, '--api-url', emulator.url, 'serve', '--port', '0'], {
    readOnly,
    onSpawn: (child) => {
      kill = () => child.kill('SIGTERM');
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/.exec(out);
        if (match) printed(`${match[1]} ${match[2]}`);
      });
    },
  });
  const [origin, token] = (await Promise.race([address, exited.then((r) => Promise.reject(new Error(`serve exited (${r.code}): ${r.stderr}`)))])).split(' ');
  const invoke: Invoke = async (name, input = {}) => {
    const res = await fetch(`${origin}/api/invoke`, {
      method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ name, input }),
    });
    return (await res.json()) as Answer;
  };
  return { url: `${origin}/#token=${token}`, invoke, stop: () => (kill(), exited) };
}

const WRITES: [string, unknown][] = [
  ['sync.start', {}],
  ['watchlists.create', { name: 'Another' }],
  ['watchlists.rename', { list: 'Default', name: 'Renamed' }],
  ['watchlists.delete', { list: 'Default' }],
  ['watchlists.addMaps', { list: 'Default', refs: [dataset.maps[0]!.mapUid] }],
  ['watchlists.removeMaps', { list: 'Default', mapUids: [dataset.maps[0]!.mapUid] }],
  ['watchlists.addPlayers', { list: 'Default', players: [{ accountId: NEW_PLAYER }] }],
  ['players.setNickname', { accountId: accounts[0], nickname: 'Rival' }],
  ['replays.setPolicy', { list: 'Default', policy: { mode: 'none' } }],
  ['replays.retryFailed', {}],
  ['settings.update', { theme: 'light' }],
  ['account.save', { login: 'someone', password: 'secret', contact: 'me@example.com' }],
  ['setup.connect', { login: 'someone', password: 'secret', contact: 'me@example.com' }],
  ['setup.startDemo', {}],
];

describe.runIf(canMakeReadOnly())('the window on a read-only data folder', () => {
  let data: string;
  let before: ReturnType<typeof inspect>;
  let files: string[];
  let databaseSum: string;
  let serve: Awaited<ReturnType<typeof serveReadOnly>>;

  beforeAll(async () => {
    data = join(scratch.dir, 'folder');
    cpSync(template, data, { recursive: true });
    before = inspect(data);
    files = readdirSync(data, { recursive: true }).map(String).sort();
    databaseSum = sha256(databaseOf(data));
    serve = await serveReadOnly(data, data);
  });

  it('starts, says the folder is read-only, and shows everything stored', async () => {
    const info = await serve.invoke('app.info');
    expect(info).toMatchObject({ ok: true, value: { setup: 'account', dataDir: data, readOnly: expect.stringMatching(READ_ONLY) } });
    expect((info as { value: { readOnly: string } }).value.readOnly).toContain(data);

    expect(await serve.invoke('watchlists.list')).toMatchObject({ ok: true, value: [{ name: 'Default', maps: dataset.maps.length, players: accounts.length }] });
    const compare = await serve.invoke('compare.get', { list: 'Default' });
    expect(compare.ok).toBe(true);
    expect((compare as { value: { rows: unknown[] } }).value.rows).toHaveLength(dataset.maps.length);
    // The list's players' PBs (a world record's holder has a stored record too, outside the list).
    const watched = new Set(before.rows.players!.filter((p) => accounts.includes((p as { account_id: string }).account_id)).map((p) => (p as { id: number }).id));
    const storedPbs = before.rows.records!.filter((r) => (r as { current: number | null }).current === 1 && watched.has((r as { player_ref: number }).player_ref)).length;
    expect(storedPbs).toBeGreaterThan(0);
    expect(await serve.invoke('export.csv', { list: 'Default' })).toMatchObject({ ok: true, value: { kind: 'download', rows: storedPbs } });
    for (const name of ['settings.get', 'sync.status', 'replays.list', 'account.get']) expect(await serve.invoke(name), name).toMatchObject({ ok: true });
    expect(await serve.invoke('players.get', { list: 'Default', accountId: accounts[0] })).toMatchObject({ ok: true });
  });

  it('answers every write with the read_only error value, and keeps serving', async () => {
    for (const [name, input] of WRITES) {
      expect(await serve.invoke(name, input), name).toMatchObject({ ok: false, error: { code: 'read_only', message: expect.stringMatching(READ_ONLY) } });
    }
    // Choosing another data folder is not a write to this one: it reaches its handler (browser mode has no such setting).
    expect(await serve.invoke('settings.update', { dataDir: '/elsewhere' })).toMatchObject({ ok: false, error: { code: 'unsupported' } });
    expect(await serve.invoke('watchlists.list')).toMatchObject({ ok: true, value: [{ name: 'Default' }] });
  });

  it('the window shows the stored list under a banner saying the folder is read-only', async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const { problems } = watchPage(page);
      await page.goto(serve.url);
      const banner = page.locator('[data-testid=banner-read-only]');
      await banner.waitFor();
      expect(await banner.textContent()).toMatch(/Read-only data folder\.\s*The data folder .+ is read-only: Trackwatch can show what is stored/);
      await page.getByText('Default').first().waitFor();
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('stops cleanly, leaving the database intact and the folder as it was', async () => {
    const result = await serve.stop();
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const after = inspect(data);
    expect(after.integrity).toBe('ok');
    expect(after).toEqual(before);
    expect(sha256(databaseOf(data))).toBe(databaseSum);
    expect(readdirSync(data, { recursive: true }).map(String).sort()).toEqual(files);
  });
});

describe.runIf(canMakeReadOnly())('the window on a data folder whose database file cannot be written', () => {
  it('opens read-only too: shows what is stored, refuses a write, leaves the database intact', async () => {
    const data = join(scratch.dir, 'file');
    cpSync(template, data, { recursive: true });
    const before = inspect(data);
    const serve = await serveReadOnly(data, databaseOf(data));
    try {
      expect(await serve.invoke('app.info')).toMatchObject({ ok: true, value: { readOnly: expect.stringMatching(READ_ONLY) } });
      expect(await serve.invoke('watchlists.list')).toMatchObject({ ok: true, value: [{ name: 'Default', maps: dataset.maps.length }] });
      expect(await serve.invoke('watchlists.create', { name: 'Another' })).toMatchObject({ ok: false, error: { code: 'read_only' } });
    } finally {
      const result = await serve.stop();
      expect(result.code, result.stderr).toBe(0);
    }
    const after = inspect(data);
    expect(after.integrity).toBe('ok');
    expect(after).toEqual(before);
  });
});

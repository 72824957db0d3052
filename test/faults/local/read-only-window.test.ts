// The window's backend on a data folder on read-only media (issue 9): `trackwatch serve` (the service behind the
// browser bridge) starts on it, shows everything stored, answers every write with the read_only error value, and
// leaves the database and the folder as they were.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { ensureRendererBuilt } from '../../helpers/browser.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { canMakeReadOnly, inspect, sha256, databaseOf, trackwatch, type Result } from './helpers.ts';

const dataset = generateDataset({ seed: 23, maps: 4, players: 4 });
const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
const NEW_PLAYER = '00000000-0000-4000-8000-000000000001';
const READ_ONLY = /^The data folder .+ is read-only: Trackwatch can show what is stored but cannot change it\. Copy the folder somewhere writable/;

type Answer = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

describe.runIf(canMakeReadOnly())('the window on a read-only data folder', () => {
  let emulator: RunningEmulator;
  let scratch: { dir: string; remove: () => Promise<void> };
  let data: string;
  let before: ReturnType<typeof inspect>;
  let files: string[];
  let databaseSum: string;
  let serve: { stop: () => void; exited: Promise<Result> } | undefined;
  let invoke: (name: string, input?: unknown) => Promise<Answer>;

  beforeAll(async () => {
    ensureRendererBuilt();
    emulator = await startEmulator({ dataset });
    scratch = await tempDataDir('trackwatch-read-only-');
    data = join(scratch.dir, 'data');
    const base = ['--data-dir', data, '--api-url', emulator.url, '--max-rps', '500'];
    for (const args of [['maps', 'add', ...dataset.maps.map((m) => m.mapUid)], ['players', 'add', ...accounts], ['sync', '--no-replays']]) {
      const r = await trackwatch([...base, ...args]);
      if (r.code !== 0) throw new Error(`setting up: ${args.join(' ')}: ${r.stderr}`);
    }
    before = inspect(data);
    files = readdirSync(data, { recursive: true }).map(String).sort();
    databaseSum = sha256(databaseOf(data));

    let stop!: () => void;
    let printed!: (url: string) => void;
    const url = new Promise<string>((resolve) => (printed = resolve));
    const exited = trackwatch([...base, 'serve', '--port', '0'], {
      readOnly: data,
      onSpawn: (child) => {
        stop = () => child.kill('SIGTERM');
        let out = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /(http:\/\/127\.0\.0\.1:\d+)\/#token=([\w-]+)/.exec(out);
          if (match) printed(`${match[1]} ${match[2]}`);
        });
      },
    });
    serve = { stop, exited };
    const started = await Promise.race([url, exited.then((r) => Promise.reject(new Error(`serve exited (${r.code}): ${r.stderr}`)))]);
    const [origin, token] = started.split(' ');
    invoke = async (name, input = {}) => {
      const res = await fetch(`${origin}/api/invoke`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify({ name, input }),
      });
      return (await res.json()) as Answer;
    };
  }, 120_000);

  afterAll(async () => {
    if (serve) {
      serve.stop();
      await serve.exited;
    }
    await emulator?.close();
    await scratch?.remove();
  });

  it('starts, says the folder is read-only, and shows everything stored', async () => {
    const info = await invoke('app.info');
    expect(info).toMatchObject({ ok: true, value: { setup: 'account', dataDir: data, readOnly: expect.stringMatching(READ_ONLY) } });
    expect((info as { value: { readOnly: string } }).value.readOnly).toContain(data);

    const lists = await invoke('watchlists.list');
    expect(lists).toMatchObject({ ok: true, value: [{ name: 'Default', maps: dataset.maps.length, players: accounts.length }] });
    const compare = await invoke('compare.get', { list: 'Default' });
    expect(compare.ok).toBe(true);
    const rows = (compare as { value: { rows: unknown[] } }).value.rows;
    expect(rows).toHaveLength(dataset.maps.length);
    const storedPbs = before.rows.records!.filter((r) => (r as { current: number | null }).current === 1).length;
    expect(storedPbs).toBeGreaterThan(0);
    const exported = await invoke('export.csv', { list: 'Default' });
    expect(exported).toMatchObject({ ok: true, value: { kind: 'download', rows: storedPbs } });
    for (const name of ['settings.get', 'sync.status', 'replays.list', 'account.get']) expect(await invoke(name), name).toMatchObject({ ok: true });
    expect(await invoke('players.get', { list: 'Default', accountId: accounts[0] })).toMatchObject({ ok: true });
  });

  it('answers every write with the read_only error value, and changes nothing', async () => {
    const writes: [string, unknown][] = [
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
    for (const [name, input] of writes) {
      const answer = await invoke(name, input);
      expect(answer, name).toMatchObject({ ok: false, error: { code: 'read_only', message: expect.stringMatching(READ_ONLY) } });
    }
    // Still serving, still showing the same.
    expect(await invoke('watchlists.list')).toMatchObject({ ok: true, value: [{ name: 'Default' }] });
    expect(await invoke('app.info')).toMatchObject({ ok: true, value: { setup: 'account' } });
  });

  it('leaves the database intact and the folder as it was', async () => {
    serve!.stop();
    const result = await serve!.exited;
    serve = undefined;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    const after = inspect(data);
    expect(after.integrity).toBe('ok');
    expect(after).toEqual(before);
    expect(sha256(databaseOf(data))).toBe(databaseSum);
    expect(readdirSync(data, { recursive: true }).map(String).sort()).toEqual(files);
  });
});

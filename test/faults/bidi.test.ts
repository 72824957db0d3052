// Issue 17 §1.7: U+202E (right-to-left override) and every other bidirectional control in a name from a service never
// reaches what a player reads: the terminal (the CLI's tables and JSON), the CSV export, or a list's name. The oracle
// is Unicode's own Bidi_Control property (\p{Bidi_Control}), not the product's list of them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exportCsv } from '../../src-main/core/export/csv.ts';
import { createLiveClient, createNadeoClient } from '../../src-main/core/nadeo/index.ts';
import { DATABASE_FILE_NAME } from '../../src-main/core/paths.ts';
import { createListFromSource } from '../../src-main/core/sources.ts';
import { openStore, type Store } from '../../src-main/core/store/index.ts';
import { addMaps } from '../../src-main/core/trackwatch/watch.ts';
import { createExchangeClient } from '../../src-main/core/exchange/client.ts';
import { cli } from '../helpers/cli.ts';
import { makeMap as wireMap } from '../unit/nadeo/fixtures.ts';
import { accountId, makeMap, makeRecord, mapId, memoryStore } from '../unit/store/fixtures.ts';
import { sendJson, startHostileServer, type HostileServer, FAST_CLIENT } from './hostile-server.ts';

/** Every character with the Bidi_Control property, by Unicode's own reckoning. */
const BIDI = [...Array(0x10000).keys()].map((c) => String.fromCharCode(c)).filter((c) => /\p{Bidi_Control}/u.test(c));
const ANY_BIDI = /\p{Bidi_Control}/u;
/** A name that holds each of them, the right-to-left override first (the "gnp.exe" trick). */
const HOSTILE = `Fall\u202Egnp.exe ${BIDI.join('x')}`;

/** Fills a store with one map, two players and their records, every name carrying every bidi control. */
function fill(store: Store): void {
  store.maps.upsert([makeMap(1, { name: HOSTILE })]);
  store.watchlists.create('Fall');
  store.maps.addRefs('Fall', [{ mapId: mapId(1) }]);
  store.players.add('Fall', [{ accountId: accountId(1), nickname: HOSTILE }, { accountId: accountId(2) }]);
  store.players.setDisplayNames(new Map([[accountId(2), `$f00${HOSTILE}`]]), '2026-11-01T00:00:00.000Z');
  const run = store.syncRuns.start('Fall');
  store.records.applyRecords({
    mapId: mapId(1), scope: 'PersonalBest', seenAt: '2026-11-01T00:00:00.000Z', syncRunId: run,
    records: [makeRecord(1, 1, { time: 50_000, gameMode: `Time\u202EAttack` }), makeRecord(1, 2, { time: 51_000 })],
  });
  store.syncRuns.finish(run, 'ok', { maps: 1 });
}

it('the oracle covers the controls the issue names: U+202E, U+2066-U+2069, U+200E/F, U+061C, U+202A-U+202D', () => {
  expect(BIDI.map((c) => c.charCodeAt(0).toString(16))).toEqual(['61c', '200e', '200f', '202a', '202b', '202c', '202d', '202e', '2066', '2067', '2068', '2069']);
});

describe('the CSV export', () => {
  let store: Store;
  beforeEach(async () => {
    store = await memoryStore();
  });
  afterEach(() => store.close());

  it('holds no bidi control, in map names, player names or the raw cells', async () => {
    fill(store);
    let text = '';
    const sink = new Writable({ write(chunk: Buffer, _enc, done) { text += chunk.toString(); done(); } });
    expect(await exportCsv(store, sink)).toEqual({ rows: 2 });
    expect(text).toContain('gnp.exe');
    expect(text).not.toMatch(ANY_BIDI);
  });
});

describe('list names', () => {
  let store: Store;
  let server: HostileServer;
  beforeEach(async () => {
    store = await memoryStore();
    server = await startHostileServer();
  });
  afterEach(async () => {
    store.close();
    await server.close();
  });

  it.each(BIDI.map((c) => [c.charCodeAt(0).toString(16), c]))('a list name the player types with U+%s is refused in one line', (_code, c) => {
    expect(() => store.watchlists.create(`Fall${c}2026`)).toThrow(/^list names cannot hold right-to-left or other direction controls$/);
    expect(store.watchlists.list()).toEqual([]);
  });

  it('a list named after a campaign whose name holds them holds none', async () => {
    const map = wireMap(1);
    server.answer = (req, res) => {
      if (req.path.includes('/campaign/')) {
        sendJson(res, 200, { itemCount: 1, campaignList: [{ id: 1, seasonUid: 's', name: HOSTILE, startTimestamp: 1_700_000_000, endTimestamp: 1_710_000_000, playlist: [{ id: 1, position: 0, mapUid: map.mapUid }] }] });
      } else sendJson(res, 200, [map]);
    };
    const core = createNadeoClient({ ...FAST_CLIENT, baseUrl: server.url });
    const live = createLiveClient({ ...FAST_CLIENT, coreBaseUrl: server.url });
    const exchange = createExchangeClient({ ...FAST_CLIENT, baseUrl: server.url });
    try {
      const watch = { store, client: () => core, exchange: () => exchange };
      const made = await createListFromSource({
        store: { watchlists: store.watchlists, maps: store.maps, sources: store.sources },
        clients: { live, exchange },
        addMaps: (list, uids, o) => addMaps(watch, list, uids, o),
      }, { source: 'campaign:current' });
      expect(made.list).toContain('gnp.exe');
      expect([made.list, made.title, ...store.watchlists.list().map((l) => l.name)].join('|')).not.toMatch(ANY_BIDI);
    } finally {
      await Promise.all([core.close(), live.close(), exchange.close()]);
    }
  });
});

describe('the terminal', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tw-bidi-'));
    const store = openStore({ file: join(dataDir, DATABASE_FILE_NAME), dataDir });
    try {
      fill(store);
    } finally {
      store.close();
    }
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it.each(['compare', 'compare --json', 'maps list', 'players list', 'records', 'history', 'history --json'])('`trackwatch %s` prints no bidi control', async (command) => {
    const r = await cli(['--data-dir', dataDir, ...command.split(' ')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(0);
    expect(r.stdout + r.stderr).not.toMatch(ANY_BIDI);
  });

  it('`trackwatch records --json` prints none either, yet keeps the names whole for scripts: escaped, not lost', async () => {
    const r = await cli(['--data-dir', dataDir, 'records', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toMatch(ANY_BIDI);
    expect(r.stdout).toContain('\\u202e');
    const records = JSON.parse(r.stdout) as { playerName: string; gameMode: string }[];
    expect(records.map((x) => x.gameMode)).toContain('Time\u202EAttack');
  });
});

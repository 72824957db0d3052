// Issue 17 §1.7, the leftovers: values a service can send that no game produces. Times below one physics tick, a
// medal its own time and the map's medal scores contradict, a Track of the Day month of -5, and a list source whose
// maps are all invalid. Each ends in one line with nothing wrong stored; the sync-level cases run against the
// emulator serving a dataset the test damaged, the rest against a hostile server of the test's own.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createExchangeClient, type ExchangeClient } from '../../src-main/core/exchange/client.ts';
import { createLiveClient, createNadeoClient, type LiveClient, type NadeoClient } from '../../src-main/core/nadeo/index.ts';
import { createListFromSource, type SourceDeps } from '../../src-main/core/sources.ts';
import { openTrackwatch, type Trackwatch } from '../../src-main/core/trackwatch.ts';
import { addMaps } from '../../src-main/core/trackwatch/watch.ts';
import { generateDataset, startEmulator, type Dataset, type DatasetMap, type DatasetRecord, type RunningEmulator } from '../../src-main/emulator/index.ts';
import type { Store } from '../../src-main/core/store/index.ts';
import { DATA_NOW } from '../helpers/clock.ts';
import { tempDataDir } from '../helpers/sync.ts';
import { memoryStore } from '../unit/store/fixtures.ts';
import { sendJson, startHostileServer, type HostileServer, FAST_CLIENT } from './hostile-server.ts';


/** One line of text: what the player reads. */
function oneLine(error: unknown): string {
  const message = (error as Error).message;
  expect(message).not.toMatch(/\n/);
  return message;
}

describe('records whose values no run produces, in a sync (emulator serving a damaged dataset)', () => {
  let dataset: Dataset;
  let emulator: RunningEmulator;
  let data: Awaited<ReturnType<typeof tempDataDir>>;
  let tw: Trackwatch;
  /** Visible Race personal bests on one map, damaged below: [0 ms, 1 ms, a wrong medal]. */
  let map: DatasetMap;
  let damaged: DatasetRecord[];
  let wrongMedal: { claimed: number; earned: number };

  beforeAll(async () => {
    dataset = generateDataset({ now: DATA_NOW, seed: 3, maps: 8, players: 12, style: 'season' });
    const visible = (m: DatasetMap) => dataset.records.filter((r) => r.mapId === m.mapId && r.scopeType === 'PersonalBest'
      && (m.secretThreshold === undefined || r.recordScore.time >= m.secretThreshold));
    map = dataset.maps.find((m) => m.mapType.endsWith('TM_Race') && !m.hasClones && visible(m).length >= 3)!;
    damaged = visible(map).slice(0, 3);
    damaged[0]!.recordScore.time = 0;
    damaged[1]!.recordScore.time = 1;
    // Slower than bronze, yet sent with the author medal: the map's medal scores say it earns none.
    const wrong = damaged[2]!;
    wrong.recordScore.time = map.bronzeScore + 5_000;
    wrongMedal = { claimed: 4, earned: 0 };
    wrong.medal = wrongMedal.claimed;
    emulator = await startEmulator({ dataset });
    data = await tempDataDir('trackwatch-values-');
    tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000 });
    await tw.addMaps('Values', [map.mapUid], { lookUp: false });
    tw.store.players.add('Values', damaged.map((r) => ({ accountId: r.accountId })));
  });
  afterAll(async () => {
    await tw?.close();
    await emulator?.close();
    await data?.remove();
  });

  it('times of 0 and 1 ms are left out, each with its reason in one line; nothing of theirs is stored; the medal is stored as earned and said', async () => {
    const summary = await tw.sync({ list: 'Values', replays: false });
    expect(summary.outcome).toBe('partial');
    const messages = summary.errors.map((e) => oneLine(e));
    expect(messages.filter((m) => m.includes('shorter than any run the game can time'))).toHaveLength(2);
    expect(messages.find((m) => m.includes('time 0 ms'))).toMatch(/^a record of \S+ was left out: time 0 ms is shorter than any run the game can time \(at least 10 ms, one physics tick\)$/);
    expect(messages.some((m) => m.includes('time 1 ms'))).toBe(true);
    expect(tw.store.records.get(map.mapId, damaged[0]!.accountId)).toBeUndefined();
    expect(tw.store.records.get(map.mapId, damaged[1]!.accountId)).toBeUndefined();
    expect(tw.store.records.history({ map: map.mapId }).filter((h) => h.accountId === damaged[0]!.accountId || h.accountId === damaged[1]!.accountId)).toEqual([]);

    // The service said author; the time is slower than bronze: what is stored (and shown everywhere) is none.
    const stored = tw.store.records.get(map.mapId, damaged[2]!.accountId);
    expect(stored).toMatchObject({ time: map.bronzeScore + 5_000, medal: wrongMedal.earned });
    expect(messages.filter((m) => m.includes('medal scores contradict'))).toEqual([
      expect.stringMatching(/the author medal, which the map's medal scores contradict; kept as none$/),
    ]);
  });
});

describe('Track of the Day months the Live services cannot mean', () => {
  let server: HostileServer;
  let live: LiveClient | undefined;
  beforeEach(async () => {
    server = await startHostileServer();
  });
  afterEach(async () => {
    await live?.close();
    live = undefined;
    await server.close();
  });

  const month = (o: Record<string, number>) => ({ year: 2026, month: 11, lastDay: 30, days: [{ campaignId: 1, mapUid: '', day: 0, monthDay: 1, startTimestamp: 1_700_000_000, endTimestamp: 1_700_086_400 }], ...o });

  it.each([
    ['month', { month: -5 }],
    ['month', { month: 13 }],
    ['year', { year: -2026 }],
    ['lastDay', { lastDay: 0 }],
  ])('a %s of %o is refused with one line naming it, never echoed as a date ("2026--5")', async (field, wrong) => {
    server.answer = (_req, res) => sendJson(res, 200, { monthList: [month(wrong)], itemCount: 1 });
    live = createLiveClient({ ...FAST_CLIENT, coreBaseUrl: server.url });
    const error = await live.getTrackOfTheDayMonths().catch((e: unknown) => e);
    expect((error as Error).name).toBe('SchemaError');
    const line = oneLine(error);
    expect(line).toContain(field);
    expect(line).not.toMatch(/\d{4}--\d/);
  });
});

describe('a list source whose maps are all invalid makes no list', () => {
  let server: HostileServer;
  let store: Store;
  let core: NadeoClient;
  let exchange: ExchangeClient;
  let live: LiveClient;
  beforeEach(async () => {
    server = await startHostileServer();
    store = await memoryStore();
    core = createNadeoClient({ ...FAST_CLIENT, baseUrl: server.url });
    exchange = createExchangeClient({ ...FAST_CLIENT, baseUrl: server.url });
    live = createLiveClient({ ...FAST_CLIENT, coreBaseUrl: server.url });
  });
  afterEach(async () => {
    await Promise.all([core.close(), exchange.close(), live.close()]);
    store.close();
    await server.close();
  });

  /** Map UIDs no map has: empty, a path, a formula, markup, far too long. */
  const INVALID = ['', '../../etc/passwd', '=HYPERLINK("x")', '<b>uid</b>', 'x'.repeat(300)];

  function deps(): SourceDeps {
    const watch = { store, client: () => core, exchange: () => exchange };
    return {
      store: { watchlists: store.watchlists, maps: store.maps, sources: store.sources },
      clients: { live, exchange },
      addMaps: (list, uids, o) => addMaps(watch, list, uids, o),
    };
  }

  it.each([
    ['an Exchange pack', 'tmx-pack:5150', (): object => ({ More: false, Results: INVALID.map((uid, i) => ({ MapId: i + 1, MapUid: uid, Name: `Map ${i}` })) })],
    ['a seasonal campaign', 'campaign:current', (): object => ({
      itemCount: 1,
      campaignList: [{ id: 1, seasonUid: 's', name: 'Fall 2026', startTimestamp: 1_700_000_000, endTimestamp: 1_710_000_000, playlist: INVALID.map((mapUid, i) => ({ id: i, position: i, mapUid })) }],
    })],
  ])('%s: refused in one line, no list and no source stored, the map lookup never asked', async (_what, source, body) => {
    server.answer = (req, res) => {
      if (req.path.includes('/api/maps') || req.path.includes('/campaign/')) sendJson(res, 200, body());
      else sendJson(res, 200, []);
    };
    const error = await createListFromSource(deps(), { source }).catch((e: unknown) => e);
    expect(oneLine(error)).toMatch(/^None of the 5 maps of .+ could be added \(none of them is a map UID\); no list was created\.$/);
    expect(store.watchlists.list()).toEqual([]);
    expect(store.db.prepare('SELECT count(*) AS n FROM list_sources').get()).toEqual({ n: 0 });
    // Core's map lookup (GET /maps/...) had nothing worth asking about.
    expect(server.requests.filter((r) => r.path.startsWith('/maps/'))).toEqual([]);
  });
});

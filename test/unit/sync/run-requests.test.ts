// A run counts its own requests (issue 18 §1): those its phases send, however deep, and not one that the window (or a
// hook of the caller) sends on the same client meanwhile. Each moment is one the test holds the sync at.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import type { Store } from '../../../src-main/core/store/index.ts';
import { runSync } from '../../../src-main/core/sync/engine.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import { RequestEventHub } from '../../../src-main/core/sync/run-requests.ts';
import type { PositionsSummary } from '../../../src-main/core/sync/positions.ts';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { memoryStore } from '../store/fixtures.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const NO_POSITIONS: PositionsSummary = { asked: 0, requests: 0, minimumRequests: 0, ranked: 0, limitedByOwnRecord: 0, unavailable: 0, changed: 0, bestClimb: null, bestPosition: null };

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("a run's requests", () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 41, maps: 3, players: 3 });
  let emulator: RunningEmulator;
  let hub: RequestEventHub;
  let client: NadeoClient;
  let store: Store;
  let data: { dir: string; remove: () => Promise<void> };
  const uid = dataset.maps[0]!.mapUid;

  beforeAll(async () => {
    emulator = await startEmulator({ dataset });
    hub = new RequestEventHub();
    client = createNadeoClient({ baseUrl: emulator.url, appVersion: '0.1.0', maxRps: 2000, burst: 50, onRequest: (e) => hub.emit(e) });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });
  beforeEach(async () => {
    store = await memoryStore();
    data = await tempDataDir();
    store.watchlists.create('Fall');
    const uids = dataset.maps.map((m) => m.mapUid);
    store.maps.addRefs('Fall', uids.map((mapUid) => ({ mapUid })));
    store.maps.upsert((await client.getMapsByUid(uids)).maps, new Date().toISOString());
    store.players.add('Fall', [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
    emulator.resetStats();
  });
  afterEach(async () => data.remove());

  it('are those sent from inside it, not those sent meanwhile by the window or by a hook of the caller', async () => {
    const paused = deferred();
    const resume = deferred();
    let fromHook: Promise<unknown> | undefined;
    const totalsBefore = client.stats().requests;
    const sync = runSync(
      {
        store, client, dataDir: data.dir, requestEvents: hub,
        // The positions phase: one request of the run's own, then the sync waits here while the window asks.
        syncPositions: async () => {
          await client.getMapsById([dataset.maps[1]!.mapId]);
          paused.resolve();
          await resume.promise;
          return NO_POSITIONS;
        },
      },
      {
        list: 'Fall', replays: false,
        // A notification that looks a map up, started by the caller's hook while the records are read.
        onProgress: (p) => {
          if (p.phase === 'records' && p.mapsDone === 1) fromHook ??= client.getMapsByUid([uid]);
        },
      },
    );
    await paused.promise;
    expect(hub.listening).toBe(1);
    // The window, during the sync: a lookup on the same client.
    await client.getMapsByUid([uid]);
    await fromHook;
    resume.resolve();
    const summary = await sync;

    expect(summary.outcome).toBe('ok');
    expect(fromHook).toBeDefined();
    // The emulator saw the run's requests (a records request per map, the lookup of its positions phase) and the two others.
    expect(emulator.stats().requests).toBe(dataset.maps.length + 1 + 2);
    expect(summary.requests).toBe(dataset.maps.length + 1);
    expect(store.syncRuns.get(summary.runId)).toMatchObject({ counts: { requests: summary.requests } });
    // The client's totals, which the run counted before, hold the two others too.
    expect(client.stats().requests - totalsBefore).toBe(summary.requests + 2);
    // A finished run no longer listens.
    expect(hub.listening).toBe(0);
  });

  it('of two syncs at once on one connection are each its own', async () => {
    // Two data folders (each its own sync lock) on one client and one hub: both runs listen to the same events.
    const other = await memoryStore();
    const otherData = await tempDataDir();
    other.watchlists.create('Other');
    other.maps.addRefs('Other', [{ mapUid: uid }]);
    other.maps.upsert((await client.getMapsByUid([uid])).maps, new Date().toISOString());
    other.players.add('Other', [{ accountId: dataset.records[0]!.accountId }]);
    emulator.resetStats();
    const bothThere = { first: deferred(), second: deferred() };
    const resume = deferred();
    /** A positions phase that makes `extra` requests of its own, then waits for the other run to be there too. */
    const positions = (arrived: { resolve: () => void }, extra: number) => async () => {
      for (let i = 0; i < extra; i += 1) await client.getMapsById([dataset.maps[i % dataset.maps.length]!.mapId]);
      arrived.resolve();
      await resume.promise;
      return NO_POSITIONS;
    };
    const first = runSync({ store, client, dataDir: data.dir, requestEvents: hub, syncPositions: positions(bothThere.first, 1) }, { list: 'Fall', replays: false });
    const second = runSync({ store: other, client, dataDir: otherData.dir, requestEvents: hub, syncPositions: positions(bothThere.second, 2) }, { list: 'Other', replays: false });
    await Promise.all([bothThere.first.promise, bothThere.second.promise]);
    expect(hub.listening).toBe(2);
    resume.resolve();
    const [a, b] = await Promise.all([first, second]);
    await otherData.remove();

    expect([a.outcome, b.outcome]).toEqual(['ok', 'ok']);
    // A records request per map of each list, and each run's own lookups.
    expect(a.requests).toBe(dataset.maps.length + 1);
    expect(b.requests).toBe(1 + 2);
    expect(emulator.stats().requests).toBe(a.requests + b.requests);
    expect(hub.listening).toBe(0);
  });
});

describe("a run's requests through the Trackwatch root", () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 43, maps: 3, players: 3 });
  let emulator: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let tw: Trackwatch;
  const seen: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ dataset });
    data = await tempDataDir();
    // The caller's own listener still hears every request beside the connection's hub.
    tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 2000, tuning: { burst: 50, onRequest: (e) => seen.push(e.route) } });
    await tw.addMaps('Fall', dataset.maps.map((m) => m.mapUid));
    tw.store.players.add('Fall', [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
  });
  afterAll(async () => {
    await tw.close();
    await emulator.close();
    await data.remove();
  });

  it('are counted per sync on one connection, not as a running total, and not the window\'s lookups meanwhile', async () => {
    emulator.resetStats();
    seen.length = 0;
    const one = await tw.sync({ list: 'Fall', replays: false });
    const firstSeen = emulator.stats().requests;
    expect(one.outcome).toBe('ok');
    expect(one.requests).toBe(firstSeen);
    expect(seen).toHaveLength(firstSeen);

    emulator.resetStats();
    let lookup: Promise<unknown> | undefined;
    const two = await tw.sync({
      list: 'Fall', replays: false,
      // The window looks a map up while the records are read, on the same connection (started by the caller's hook).
      onProgress: (p) => {
        if (p.phase === 'records' && p.mapsDone === 1) lookup ??= tw.client.getMapsByUid([dataset.maps[0]!.mapUid]);
      },
    });
    await lookup;
    expect(lookup).toBeDefined();
    expect(two.outcome).toBe('ok');
    expect(two.requests).toBeGreaterThan(0);
    expect(emulator.stats().requests).toBe(two.requests + 1);
    expect(tw.store.syncRuns.get(two.runId)).toMatchObject({ counts: { requests: two.requests } });
  });
});

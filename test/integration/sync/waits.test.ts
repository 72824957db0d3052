// Every wait a sync makes is bounded (issue 9 §3): a Retry-After longer than a sync waits stops the sync for that
// host with one line saying when to try again; a service that cannot be reached ends the sync early, in one line;
// a sync cancelled early still says what it was for.
import { createServer as createHttpServer, request } from 'node:http';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type Dataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import { dumpStore, tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const FAST_RETRY = { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 } };

async function fill(tw: Trackwatch, dataset: Dataset): Promise<void> {
  await tw.addMaps('Watched', dataset.maps.map((m) => m.mapUid), { lookUp: false });
  tw.store.players.add('Watched', [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
}

/** A port that accepts connections and drops each at once: a service that is there but never answers. */
async function droppingServer(): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

/** A service that accepts each request and never answers it (a stalled one); counts the requests it holds. */
async function stallingServer(): Promise<{ url: string; held: () => number; close: () => Promise<void> }> {
  let held = 0;
  const server = createHttpServer((req) => {
    held += 1;
    req.resume();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    held: () => held,
    close: () => new Promise((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}

describe('a sync against a service that cannot be reached', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 12, maps: 40, players: 4 });
  let data: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    data = await tempDataDir();
  });
  afterEach(async () => data.remove());

  it("ends early with one line, changes nothing, and does not grind through the 40 maps", async () => {
    const emulator = await startEmulator({ dataset });
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, tuning: { ...FAST_RETRY, burst: 50 } });
    const dead = await droppingServer();
    try {
      await fill(tw, dataset);
      expect((await tw.sync({ replays: false })).outcome).toBe('ok');
      await emulator.close();
      const before = dumpStore(tw.store);

      await tw.reconfigure({ apiUrl: dead.url });
      const summary = await tw.sync({ refreshMaps: true });
      expect(summary.outcome).toBe('failed');
      expect(summary.errors).toEqual([
        { mapId: null, message: "Nadeo's service cannot be reached; nothing was changed. Check the connection and try again later." },
      ]);
      // Three calls in a row got no answer (each tried twice): the map lookup and two maps' records at most, four
      // at once.
      expect(summary.maps).toBeLessThan(8);
      expect(dead.connections()).toBeLessThan(20);
      expect(dumpStore(tw.store)).toEqual(before);
      expect(tw.store.syncRuns.get(summary.runId)).toMatchObject({ outcome: 'failed' });
    } finally {
      await tw.close();
      await dead.close();
      await emulator.close();
    }
  });

  it('a service that accepts and never answers: stopped after three unanswered attempts, not every call\'s retries', async () => {
    const stalled = await stallingServer();
    // Five attempts per call (the default), one at a time: counting failed calls alone held 3 calls x 5 attempts, a
    // whole deadline each (a minute apiece by default).
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: stalled.url, maxRps: 1000, tuning: { retry: { maxAttempts: 5, baseDelayMs: 1, maxDelayMs: 2 }, deadlineMs: 50, concurrency: 1 } });
    try {
      await fill(tw, dataset);
      const before = dumpStore(tw.store);
      const summary = await tw.sync({ refreshMaps: true, concurrency: 1 });
      expect(summary.outcome).toBe('failed');
      expect(summary.errors).toEqual([
        { mapId: null, message: "Nadeo's service cannot be reached; nothing was changed. Check the connection and try again later." },
      ]);
      expect(stalled.held()).toBe(3);
      expect(summary.requests).toBe(3);
      expect(dumpStore(tw.store)).toEqual(before);
    } finally {
      await tw.close();
      await stalled.close();
    }
  });

  it('after answers, a service that stops answering ends the sync too, keeping what was fetched', async () => {
    const emulator = await startEmulator({ dataset });
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, tuning: { ...FAST_RETRY, burst: 50, concurrency: 1 } });
    try {
      await fill(tw, dataset);
      let closing: Promise<void> | undefined;
      const summary = await tw.sync({
        replays: false,
        concurrency: 1,
        onProgress: (p) => {
          if (p.phase === 'records' && p.mapsDone === 5 && !closing) closing = emulator.close();
        },
      });
      await closing;
      expect(summary.outcome).toBe('failed');
      expect(summary.errors).toEqual([
        { mapId: null, message: "Nadeo's service can no longer be reached; what this sync fetched before is kept, and the next sync goes on from there." },
      ]);
      expect(summary.maps).toBeLessThan(12);
      expect(tw.store.records.forList('Watched').length).toBeGreaterThan(0);
    } finally {
      await tw.close();
      await emulator.close();
    }
  });
});

describe('a sync cancelled while the maps are looked up', () => {
  // Its summary still names the players it was for, as its plan counted them: not "0 maps x 0 players" under a
  // plan line that said 4 (issue 17 §2.10).
  const dataset = generateDataset({ now: DATA_NOW, seed: 16, maps: 6, players: 5 });
  let data: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    data = await tempDataDir();
  });
  afterEach(async () => data.remove());

  it('says the players it was for, from its plan, and no map synced', async () => {
    const emulator = await startEmulator({ dataset });
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000 });
    try {
      await fill(tw, dataset);
      const players = tw.store.players.list('Watched').length;
      expect(players).toBeGreaterThan(1);
      const stop = new AbortController();
      const summary = await tw.sync({
        signal: stop.signal,
        onProgress: (p) => {
          if (p.phase === 'maps') stop.abort();
        },
      });
      expect(summary.outcome).toBe('cancelled');
      expect(summary.maps).toBe(0);
      expect(summary.players).toBe(players);
    } finally {
      await tw.close();
      await emulator.close();
    }
  });
});

/** The emulator behind a proxy that passes `passing` requests, then answers every other one 429, Retry-After 999999. */
async function throttlingProxy(target: string, passing: number): Promise<{ url: string; throttled: () => number; close: () => Promise<void> }> {
  let seen = 0;
  let throttled = 0;
  const server = createHttpServer((req, res) => {
    seen += 1;
    if (seen > passing) {
      throttled += 1;
      req.resume();
      res.writeHead(429, { 'Retry-After': '999999', 'Content-Type': 'text/plain' }).end('Too Many Requests');
      return;
    }
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    throttled: () => throttled,
    close: () => new Promise((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}

describe('a Retry-After longer than a sync waits', () => {
  let emulator: RunningEmulator;
  let proxy: Awaited<ReturnType<typeof throttlingProxy>>;
  let data: { dir: string; remove: () => Promise<void> };
  const dataset = generateDataset({ now: DATA_NOW, seed: 13, maps: 12, players: 4 });
  beforeEach(async () => {
    emulator = await startEmulator({ dataset });
    // The map lookup and two maps' records go through; then Nadeo asks for 11 days.
    proxy = await throttlingProxy(emulator.url, 3);
    data = await tempDataDir();
  });
  afterEach(async () => {
    await proxy.close();
    await emulator.close();
    await data.remove();
  });

  it('stops asking that host, with one line saying when to try again', async () => {
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: proxy.url, maxRps: 1000, tuning: { burst: 50 } });
    try {
      await fill(tw, dataset);
      // Core's wait alone: the world records (Live, through the same proxy here) have their own tests.
      const summary = await tw.sync({ worldRecords: false });
      expect(summary.outcome).toBe('partial');
      expect(summary.errors).toHaveLength(1);
      const host = new URL(proxy.url).host;
      expect(summary.errors[0]!.message).toMatch(
        new RegExp(`^Nadeo's service \\(${host.replace(/\./g, '\\.')}\\) asked Trackwatch to wait before asking again; this sync stopped asking it\\. Try again after \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d\\.$`),
      );
      // Eleven days ahead, in local time, to the minute.
      const after = summary.errors[0]!.message.match(/after (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d)/)!;
      const at = new Date(Number(after[1]), Number(after[2]) - 1, Number(after[3]), Number(after[4]), Number(after[5]));
      expect(Math.abs(at.getTime() - (Date.now() + 999_999_000))).toBeLessThan(10 * 60_000);
      // Turned back at once: a few 429s (the calls already under way), not one per map and replay.
      expect(proxy.throttled()).toBeLessThanOrEqual(4);
      expect(tw.store.syncRuns.get(summary.runId)?.outcome).toBe(summary.outcome);
    } finally {
      await tw.close();
    }
  });
});

describe('what the client reports, the sync keeps', () => {
  let data: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    data = await tempDataDir();
  });
  afterEach(async () => data.remove());

  it("a record with values out of range is left out and named in the sync's errors; the rest of its map is kept", async () => {
    const dataset = generateDataset({ now: DATA_NOW, seed: 14, maps: 3, players: 5 });
    const bad = dataset.records.find((r) => r.scopeType === 'PersonalBest')!;
    bad.medal = 99;
    const emulator = await startEmulator({ dataset });
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, tuning: { burst: 50 } });
    try {
      await fill(tw, dataset);
      const summary = await tw.sync({ replays: false });
      expect(summary.outcome).toBe('partial');
      expect(summary.errors).toEqual([{ mapId: bad.mapId, message: expect.stringMatching(/^a record of .* was left out: medal 99 is not one of 0 \(none\) to 4 \(author\)$/) }]);
      expect(tw.store.records.get(bad.mapId, bad.accountId)).toBeUndefined();
      expect(tw.store.records.forMap(bad.mapId).length).toBeGreaterThan(0);
    } finally {
      await tw.close();
      await emulator.close();
    }
  });

  it('the route fallback is remembered in the data folder: the next run asks no removed route again', async () => {
    const dataset = generateDataset({ now: DATA_NOW, seed: 15, maps: 3, players: 3 });
    const emulator = await startEmulator({ dataset, withoutDeprecatedRoutes: true });
    try {
      const first = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, tuning: { burst: 50 } });
      await fill(first, dataset);
      expect((await first.sync({ replays: false })).outcome).toBe('ok');
      // Maps were looked up by UID only: by ID, the seed's route is still the first tried.
      expect(first.store.settings.get('nadeo.routes')).toEqual({ [emulator.url]: { mapsByUid: 'successor', mapsById: 'seed', records: 'successor' } });
      await first.close();

      emulator.resetStats();
      const second = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, tuning: { burst: 50 } });
      try {
        expect((await second.sync({ replays: false, worldRecords: false })).outcome).toBe('ok');
        const routes = Object.keys(emulator.stats().byRoute);
        expect(routes).toEqual(['GET /v2/mapRecords/by-account/']);
        expect(emulator.stats().byStatus['404'] ?? 0).toBe(0);
      } finally {
        await second.close();
      }
    } finally {
      await emulator.close();
    }
  });
});

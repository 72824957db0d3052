// Benchmark of the API core against the emulator: requests made versus the fewest the URI limit allows, 414s,
// the request rate achieved at maxRps 20 (at burst 1, and at Trackwatch's burst of 2), world positions for 25 maps
// x 50 players against the fewest requests the route allows, the Live host's rate against its own budget, and a
// list's sync with world records on: the WR holders ride in the watched players' records requests, which stay at the
// minimum for the watched players alone. Prints a table; never asserts.
// Run: node test/bench/api.bench.ts
import { startEmulator, generateDataset, type RunningEmulator } from '../../src-main/emulator/index.ts';
import {
  createLiveClient,
  createNadeoClient,
  gameModeFor,
  minimumPositionRequests,
  type NadeoClientOptions,
  type PositionQuery,
} from '../../src-main/core/nadeo/index.ts';
import { kindOf, liveScoreOf } from '../../src-main/emulator/rules.ts';
import { countRow, isMain, minimumRequests, printRows, ratioRow, type BenchRow } from './report.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTrackwatch } from '../../src-main/core/trackwatch.ts';
import { DATA_NOW } from '../helpers/clock.ts';

function clientOptions(emu: RunningEmulator, extra: Partial<NadeoClientOptions> = {}): NadeoClientOptions {
  return { baseUrl: emu.url, appVersion: '0.1.0', maxRps: 1000, burst: 20, concurrency: 4, ...extra };
}

async function lookups(rows: BenchRow[]): Promise<void> {
  const started = performance.now();
  const dataset = generateDataset({ now: DATA_NOW, seed: 42, maps: 1000, players: 600 });
  console.log(`dataset: ${dataset.maps.length} maps, ${dataset.records.length} records (${Math.round(performance.now() - started)} ms to generate)`);
  const emu = await startEmulator({ dataset });
  const client = createNadeoClient(clientOptions(emu));
  try {
    // The client starts on the seed routes (see routes.ts); these prefixes are what it sends there.
    const uids = dataset.maps.map((m) => m.mapUid);
    emu.resetStats();
    const byUid = await client.getMapsByUid(uids);
    let s = emu.stats();
    console.log(`1,000 UIDs: ${byUid.maps.length} maps found, longest request-target ${s.maxUriLength}`);
    rows.push(ratioRow('1,000 UIDs: requests / minimum', s.requests, minimumRequests('/maps/?mapUidList='.length, uids)));
    rows.push(countRow('1,000 UIDs: 414 answers', s.uriTooLong));

    const ids = dataset.maps.map((m) => m.mapId);
    emu.resetStats();
    const byId = await client.getMapsById(ids);
    s = emu.stats();
    console.log(`1,000 map IDs: ${byId.maps.length} maps found, longest request-target ${s.maxUriLength}`);
    rows.push(ratioRow('1,000 map IDs: requests / minimum', s.requests, minimumRequests('/maps/?mapIdList='.length, ids)));
    rows.push(countRow('1,000 map IDs: 414 answers', s.uriTooLong));

    const accounts = [...new Set(dataset.records.map((r) => r.accountId))].slice(0, 600);
    const maps = byUid.maps.slice(0, 50);
    let minimum = 0;
    for (const map of maps) {
      const fixed = `/v2/mapRecords/?accountIdList=&mapId=${map.mapId}&gameMode=${gameModeFor(map)}`.length;
      minimum += minimumRequests(fixed, accounts);
    }
    emu.resetStats();
    const answers = await Promise.all(maps.map((map) => client.getRecords(map, accounts)));
    const found = answers.reduce((sum, a) => sum + a.records.length, 0);
    s = emu.stats();
    console.log(`${accounts.length} accounts on ${maps.length} maps: ${found} records, longest request-target ${s.maxUriLength}`);
    rows.push(ratioRow(`${accounts.length} accounts x ${maps.length} maps: requests / minimum`, s.requests, minimum));
    rows.push(countRow(`${accounts.length} accounts x ${maps.length} maps: 414 answers`, s.uriTooLong));
  } finally {
    await client.close();
    await emu.close();
  }
}

async function rate(rows: BenchRow[]): Promise<void> {
  const configured = 20;
  const n = 100;
  const emu = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 43, maps: n, players: 2 }), latencyMs: 20 });
  const starts: number[] = [];
  const client = createNadeoClient(
    clientOptions(emu, { maxRps: configured, burst: 1, onRequest: (e) => starts.push(performance.now() - e.ms) }),
  );
  try {
    // A warm-up request first, so setting up 100 calls at once does not delay the first measured start.
    await client.getMapsByUid(['WarmUp']);
    starts.length = 0;
    // Everyone asks at once; the limiter alone decides when each request starts.
    await Promise.all(emu.dataset.maps.map((m) => client.getMapsByUid([m.mapUid])));
    starts.sort((a, b) => a - b);
    const seconds = (starts[starts.length - 1]! - starts[0]!) / 1000;
    const achieved = (starts.length - 1) / seconds;
    const share = achieved / configured;
    console.log(`rate: ${starts.length} requests in ${seconds.toFixed(2)} s at maxRps ${configured}, emulator latency 20 ms`);
    rows.push({ figure: `rate at maxRps ${configured}: achieved / configured`, measured: `${achieved.toFixed(2)} / ${configured} = ${share.toFixed(3)}`, target: '>= 0.95', ok: share >= 0.95 });
    rows.push({ figure: `rate at maxRps ${configured}: never above configured`, measured: share.toFixed(3), target: '<= 1.00 (0.05% for clock rounding)', ok: share <= 1.0005 });
  } finally {
    await client.close();
    await emu.close();
  }
}

/**
 * The same at Trackwatch's own burst of 2: the first two start together, so the pace is read over the rest, and
 * "never above" is the limiter's own promise, at most rate x 1 s + burst starts in any second.
 */
async function rateAtBurst(rows: BenchRow[]): Promise<void> {
  const configured = 20;
  const burst = 2;
  const n = 100;
  const emu = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 43, maps: n, players: 2 }), latencyMs: 20 });
  const starts: number[] = [];
  const client = createNadeoClient(clientOptions(emu, { maxRps: configured, burst, onRequest: (e) => starts.push(performance.now() - e.ms) }));
  try {
    await client.getMapsByUid(['WarmUp']);
    // A quiet spell, so the burst is whole when everyone asks at once.
    await new Promise((resolve) => setTimeout(resolve, 200));
    starts.length = 0;
    await Promise.all(emu.dataset.maps.map((m) => client.getMapsByUid([m.mapUid])));
    starts.sort((a, b) => a - b);
    const seconds = (starts[starts.length - 1]! - starts[burst - 1]!) / 1000;
    const achieved = (starts.length - burst) / seconds;
    const share = achieved / configured;
    let most = 0;
    for (let i = 0, j = 0; i < starts.length; i++) {
      while (j < starts.length && starts[j]! <= starts[i]! + 1000) j++;
      most = Math.max(most, j - i);
    }
    console.log(`rate at burst ${burst}: ${starts.length} requests in ${seconds.toFixed(2)} s after the first ${burst}, at most ${most} in one second`);
    rows.push({ figure: `rate at maxRps ${configured}, burst ${burst}: achieved / configured`, measured: `${achieved.toFixed(2)} / ${configured} = ${share.toFixed(3)}`, target: '>= 0.95', ok: share >= 0.95 });
    rows.push({ figure: `rate at maxRps ${configured}, burst ${burst}: most starts in 1 s`, measured: String(most), target: `<= ${configured + burst} (rate x 1 s + burst)`, ok: most <= configured + burst });
  } finally {
    await client.close();
    await emu.close();
  }
}

/** Positions of every watched PB: 25 maps x 50 players, one score per map a request, at most 50 maps a request. */
async function positions(rows: BenchRow[]): Promise<void> {
  const dataset = generateDataset({ now: DATA_NOW, seed: 44, maps: 25, players: 50 });
  const emu = await startEmulator({ dataset });
  const live = createLiveClient({ coreBaseUrl: emu.url, liveBaseUrl: emu.liveUrl, appVersion: '0.1.0', maxRps: 1000, burst: 20, concurrency: 4 });
  try {
    const players = [...new Set(dataset.records.map((r) => r.accountId))].sort().slice(0, 50);
    const queries: PositionQuery[] = [];
    for (const [m, map] of dataset.maps.entries()) {
      for (const [p, accountId] of players.entries()) {
        // Each player's PB where they have one; a made-up score where not, so the grid is full.
        const pb = dataset.records.find((r) => r.mapId === map.mapId && r.accountId === accountId && r.scopeId === null);
        const score = pb ? liveScoreOf(kindOf(map), pb.recordScore) : map.bronzeScore + p * 11 + m;
        queries.push({ mapUid: map.mapUid, score });
      }
    }
    const distinct = [...new Map(queries.map((q) => [`${q.mapUid}|${q.score}`, q])).values()];
    const minimum = minimumPositionRequests(distinct);
    emu.resetStats();
    const results = await live.getPositions(queries);
    const made = emu.stats().byRoute['POST /api/token/leaderboard/group/map'] ?? 0;
    const ranked = results.filter((r) => r.state === 'ranked').length;
    console.log(`positions: ${queries.length} PBs (${distinct.length} distinct map/score pairs), ${ranked} ranked, ${made} requests`);
    const ratio = made / minimum;
    rows.push({ figure: '25 maps x 50 players: position requests / minimum', measured: `${made} / ${minimum} = ${ratio.toFixed(3)}`, target: '1.00', ok: made === minimum });
  } finally {
    await live.close();
    await emu.close();
  }
}

/** The Live host's own budget: everyone asks at once, its limiter alone paces them. */
async function liveRate(rows: BenchRow[]): Promise<void> {
  const configured = 20;
  const n = 100;
  const emu = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 45, maps: 6, players: 2 }), latencyMs: 20 });
  const starts: number[] = [];
  const live = createLiveClient({
    coreBaseUrl: emu.url,
    liveBaseUrl: emu.liveUrl,
    appVersion: '0.1.0',
    maxRps: configured,
    burst: 1,
    concurrency: 4,
    onRequest: (e) => starts.push(performance.now() - e.ms),
  });
  try {
    await live.getSeasonalCampaigns();
    starts.length = 0;
    await Promise.all(Array.from({ length: n }, (_, i) => live.getSeasonalCampaigns({ offset: i % 3 })));
    starts.sort((a, b) => a - b);
    const seconds = (starts[starts.length - 1]! - starts[0]!) / 1000;
    const achieved = (starts.length - 1) / seconds;
    const share = achieved / configured;
    console.log(`live rate: ${starts.length} requests in ${seconds.toFixed(2)} s at maxRps ${configured}, emulator latency 20 ms`);
    rows.push({ figure: `Live rate at maxRps ${configured}: achieved / configured`, measured: `${achieved.toFixed(2)} / ${configured} = ${share.toFixed(3)}`, target: '>= 0.95', ok: share >= 0.95 });
    rows.push({ figure: `Live rate at maxRps ${configured}: never above configured`, measured: share.toFixed(3), target: '<= 1.00 (0.05% for clock rounding)', ok: share <= 1.0005 });
  } finally {
    await live.close();
    await emu.close();
  }
}

/** A sync of 25 maps x the players who hold no WR, world records on: record requests against the minimum without the WRs. */
async function worldRecords(rows: BenchRow[]): Promise<void> {
  const dataset = generateDataset({ now: DATA_NOW, seed: 43, maps: 25, players: 260 });
  const emu = await startEmulator({ dataset });
  const dir = await mkdtemp(join(tmpdir(), 'trackwatch-bench-wr-'));
  const tw = await openTrackwatch({ dataDir: dir, apiUrl: emu.url, maxRps: 1000, tuning: { burst: 20, concurrency: 4 } });
  try {
    const holders = new Set<string>();
    for (const map of dataset.maps) {
      const wr = await tw.live.getWorldRecord(map.mapUid);
      if (wr) holders.add(wr.accountId.toLowerCase());
    }
    const watched = [...new Set(dataset.records.map((r) => r.accountId.toLowerCase()))].filter((a) => !holders.has(a));
    await tw.addMaps('Bench', dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.store.players.add('Bench', watched.map((accountId) => ({ accountId })));
    tw.store.watchlists.setReplayPolicy('Bench', { mode: 'best', best: 1 });
    await tw.sync({ list: 'Bench', replays: false, positions: false, worldRecords: false }); // map lookups out of the count
    emu.resetStats();
    const summary = await tw.sync({ list: 'Bench', positions: false });
    const byRoute = emu.stats().byRoute;
    const records = Object.entries(byRoute).filter(([r]) => r.startsWith('GET /v2/mapRecords')).reduce((n, [, c]) => n + c, 0);
    const top = byRoute['GET /api/token/leaderboard/group/:groupUid/map/:mapUid/top'] ?? 0;
    let minimum = 0;
    for (const map of tw.store.maps.list('Bench')) minimum += minimumRequests(`/v2/mapRecords/?accountIdList=&mapId=${map.mapId}&gameMode=${gameModeFor(map)}`.length, watched);
    const wr = summary.worldRecords;
    console.log(`world records: ${watched.length} players x ${dataset.maps.length} maps, ${wr?.ghostsAsked ?? 0} WR ghosts asked along, ${wr?.ghostsSkipped ?? 0} skipped, ${top} top requests`);
    rows.push(ratioRow(`WR on, ${watched.length} players x ${dataset.maps.length} maps: record requests / minimum without WRs`, records, minimum));
    rows.push(ratioRow(`WR on, ${dataset.maps.length} maps: top requests / maps`, top, dataset.maps.length));
  } finally {
    await tw.close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function run(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  await lookups(rows);
  await rate(rows);
  await rateAtBurst(rows);
  await positions(rows);
  await liveRate(rows);
  await worldRecords(rows);
  printRows(rows);
  return rows;
}

if (isMain(import.meta.url)) {
  await run();
}

// The sync engine against the emulator: a full sync checked against the dataset's truth, a second sync that only
// asks for records, a sync under faults, and hostile data kept as plain text inside the data folder.
import { createHash } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, replayBytesFor, startEmulator, type Dataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import type { SyncProgress } from '../../../src-main/core/sync/engine.ts';
import { replayPath } from '../../../src-main/core/store/index.ts';
import { dumpStore, expectedPersonalBests, isHiddenByThreshold, strayTempFiles, tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const FAST_RETRY = { retry: { maxAttempts: 12, baseDelayMs: 5, maxDelayMs: 40 } };

async function fill(tw: Trackwatch, dataset: Dataset, list = 'Watched'): Promise<Set<string>> {
  await tw.addMaps(list, dataset.maps.map((m) => m.mapUid), { lookUp: false });
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
  tw.store.players.add(list, accounts.map((accountId) => ({ accountId })));
  return new Set(accounts);
}

describe('a full sync of a generated dataset (320 players, every kind of map)', () => {
  // Five maps are the fewest of this seed that hold every kind, clones and secret entries (asserted below), and 319
  // of the 320 players have a PB on them: more maps only repeated the same work.
  const dataset = generateDataset({ now: DATA_NOW, seed: 7, maps: 5, players: 320 });
  let emulator: RunningEmulator;
  let tw: Trackwatch;
  let dir: { dir: string; remove: () => Promise<void> };
  let accounts: Set<string>;
  const progress: SyncProgress[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ dataset });
    dir = await tempDataDir();
    tw = await openTrackwatch({ dataDir: dir.dir, apiUrl: emulator.url, maxRps: 2000, tuning: { concurrency: 8, burst: 50 } });
    accounts = await fill(tw, dataset);
  });
  afterAll(async () => {
    await tw.close();
    await emulator.close();
    await dir.remove();
  });

  // About 1,100 replays of real size (10-40 KB, docs/gbx.md), each written and synced to disk: the heaviest test here.
  it('stores every PB of the dataset, flags hidden entries, and puts every other replay on disk with its sha256', async () => {
    const summary = await tw.sync({ onProgress: (p) => progress.push(p) });
    expect(summary.outcome).toBe('ok');
    expect(summary.errors).toEqual([]);
    expect(summary.players).toBe(accounts.size);
    expect(accounts.size).toBeGreaterThan(300);

    const expected = expectedPersonalBests(dataset, accounts);
    const stored = tw.store.records.forList('Watched', { scope: 'PersonalBest' });
    expect(stored).toHaveLength(expected.size);
    const kinds = new Set(dataset.maps.map((m) => m.mapType.split('\\').pop()));
    expect(kinds).toEqual(new Set(['TM_Race', 'TM_Stunt', 'TM_Platform']));
    expect(dataset.maps.some((m) => m.hasClones)).toBe(true);

    let hidden = 0;
    for (const record of stored) {
      const truth = expected.get(`${record.mapId}/${record.accountId}`);
      expect(truth, `${record.mapId}/${record.accountId}`).toBeDefined();
      expect(record.mapRecordId).toBe(truth!.record.mapRecordId);
      expect(record.hidden).toBe(truth!.hidden);
      expect(record.time).toBe(truth!.hidden ? null : truth!.record.recordScore.time);
      expect(record.score).toBe(truth!.record.recordScore.score);
      expect(record.gameMode).toBe(truth!.record.gameMode);
      if (truth!.hidden) hidden += 1;

      const replay = tw.store.replays.get(record.mapRecordId);
      if (truth!.hidden) {
        expect(replay?.state).toBe('hidden');
        continue;
      }
      expect(replay?.state).toBe('downloaded');
      const bytes = await readFile(join(dir.dir, replay!.path!));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      expect(sha256).toBe(createHash('sha256').update(replayBytesFor(truth!.record, dataset)).digest('hex'));
      expect(replay!.sha256).toBe(sha256);
      expect(replay!.size).toBe(bytes.length);
    }
    expect(hidden).toBeGreaterThan(0);
    expect(await strayTempFiles(dir.dir)).toEqual([]);
  }, 90_000);

  it('reports progress: maps done of total, then replays, ending done', () => {
    const records = progress.filter((p) => p.phase === 'records');
    expect(records.at(-1)).toMatchObject({ mapsDone: dataset.maps.length, mapsTotal: dataset.maps.length });
    expect(progress.some((p) => p.phase === 'replays' && p.replaysTotal > 0)).toBe(true);
    expect(progress.at(-1)?.phase).toBe('done');
    expect(progress.some((p) => p.etaMs !== null)).toBe(true);
    const done = progress.map((p) => p.mapsDone);
    expect(done).toEqual([...done].sort((a, b) => a - b));
  });

  it('a second sync makes only the record requests and the world records: no map info, no replay downloads', async () => {
    emulator.resetStats();
    const summary = await tw.sync();
    expect(summary.outcome).toBe('ok');
    expect(summary.newRecords).toBe(0);
    const byRoute = emulator.stats().byRoute;
    const top = 'GET /api/token/leaderboard/group/:groupUid/map/:mapUid/top';
    const records = Object.keys(byRoute).filter((r) => r !== top);
    expect(records.every((r) => r.includes('mapRecords/') && !r.includes('replay'))).toBe(true);
    // 319 accounts fit in two records requests per map (just above 200 reach the URI limit); a list of 5 maps asks
    // each map's world record once (the list's default), which adds no records request.
    expect(records.reduce((n, r) => n + byRoute[r]!, 0)).toBe(dataset.maps.length * 2);
    expect(byRoute[top]).toBe(dataset.maps.length);
    expect(summary.worldRecords).toMatchObject({ asked: dataset.maps.length });
  });

  it('records improvements as history, once, and announces each new PB', async () => {
    const changed = emulator.evolve({ seed: 99, fraction: 0.1 });
    const announced: string[] = [];
    const summary = await tw.sync({ onNewPersonalBest: (e) => announced.push(`${e.mapId}/${e.accountId}`) });
    expect(changed.improved + changed.added).toBeGreaterThan(0);
    expect(summary.newRecords).toBe(announced.length);
    expect(summary.newPersonalBests).toBe(changed.improved);
    expect(announced.length).toBeGreaterThan(0);
    const improved = tw.store.records.history({ list: 'Watched', limit: 100000 }).filter((h) => h.kind !== 'first');
    expect(improved.length).toBeGreaterThan(0);
    for (const row of improved.filter((h) => h.kind === 'improved' && h.oldTime !== null && h.newTime !== null)) {
      const map = tw.store.maps.get(row.mapId)!;
      if (map.mapType.endsWith('TM_Stunt')) expect(row.newScore).toBeGreaterThan(row.oldScore!);
      else expect(row.newTime!).toBeLessThan(row.oldTime!);
    }
    const again = await tw.sync();
    expect(again.newRecords).toBe(0);
  });
});

describe('faults and hostile data', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 11, maps: 8, players: 30 });

  async function synced(options: { failRate?: number }): Promise<{ tw: Trackwatch; dir: string; close: () => Promise<void> }> {
    const emulator = await startEmulator({ dataset, failRate: options.failRate, faultSeed: 5, retryAfterSec: 0 });
    const data = await tempDataDir();
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, tuning: { ...FAST_RETRY, burst: 20 } });
    const close = async () => {
      await tw.close();
      await emulator.close();
      await data.remove();
    };
    try {
      await fill(tw, dataset);
      const summary = await tw.sync();
      expect(summary.errors).toEqual([]);
      expect(summary.outcome).toBe('ok');
      if (options.failRate) expect(emulator.stats().faults).toBeGreaterThan(10);
      return { tw, dir: data.dir, close };
    } catch (error) {
      await close();
      throw error;
    }
  }

  // One sync without faults, read by the tests that only compare with it or read what it stored.
  let clean: Awaited<ReturnType<typeof synced>>;
  beforeAll(async () => {
    clean = await synced({});
  });
  afterAll(async () => {
    await clean?.close();
  });

  it('a sync under --fail-rate 0.2 ends with the same store as one without faults', async () => {
    const faulty = await synced({ failRate: 0.2 });
    try {
      expect(dumpStore(faulty.tw.store)).toEqual(dumpStore(clean.tw.store));
      expect(await strayTempFiles(faulty.dir)).toEqual([]);
    } finally {
      await faulty.close();
    }
  });

  it('a settings change during a sync does not cut it short: it finishes on the client it started with', async () => {
    const small = generateDataset({ now: DATA_NOW, seed: 5, maps: 12, players: 6 });
    const emulator = await startEmulator({ dataset: small, latencyMs: 30 });
    const data = await tempDataDir();
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000 });
    try {
      const accounts = await fill(tw, small);
      let reconfigured: Promise<void> | undefined;
      const summary = await tw.sync({
        onProgress: (p) => {
          if (!reconfigured && p.phase === 'records' && p.mapsDone >= 2) reconfigured = tw.reconfigure({ maxRps: 500 });
        },
      });
      await reconfigured;
      expect(reconfigured, 'the settings changed mid-sync').toBeDefined();
      expect(summary).toMatchObject({ outcome: 'ok', maps: small.maps.length, errors: [] });
      for (const [, { record }] of expectedPersonalBests(small, accounts)) {
        expect(tw.store.records.get(record.mapId, record.accountId)?.mapRecordId).toBe(record.mapRecordId);
      }
      // The next sync runs on the new client.
      expect((await tw.sync()).outcome).toBe('ok');
    } finally {
      await tw.close();
      await emulator.close();
      await data.remove();
    }
  });

  it('a client closed under a sync is reported as errors, not as a quiet success', async () => {
    const small = generateDataset({ now: DATA_NOW, seed: 6, maps: 12, players: 6 });
    const emulator = await startEmulator({ dataset: small, latencyMs: 30 });
    const data = await tempDataDir();
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000 });
    try {
      await fill(tw, small);
      let closed = false;
      const summary = await tw.sync({
        onProgress: (p) => {
          if (!closed && p.phase === 'records' && p.mapsDone >= 2) {
            closed = true;
            void tw.client.close();
          }
        },
      });
      expect(closed).toBe(true);
      expect(summary.outcome).not.toBe('ok');
      expect(summary.errors.length).toBeGreaterThan(0);
      expect(summary.errors.some((e) => /closed/.test(e.message))).toBe(true);
    } finally {
      await tw.close();
      await emulator.close();
      await data.remove();
    }
  });

  it('logged in as a watched player: their own record behind a secret threshold is stored with its time and replay', async () => {
    const secret = dataset.maps.find((m) => m.secretThreshold !== undefined && !m.mapType.endsWith('TM_Stunt'))!;
    const hidden = dataset.records.filter((r) => r.mapId === secret.mapId && r.scopeId === null && r.recordScore.time < secret.secretThreshold!);
    const [mine, theirs] = hidden;
    expect(theirs, 'two records hidden by the threshold').toBeDefined();
    const login = { login: 'me@example.org', password: 'pw' };
    const emulator = await startEmulator({ dataset, auth: { ...login, accountId: mine!.accountId } });
    const data = await tempDataDir();
    const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, credentials: login });
    try {
      await tw.addMaps('Mine', [secret.mapUid], { lookUp: false });
      tw.store.players.add('Mine', [{ accountId: mine!.accountId }, { accountId: theirs!.accountId }]);
      await tw.sync();
      expect(tw.store.records.get(secret.mapId, mine!.accountId)).toMatchObject({ hidden: false, time: mine!.recordScore.time });
      expect(tw.store.records.get(secret.mapId, theirs!.accountId)).toMatchObject({ hidden: true, time: null });
      expect(tw.store.replays.get(mine!.mapRecordId)).toMatchObject({ state: 'downloaded' });
      expect(tw.store.replays.get(theirs!.mapRecordId)?.state ?? 'never asked').not.toBe('downloaded');
      // The sync remembers who read the records (the token's account), which the ranks read; never the token.
      expect(tw.store.settings.viewer()).toBe(mine!.accountId.toLowerCase());
      expect(JSON.stringify(tw.store.settings.all())).not.toMatch(/eyJ|nadeo_v1/);
    } finally {
      await tw.close();
      await emulator.close();
      await data.remove();
    }
  });

  it('keeps hostile names and filenames from the service as plain text, and every file inside the data folder', async () => {
    const { tw, dir } = clean;
    // Read without a login: nobody's records are spared the threshold.
    expect(tw.store.settings.viewer()).toBeNull();
    const hostileMap = dataset.maps.find((m) => /[<>"=]/.test(m.name));
    expect(hostileMap, 'the generated dataset has a map name with markup or a formula').toBeDefined();
    expect(tw.store.maps.get(hostileMap!.mapId)?.name).toBe(hostileMap!.name);
    const hostileFile = dataset.records.find((r) => r.filename.includes('..') && r.scopeId === null
      && !isHiddenByThreshold(dataset.maps.find((m) => m.mapId === r.mapId)!, r));
    expect(hostileFile, 'the generated dataset has a visible PB whose replay filename holds ..').toBeDefined();
    // Its replay was downloaded, to a path built from IDs: the service's filename played no part.
    const stored = tw.store.replays.get(hostileFile!.mapRecordId);
    expect(stored?.state).toBe('downloaded');
    expect(stored?.path).toBe(replayPath(hostileFile!.mapId, hostileFile!.accountId, hostileFile!.mapRecordId));
    const root = await realpath(dir);
    for (const replay of tw.store.replays.list()) {
      if (!replay.path) continue;
      expect(replay.path).not.toContain('..');
      expect(resolve(root, replay.path).startsWith(`${root}/replays/`)).toBe(true);
    }
  });
});

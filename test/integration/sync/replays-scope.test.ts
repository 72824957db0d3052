// Replays scoped, planned and following their record (issue 9 §1-2), against the emulator serving its dataset live:
// a list's sync downloads that list's replays only (not the 31,185 another list's --no-replays sync left pending),
// each list by its policy; a lifted secret threshold brings the replay in; a refused replay is asked again later.
import { leaderboardOf } from '../../../src-main/service/views.ts';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDataset, replayBytesFor, startEmulator, type Dataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import { describeCost } from '../../../src-main/core/sync/plan.ts';
import { expectedPersonalBests, tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const REPLAY_ROUTES = ['GET /storageObjects/:id', 'GET /mapRecords/:mapRecordId/replay'];

function replayRequests(emulator: RunningEmulator): number {
  const byRoute = emulator.stats().byRoute;
  return REPLAY_ROUTES.reduce((n, route) => n + (byRoute[route] ?? 0), 0);
}

function accountsOf(dataset: Dataset): string[] {
  return [...new Set(dataset.records.map((r) => r.accountId))].sort();
}

/** The visible personal bests of these maps x players: the replays a sync of them may download. */
function visibleRecords(dataset: Dataset, mapIds: readonly string[], players: readonly string[]): Set<string> {
  const maps = new Set(mapIds);
  const out = new Set<string>();
  for (const [, { record, hidden }] of expectedPersonalBests(dataset, new Set(players))) {
    if (maps.has(record.mapId) && !hidden) out.add(record.mapRecordId);
  }
  return out;
}

describe('replays are scoped to the synced list and its policy', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 31, maps: 10, players: 14 });
  const players = accountsOf(dataset);
  const rivals = { maps: dataset.maps.slice(0, 5).map((m) => m.mapId), players: players.slice(0, 5) };
  const big = { maps: dataset.maps.slice(5).map((m) => m.mapId), players: players.slice(5) };
  let emulator: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let tw: Trackwatch;

  beforeEach(async () => {
    emulator = await startEmulator({ dataset });
    data = await tempDataDir();
    tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, tuning: { burst: 50 } });
    await tw.addMaps('Rivals', rivals.maps, { lookUp: false });
    tw.store.players.add('Rivals', rivals.players.map((accountId) => ({ accountId })));
    await tw.addMaps('Big', big.maps, { lookUp: false });
    tw.store.players.add('Big', big.players.map((accountId) => ({ accountId })));
    // The watched players' replays alone: the WR's ghost has its own tests (world-records.test.ts).
    for (const list of ['Rivals', 'Big']) tw.store.worldRecords.setSetting(list, false);
  });
  afterEach(async () => {
    await tw.close();
    await emulator.close();
    await data.remove();
  });

  const downloaded = (): string[] => tw.store.replays.list().filter((r) => r.state === 'downloaded').map((r) => r.mapRecordId).sort();

  it("a list's sync downloads only that list's replays, not those another list's --no-replays sync left pending", async () => {
    const bigSummary = await tw.sync({ list: 'Big', replays: false });
    expect(bigSummary.outcome).toBe('ok');
    const bigDue = visibleRecords(dataset, big.maps, big.players);
    expect(bigDue.size).toBeGreaterThan(10);
    expect(tw.store.replays.pending(10_000).length).toBeGreaterThanOrEqual(bigDue.size);

    const plan = tw.planSync({ list: 'Rivals' });
    const rivalsDue = visibleRecords(dataset, rivals.maps, rivals.players);
    // A first sync: nothing stored yet for Rivals, so every watched player of every map may bring a replay.
    expect(plan).toMatchObject({ firstSync: true, maps: 5, players: 5, recordRequests: 5, replayDownloads: 25 });
    expect(describeCost(plan)).toBe('about 5 record requests, 1 map lookup, 25 replay downloads and 5 position requests, under a minute at 1,000 requests/s');

    emulator.resetStats();
    const summary = await tw.sync({ list: 'Rivals' });
    expect(summary.outcome).toBe('ok');
    expect(summary.replaysDownloaded).toBe(rivalsDue.size);
    expect(replayRequests(emulator)).toBe(rivalsDue.size);
    expect(downloaded()).toEqual([...rivalsDue].sort());
    for (const id of bigDue) expect(tw.store.replays.get(id)).toBeUndefined();

    // Once synced, the plan counts what is really due: nothing for Rivals, Big's for Big.
    expect(tw.planSync({ list: 'Rivals' })).toMatchObject({ firstSync: false, replayDownloads: 0, mapLookups: 0 });
    expect(tw.planSync({ list: 'Big' }).replayDownloads).toBe(bigDue.size);
  });

  it("a deleted list's records leave the queue: a sync of every list downloads none of them", async () => {
    await tw.sync({ list: 'Big', replays: false });
    tw.store.watchlists.delete('Big');
    emulator.resetStats();
    const summary = await tw.sync();
    const rivalsDue = visibleRecords(dataset, rivals.maps, rivals.players);
    expect(summary.replaysDownloaded).toBe(rivalsDue.size);
    expect(downloaded()).toEqual([...rivalsDue].sort());
  });

  it("policy 'none': no replay is downloaded, and the plan says so", async () => {
    tw.store.watchlists.setReplayPolicy('Rivals', { mode: 'none' });
    expect(tw.planSync({ list: 'Rivals' }).replayDownloads).toBe(0);
    emulator.resetStats();
    const summary = await tw.sync({ list: 'Rivals' });
    expect(summary.outcome).toBe('ok');
    expect(replayRequests(emulator)).toBe(0);
    expect(downloaded()).toEqual([]);
  });

  it("policy 'best' N: only me and the list's best N of each map", async () => {
    const me = rivals.players[4]!;
    tw.store.settings.setMe(me);
    tw.store.watchlists.setReplayPolicy('Rivals', { mode: 'best', best: 1 });
    expect(tw.planSync({ list: 'Rivals' }).replayDownloads).toBe(5 * 2);
    await tw.sync({ list: 'Rivals' });
    const wanted = new Set<string>();
    const players = tw.store.players.list('Rivals');
    for (const { map, records } of tw.store.records.leaderboards('Rivals')) {
      const board = leaderboardOf(map, players, records, me);
      for (const e of board.entries) {
        const record = board.records.get(e.player.accountId);
        if (record && e.status !== 'secret' && (e.rank === board.secret + 1 || e.isMe)) wanted.add(record.mapRecordId);
      }
    }
    expect(wanted.size).toBeGreaterThan(4);
    expect(downloaded()).toEqual([...wanted].sort());
  });
});

describe('a replay follows its record across syncs', () => {
  let emulator: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let tw: Trackwatch;
  let dataset: Dataset;

  beforeEach(async () => {
    dataset = generateDataset({ now: DATA_NOW, seed: 8, maps: 6, players: 8 });
    emulator = await startEmulator({ dataset });
    data = await tempDataDir();
    tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, tuning: { burst: 50 } });
    await tw.addMaps('Watched', dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.store.players.add('Watched', accountsOf(dataset).map((accountId) => ({ accountId })));
    // The watched players' replays alone: the WR's ghost has its own tests (world-records.test.ts).
    tw.store.worldRecords.setSetting('Watched', false);
  });
  afterEach(async () => {
    await tw.close();
    await emulator.close();
    await data.remove();
  });

  async function expectOnDisk(mapRecordId: string): Promise<void> {
    const entry = tw.store.replays.get(mapRecordId);
    expect(entry?.state, mapRecordId).toBe('downloaded');
    const record = emulator.dataset.records.find((r) => r.mapRecordId === mapRecordId)!;
    const bytes = await readFile(join(data.dir, entry!.path!));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(replayBytesFor(record, emulator.dataset)).digest('hex'));
  }

  it('a lifted secret threshold brings the time and the replay in', async () => {
    const accounts = new Set(accountsOf(dataset));
    const hiddenBefore = [...expectedPersonalBests(dataset, accounts).values()].filter((e) => e.hidden).map((e) => e.record);
    expect(hiddenBefore.length).toBeGreaterThan(0);
    await tw.sync();
    for (const record of hiddenBefore) {
      expect(tw.store.records.get(record.mapId, record.accountId)?.hidden).toBe(true);
      expect(tw.store.replays.get(record.mapRecordId)?.state).toBe('hidden');
    }

    // The author lifts the threshold (Weekly Shorts do at each rotation): the emulator serves the change at once.
    for (const map of emulator.dataset.maps) delete map.secretThreshold;
    emulator.resetStats();
    const summary = await tw.sync();
    expect(summary.outcome).toBe('ok');
    expect(summary.replaysDownloaded).toBe(hiddenBefore.length);
    expect(replayRequests(emulator)).toBe(hiddenBefore.length);
    for (const record of hiddenBefore) {
      expect(tw.store.records.get(record.mapId, record.accountId)).toMatchObject({ hidden: false, time: record.recordScore.time });
      await expectOnDisk(record.mapRecordId);
    }
  });

  it('a replay refused (403) on a visible record is asked again by the next sync', async () => {
    const target = emulator.dataset.maps.find((m) => m.secretThreshold === undefined && !m.mapType.endsWith('TM_Stunt'))!;
    const onTarget = [...expectedPersonalBests(dataset, new Set(accountsOf(dataset))).values()]
      .map((e) => e.record).filter((r) => r.mapId === target.mapId);
    expect(onTarget.length).toBeGreaterThan(0);
    // Records read while visible; then, before the downloads, the service starts refusing this map's replays.
    const summary = await tw.sync({
      onProgress: (p) => {
        if (p.phase === 'replays') target.secretThreshold = 2 ** 31;
      },
    });
    expect(summary.replaysHidden).toBe(onTarget.length);
    for (const record of onTarget) expect(tw.store.replays.get(record.mapRecordId)).toMatchObject({ state: 'hidden', attempts: 1 });

    delete target.secretThreshold;
    emulator.resetStats();
    const again = await tw.sync();
    expect(again.replaysDownloaded).toBe(onTarget.length);
    for (const record of onTarget) await expectOnDisk(record.mapRecordId);
  });
});

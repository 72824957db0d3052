// What the window is told about syncs: a cancel is a cancel (never "the service cannot be reached"), a partial or
// failed sync never reads as "synced", a list made after a sync of every list was not in it, and maps say when a
// sync last read them. The service talks to the emulator through a gate that holds or refuses chosen requests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../src-main/contract/index.ts';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { startGate, type Gate } from '../../helpers/gate.ts';
import { eventLog, paceForEmulator, serviceCaller, testHost, type EventLog } from '../../helpers/service.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const LOGIN = { login: 'svc-login', password: 'svc-password', contact: 'player: Tester; contact: t@example.com' };
let dataDir: string;
let emulator: RunningEmulator;
let gate: Gate;
let service: TrackwatchService;
let log: EventLog;
const { call } = serviceCaller(() => service);
const events = <E extends EventName>(name: E): EventPayload<E>[] => log.events(name);

/** Resolves with the run's sync.finished event, told by the service's own event hub. */
function finishedOf(runId: string): Promise<EventPayload<'sync.finished'>> {
  return log.first('sync.finished', (p) => p.runId === runId);
}

async function sync(list: string): Promise<EventPayload<'sync.finished'>> {
  const { runId } = await call('sync.start', { list });
  return finishedOf(runId);
}

async function summary(list: string) {
  return (await call('watchlists.list', {})).find((l) => l.name === list)!;
}

const isRecords = (p: string) => p.startsWith('/v2/mapRecords/');

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tw-sync-truth-'));
  const dataset = generateDataset({ now: DATA_NOW, seed: 11, maps: 3, players: 3 });
  emulator = await startEmulator({ dataset, auth: { login: LOGIN.login, password: LOGIN.password } });
  gate = await startGate(emulator.url);
  service = await TrackwatchService.open({ dataDir, apiUrl: gate.url, host: testHost() });
  log = eventLog(service);
  await call('setup.connect', LOGIN);
  // Every URL is paced alike, at the demo's pace: the window's own ceiling (2/s, Nadeo's) only made the test wait.
  await paceForEmulator(service);
  await call('watchlists.create', { name: 'Cup' });
  await call('watchlists.addMaps', { list: 'Cup', refs: dataset.maps.map((m) => m.mapUid) });
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
  await call('watchlists.addPlayers', { list: 'Cup', players: accounts.map((accountId) => ({ accountId })) });
});

afterAll(async () => {
  await service?.close();
  await gate?.close();
  await emulator?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the truth about syncs', () => {
  let okAt: string;

  it('a sync that read every map is "synced", and every map was checked then', async () => {
    const finished = await sync('Cup');
    expect(finished).toMatchObject({ outcome: 'ok', failedMaps: 0, error: null });
    okAt = finished.finishedAt;
    const list = await summary('Cup');
    expect(list.lastSyncAt).not.toBeNull();
    expect(list.lastSync).toMatchObject({ outcome: 'ok', failedMaps: 0, error: null });
    const detail = await call('watchlists.get', { list: 'Cup' });
    expect(detail.maps.every((m) => m.lastCheckedAt === list.lastSyncAt)).toBe(true);
    okAt = list.lastSyncAt!;
  });

  it('a partial sync says how many maps failed, keeps "synced" at the last full one, and dates each map', async () => {
    const detail = await call('watchlists.get', { list: 'Cup' });
    const broken = detail.maps[1]!;
    gate.rule = (p) => (isRecords(p) && p.includes(broken.mapId) ? { status: 400, body: JSON.stringify({ code: 'C-AA-00-03', message: 'broken on purpose' }) } : 'pass');
    const finished = await sync('Cup');
    gate.rule = () => 'pass';
    expect(finished).toMatchObject({ outcome: 'partial', failedMaps: 1, error: { code: 'service_error' } });
    const list = await summary('Cup');
    expect(list.lastSyncAt).toBe(okAt);
    expect(list.lastSync).toMatchObject({ outcome: 'partial', failedMaps: 1, error: { code: 'service_error' } });
    const after = await call('watchlists.get', { list: 'Cup' });
    const checked = new Map(after.maps.map((m) => [m.mapId, m.lastCheckedAt]));
    expect(checked.get(broken.mapId)).toBe(okAt);
    for (const m of after.maps) if (m.mapId !== broken.mapId) expect(Date.parse(m.lastCheckedAt!)).toBeGreaterThan(Date.parse(okAt));
    const map = await call('maps.get', { list: 'Cup', mapUid: broken.mapUid });
    expect(map.lastCheckedAt).toBe(okAt);
  });

  it('a cancel reads as cancelled, and never as an unreachable service', async () => {
    gate.rule = (p) => (isRecords(p) ? 'hold' : 'pass');
    const statusBefore = events('status.changed').length;
    const { runId } = await call('sync.start', { list: 'Cup' });
    const done = finishedOf(runId);
    // A records request is open at the gate: the cancel cuts it short.
    await gate.seen(isRecords);
    expect(await call('sync.cancel', {})).toEqual({ cancelled: true });
    const finished = await done;
    gate.rule = () => 'pass';
    expect(finished).toMatchObject({ outcome: 'cancelled', error: null });
    expect(service.connection.status.state).not.toBe('offline');
    expect(events('status.changed').slice(statusBefore).filter((s) => s.state === 'offline')).toEqual([]);
    const list = await summary('Cup');
    expect(list.lastSync).toMatchObject({ outcome: 'cancelled', error: null });
    expect(list.lastSyncAt).toBe(okAt);
  });

  it('a list made after a sync of every list does not take that sync as its own', async () => {
    await sync('Cup');
    const ofCup = (await summary('Cup')).lastSync!.finishedAt;
    const { runId } = await call('sync.start', {});
    expect((await finishedOf(runId)).outcome).toBe('ok');
    await call('watchlists.create', { name: 'Later' });
    const later = await summary('Later');
    expect(later).toMatchObject({ lastSyncAt: null, lastSyncOutcome: null, lastSync: null });
    // The list that existed takes it: its latest sync is now the one over every list, after its own.
    const cup = await summary('Cup');
    expect(cup.lastSync).toMatchObject({ outcome: 'ok' });
    expect(Date.parse(cup.lastSync!.finishedAt)).toBeGreaterThan(Date.parse(ofCup));
  });

  it('a sync that cannot reach the service fails as "offline", and "synced" stays at the last full one', async () => {
    const before = (await summary('Cup')).lastSyncAt;
    await gate.refuse();
    const finished = await sync('Cup');
    expect(finished).toMatchObject({ outcome: 'failed', error: { code: 'offline' } });
    const list = await summary('Cup');
    expect(list.lastSync).toMatchObject({ outcome: 'failed', error: { code: 'offline' } });
    expect(list.lastSyncAt).toBe(before);
    expect(service.connection.status.state).toBe('offline');
  }, 60_000);
});

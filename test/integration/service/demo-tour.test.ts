// The demo as the window runs it: logged in as "me", one tour of two syncs with time passing between them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../../src-main/contract/index.ts';
import { PERSONAL_BEST } from '../../../src-main/core/store/index.ts';
import { dispatch } from '../../../src-main/service/dispatch.ts';
import { createHandlers } from '../../../src-main/service/handlers/index.ts';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { eventLog, serviceCaller, testHost, type EventLog } from '../../helpers/service.ts';

let dataDir: string;
let service: TrackwatchService;
let handlers: ReturnType<typeof createHandlers>;
let log: EventLog;
const { call } = serviceCaller(() => service);
const events = <E extends EventName>(name: E): EventPayload<E>[] => log.events(name);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'tw-demo-tour-'));
  service = await TrackwatchService.open({ dataDir, host: testHost(), demo: { maxRps: 500 } });
  handlers = createHandlers(service);
  log = eventLog(service);
});
afterAll(async () => {
  await service?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the demo tour', () => {
  it('is refused outside the demo', async () => {
    const result = await dispatch(handlers, 'demo.tour', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'not_configured' } });
  });

  it('syncs, lets time pass, syncs again: one run with its progress, ending synced with improvements announced', async () => {
    await call('setup.startDemo', {});
    const { runId } = await call('demo.tour', {});
    await expect(dispatch(handlers, 'demo.tour', {})).resolves.toMatchObject({ ok: false, error: { code: 'busy' } });
    const finished = await log.nth('sync.finished', 1);
    expect(finished).toMatchObject({ runId, list: 'Demo', outcome: 'ok', maps: 24 });
    expect(events('sync.finished')).toHaveLength(1);
    // Both syncs' progress went out under the one run: the records phase was seen complete twice.
    const complete = events('sync.progress').filter((p) => p.runId === runId && p.phase === 'Reading records' && p.done === p.total && p.total === 24);
    expect(complete.length).toBeGreaterThanOrEqual(2);
    // The second sync saw what changed while time passed.
    expect(events('pb.new').length).toBeGreaterThan(0);
    const store = service.active.store;
    expect(store.syncRuns.list(5).map((r) => r.outcome)).toEqual(['ok', 'ok']);
    const [demo] = await call('watchlists.list', {});
    expect(demo).toMatchObject({ name: 'Demo', lastSync: { outcome: 'ok' } });
    expect(demo!.lastSyncAt).not.toBeNull();
  });

  it('logs in as "me": a secret threshold hides none of my own records', async () => {
    const me = service.active.store.settings.me()!;
    const demo = service.demo!;
    expect(me).toBe(demo.me);
    const secretMaps = demo.emulator.dataset.maps.filter((m) => m.secretThreshold !== undefined);
    expect(secretMaps.length).toBeGreaterThan(0);
    const mine = secretMaps.flatMap((m) => service.active.store.records.forMap(m.mapId, { scope: PERSONAL_BEST }).filter((r) => r.accountId === me));
    // Where my record is better than the threshold, another player's would be hidden: mine shows its time.
    const behindThreshold = mine.filter((r) => {
      const map = secretMaps.find((m) => m.mapId === r.mapId)!;
      return map.mapType.endsWith('TM_Stunt') ? r.score > map.secretThreshold! : r.time !== null && r.time < map.secretThreshold!;
    });
    expect(mine.every((r) => !r.hidden)).toBe(true);
    expect(behindThreshold.length).toBeGreaterThan(0);
    const others = secretMaps.flatMap((m) => service.active.store.records.forMap(m.mapId, { scope: PERSONAL_BEST }).filter((r) => r.accountId !== me));
    expect(others.some((r) => r.hidden)).toBe(true);
  });
});

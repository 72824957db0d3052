// The records phase alone, against the emulator: every watched player's PB per map, stored with its replay's state,
// new PBs announced; a map that fails is named and the others kept; a fatal error stops the workers.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthError } from '../../../../src-main/core/nadeo/index.ts';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { FatalSyncError } from '../../../../src-main/core/sync/failures.ts';
import { recordsPhase } from '../../../../src-main/core/sync/phases/records.ts';
import type { NewPersonalBest } from '../../../../src-main/core/sync/types.ts';
import { memoryStore } from '../../store/fixtures.ts';
import { expectedPersonalBests } from '../../../helpers/sync.ts';
import { phaseContext } from './context.ts';
import { emulatedService, type EmulatedService } from './emulator.ts';

describe('the records phase', () => {
  let service: EmulatedService;
  let store: Store;
  let accounts: string[];
  beforeAll(async () => {
    service = await emulatedService({ seed: 32, maps: 5, players: 6 });
    accounts = [...new Set(service.dataset.records.map((r) => r.accountId))];
  });
  afterAll(async () => service.close());
  beforeEach(async () => {
    store = await memoryStore();
    store.watchlists.create('Fall');
    const uids = service.dataset.maps.map((m) => m.mapUid);
    store.maps.addRefs('Fall', uids.map((mapUid) => ({ mapUid })));
    store.maps.upsert((await service.client.getMapsByUid(uids)).maps);
    store.players.add('Fall', accounts.map((accountId, i) => ({ accountId, ...(i === 0 ? { nickname: 'Me' } : {}) })));
    service.emulator.resetStats();
  });

  it("stores every watched player's PB, queues the visible ones' replays, and announces each first sighting", async () => {
    const announced: NewPersonalBest[] = [];
    const progress: number[] = [];
    const ctx = phaseContext({
      store, client: service.client,
      options: { list: 'Fall', onNewPersonalBest: (e) => announced.push(e), onProgress: (p) => progress.push(p.mapsDone) },
    });
    await recordsPhase.run(ctx);
    const expected = expectedPersonalBests(service.dataset, new Set(accounts));
    const stored = store.records.forList('Fall', { scope: 'PersonalBest' });
    expect(stored).toHaveLength(expected.size);
    expect(ctx.run).toMatchObject({ phase: 'records', mapsTotal: 5, mapsDone: 5, mapsOk: 5, mapsSkipped: 0, newRecords: expected.size, newPersonalBests: 0 });
    expect(ctx.run.players.sort()).toEqual([...accounts].sort());
    expect(announced).toHaveLength(expected.size);
    expect(announced.filter((e) => e.accountId === accounts[0]).every((e) => e.playerName === 'Me' && e.kind === 'first')).toBe(true);
    const visible = [...expected.values()].filter((e) => !e.hidden).length;
    expect(store.replays.pending(1000)).toHaveLength(visible);
    expect(progress).toEqual([0, 1, 2, 3, 4, 5]);
    expect(ctx.run.errors).toEqual([]);
  });

  it('asks nothing without watched players, and counts every map as done', async () => {
    const empty = await memoryStore();
    empty.watchlists.create('Fall');
    empty.maps.upsert(store.maps.list('Fall'));
    empty.maps.addRefs('Fall', store.maps.list('Fall').map((m) => ({ mapUid: m.mapUid })));
    const ctx = phaseContext({ store: empty, client: service.client, options: { list: 'Fall' } });
    await recordsPhase.run(ctx);
    expect(ctx.run).toMatchObject({ mapsTotal: 5, mapsDone: 5, mapsOk: 0 });
    expect(service.emulator.stats().requests).toBe(0);
  });

  it('names the map whose records failed and keeps the others', async () => {
    const failing = store.maps.list('Fall')[2]!;
    const client = { ...service.client, getRecords: ((map, ids, o) => (map.mapId === failing.mapId ? Promise.reject(new Error('a bad answer')) : service.client.getRecords(map, ids, o))) as typeof service.client.getRecords };
    const ctx = phaseContext({ store, client, options: { list: 'Fall' } });
    await recordsPhase.run(ctx);
    expect(ctx.run.errors).toEqual([{ mapId: failing.mapId, message: 'a bad answer' }]);
    expect(ctx.run).toMatchObject({ mapsDone: 5, mapsOk: 4 });
    expect(store.records.forMap(failing.mapId)).toEqual([]);
  });

  it('stops every worker on a fatal error and keeps it for the engine to say', async () => {
    const client = { ...service.client, getRecords: (() => Promise.reject(new AuthError('the login was refused', 401))) as typeof service.client.getRecords };
    const ctx = phaseContext({ store, client, options: { list: 'Fall', concurrency: 1 } });
    await expect(recordsPhase.run(ctx)).rejects.toBeInstanceOf(FatalSyncError);
    expect(ctx.failures.fatal).toBeInstanceOf(AuthError);
    expect(ctx.failures.stopping).toBe(true);
    // One map at a time: the first failure stopped the rest.
    expect(ctx.run.mapsDone).toBe(1);
  });
});

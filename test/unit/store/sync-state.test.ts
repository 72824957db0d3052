// How syncs of a list went, as the window shows it: the latest run's outcome, and when each map was last read.
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src-main/core/store/index.ts';
import { makeMap, mapId } from './fixtures.ts';

let store: Store;
let clock = Date.parse('2026-03-01T10:00:00.000Z');
/** Each call is one second later: creation and run times are ordered as they happen. */
function tick(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

function open(): Store {
  store = openStore({ memory: true, now: () => new Date(clock) });
  return store;
}
afterEach(() => store.close());

function run(list: string | undefined, outcome: 'ok' | 'partial' | 'failed' | 'cancelled', errors: [string | null, string][] = []): { id: number; finishedAt: string } {
  const id = store.syncRuns.start(list, tick());
  for (const [map, message] of errors) store.syncRuns.addError(id, map, message);
  const finishedAt = tick();
  store.syncRuns.finish(id, outcome, {}, finishedAt);
  return { id, finishedAt };
}

describe('a list\'s sync state', () => {
  it('gives the latest run\'s outcome, failed maps and first error, and when a run last read every map', () => {
    open();
    store.watchlists.create('Weekly', tick());
    const good = run('Weekly', 'ok');
    expect(store.syncRuns.stateOf('Weekly')).toEqual({
      last: { runId: good.id, finishedAt: good.finishedAt, outcome: 'ok', failedMaps: 0, firstError: null },
      lastOkAt: good.finishedAt,
    });
    const partial = run('Weekly', 'partial', [[mapId(1), 'HTTP 500'], [mapId(2), 'HTTP 503'], [mapId(1), 'HTTP 500 again'], [null, 'names: unreachable']]);
    expect(store.syncRuns.stateOf('Weekly')).toEqual({
      last: { runId: partial.id, finishedAt: partial.finishedAt, outcome: 'partial', failedMaps: 2, firstError: 'names: unreachable' },
      lastOkAt: good.finishedAt,
    });
    const cancelled = run('Weekly', 'cancelled');
    expect(store.syncRuns.stateOf('Weekly').last).toMatchObject({ runId: cancelled.id, outcome: 'cancelled', failedMaps: 0 });
    expect(store.syncRuns.stateOf('Weekly').lastOkAt).toBe(good.finishedAt);
  });

  it('does not count a run over every list for a list created after it started', () => {
    open();
    store.watchlists.create('Old', tick());
    const all = run(undefined, 'ok');
    store.watchlists.create('New', tick());
    expect(store.syncRuns.stateOf('Old')).toMatchObject({ last: { runId: all.id }, lastOkAt: all.finishedAt });
    expect(store.syncRuns.stateOf('New')).toEqual({ last: undefined, lastOkAt: null });
    expect(store.watchlists.get('New')?.lastSyncAt).toBeNull();
    expect(store.watchlists.get('Old')?.lastSyncAt).toBe(all.finishedAt);
    const next = run(undefined, 'failed', [[null, 'the connection failed']]);
    expect(store.syncRuns.stateOf('New')).toEqual({
      last: { runId: next.id, finishedAt: next.finishedAt, outcome: 'failed', failedMaps: 0, firstError: 'the connection failed' },
      lastOkAt: null,
    });
  });
});

describe('when each map was last checked', () => {
  it('is the newest ok or partial run that covered the map and noted no error for it', () => {
    open();
    store.watchlists.create('A', tick());
    store.watchlists.create('B', tick());
    store.maps.upsert([makeMap(1), makeMap(2), makeMap(3)]);
    store.maps.addRefs('A', [{ mapId: mapId(1) }, { mapId: mapId(2) }], tick());
    expect(store.syncRuns.mapsCheckedAt('A')).toEqual(new Map());

    const first = run('A', 'ok');
    const second = run('A', 'partial', [[mapId(2), 'HTTP 500']]);
    run('A', 'cancelled');
    run('A', 'failed', [[null, 'unreachable']]);
    expect(store.syncRuns.mapsCheckedAt('A')).toEqual(new Map([[mapId(1), second.finishedAt], [mapId(2), first.finishedAt]]));

    // Map 3 joins A now: runs before that never read it; a run of list B, which also holds map 1, reads map 1.
    store.maps.addRefs('A', [{ mapId: mapId(3) }], tick());
    store.maps.addRefs('B', [{ mapId: mapId(1) }], tick());
    const ofB = run('B', 'ok');
    expect(store.syncRuns.mapsCheckedAt('A')).toEqual(new Map([[mapId(1), ofB.finishedAt], [mapId(2), first.finishedAt]]));
    const all = run(undefined, 'ok');
    expect(store.syncRuns.mapsCheckedAt('A')).toEqual(new Map([[mapId(1), all.finishedAt], [mapId(2), all.finishedAt], [mapId(3), all.finishedAt]]));
  });
});

// The sources phase alone: lists that follow a source add what appeared in it, before the maps are read.
import { beforeEach, describe, expect, it } from 'vitest';
import { AuthError, RetryLaterError } from '../../../../src-main/core/nadeo/index.ts';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { sourcesPhase } from '../../../../src-main/core/sync/phases/sources.ts';
import type { SourceRefresh } from '../../../../src-main/core/sources.ts';
import { mapUid, memoryStore } from '../../store/fixtures.ts';
import { phaseContext } from './context.ts';

const LIVE = '127.0.0.1:9';
const refreshOf = (list: string, added: string[]): SourceRefresh => ({ list, title: `Track of the Day of ${list}`, added, notFound: [], notes: [] });

describe('the sources phase', () => {
  let store: Store;
  let asked: number[];
  beforeEach(async () => {
    store = await memoryStore();
    asked = [];
    for (const list of ['Totd', 'Campaign', 'Plain']) store.watchlists.create(list);
    store.sources.attach('Totd', { source: 'totd:2026-11', pinned: 'totd:2026-11', title: 'Track of the Day 2026-11' }, []);
    store.sources.attach('Campaign', { source: 'campaign:current', pinned: 'campaign:Fall 2026', title: 'Fall 2026' }, []);
  });
  const id = (list: string): number => store.watchlists.require(list).id;

  it('reads every followed source when every list syncs, and names the maps each brought', async () => {
    const ctx = phaseContext({
      store,
      deps: {
        refreshSource: async (list) => {
          asked.push(list);
          return list === id('Totd') ? refreshOf('Totd', [mapUid(1)]) : refreshOf('Campaign', []);
        },
      },
    });
    await sourcesPhase.run(ctx);
    expect(asked.sort()).toEqual([id('Totd'), id('Campaign')].sort());
    expect(ctx.run.newMaps).toEqual([{ list: 'Totd', title: 'Track of the Day of Totd', mapUids: [mapUid(1)] }]);
    expect(ctx.run.errors).toEqual([]);
  });

  it("reads only the synced list's source", async () => {
    const ctx = phaseContext({ store, options: { list: 'Campaign' }, deps: { refreshSource: async (list) => (asked.push(list), undefined) } });
    await sourcesPhase.run(ctx);
    expect(asked).toEqual([id('Campaign')]);
  });

  it("says which source could not be read, with the list's name, and goes on with the next", async () => {
    const ctx = phaseContext({
      store,
      deps: {
        refreshSource: async (list) => {
          asked.push(list);
          if (list === id('Totd')) throw new Error('the page was garbage');
          return undefined;
        },
      },
    });
    await sourcesPhase.run(ctx);
    expect(asked).toHaveLength(2);
    expect(ctx.run.errors).toEqual([{ mapId: null, message: 'could not read what Track of the Day 2026-11 holds now (list "Totd"): the page was garbage' }]);
    expect(store.syncRuns.get(ctx.run.runId)!.errors.map((e) => e.message)).toEqual([ctx.run.errors[0]!.message]);
  });

  it('stops asking the Live services once they ask for a long wait: one line, no second source', async () => {
    const ctx = phaseContext({
      store,
      deps: {
        liveHost: LIVE,
        refreshSource: async (list) => {
          asked.push(list);
          throw new RetryLaterError(`http://${LIVE}`, 429, new Date('2026-12-05T14:03:00Z'));
        },
      },
    });
    await sourcesPhase.run(ctx);
    expect(asked).toHaveLength(1);
    expect(ctx.run.errors).toHaveLength(1);
    expect(ctx.run.errors[0]!.message).toMatch(/^Nadeo's service \(127\.0\.0\.1:9\) asked Trackwatch to wait/);
    expect(ctx.failures.isWaiting(LIVE)).toBe(true);
  });

  it('lets a fatal error (bad credentials) stop the sync', async () => {
    const ctx = phaseContext({ store, deps: { refreshSource: async () => Promise.reject(new AuthError('bad login', 401)) } });
    await expect(sourcesPhase.run(ctx)).rejects.toBeInstanceOf(AuthError);
  });

  it('asks nothing without a way to read sources, or once the sync is cancelled', async () => {
    await sourcesPhase.run(phaseContext({ store }));
    const cancel = new AbortController();
    cancel.abort();
    const ctx = phaseContext({ store, options: { signal: cancel.signal }, deps: { refreshSource: async (list) => (asked.push(list), undefined) } });
    await sourcesPhase.run(ctx);
    expect(asked).toEqual([]);
  });
});

// The names phase alone: display names asked for the players whose name is older than 30 days (or never asked),
// stored with when they were asked; nothing without an OAuth app.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { NAME_CACHE_MS, namesPhase } from '../../../../src-main/core/sync/phases/names.ts';
import { accountId, memoryStore } from '../../store/fixtures.ts';
import { phaseContext, stubClient } from './context.ts';

describe('the names phase', () => {
  let store: Store;
  let asked: string[][];
  const now = new Date('2026-11-20T10:00:00.000Z');
  const client = stubClient({
    getDisplayNames: async (ids) => {
      asked.push([...ids]);
      return new Map(ids.filter((id) => id !== accountId(3)).map((id) => [id, `Name of ${id.slice(-1)}`]));
    },
  });
  beforeEach(async () => {
    store = await memoryStore();
    asked = [];
    store.watchlists.create('Fall');
    store.players.add('Fall', [1, 2, 3].map((n) => ({ accountId: accountId(n) })));
  });

  it('asks for every name not asked yet, and stamps the players the service has no name for too', async () => {
    const ctx = phaseContext({ store, client, options: { displayNames: true }, deps: { now: () => now } });
    await namesPhase.run(ctx);
    expect(asked.flat().sort()).toEqual([1, 2, 3].map(accountId).sort());
    expect(store.players.get(accountId(1))).toMatchObject({ displayName: 'Name of 1', displayNameFetchedAt: now.toISOString() });
    expect(store.players.get(accountId(3))).toMatchObject({ displayName: null, displayNameFetchedAt: now.toISOString() });
    expect(ctx.run.phase).toBe('names');
  });

  it('asks nobody again within 30 days, and everybody after', async () => {
    await namesPhase.run(phaseContext({ store, client, options: { displayNames: true }, deps: { now: () => now } }));
    asked = [];
    const later = (ms: number) => ({ now: () => new Date(now.getTime() + ms) });
    await namesPhase.run(phaseContext({ store, client, options: { displayNames: true }, deps: later(NAME_CACHE_MS - 1000) }));
    expect(asked).toEqual([]);
    await namesPhase.run(phaseContext({ store, client, options: { displayNames: true }, deps: later(NAME_CACHE_MS + 1000) }));
    expect(asked.flat()).toHaveLength(3);
  });

  it('asks nothing without an OAuth app, and says a failure with what the sync was doing', async () => {
    const off = phaseContext({ store, client });
    await namesPhase.run(off);
    expect(asked).toEqual([]);
    expect(off.run.phase).toBe('maps');
    const failing = phaseContext({ store, client: stubClient({ getDisplayNames: async () => Promise.reject(new Error('a bad answer')) }), options: { displayNames: true } });
    await namesPhase.run(failing);
    expect(failing.run.errors).toEqual([{ mapId: null, message: 'could not fetch display names: a bad answer' }]);
  });
});

// The positions phase alone: the world positions are asked after the records, of the synced list, on the Live host's
// signal; not without watched players or with positions off; a failure said with what the sync was doing.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { positionsPhase } from '../../../../src-main/core/sync/phases/positions.ts';
import type { PositionsSummary } from '../../../../src-main/core/sync/positions.ts';
import { memoryStore } from '../../store/fixtures.ts';
import { phaseContext } from './context.ts';

const SUMMARY: PositionsSummary = { asked: 3, requests: 1, minimumRequests: 1, ranked: 3, limitedByOwnRecord: 0, unavailable: 0, changed: 2, bestClimb: null, bestPosition: null };

describe('the positions phase', () => {
  let store: Store;
  let asked: (string | undefined)[];
  beforeEach(async () => {
    store = await memoryStore();
    store.watchlists.create('Fall');
    asked = [];
  });
  const syncPositions = async (list: string | undefined): Promise<PositionsSummary> => {
    asked.push(list);
    return SUMMARY;
  };

  it("asks for the synced list's positions once the records named players, and keeps the summary", async () => {
    const ctx = phaseContext({ store, options: { list: 'Fall' }, deps: { syncPositions } });
    ctx.run.players = ['a'];
    await positionsPhase.run(ctx);
    expect(asked).toEqual(['Fall']);
    expect(ctx.run.positions).toEqual(SUMMARY);
  });

  it('asks nothing with positions off, without watched players, or without a Live client', async () => {
    const off = phaseContext({ store, options: { positions: false }, deps: { syncPositions } });
    off.run.players = ['a'];
    await positionsPhase.run(off);
    await positionsPhase.run(phaseContext({ store, deps: { syncPositions } }));
    const none = phaseContext({ store });
    none.run.players = ['a'];
    await positionsPhase.run(none);
    expect(asked).toEqual([]);
    expect(off.run.positions).toBeNull();
  });

  it('says a failure with what the sync was doing, and goes on', async () => {
    const ctx = phaseContext({ store, deps: { syncPositions: async () => Promise.reject(new Error('a bad answer')) } });
    ctx.run.players = ['a'];
    await positionsPhase.run(ctx);
    expect(ctx.run.errors).toEqual([{ mapId: null, message: 'could not ask for world positions: a bad answer' }]);
    expect(ctx.run.positions).toBeNull();
  });
});

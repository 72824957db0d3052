// The positions phase alone: the world positions are asked after the records, of the synced list, on the Live host's
// signal; not without watched players or with positions off; a failure said with what the sync was doing.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { positionsPhase } from '../../../../src-main/core/sync/phases/positions.ts';
import type { PositionsAnswers, PositionsSummary } from '../../../../src-main/core/sync/positions.ts';
import { memoryStore } from '../../store/fixtures.ts';
import { phaseContext } from './context.ts';

const ANSWERS: PositionsAnswers = { asked: 3, minimumRequests: 1, ranked: 3, limitedByOwnRecord: 0, unavailable: 0, changed: 2, bestClimb: null, bestPosition: null };

describe('the positions phase', () => {
  let store: Store;
  let asked: (string | undefined)[];
  /** The run's own requests: the records' before the phase, and one position request in it. */
  let requests: number;
  beforeEach(async () => {
    store = await memoryStore();
    store.watchlists.create('Fall');
    asked = [];
    requests = 5;
  });
  const syncPositions = async (list: string | undefined): Promise<PositionsAnswers> => {
    asked.push(list);
    requests += 1;
    return ANSWERS;
  };

  it("asks for the synced list's positions once the records named players, and keeps the summary with the run's own count of its requests", async () => {
    const ctx = phaseContext({ store, options: { list: 'Fall' }, deps: { syncPositions }, requests: () => requests });
    ctx.run.players = ['a'];
    await positionsPhase.run(ctx);
    expect(asked).toEqual(['Fall']);
    expect(ctx.run.positions).toEqual({ ...ANSWERS, requests: 1 } satisfies PositionsSummary);
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

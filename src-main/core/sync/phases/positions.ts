// World positions of the PBs whose score changed since their position was asked (Live services; positions.ts), after
// the records and before the replays. Not asked without watched players, or with positions off.
import { prefixed } from '../failures.ts';
import { rethrowIfStopping, type Phase, type SyncContext } from '../context.ts';

function wanted(ctx: SyncContext): boolean {
  return ctx.deps.syncPositions !== undefined && ctx.options.positions !== false;
}

export const positionsPhase: Phase = {
  name: 'positions',
  planned: (ctx) => (wanted(ctx) ? ctx.plan?.positionRequests ?? 0 : 0),
  async run(ctx: SyncContext): Promise<void> {
    const { deps, failures, run } = ctx;
    if (!deps.syncPositions || !wanted(ctx) || run.players.length === 0 || failures.stopping || failures.isWaiting(ctx.hosts.live)) return;
    try {
      run.positions = await deps.syncPositions(ctx.list, failures.signalFor(ctx.hosts.live));
    } catch (error) {
      rethrowIfStopping(ctx, error);
      failures.fail(null, prefixed('could not ask for world positions', error), ctx.hosts.live);
    }
  },
};

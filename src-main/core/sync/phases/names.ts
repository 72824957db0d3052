// Display names, when an OAuth app is configured; cached for 30 days (names change at most that often). A player the
// service gives no name for is stamped as asked too, so they wait out the same 30 days.
import { prefixed } from '../failures.ts';
import { rethrowIfStopping, type Phase, type SyncContext } from '../context.ts';

export const NAME_CACHE_MS = 30 * 24 * 3600 * 1000;

export const namesPhase: Phase = {
  name: 'names',
  // 50 names a request: a few requests, which the plan does not count.
  planned: () => 0,
  async run(ctx: SyncContext): Promise<void> {
    const { store, client, failures, run } = ctx;
    if (!ctx.options.displayNames) return;
    run.phase = 'names';
    run.progress();
    const stale = store.players.needingDisplayNames(new Date(ctx.now().getTime() - NAME_CACHE_MS));
    if (stale.length === 0) return;
    try {
      const names = await client.getDisplayNames(stale, { signal: failures.signalFor(ctx.hosts.names) });
      store.players.setDisplayNames(names, ctx.now().toISOString(), stale);
    } catch (error) {
      rethrowIfStopping(ctx, error);
      failures.fail(null, prefixed('could not fetch display names', error), ctx.hosts.names);
    }
  },
};

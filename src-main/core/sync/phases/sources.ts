// Lists made from a source (a campaign, a Track of the Day month...) add the maps that appeared since the last sync
// (core/sources.ts), before the maps are looked up.
import { prefixed } from '../failures.ts';
import { rethrowIfStopping, type Phase, type SyncContext } from '../context.ts';

export const sourcesPhase: Phase = {
  name: 'sources',
  // The plan does not count a source's pages (a few per list).
  planned: () => 0,
  async run(ctx: SyncContext): Promise<void> {
    const { deps, store, list, failures, run } = ctx;
    if (!deps.refreshSource) return;
    const only = list === undefined ? undefined : store.watchlists.get(list)?.id;
    for (const followed of store.sources.list()) {
      if (failures.stopping || failures.isWaiting(ctx.hosts.live)) break;
      if (list !== undefined && followed.listId !== only) continue;
      try {
        const refreshed = await deps.refreshSource(followed.listId, failures.signalFor(ctx.hosts.live));
        if (refreshed && refreshed.added.length > 0) run.newMaps.push({ list: refreshed.list, title: refreshed.title, mapUids: refreshed.added });
      } catch (error) {
        rethrowIfStopping(ctx, error);
        // The host that failed (the Live services, or Trackmania Exchange for a pack) says itself in the error.
        failures.fail(null, prefixed(`could not read what ${followed.title} holds now (list "${followed.list}")`, error));
      }
    }
  },
};

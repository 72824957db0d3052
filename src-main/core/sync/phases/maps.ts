// Maps: resolve the UIDs and map IDs added since the last sync, and refresh map info that is old (or all of it, with
// refreshMaps). A map the service does not know is marked so, and named in the summary when it was just added.
import type { Store } from '../../store/index.ts';
import { prefixed } from '../failures.ts';
import { MAP_INFO_MAX_AGE_MS } from '../plan.ts';
import { rethrowIfStopping, type Phase, type SyncContext } from '../context.ts';

export const mapsPhase: Phase = {
  name: 'maps',
  planned: (ctx) => ctx.plan?.mapLookups ?? 0,
  async run(ctx: SyncContext): Promise<void> {
    await resolveUids(ctx);
    await refreshInfo(ctx);
  },
};

async function resolveUids(ctx: SyncContext): Promise<void> {
  const { store, client, failures, run } = ctx;
  const pendingUids = store.maps.unresolvedUids(ctx.list);
  if (pendingUids.length === 0) return;
  run.progress();
  try {
    const found = await client.getMapsByUid(pendingUids, { signal: failures.signalFor(ctx.hosts.api) });
    failures.answered();
    store.maps.upsert(found.maps, ctx.now().toISOString());
    for (const r of found.rejected) run.addError({ mapId: null, message: `map ${r.mapUid ?? r.mapId ?? ''} left out: ${r.reason}` });
    if (found.notFound.length > 0) {
      store.maps.markNotFound(found.notFound);
      run.unknownMaps.push(...found.notFound);
    }
  } catch (error) {
    rethrowIfStopping(ctx, error);
    failures.fail(null, prefixed(`could not look up ${pendingUids.length} map UID(s)`, error), ctx.hosts.api);
  }
}

async function refreshInfo(ctx: SyncContext): Promise<void> {
  const { store, client, failures, run, options } = ctx;
  const now = ctx.now().getTime();
  const staleBefore = options.refreshMaps ? new Date(now + 1) : new Date(now - (options.mapInfoMaxAgeMs ?? MAP_INFO_MAX_AGE_MS));
  const pendingIds = pendingMapIds(store, ctx.list);
  const staleIds = [...new Set([...store.maps.staleIds(staleBefore, ctx.list), ...pendingIds])];
  if (staleIds.length === 0 || failures.isWaiting(ctx.hosts.api) || failures.stopping) return;
  try {
    const found = await client.getMapsById(staleIds, { signal: failures.signalFor(ctx.hosts.api) });
    failures.answered();
    store.maps.upsert(found.maps, ctx.now().toISOString());
    for (const r of found.rejected) run.addError({ mapId: r.mapId ?? null, message: `map ${r.mapId ?? r.mapUid ?? ''} left out: ${r.reason}` });
    const missing = [...found.notFound, ...found.invalid];
    if (missing.length > 0) {
      store.maps.markNotFound(missing);
      run.unknownMaps.push(...missing.filter((id) => pendingIds.includes(id)));
    }
  } catch (error) {
    rethrowIfStopping(ctx, error);
    failures.fail(null, prefixed(`could not refresh the info of ${staleIds.length} map(s)`, error), ctx.hosts.api);
  }
}

/** Map IDs added to the list that no sync has resolved yet. */
function pendingMapIds(store: Store, list?: string): string[] {
  const lists = list === undefined ? store.watchlists.list().map((l) => l.id) : [list];
  const ids = new Set<string>();
  for (const l of lists) for (const ref of store.maps.refs(l)) if (!ref.resolved && ref.mapId && !ref.mapUid) ids.add(ref.mapId);
  return [...ids];
}

// Work that runs on the clients and keeps them open until it ends (ClientLifecycle.use): a sync (with its lists'
// sources and the world positions), a list made from a source, players read from what was pasted.
import { DEFAULT_SERVICE_BUDGETS, type Clients, type ListSource } from '../nadeo/index.ts';
import { resolvePlayerRefs, type ResolvedPlayerRefs } from '../player-refs.ts';
import { createListFromSource, refreshListSource, type ListFromSource, type SourceDeps } from '../sources.ts';
import type { Store } from '../store/index.ts';
import { runSync, type SyncOptions, type SyncSummary } from '../sync/engine.ts';
import { planSync, type SyncPlan, type SyncPlanOptions } from '../sync/plan.ts';
import { syncPositions } from '../sync/positions.ts';
import type { ClientLifecycle } from './clients.ts';

/** What the runs work with: the store, the data folder, the clients, "me", and how maps are added. */
export interface RunDeps {
  store: Store;
  dataDir: string;
  clients: ClientLifecycle;
  me: string | undefined;
  addMaps: SourceDeps['addMaps'];
}

function sourceDeps(deps: RunDeps, clients: Clients): SourceDeps {
  return { store: deps.store, clients: { live: clients.live, exchange: clients.exchange }, addMaps: deps.addMaps };
}

/**
 * What a sync with these options will ask for and about how long it takes at the configured pace (no network):
 * the paces of the clients' budgets, Core's and Live's (the positions').
 */
export function planSyncWith(deps: RunDeps, options: Omit<SyncPlanOptions, 'me' | 'maxRps' | 'liveMaxRps'>): SyncPlan {
  const maxRps = deps.clients.options.maxRps;
  return planSync(deps.store, {
    ...options, me: deps.me, maxRps: maxRps ?? DEFAULT_SERVICE_BUDGETS.core.maxRps, liveMaxRps: maxRps ?? DEFAULT_SERVICE_BUDGETS.live.maxRps,
  });
}

export function syncWith(deps: RunDeps, options: Omit<SyncOptions, 'displayNames' | 'me'>): Promise<SyncSummary> {
  return deps.clients.use((take) => {
    const clients = take();
    const sources = sourceDeps(deps, clients);
    const hosts = deps.clients.hosts;
    return runSync(
      {
        store: deps.store,
        client: clients.core,
        requestEvents: deps.clients.requestEvents(clients),
        dataDir: deps.dataDir,
        apiHost: hosts.api,
        liveHost: hosts.live,
        refreshSource: (list, signal) => refreshListSource(sources, list, { signal }),
        syncPositions: (list, signal) => syncPositions({ store: deps.store, live: clients.live }, { list, signal }),
        worldRecord: (mapUid, signal) => clients.live.getWorldRecord(mapUid, { signal }),
      },
      { ...options, me: deps.me, displayNames: deps.clients.options.oauth !== undefined },
    );
  });
}

/**
 * Makes a list from a source (`campaign:current`, `totd:2026-11`, `club:<club>/<campaign>`, `tmx-pack:<id>` or a
 * link): its maps looked up and added, the source remembered so that later syncs add what appears in it. Named
 * `name`, or after the source.
 */
export function listFromSource(
  deps: RunDeps,
  source: string | ListSource,
  o: { name?: string | undefined; signal?: AbortSignal | undefined },
): Promise<ListFromSource> {
  return deps.clients.use((take) => createListFromSource(sourceDeps(deps, take()), { source, name: o.name }, { signal: o.signal }));
}

/** Reads pasted players: account IDs, trackmania.io player links, display names (with an OAuth app). */
export function resolvePlayers(deps: RunDeps, inputs: readonly string[], o: { signal?: AbortSignal | undefined }): Promise<ResolvedPlayerRefs> {
  // Connected only to look names up: account IDs and links need no network (nor a contact).
  return deps.clients.use((take) => resolvePlayerRefs(inputs, () => take().names, o));
}

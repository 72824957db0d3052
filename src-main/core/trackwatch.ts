// The whole product minus the window: one object the command line, the desktop app and the browser bridge share.
// One way to the data (README, "How it is built"): rows are read and written through the store's repositories,
// `tw.store.<repo>`; this facade holds only what needs more than the database: a connection to the services (the
// clients, sync and its plan at the connection's pace, adding maps that are looked up, players found by name, lists
// from sources, fetching a replay) or the data folder's files (a replay checked against its checksum, the export to
// a file). It has no wrapper of a plain store operation.
// A small root over named parts (core/trackwatch/): the clients' lifecycle (clients.ts), maps added by lookup
// (watch.ts), work that runs on the clients (runs.ts), replays (replays.ts), the data folder (data-folder.ts).
import { join } from 'node:path';
import { exportCsv, exportFileName } from './export/csv.ts';
import type { ExchangeClient, ListSource, LiveClient, NadeoClient, NamesClient } from './nadeo/index.ts';
import { exportsDir } from './paths.ts';
import type { ResolvedPlayerRefs } from './player-refs.ts';
import type { ListFromSource } from './sources.ts';
import type { ReplayEntry, Store } from './store/index.ts';
import type { SyncOptions, SyncSummary } from './sync/engine.ts';
import type { SyncPlan, SyncPlanOptions } from './sync/plan.ts';
import { ClientLifecycle } from './trackwatch/clients.ts';
import { openDataFolder, type OpenOptions } from './trackwatch/data-folder.ts';
import type { TrackwatchOptions } from './trackwatch/options.ts';
import { fetchReplay, verifiedReplay } from './trackwatch/replays.ts';
import { listFromSource, planSyncWith, resolvePlayers, syncWith, type RunDeps } from './trackwatch/runs.ts';
import { addMaps, type AddMapsOptions, type AddMapsOutcome, type WatchDeps } from './trackwatch/watch.ts';

export { ROUTES_SETTING } from './trackwatch/clients.ts';
export type { OpenOptions } from './trackwatch/data-folder.ts';
export { APP_VERSION } from './trackwatch/options.ts';
export type { TrackwatchOptions } from './trackwatch/options.ts';
export type { AddMapsOutcome } from './trackwatch/watch.ts';

export class Trackwatch {
  readonly store: Store;
  readonly dataDir: string;
  readonly #clients: ClientLifecycle;

  constructor(options: TrackwatchOptions, store: Store) {
    this.dataDir = options.dataDir;
    this.store = store;
    this.#clients = new ClientLifecycle(options, store.settings);
  }

  get options(): Readonly<TrackwatchOptions> {
    return this.#clients.options;
  }

  /** Whether the configured service is Nadeo's real one (the strict citizen rules apply). */
  get isRealService(): boolean {
    return this.#clients.isRealService;
  }

  /** The API client, made on first use so that reading the store never needs a network or a contact. */
  get client(): NadeoClient {
    return this.#clients.current.core;
  }

  /** The Live services' client (campaigns, Tracks of the Day, club campaigns, world positions), beside the Core one. */
  get live(): LiveClient {
    return this.#clients.current.live;
  }

  /** Trackmania Exchange's client (map numbers and packs to UIDs). */
  get exchange(): ExchangeClient {
    return this.#clients.current.exchange;
  }

  /** Players by display name; undefined without an OAuth app (the one display names use). */
  get names(): NamesClient | undefined {
    return this.#clients.current.names;
  }

  /**
   * Changes the connection settings; the next network call uses them. A sync under way finishes on the client it
   * started with, which closes when it is done.
   */
  reconfigure(changes: Partial<Omit<TrackwatchOptions, 'dataDir'>>): Promise<void> {
    return this.#clients.reconfigure(changes);
  }

  get #watch(): WatchDeps {
    return { store: this.store, client: () => this.client, exchange: () => this.exchange };
  }

  get #runs(): RunDeps {
    return { store: this.store, dataDir: this.dataDir, clients: this.#clients, me: this.store.settings.me(), addMaps: (list, uids, o) => this.addMaps(list, uids, o) };
  }

  /** Adds pasted map refs (UIDs, IDs, links) to a list, looked up at once (core/trackwatch/watch.ts). */
  addMaps(list: string, refs: string | string[], o: AddMapsOptions = {}): Promise<AddMapsOutcome> {
    return addMaps(this.#watch, list, refs, o);
  }

  /** What a sync with these options will ask for and about how long it takes at the configured pace (no network). */
  planSync(options: Omit<SyncPlanOptions, 'me' | 'maxRps' | 'liveMaxRps'> = {}): SyncPlan {
    return planSyncWith(this.#runs, options);
  }

  sync(options: Omit<SyncOptions, 'displayNames' | 'me'> = {}): Promise<SyncSummary> {
    return syncWith(this.#runs, options);
  }

  /** Makes a list from a source or a link, remembered so that later syncs add what appears in it (runs.ts). */
  createListFromSource(source: string | ListSource, o: { name?: string | undefined; signal?: AbortSignal | undefined } = {}): Promise<ListFromSource> {
    return listFromSource(this.#runs, source, o);
  }

  /** Reads pasted players: account IDs, trackmania.io player links, display names (with an OAuth app). */
  resolvePlayers(inputs: readonly string[], o: { signal?: AbortSignal | undefined } = {}): Promise<ResolvedPlayerRefs> {
    return resolvePlayers(this.#runs, inputs, o);
  }

  /** Downloads one record's replay now (replays.ts). */
  fetchReplay(map: string, accountId: string, o: { mapRecordId?: string | undefined; signal?: AbortSignal } = {}): Promise<{ entry: ReplayEntry; alreadyStored: boolean }> {
    return fetchReplay({ store: this.store, dataDir: this.dataDir, clients: this.#clients }, map, accountId, o);
  }

  /** A downloaded replay's file, checked against its size and SHA-256 first (replays.ts). */
  verifiedReplay(mapRecordId: string): Promise<{ file: string; entry: ReplayEntry }> {
    return verifiedReplay(this.store, this.dataDir, mapRecordId);
  }

  /**
   * Writes the CSV export; `out` defaults to a dated file under the data folder's exports/. A file already at `out`
   * is replaced only with `force`; links, folders and devices are refused (core/export/csv.ts).
   */
  async exportCsv(
    out: string | undefined,
    o: { list?: string | undefined; bom?: boolean | undefined; force?: boolean | undefined; signal?: AbortSignal | undefined; splits?: boolean | undefined } = {},
  ): Promise<{ rows: number; file: string }> {
    const file = out ?? join(exportsDir(this.dataDir), exportFileName(o.splits ? `${o.list ?? 'all-lists'}-splits` : o.list, new Date()));
    const result = await exportCsv(this.store, file, { list: o.list, bom: o.bom, force: o.force, signal: o.signal, splits: o.splits });
    return { rows: result.rows, file: result.file ?? file };
  }

  async close(): Promise<void> {
    await this.#clients.close();
    this.store.close();
  }
}

/**
 * Opens the data folder (creating it, unless only reading) and its store. The network is not touched. A data folder
 * that cannot be used (a file, read-only media for a command that writes) is a LocalFaultError saying what to do.
 */
export async function openTrackwatch(options: TrackwatchOptions, open: OpenOptions = {}): Promise<Trackwatch> {
  return new Trackwatch(options, await openDataFolder(options.dataDir, open));
}

// The whole product minus the window: one object the command line, the desktop app and the browser bridge share.
// One way to the data (README, "How it is built"): rows are read and written through the store's repositories,
// `tw.store.<repo>`; this facade holds only what needs more than the database: a connection to the services (the
// clients, sync and its plan at the connection's pace, adding maps that are looked up, players found by name, lists
// from sources, fetching a replay) or the data folder's files (a replay checked against its checksum, the export to
// a file). It has no wrapper of a plain store operation.
import { constants } from 'node:fs';
import { access, mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { databaseFile, exportsDir } from './paths.ts';
import packageJson from '../../package.json' with { type: 'json' };
import {
  createExchangeClient,
  createLiveClient,
  createNamesClient,
  createNadeoClient,
  isRealServiceHost,
  parseSourceLink,
  REAL_EXCHANGE_BASE_URL,
  REAL_LIVE_BASE_URL,
  DEFAULT_SERVICE_BUDGETS,
  ServiceLimiters,
  type ExchangeClient,
  type ListSource,
  type LiveClient,
  type NadeoClient,
  type NadeoClientOptions,
  type NamesClient,
  type RouteChoices,
} from './nadeo/index.ts';
import { expandExchangeLinks } from './map-links.ts';
import { resolvePlayerRefs, type ResolvedPlayerRefs } from './player-refs.ts';
import { parseMapRefs } from './refs.ts';
import { createListFromSource, refreshListSource, type ListFromSource, type SourceDeps } from './sources.ts';
import { syncPositions } from './sync/positions.ts';
import {
  LocalFaultCode, LocalFaultError, StoreError, StoreErrorCode, localFault, openStore, resolveInDataDir, type ReplayEntry, type Store,
} from './store/index.ts';
import { notFound } from './store/errors.ts';
import { matchesStored } from './store/files.ts';
import { exportCsv, exportFileName } from './export/csv.ts';
import { fetchReplayNow, runSync, type SyncOptions, type SyncSummary } from './sync/engine.ts';
import { planSync, type SyncPlan, type SyncPlanOptions } from './sync/plan.ts';

export const APP_VERSION: string = packageJson.version;

/** Where the route choice (seed or successor routes, per service URL) is kept in the data folder's settings. */
export const ROUTES_SETTING = 'nadeo.routes';

export interface TrackwatchOptions {
  dataDir: string;
  apiUrl: string;
  appVersion?: string;
  /** Who runs this copy, for the User-Agent; required by the real service. */
  contact?: string | undefined;
  maxRps?: number | undefined;
  credentials?: { login: string; password: string } | undefined;
  oauth?: { clientId: string; clientSecret: string; baseUrl?: string | undefined } | undefined;
  /**
   * The Live services (campaigns, Tracks of the Day, positions) and Trackmania Exchange; by default the real ones
   * beside the real Core service, else the emulator's (the Core URL, and the Core URL + '/tmx').
   */
  liveUrl?: string | undefined;
  exchangeUrl?: string | undefined;
  /** Finer client settings, for tests and benchmarks. */
  tuning?: Pick<NadeoClientOptions, 'retry' | 'burst' | 'concurrency' | 'timeoutMs' | 'maxUriLength' | 'onRequest'> | undefined;
}

export interface AddMapsOutcome {
  /** Refs added to the list (UIDs, else IDs). */
  added: string[];
  alreadyListed: string[];
  /** Refs the service does not know. */
  notFound: string[];
  /** Text that names no map, with the reason. */
  invalid: { input: string; reason: string }[];
}

/**
 * The clients of one configuration: Core, Live, Exchange and (with an OAuth app) names, with the same account and
 * contact and one budget per service (ServiceLimiters); made together, retired together, closed together.
 */
interface Connection {
  core: NadeoClient;
  live: LiveClient;
  exchange: ExchangeClient;
  names: NamesClient | undefined;
  close(): Promise<void>;
}

export class Trackwatch {
  readonly store: Store;
  readonly dataDir: string;
  #options: TrackwatchOptions;
  #connection: Connection | undefined;
  /** Connections a sync still runs on, with how many syncs: a reconfigure retires them, and they close when done. */
  readonly #inUse = new Map<Connection, number>();

  constructor(options: TrackwatchOptions, store: Store) {
    this.#options = options;
    this.dataDir = options.dataDir;
    this.store = store;
  }

  get options(): Readonly<TrackwatchOptions> {
    return this.#options;
  }

  /** Whether the configured service is Nadeo's real one (the strict citizen rules apply). */
  get isRealService(): boolean {
    return isRealServiceHost(new URL(this.#options.apiUrl).hostname);
  }

  /** The API client, made on first use so that reading the store never needs a network or a contact. */
  get client(): NadeoClient {
    return this.#connect().core;
  }

  /** The Live services' client (campaigns, Tracks of the Day, club campaigns, world positions), beside the Core one. */
  get live(): LiveClient {
    return this.#connect().live;
  }

  /** Trackmania Exchange's client (map numbers and packs to UIDs). */
  get exchange(): ExchangeClient {
    return this.#connect().exchange;
  }

  /** Players by display name; undefined without an OAuth app (the one display names use). */
  get names(): NamesClient | undefined {
    return this.#connect().names;
  }

  #connect(): Connection {
    if (this.#connection) return this.#connection;
    const o = this.#options;
    const appVersion = o.appVersion ?? APP_VERSION;
    // Two back to back at most (Nadeo staff: about 2/s in short bursts), so a pause while the sync writes to SQLite
    // is made up for instead of stretching the whole sync; the average stays at maxRps. Each service its own budget.
    const budget = { ...(o.maxRps !== undefined ? { maxRps: o.maxRps } : {}), burst: o.tuning?.burst ?? 2, ...(o.tuning?.concurrency ? { concurrency: o.tuning.concurrency } : {}) };
    const limiters = new ServiceLimiters({ core: budget, live: budget, oauth: budget, exchange: budget });
    const shared = { appVersion, contact: o.contact, retry: o.tuning?.retry, timeoutMs: o.tuning?.timeoutMs, onRequest: o.tuning?.onRequest };
    const made: Partial<Connection> = {};
    try {
      made.core = createNadeoClient({
        baseUrl: o.apiUrl,
        // Which routes (the seed's or their successors) answer, remembered in the data folder per service: a run does
        // not spend requests finding out again.
        routeChoice: this.#routeChoice(o.apiUrl),
        appVersion,
        contact: o.contact,
        credentials: o.credentials,
        maxRps: o.maxRps,
        oauth: o.oauth,
        burst: 2,
        ...o.tuning,
        limiters: limiters.for('core'),
      });
      made.live = createLiveClient({ ...shared, coreBaseUrl: o.apiUrl, liveBaseUrl: o.liveUrl, credentials: o.credentials, limiters: limiters.for('live') });
      made.exchange = createExchangeClient({ ...shared, baseUrl: o.exchangeUrl ?? (this.isRealService ? REAL_EXCHANGE_BASE_URL : `${o.apiUrl.replace(/\/+$/, '')}/tmx`), limiters: limiters.for('exchange') });
      made.names = o.oauth ? createNamesClient({ ...shared, baseUrl: o.oauth.baseUrl, clientId: o.oauth.clientId, clientSecret: o.oauth.clientSecret, limiters: limiters.for('oauth') }) : undefined;
    } catch (error) {
      void Promise.all([made.core?.close(), made.live?.close(), made.exchange?.close()]).finally(() => limiters.dispose());
      throw error;
    }
    const { core, live, exchange, names } = made as Connection;
    this.#connection = {
      core,
      live,
      exchange,
      names,
      async close() {
        await Promise.all([core.close(), live.close(), exchange.close(), names?.close()]);
        limiters.dispose();
      },
    };
    return this.#connection;
  }

  /** The saved route choice for this service, and how a change is saved (in the data folder's settings). */
  #routeChoice(baseUrl: string): NonNullable<NadeoClientOptions['routeChoice']> {
    const saved = this.store.settings.get(ROUTES_SETTING);
    const all = saved && typeof saved === 'object' && !Array.isArray(saved) ? saved : {};
    const mine = all[baseUrl];
    return {
      initial: mine && typeof mine === 'object' && !Array.isArray(mine) ? (mine as Partial<RouteChoices>) : undefined,
      onChange: (choice) => {
        const now = this.store.settings.get(ROUTES_SETTING);
        const others = now && typeof now === 'object' && !Array.isArray(now) ? now : {};
        this.store.settings.set(ROUTES_SETTING, { ...others, [baseUrl]: { ...choice } });
      },
    };
  }

  /**
   * Changes the connection settings; the next network call uses them. A sync under way finishes on the client it
   * started with, which closes when it is done.
   */
  async reconfigure(changes: Partial<Omit<TrackwatchOptions, 'dataDir'>>): Promise<void> {
    this.#options = { ...this.#options, ...changes };
    const old = this.#connection;
    this.#connection = undefined;
    if (old && !this.#inUse.has(old)) await old.close();
  }

  /**
   * Adds pasted map refs (UIDs, IDs, links) to a list. Trackmania Exchange map and pack links become UIDs through the
   * Exchange. New UIDs are looked up right away so the player learns at once which the service does not know; IDs
   * and UIDs the service cannot be asked about now stay pending for the next sync.
   */
  async addMaps(
    list: string,
    refs: string | string[],
    o: {
      signal?: AbortSignal | undefined;
      lookUp?: boolean;
      /** The list must not exist yet: it is made with its maps, in one transaction (a name taken is a conflict). */
      newList?: boolean;
      /** More writes that belong with these maps, in their transaction (a list's source with the maps it brought). */
      commit?: (outcome: AddMapsOutcome) => void;
    } = {},
  ): Promise<AddMapsOutcome> {
    const invalid: AddMapsOutcome['invalid'] = [];
    // Offline (no lookUp), an Exchange link stays what parseMapRefs makes of it: refused, with the reason.
    if (o.lookUp !== false && parseMapRefs(refs).some((r) => parseSourceLink(r.input) !== null)) {
      const expanded = await expandExchangeLinks(refs, this.exchange, o);
      invalid.push(...expanded.notFound, ...expanded.invalid);
      refs = expanded.refs;
    }
    const parsed = parseMapRefs(refs);
    invalid.push(...parsed.flatMap((r) => (r.kind === 'invalid' ? [{ input: r.input, reason: r.reason }] : [])));
    const uids = [...new Set(parsed.flatMap((r) => (r.kind === 'uid' ? [r.uid] : [])))];
    const ids = [...new Set(parsed.flatMap((r) => (r.kind === 'id' ? [r.id] : [])))];
    const notFound: string[] = [];
    let toAdd = [...uids.map((mapUid) => ({ mapUid })), ...ids.map((mapId) => ({ mapId }))];
    if (o.lookUp !== false && toAdd.length > 0) {
      const unknownUids = uids.filter((uid) => !this.store.maps.get(uid));
      const unknownIds = ids.filter((id) => !this.store.maps.get(id));
      const [byUid, byId] = await Promise.all([
        unknownUids.length > 0 ? this.client.getMapsByUid(unknownUids, o) : undefined,
        unknownIds.length > 0 ? this.client.getMapsById(unknownIds, o) : undefined,
      ]);
      const fetchedAt = new Date().toISOString();
      if (byUid) this.store.maps.upsert(byUid.maps, fetchedAt);
      if (byId) this.store.maps.upsert(byId.maps, fetchedAt);
      notFound.push(...(byUid?.notFound ?? []), ...(byId?.notFound ?? []), ...(byId?.invalid ?? []));
      // A map the service sent with values out of range is not added: the next sync would only refuse it again.
      const refused = [...(byUid?.rejected ?? []), ...(byId?.rejected ?? [])].map((r) => ({ input: r.mapUid ?? r.mapId ?? '', reason: `the service's answer for it is not usable: ${r.reason}` }));
      invalid.push(...refused);
      const missing = new Set([...notFound, ...refused.map((r) => r.input)]);
      toAdd = toAdd.filter((r) => !missing.has('mapUid' in r ? r.mapUid : r.mapId));
    }
    // Looked up first, written after in one transaction: a process killed on the way leaves nothing half made.
    return this.store.transaction(() => {
      if (o.newList) this.store.watchlists.create(list);
      else this.#ensureList(list);
      const result = this.store.maps.addRefs(list, toAdd);
      const outcome: AddMapsOutcome = {
        added: result.added,
        alreadyListed: result.alreadyListed,
        notFound,
        invalid: [...invalid, ...result.invalid.map((i) => ({ input: i.ref.mapUid ?? i.ref.mapId ?? '', reason: i.reason }))],
      };
      o.commit?.(outcome);
      return outcome;
    });
  }

  #ensureList(list: string): void {
    if (!this.store.watchlists.get(list)) this.store.watchlists.create(list);
  }

  /**
   * What a sync with these options will ask for and about how long it takes at the configured pace (no network):
   * the paces of #connect's budgets, Core's and Live's (the positions').
   */
  planSync(options: Omit<SyncPlanOptions, 'me' | 'maxRps' | 'liveMaxRps'> = {}): SyncPlan {
    const maxRps = this.#options.maxRps;
    return planSync(this.store, {
      ...options, me: this.store.settings.me(), maxRps: maxRps ?? DEFAULT_SERVICE_BUDGETS.core.maxRps, liveMaxRps: maxRps ?? DEFAULT_SERVICE_BUDGETS.live.maxRps,
    });
  }

  async sync(options: Omit<SyncOptions, 'displayNames' | 'me'> = {}): Promise<SyncSummary> {
    const connection = this.#take();
    const sources = this.#sourceDeps(connection);
    try {
      return await runSync(
        {
          store: this.store,
          client: connection.core,
          dataDir: this.dataDir,
          apiHost: new URL(this.#options.apiUrl).host,
          liveHost: new URL(this.#options.liveUrl ?? (this.isRealService ? REAL_LIVE_BASE_URL : this.#options.apiUrl)).host,
          refreshSource: (list, signal) => refreshListSource(sources, list, { signal }),
          syncPositions: (list, signal) => syncPositions({ store: this.store, live: connection.live }, { list, signal }),
        },
        { ...options, me: this.store.settings.me(), displayNames: this.#options.oauth !== undefined },
      );
    } finally {
      await this.#release(connection);
    }
  }

  /**
   * Makes a list from a source (`campaign:current`, `totd:2026-11`, `club:<club>/<campaign>`, `tmx-pack:<id>` or a
   * link): its maps looked up and added, the source remembered so that later syncs add what appears in it. Named
   * `name`, or after the source.
   */
  async createListFromSource(source: string | ListSource, o: { name?: string | undefined; signal?: AbortSignal | undefined } = {}): Promise<ListFromSource> {
    const connection = this.#take();
    try {
      return await createListFromSource(this.#sourceDeps(connection), { source, name: o.name }, { signal: o.signal });
    } finally {
      await this.#release(connection);
    }
  }

  /** Reads pasted players: account IDs, trackmania.io player links, display names (with an OAuth app). */
  async resolvePlayers(inputs: readonly string[], o: { signal?: AbortSignal | undefined } = {}): Promise<ResolvedPlayerRefs> {
    // Connected only to look names up: account IDs and links need no network (nor a contact).
    let connection: Connection | undefined;
    try {
      return await resolvePlayerRefs(inputs, () => (connection ??= this.#take()).names, o);
    } finally {
      if (connection) await this.#release(connection);
    }
  }

  #sourceDeps(connection: Connection): SourceDeps {
    return {
      store: this.store,
      clients: { live: connection.live, exchange: connection.exchange },
      addMaps: (list, uids, o) => this.addMaps(list, uids, o),
    };
  }

  /** The current connection, kept open until #release: a reconfigure meanwhile retires it instead of closing it. */
  #take(): Connection {
    const connection = this.#connect();
    this.#inUse.set(connection, (this.#inUse.get(connection) ?? 0) + 1);
    return connection;
  }

  /** A sync or download on `connection` ended: one retired by a reconfigure meanwhile closes with its last user. */
  async #release(connection: Connection): Promise<void> {
    const left = (this.#inUse.get(connection) ?? 1) - 1;
    if (left > 0) this.#inUse.set(connection, left);
    else {
      this.#inUse.delete(connection);
      if (connection !== this.#connection) await connection.close();
    }
  }

  /**
   * Downloads one record's replay now (on demand: a list whose replay policy is 'none'). `map` is a map ID or UID; a
   * record ID, when given, must be the player's current record there.
   */
  async fetchReplay(
    map: string,
    accountId: string,
    o: { mapRecordId?: string | undefined; signal?: AbortSignal } = {},
  ): Promise<{ entry: ReplayEntry; alreadyStored: boolean }> {
    const stored = this.store.maps.get(map);
    if (!stored) throw notFound(`no stored map ${JSON.stringify(map.slice(0, 80))}; add it to a list and sync first`);
    const connection = this.#take();
    try {
      return await fetchReplayNow(
        { store: this.store, client: connection.core, dataDir: this.dataDir, apiHost: new URL(this.#options.apiUrl).host },
        { mapId: stored.mapId, accountId: accountId.trim().toLowerCase(), mapRecordId: o.mapRecordId },
        o.signal,
      );
    } finally {
      await this.#release(connection);
    }
  }

  /**
   * A downloaded replay's file, checked against its size and SHA-256 before anyone copies or shows it. A file that
   * no longer matches is removed and forgotten (the next sync that wants it downloads it again), and refused.
   */
  async verifiedReplay(mapRecordId: string): Promise<{ file: string; entry: ReplayEntry }> {
    const entry = this.store.replays.get(mapRecordId);
    if (!entry || entry.state !== 'downloaded' || !entry.path) {
      throw notFound('this replay is not downloaded; a sync of its list (or "fetch replay") brings it');
    }
    const file = resolveInDataDir(this.dataDir, entry.path);
    if (!(await matchesStored(this.dataDir, entry.path, entry))) {
      await rm(file, { force: true });
      this.store.replays.markCorrupt(entry.mapRecordId, 'the file on disk no longer matched its checksum; it was removed');
      throw new StoreError(
        StoreErrorCode.CONFLICT,
        'this replay file was changed or damaged on disk (its checksum no longer matches); it was removed, and the next sync (or "fetch replay") downloads it again',
      );
    }
    return { file, entry };
  }

  /**
   * Writes the CSV export; `out` defaults to a dated file under the data folder's exports/. A file already at `out`
   * is replaced only with `force`; links, folders and devices are refused (core/export/csv.ts).
   */
  async exportCsv(
    out: string | undefined,
    o: { list?: string | undefined; bom?: boolean | undefined; force?: boolean | undefined; signal?: AbortSignal | undefined } = {},
  ): Promise<{ rows: number; file: string }> {
    const file = out ?? join(exportsDir(this.dataDir), exportFileName(o.list, new Date()));
    const result = await exportCsv(this.store, file, { list: o.list, bom: o.bom, force: o.force, signal: o.signal });
    return { rows: result.rows, file: result.file ?? file };
  }

  async close(): Promise<void> {
    await Promise.all([...new Set([...this.#inUse.keys(), ...(this.#connection ? [this.#connection] : [])])].map((c) => c.close()));
    this.#inUse.clear();
    this.#connection = undefined;
    this.store.close();
  }
}

export interface OpenOptions {
  /**
   * Only reading is intended: a data folder on read-only media (or whose database file cannot be written) is opened
   * as it is (reads work, a write says why) instead of refused. The folder must hold a database: read commands never
   * create one.
   */
  readOnly?: boolean;
}

/**
 * Opens the data folder (creating it, unless only reading) and its store. The network is not touched. A data folder
 * that cannot be used (a file, read-only media for a command that writes) is a LocalFaultError saying what to do.
 */
export async function openTrackwatch(options: TrackwatchOptions, open: OpenOptions = {}): Promise<Trackwatch> {
  const dir = options.dataDir;
  const found = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw localFault(error, dir) ?? error;
  });
  if (found && !found.isDirectory()) {
    throw new LocalFaultError(LocalFaultCode.DATA_FOLDER_UNUSABLE, 'ENOTDIR', `the data folder ${dir} is a file, not a folder; choose another with --data-dir (or TRACKWATCH_DATA_DIR).`);
  }
  const canWrite = (path: string): Promise<boolean> => access(path, constants.W_OK).then(() => true, (error: NodeJS.ErrnoException) => error.code === 'ENOENT');
  // Read-only media, or a database file that cannot be written in a folder that can (SQLite would open it read-only
  // without a word, and fail at the first write).
  const writable = found ? (await canWrite(dir)) && (await canWrite(databaseFile(dir))) : true;
  if (!writable && !open.readOnly) {
    throw new LocalFaultError(
      LocalFaultCode.READ_ONLY,
      'EACCES',
      `the data folder ${dir} cannot be written (read-only media, or not yours); reading works (compare, records, history, export csv --out elsewhere). To change anything, use a writable folder (--data-dir).`,
    );
  }
  try {
    if (!found) await mkdir(dir, { recursive: true });
    const store = openStore({ file: databaseFile(dir), dataDir: dir, readOnlyMedia: !writable });
    return new Trackwatch(options, store);
  } catch (error) {
    throw localFault(error, dir) ?? error;
  }
}

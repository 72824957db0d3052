// The clients' lifecycle: the clients of the current configuration (core/nadeo/clients.ts), made on first use so
// that reading the store never needs a network or a contact; a reconfigure retires them, and work still running on
// them (a sync, a download) keeps them open until it ends. Each connection has one hub of its clients' request events,
// from which a sync counts its own requests (core/sync/run-requests.ts).
import { DEFAULT_BURST } from '../../shared/rate-policy.ts';
import { isRealServiceHost, openClients, serviceUrls, type Clients, type NadeoClientOptions, type RouteChoices } from '../nadeo/index.ts';
import type { Store } from '../store/index.ts';
import { RequestEventHub } from '../sync/run-requests.ts';
import { APP_VERSION, type TrackwatchOptions } from './options.ts';

/** Where the route choice (seed or successor routes, per service URL) is kept in the data folder's settings. */
export const ROUTES_SETTING = 'nadeo.routes';

/** The saved route choice for one service URL, and how a change is saved (in the data folder's settings). */
function routeChoice(settings: Store['settings'], baseUrl: string): NonNullable<NadeoClientOptions['routeChoice']> {
  const saved = settings.get(ROUTES_SETTING);
  const all = saved && typeof saved === 'object' && !Array.isArray(saved) ? saved : {};
  const mine = all[baseUrl];
  return {
    initial: mine && typeof mine === 'object' && !Array.isArray(mine) ? (mine as Partial<RouteChoices>) : undefined,
    onChange: (choice) => {
      const now = settings.get(ROUTES_SETTING);
      const others = now && typeof now === 'object' && !Array.isArray(now) ? now : {};
      settings.set(ROUTES_SETTING, { ...others, [baseUrl]: { ...choice } });
    },
  };
}

export class ClientLifecycle {
  readonly #settings: Store['settings'];
  #options: TrackwatchOptions;
  #current: Clients | undefined;
  /** The request events of each connection's clients, every client's onRequest feeding its connection's hub. */
  readonly #hubs = new WeakMap<Clients, RequestEventHub>();
  /** Clients work still runs on, with how much work: a reconfigure retires them, and they close when it is done. */
  readonly #inUse = new Map<Clients, number>();

  constructor(options: TrackwatchOptions, settings: Store['settings']) {
    this.#options = options;
    this.#settings = settings;
  }

  get options(): Readonly<TrackwatchOptions> {
    return this.#options;
  }

  /** Whether the configured service is Nadeo's real one (the strict citizen rules apply). */
  get isRealService(): boolean {
    return isRealServiceHost(new URL(this.#options.apiUrl).hostname);
  }

  /** The hosts a sync reports its waits for: Core's, and Live's (the positions'). */
  get hosts(): { api: string; live: string } {
    const o = this.#options;
    return { api: new URL(o.apiUrl).host, live: new URL(serviceUrls(o.apiUrl, { liveUrl: o.liveUrl }).live).host };
  }

  /** The current configuration's clients, made on first use. */
  get current(): Clients {
    if (this.#current) return this.#current;
    const o = this.#options;
    const hub = new RequestEventHub();
    const onRequest = o.tuning?.onRequest;
    this.#current = openClients({
      apiUrl: o.apiUrl,
      liveUrl: o.liveUrl,
      exchangeUrl: o.exchangeUrl,
      appVersion: o.appVersion ?? APP_VERSION,
      contact: o.contact,
      credentials: o.credentials,
      oauth: o.oauth,
      // Which routes (the seed's or their successors) answer, remembered in the data folder per service: a run does
      // not spend requests finding out again.
      routeChoice: routeChoice(this.#settings, o.apiUrl),
      maxRps: o.maxRps,
      // A pause while the sync writes to SQLite is made up for instead of stretching the whole sync; the average stays
      // at maxRps. Each service its own budget.
      burst: o.tuning?.burst ?? DEFAULT_BURST,
      concurrency: o.tuning?.concurrency,
      retry: o.tuning?.retry,
      timeoutMs: o.tuning?.timeoutMs,
      deadlineMs: o.tuning?.deadlineMs,
      maxUriLength: o.tuning?.maxUriLength,
      onRequest: (e) => {
        hub.emit(e);
        onRequest?.(e);
      },
    });
    this.#hubs.set(this.#current, hub);
    return this.#current;
  }

  /** The request events of `clients`' connection (one hub per connection: a sync counts its own from them). */
  requestEvents(clients: Clients): RequestEventHub {
    const hub = this.#hubs.get(clients);
    if (!hub) throw new Error('these clients were not made by this lifecycle');
    return hub;
  }

  /**
   * Runs `work` on the current clients, kept open until it ends: a reconfigure meanwhile retires them instead of
   * closing them, and they close with their last user. Nothing connects until `work` calls `clients()`.
   */
  async use<T>(work: (clients: () => Clients) => Promise<T>): Promise<T> {
    let taken: Clients | undefined;
    const clients = (): Clients => (taken ??= this.#take());
    try {
      return await work(clients);
    } finally {
      if (taken) await this.#release(taken);
    }
  }

  #take(): Clients {
    const clients = this.current;
    this.#inUse.set(clients, (this.#inUse.get(clients) ?? 0) + 1);
    return clients;
  }

  async #release(clients: Clients): Promise<void> {
    const left = (this.#inUse.get(clients) ?? 1) - 1;
    if (left > 0) this.#inUse.set(clients, left);
    else {
      this.#inUse.delete(clients);
      if (clients !== this.#current) await clients.close();
    }
  }

  /**
   * Changes the connection settings; the next network call uses them. Work under way finishes on the clients it
   * started with, which close when it is done.
   */
  async reconfigure(changes: Partial<Omit<TrackwatchOptions, 'dataDir'>>): Promise<void> {
    this.#options = { ...this.#options, ...changes };
    const old = this.#current;
    this.#current = undefined;
    if (old && !this.#inUse.has(old)) await old.close();
  }

  async close(): Promise<void> {
    await Promise.all([...new Set([...this.#inUse.keys(), ...(this.#current ? [this.#current] : [])])].map((c) => c.close()));
    this.#inUse.clear();
    this.#current = undefined;
  }
}

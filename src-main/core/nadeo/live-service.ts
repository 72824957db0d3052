// The services beyond Core (Live, the OAuth names API, Trackmania Exchange) reuse the Core client's layers: the
// same Pipeline class (transport → auth → limiter → retry), User-Agent and error taxonomy. What differs is the
// budget: each service gets its own limiter pool, so a budget is keyed by SERVICE and not only by origin (in the
// emulator every service answers on one origin, and they must still not share a budget).
import { Agent, type Dispatcher } from 'undici';
import { checkPositive, checkRateOptions } from './client.ts';
import { AbortError } from './errors.ts';
import { armDeadline, Pipeline, type AuthKind, type RequestEvent, type TokenSource } from './http.ts';
import { LimiterPool, type LimiterClock, type LimiterPoolOptions } from './limiter.ts';
import { retryPolicy, sleep as defaultSleep, type RetryOptions } from './retry.ts';

export type ServiceName = 'core' | 'live' | 'oauth' | 'exchange';

/** Default budgets: Live at 1 request/s like Core (docs/nadeo-api.md "Being a good citizen"); the others as politely. */
export const DEFAULT_SERVICE_BUDGETS: Readonly<Record<ServiceName, Required<Omit<LimiterPoolOptions, 'clock'>>>> = {
  core: { maxRps: 1, burst: 1, concurrency: 4 },
  live: { maxRps: 1, burst: 1, concurrency: 4 },
  oauth: { maxRps: 1, burst: 1, concurrency: 2 },
  exchange: { maxRps: 1, burst: 1, concurrency: 2 },
};

/**
 * One limiter pool per service, made on first use. Hand `for('core')` to createNadeoClient's `limiters`, `for('live')`
 * to createLiveClient's, and so on: every client of one service then shares that service's budget, and no two
 * services share one, whatever their origins.
 */
export class ServiceLimiters {
  readonly #options: Partial<Record<ServiceName, Omit<LimiterPoolOptions, 'clock'>>>;
  readonly #clock: LimiterClock | undefined;
  readonly #pools = new Map<ServiceName, LimiterPool>();

  constructor(options: Partial<Record<ServiceName, Omit<LimiterPoolOptions, 'clock'>>> & { clock?: LimiterClock } = {}) {
    const { clock, ...budgets } = options;
    this.#options = budgets;
    this.#clock = clock;
    // Validate every given budget now, so a bad setting fails at construction.
    for (const name of Object.keys(budgets) as ServiceName[]) this.for(name);
  }

  for(service: ServiceName): LimiterPool {
    let pool = this.#pools.get(service);
    if (!pool) {
      pool = new LimiterPool({ ...DEFAULT_SERVICE_BUDGETS[service], ...this.#options[service], ...(this.#clock ? { clock: this.#clock } : {}) });
      this.#pools.set(service, pool);
    }
    return pool;
  }

  dispose(reason?: Error): void {
    for (const pool of this.#pools.values()) pool.dispose(reason);
  }
}

/** What every client of a service beyond Core takes; the meanings are those of NadeoClientOptions. */
export interface ServiceClientOptions {
  /** Trackwatch's version, for the User-Agent. */
  appVersion: string;
  /** Who runs this copy and how to reach them; required against the real services. */
  contact?: string | undefined;
  /** Requests per second to this service (default: DEFAULT_SERVICE_BUDGETS). Ignored when `limiters` is given. */
  maxRps?: number | undefined;
  burst?: number | undefined;
  concurrency?: number | undefined;
  retry?: RetryOptions | undefined;
  /** An undici Agent (or any Dispatcher) to share with other clients; default: one of the client's own. */
  dispatcher?: Dispatcher | undefined;
  /** This service's budget, shared with other clients of the same service (ServiceLimiters.for(service)). */
  limiters?: LimiterPool | undefined;
  /** Headers and idle-body timeout per attempt (default 30 s). */
  timeoutMs?: number | undefined;
  /** Deadline for a whole answer, headers and body, per attempt (default 60 s). */
  deadlineMs?: number | undefined;
  /** Called after every attempt; carries no tokens and no query strings. */
  onRequest?: ((e: RequestEvent) => void) | undefined;
  now?: (() => number) | undefined;
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
}

export interface ServiceConnection {
  pipeline: Pipeline;
  /** Filled by the client once its token sources exist (they need the pipeline). */
  tokens: Partial<Record<AuthKind, TokenSource>>;
  now: () => number;
  /** Aborts when the client closes. */
  lifetime: AbortSignal;
  /** Throws AbortError once closed. */
  ensureOpen(): void;
  close(): Promise<void>;
}

/** Builds the pipeline of one service's client: own limiter pool (unless shared), own lifetime, shared layers. */
export function openServiceConnection(
  service: ServiceName,
  options: ServiceClientOptions,
  setup: { userAgent: string; authOrigins: Partial<Record<AuthKind, string>> },
): ServiceConnection {
  checkPositive('timeoutMs', options.timeoutMs, false);
  checkPositive('deadlineMs', options.deadlineMs, false);
  checkRateOptions(options, false);
  const budget = DEFAULT_SERVICE_BUDGETS[service];
  const concurrency = options.concurrency ?? budget.concurrency;
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? new Agent({ connections: concurrency + 2, keepAliveTimeout: 10_000 });
  const ownsLimiters = options.limiters === undefined;
  const limiters = options.limiters ?? new LimiterPool({ maxRps: options.maxRps ?? budget.maxRps, burst: options.burst ?? budget.burst, concurrency });
  const lifetime = new AbortController();
  const now = options.now ?? Date.now;
  const tokens: Partial<Record<AuthKind, TokenSource>> = {};
  const pipeline = new Pipeline({
    dispatcher,
    limiters,
    retry: retryPolicy(options.retry),
    userAgent: setup.userAgent,
    timeoutMs: options.timeoutMs ?? 30_000,
    deadlineMs: options.deadlineMs ?? 60_000,
    now,
    armDeadline,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    lifetime: lifetime.signal,
    onRequest: options.onRequest,
    tokens,
    authOrigins: setup.authOrigins,
  });
  let closed = false;
  return {
    pipeline,
    tokens,
    now,
    lifetime: lifetime.signal,
    ensureOpen() {
      if (closed) throw new AbortError('The client was closed.');
    },
    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort(new AbortError('The client was closed.'));
      if (ownsLimiters) limiters.dispose();
      if (ownsDispatcher) await dispatcher.destroy();
    },
  };
}

// The one way a client is built: whatever the service (Nadeo's Core, Live, the OAuth API, or Trackmania Exchange),
// its requests go through one undici Agent, the limiter of its service, and the same pipeline (transport → auth →
// limiter → retry) with the same User-Agent. Budgets are keyed by SERVICE, not only by origin: in the emulator every
// service answers on one origin, and they must still not share a budget.
import { Agent, type Dispatcher } from 'undici';
import { DEFAULT_MAX_RPS, isAllowedRate, rateRangeWords } from '../../../shared/rate-policy.ts';
import { AbortError, ConfigError } from './errors.ts';
import { checkRange, LimiterPool, RATE_LIMITS, type LimiterClock, type LimiterPoolOptions } from './limiter.ts';
import { armDeadline as systemDeadline, Pipeline, type ArmDeadline, type AuthKind, type PipelineStats, type RequestEvent, type TokenSource } from './pipeline.ts';
import { retryPolicy, sleep as systemSleep, type RetryOptions } from './retry.ts';

export type ServiceName = 'core' | 'live' | 'oauth' | 'exchange';

type Budget = Required<Omit<LimiterPoolOptions, 'clock'>>;

/** Default budgets: every service at the rate policy's default (shared/rate-policy.ts), fewer in flight beyond Core and Live. */
export const DEFAULT_SERVICE_BUDGETS: Readonly<Record<ServiceName, Budget>> = {
  core: { maxRps: DEFAULT_MAX_RPS, burst: 1, concurrency: 4 },
  live: { maxRps: DEFAULT_MAX_RPS, burst: 1, concurrency: 4 },
  oauth: { maxRps: DEFAULT_MAX_RPS, burst: 1, concurrency: 2 },
  exchange: { maxRps: DEFAULT_MAX_RPS, burst: 1, concurrency: 2 },
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

/** What every client takes, whatever its service; each client's options add its own (base URL, login...). */
export interface ConnectionOptions {
  /** Trackwatch's version, for the User-Agent. */
  appVersion: string;
  /** Who runs this copy and how to reach them (e.g. `player: Name; contact: a@b.c`). Required against the real services. */
  contact?: string | undefined;
  /** Requests per second to this service (default 1): the rate policy's range (shared/rate-policy.ts), 0.01 to 2 against the real services. */
  maxRps?: number | undefined;
  /** Requests that may start back to back after a quiet spell (default 1; 1 to 64). */
  burst?: number | undefined;
  /** Requests in flight at once (default: DEFAULT_SERVICE_BUDGETS; 1 to 64). */
  concurrency?: number | undefined;
  /** Retries and the longest Retry-After waited out (`maxRetryAfterMs`, default 120 s; longer fails with RATE_LIMITED_LONG). */
  retry?: RetryOptions | undefined;
  /** An undici Agent (or any Dispatcher) shared with other clients. Default: one of the client's own, closed by close(). */
  dispatcher?: Dispatcher | undefined;
  /** This service's budget, shared with other clients of the same service (ServiceLimiters.for(service)); `maxRps`, `burst` and `concurrency` then go unused. */
  limiters?: LimiterPool | undefined;
  /** Headers and idle-body timeout per attempt (default 30 s). */
  timeoutMs?: number | undefined;
  /** The whole answer of an API call, headers and body, per attempt (default 60 s): a trickling body times out. */
  deadlineMs?: number | undefined;
  /** Called after every attempt. Carries no tokens and no query strings. */
  onRequest?: ((e: RequestEvent) => void) | undefined;
  /** Wall clock in ms (token expiry, Retry-After dates). */
  now?: (() => number) | undefined;
  /** Waits between retries. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** Arms each answer's deadline (default: the system's timers); tests expire it at a moment they choose. */
  armDeadline?: ArmDeadline | undefined;
  /** Jitter source, [0, 1). */
  random?: (() => number) | undefined;
}

/** What a client's endpoints talk through: its pipeline, its token sources, its clock, its lifetime. */
export interface Connection {
  readonly service: ServiceName;
  readonly pipeline: Pipeline;
  /** Filled by the client once its token sources exist (they need the pipeline). */
  readonly tokens: Partial<Record<AuthKind, TokenSource>>;
  readonly now: () => number;
  /** Aborts when the client closes. */
  readonly lifetime: AbortSignal;
  /** Throws AbortError once closed. */
  ensureOpen(): void;
  stats(): PipelineStats;
  close(): Promise<void>;
}

/** Refuses pacing settings outside their sane range (the rate policy's for maxRps) with a ConfigError naming the option and the range. */
export function checkRateOptions(o: { maxRps?: number | undefined; burst?: number | undefined; concurrency?: number | undefined }, real: boolean): void {
  if (o.maxRps !== undefined && !(typeof o.maxRps === 'number' && isAllowedRate(o.maxRps, real))) {
    throw new ConfigError(`maxRps must be a number ${rateRangeWords(real)}, got ${String(o.maxRps)}.`);
  }
  checkRange('burst', o.burst, RATE_LIMITS.burst, true);
  checkRange('concurrency', o.concurrency, RATE_LIMITS.concurrency, true);
}

/** Timeouts and deadlines: from 1 ms to an hour. */
export const TIME_LIMIT = { min: 1, max: 3_600_000 };

export function checkPositive(name: string, v: number | undefined, integer: boolean): void {
  if (v === undefined) return;
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v))) {
    throw new ConfigError(`${name} must be a positive ${integer ? 'whole ' : ''}number, got ${v}.`);
  }
}

/** `Trackwatch/<version> (<contact>)`; without a contact only a non-real host is allowed. */
export function buildUserAgent(appVersion: string, contact: string | undefined, real: boolean): string {
  if (!/^[0-9A-Za-z.+-]{1,40}$/.test(appVersion)) throw new ConfigError(`appVersion "${appVersion}" is not a version like 1.2.0.`);
  const c = contact?.trim();
  if (c) {
    // A header value: no control characters (they would split the header), nothing absurd.
    if ([...c].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) || c.length > 200) {
      throw new ConfigError('The contact must be one line of at most 200 characters, e.g. "player: Name; contact: you@example.com".');
    }
    return `Trackwatch/${appVersion} (${c.replace(/[()]/g, '')})`;
  }
  if (real) {
    throw new ConfigError(
      'A contact is required to use the real Nadeo service: set one (e.g. "player: YourName; contact: you@example.com") so Nadeo can reach whoever runs this copy.',
    );
  }
  return `Trackwatch/${appVersion} (emulator; no contact)`;
}

/**
 * Opens one client's connection to `service`: the options checked (a bad one is a ConfigError naming it), the
 * User-Agent built (a contact required when `real`), the Agent and the service's limiters made unless shared.
 */
export function openConnection(
  service: ServiceName,
  options: ConnectionOptions,
  setup: { real: boolean; authOrigins: Partial<Record<AuthKind, string>> },
): Connection {
  const userAgent = buildUserAgent(options.appVersion, options.contact, setup.real);
  checkRange('timeoutMs', options.timeoutMs, TIME_LIMIT, false);
  checkRange('deadlineMs', options.deadlineMs, TIME_LIMIT, false);
  checkRateOptions(options, setup.real);
  const retry = retryPolicy(options.retry);
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
    retry,
    userAgent,
    timeoutMs: options.timeoutMs ?? 30_000,
    deadlineMs: options.deadlineMs ?? 60_000,
    now,
    armDeadline: options.armDeadline ?? systemDeadline,
    sleep: options.sleep ?? systemSleep,
    random: options.random ?? Math.random,
    lifetime: lifetime.signal,
    onRequest: options.onRequest,
    tokens,
    authOrigins: setup.authOrigins,
  });
  let closed = false;
  return {
    service,
    pipeline,
    tokens,
    now,
    lifetime: lifetime.signal,
    ensureOpen() {
      if (closed) throw new AbortError('The client was closed.');
    },
    stats: () => pipeline.stats(),
    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort(new AbortError('The client was closed.'));
      if (ownsLimiters) limiters.dispose();
      if (ownsDispatcher) await dispatcher.destroy();
    },
  };
}

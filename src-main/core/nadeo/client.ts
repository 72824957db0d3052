// The API core's public face: endpoint functions over the pipeline (transport → auth → limiter → retry),
// with batching, successor routes and the seed's rules applied for the caller.
import { Agent, type Dispatcher } from 'undici';
import type { MapInfo, PlayerRecord, GameMode } from '../model.ts';
import { OAuthClientCredentials, NadeoAuth, type Credentials } from './auth.ts';
import { DEFAULT_MAX_URI_LENGTH } from './batching.ts';
import { DEFAULT_MAX_DOWNLOAD_BYTES, downloadFile, type DownloadOptions, type DownloadResult } from './download.ts';
import { checkMaps, checkRecords, type RejectedMap, type RejectedRecord } from './checks.ts';
import { AbortError, ConfigError, ErrorCode, HttpError, InputError } from './errors.ts';
import { armDeadline, jsonHandler, Pipeline, type ArmDeadline, type RequestEvent, type TokenSource } from './http.ts';
import { checkRange, LimiterPool, RATE_LIMITS } from './limiter.ts';
import { requestNames } from './names-batches.ts';
import { runLookup, UriLimits } from './lookup.ts';
import { retryPolicy, sleep as defaultSleep, type RetryOptions } from './retry.ts';
import { ROUTE_FAMILIES, ROUTES, RouteChoice, type RouteChoices, type RouteDef, type RouteFamily, type RouteVersion } from './routes.ts';
import { isSendableId, isUuid } from '../../shared/ids.ts';
import { gameModeFor, toMapInfo, toPlayerRecord, triageKeys } from './rules.ts';
import { DisplayNamesWire, MapInfoListWire, MapRecordListWire, parseBody, type MapInfoWire } from './schemas.ts';
import { throwIfAborted } from './signals.ts';

export const REAL_BASE_URL = 'https://prod.trackmania.core.nadeo.online';
export const REAL_OAUTH_BASE_URL = 'https://api.trackmania.com';

export interface NadeoClientOptions {
  /** The Core service's base URL: REAL_BASE_URL, or the emulator's. */
  baseUrl: string;
  /** Trackwatch's version, for the User-Agent. */
  appVersion: string;
  /** Who runs this copy and how to reach them (e.g. `player: Name; contact: a@b.c`). Required against the real service. */
  contact?: string | undefined;
  /** A Nadeo service account or a dedicated-server account. Without it no Authorization header is sent. */
  credentials?: Credentials | undefined;
  /** Requests per second per host (default 1): 0.01 to 50 against the real service, to 10,000 against others. */
  maxRps?: number | undefined;
  /** Requests that may start back to back after a quiet spell (default 1; 1 to 64). */
  burst?: number | undefined;
  /** Requests in flight per host (default 4; 1 to 64). */
  concurrency?: number | undefined;
  /** Retries and the longest Retry-After waited out (`maxRetryAfterMs`, default 120 s; longer fails with RATE_LIMITED_LONG). */
  retry?: RetryOptions | undefined;
  /** An undici Agent (or any Dispatcher). Default: one of the client's own, closed by close(). */
  dispatcher?: Dispatcher | undefined;
  /** Share one host budget between several clients; default: a pool of this client's own. */
  limiters?: LimiterPool | undefined;
  /** Longest request-target sent (default 8219: the service answers 414 at 8220). */
  maxUriLength?: number | undefined;
  /** Download size cap (default 32 MiB). */
  maxDownloadBytes?: number | undefined;
  /** Headers and idle-body timeout per attempt (default 30 s). */
  timeoutMs?: number | undefined;
  /** The whole answer of an API call, headers and body, per attempt (default 60 s): a trickling body times out. */
  deadlineMs?: number | undefined;
  /** The same for a download (default 300 s). */
  downloadDeadlineMs?: number | undefined;
  /** Trackmania OAuth app for display names (docs/nadeo-api.md "Player names"). */
  oauth?: { baseUrl?: string | undefined; clientId: string; clientSecret: string } | undefined;
  /** Start with the successor routes instead of the seed routes (for families `routeChoice.initial` does not name). */
  preferSuccessorRoutes?: boolean | undefined;
  /**
   * The route choice a product keeps between runs: `initial` is where each family starts (saved from an earlier
   * run), `onChange` hears every fallback with the whole choice, to save it. Keep it per base URL.
   */
  routeChoice?: { initial?: Partial<RouteChoices> | undefined; onChange?: ((choice: RouteChoices) => void) | undefined } | undefined;
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

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export interface NadeoClientStats {
  requests: number;
  retries: number;
  uriTooLong: number;
  byRoute: Record<string, number>;
}

export interface NadeoClient {
  /** `rejected`: maps the service sent with values out of range (issue 9 §4); neither kept nor "not found". */
  getMapsByUid(uids: readonly string[], o?: CallOptions): Promise<{ maps: MapInfo[]; notFound: string[]; rejected: RejectedMap[] }>;
  getMapsById(ids: readonly string[], o?: CallOptions): Promise<{ maps: MapInfo[]; notFound: string[]; invalid: string[]; rejected: RejectedMap[] }>;
  /** `rejected`: records the service sent that were left out, with the reason; the rest of the map is kept. */
  getRecords(
    map: Pick<MapInfo, 'mapId' | 'mapType' | 'hasClones'>,
    accountIds: readonly string[],
    o?: CallOptions & { seasonId?: string | undefined },
  ): Promise<{ records: PlayerRecord[]; invalidAccounts: string[]; rejected: RejectedRecord[] }>;
  download(url: string, destFile: string, o?: CallOptions & DownloadOptions): Promise<DownloadResult>;
  getDisplayNames(accountIds: readonly string[], o?: CallOptions): Promise<Map<string, string>>;
  testLogin(o?: CallOptions): Promise<void>;
  stats(): NadeoClientStats;
  close(): Promise<void>;
}

/** Hosts of the real service: they get the strict citizen rules (contact required). */
export function isRealServiceHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h.endsWith('.nadeo.online') || h.endsWith('.nadeo.live') || h === 'trackmania.com' || h.endsWith('.trackmania.com');
}

export function parseBase(raw: string, what: string): { origin: string; basePath: string; url: URL } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${what} "${raw}" is not a valid URL; use e.g. ${REAL_BASE_URL}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${what} must be an http(s) URL, got ${url.protocol}.`);
  if (url.username || url.password) throw new ConfigError(`${what} must not carry a user name or password; use the credentials option.`);
  if (url.search || url.hash) throw new ConfigError(`${what} must not have a query or fragment.`);
  if (isRealServiceHost(url.hostname) && url.protocol !== 'https:') throw new ConfigError(`${what}: the real service must be reached over https.`);
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), url };
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

/** Rates Nadeo's real service is never asked at (its staff put the ceiling near 2/s; docs/nadeo-api.md). */
export const REAL_SERVICE_MAX_RPS = 50;

/** Refuses pacing settings outside their sane range with a ConfigError naming the option and the range. */
export function checkRateOptions(o: { maxRps?: number | undefined; burst?: number | undefined; concurrency?: number | undefined }, real: boolean): void {
  checkRange('maxRps', o.maxRps, real ? { min: RATE_LIMITS.maxRps.min, max: REAL_SERVICE_MAX_RPS } : RATE_LIMITS.maxRps, false);
  checkRange('burst', o.burst, RATE_LIMITS.burst, true);
  checkRange('concurrency', o.concurrency, RATE_LIMITS.concurrency, true);
}

/** Timeouts and deadlines: from 1 ms to an hour. */
const TIME_LIMIT = { min: 1, max: 3_600_000 };

export function checkPositive(name: string, v: number | undefined, integer: boolean): void {
  if (v === undefined) return;
  if (!Number.isFinite(v) || v <= 0 || (integer && !Number.isInteger(v))) {
    throw new ConfigError(`${name} must be a positive ${integer ? 'whole ' : ''}number, got ${v}.`);
  }
}

const lower = (s: string) => s.toLowerCase();
const same = (s: string) => s;

export function createNadeoClient(options: NadeoClientOptions): NadeoClient {
  const api = parseBase(options.baseUrl, 'baseUrl');
  const oauthBase = options.oauth ? parseBase(options.oauth.baseUrl ?? REAL_OAUTH_BASE_URL, 'oauth.baseUrl') : undefined;
  const real = isRealServiceHost(api.url.hostname) || (oauthBase !== undefined && isRealServiceHost(oauthBase.url.hostname));
  const userAgent = buildUserAgent(options.appVersion, options.contact, real);
  checkPositive('maxUriLength', options.maxUriLength, true);
  checkPositive('maxDownloadBytes', options.maxDownloadBytes, true);
  checkRange('timeoutMs', options.timeoutMs, TIME_LIMIT, false);
  checkRange('deadlineMs', options.deadlineMs, TIME_LIMIT, false);
  checkRange('downloadDeadlineMs', options.downloadDeadlineMs, TIME_LIMIT, false);
  checkRateOptions(options, isRealServiceHost(api.url.hostname));
  const retry = retryPolicy(options.retry);
  if (options.credentials && (!options.credentials.login || !options.credentials.password)) {
    throw new ConfigError('credentials need both a login and a password (a Nadeo service account).');
  }
  if (options.oauth && (!options.oauth.clientId || !options.oauth.clientSecret)) {
    throw new ConfigError('oauth needs both clientId and clientSecret (an app registered on api.trackmania.com).');
  }

  const ownsDispatcher = options.dispatcher === undefined;
  const concurrency = options.concurrency ?? 4;
  const dispatcher = options.dispatcher ?? new Agent({ connections: concurrency + 2, keepAliveTimeout: 10_000 });
  const limiters = options.limiters ?? new LimiterPool({ maxRps: options.maxRps ?? 1, burst: options.burst ?? 1, concurrency });
  const lifetime = new AbortController();
  const now = options.now ?? Date.now;
  const maxUriLength = options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH;
  const maxDownloadBytes = options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  const downloadDeadlineMs = options.downloadDeadlineMs ?? 300_000;

  const tokens: { nadeo?: TokenSource; oauth?: TokenSource } = {};
  let nadeoAuth: NadeoAuth | undefined;
  const pipeline: Pipeline = new Pipeline({
    dispatcher,
    limiters,
    retry,
    userAgent,
    timeoutMs: options.timeoutMs ?? 30_000,
    deadlineMs: options.deadlineMs ?? 60_000,
    now,
    armDeadline: options.armDeadline ?? armDeadline,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    lifetime: lifetime.signal,
    onRequest: options.onRequest,
    tokens,
    authOrigins: { nadeo: api.origin, ...(oauthBase ? { oauth: oauthBase.origin } : {}) },
  });
  if (options.credentials) {
    nadeoAuth = new NadeoAuth({
      origin: api.origin,
      basePath: api.basePath,
      credentials: options.credentials,
      pipeline: () => pipeline,
      now,
      lifetime: lifetime.signal,
    });
    tokens.nadeo = nadeoAuth;
  }
  if (options.oauth && oauthBase) {
    tokens.oauth = new OAuthClientCredentials({
      origin: oauthBase.origin,
      basePath: oauthBase.basePath,
      clientId: options.oauth.clientId,
      clientSecret: options.oauth.clientSecret,
      pipeline: () => pipeline,
      now,
      lifetime: lifetime.signal,
    });
  }

  const prefer = options.preferSuccessorRoutes ?? false;
  const initial = options.routeChoice?.initial ?? {};
  // A saved choice is a cache: anything but the two known values is ignored, not an error.
  const startOf = (family: RouteFamily): RouteVersion => {
    const saved = initial[family];
    return saved === 'seed' || saved === 'successor' ? saved : prefer ? 'successor' : 'seed';
  };
  const onRouteChange = () => {
    const choice = Object.fromEntries(ROUTE_FAMILIES.map((f) => [f, routes[f].version()])) as RouteChoices;
    try {
      options.routeChoice?.onChange?.(choice);
    } catch {
      // Saving the choice is the product's business; its failure must not fail a lookup.
    }
  };
  const routes: Record<RouteFamily, RouteChoice> = {
    mapsByUid: new RouteChoice(ROUTES.mapsByUid, startOf('mapsByUid'), onRouteChange),
    mapsById: new RouteChoice(ROUTES.mapsById, startOf('mapsById'), onRouteChange),
    records: new RouteChoice(ROUTES.records, startOf('records'), onRouteChange),
  };
  const limits = new UriLimits(maxUriLength);
  let closed = false;

  const ensureOpen = () => {
    if (closed) throw new AbortError('The client was closed.');
  };

  const getJson = (route: RouteDef, target: string, signal: AbortSignal): Promise<unknown> => {
    const spec = { method: 'GET', route: route.label, target, detectGoneRoute: true, ownNotFoundCodes: route.ownNotFoundCodes } as const;
    return pipeline.request({
      method: 'GET',
      origin: api.origin,
      target,
      route: route.label,
      auth: 'nadeo',
      headers: { accept: 'application/json' },
      signal,
      detectGoneRoute: true,
      ownNotFoundCodes: route.ownNotFoundCodes,
      handle: jsonHandler(spec, now),
    });
  };

  const listTarget = (route: RouteDef, keys: readonly string[]) => `${api.basePath}${route.path}?${route.listParam}=${keys.join(',')}`;

  async function fetchMaps(
    family: 'mapsByUid' | 'mapsById',
    keys: string[],
    signal: AbortSignal | undefined,
    onInvalid: (k: string) => void,
  ): Promise<MapInfoWire[]> {
    return runLookup<MapInfoWire>({
      keys,
      routes: routes[family],
      limits,
      build: listTarget,
      signal,
      onInvalid,
      fetch: async (route, target, _keys, s) => parseBody(MapInfoListWire, await getJson(route, target, s), route.label, 'maps'),
    });
  }

  const client: NadeoClient = {
    async getMapsByUid(uids, o = {}) {
      ensureOpen();
      const t = triageKeys(uids, isSendableId, same);
      // A UID the service rejects outright is simply not found, like an unknown one (seed 4.1 rule 3).
      const wire = await fetchMaps('mapsByUid', t.keys, o.signal, () => {});
      const { kept, rejected } = checkMaps(wire, t.original, (w) => w.mapUid, 'mapUid');
      const refused = new Set(rejected.map((r) => r.mapUid));
      const found: MapInfo[] = [];
      const notFound: string[] = [...t.invalid];
      for (const key of t.keys) {
        const m = kept.get(key);
        if (m) found.push(toMapInfo(m));
        else if (!refused.has(t.original.get(key))) notFound.push(t.original.get(key)!);
      }
      return { maps: found, notFound, rejected };
    },

    async getMapsById(ids, o = {}) {
      ensureOpen();
      const t = triageKeys(ids, isUuid, lower);
      const rejected = new Set<string>();
      const wire = await fetchMaps('mapsById', t.keys, o.signal, (k) => rejected.add(k));
      const checked = checkMaps(wire, t.original, (w) => w.mapId.toLowerCase(), 'mapId');
      const refused = new Set(checked.rejected.map((r) => r.mapId));
      const found: MapInfo[] = [];
      const notFound: string[] = [];
      const invalid: string[] = [...t.invalid];
      for (const key of t.keys) {
        const m = checked.kept.get(key);
        if (m) found.push(toMapInfo(m));
        else if (rejected.has(key)) invalid.push(t.original.get(key)!);
        else if (!refused.has(t.original.get(key))) notFound.push(t.original.get(key)!);
      }
      return { maps: found, notFound, invalid, rejected: checked.rejected };
    },

    async getRecords(map, accountIds, o = {}) {
      ensureOpen();
      if (!isUuid(map.mapId)) {
        throw new InputError(`"${String(map.mapId).slice(0, 60)}" is not a map ID (a UUID). Records are read by map ID; look the UID up with getMapsByUid first.`);
      }
      const seasonId = o.seasonId;
      if (seasonId !== undefined) {
        if (seasonId.toLowerCase() === 'personal_best') {
          throw new InputError("seasonId 'Personal_Best' is not accepted by the service: omit seasonId to read personal bests.");
        }
        if (!isSendableId(seasonId)) throw new InputError(`"${seasonId.slice(0, 60)}" is not a season ID.`);
      }
      const gameMode: GameMode = gameModeFor(map, { seasonId });
      const mapId = map.mapId.toLowerCase();
      const t = triageKeys(accountIds, isUuid, lower);
      const rejected = new Set<string>();
      const build = (route: RouteDef, keys: readonly string[]) =>
        `${api.basePath}${route.path}?${route.listParam}=${keys.join(',')}&mapId=${mapId}${seasonId ? `&seasonId=${seasonId}` : ''}&gameMode=${gameMode}`;
      let wire;
      try {
        wire = await runLookup({
          keys: t.keys,
          routes: routes.records,
          limits,
          build,
          signal: o.signal,
          onInvalid: (k) => rejected.add(k),
          fetch: async (route, target, _keys, s) => parseBody(MapRecordListWire, await getJson(route, target, s), route.label, 'records'),
        });
      } catch (e) {
        if (e instanceof HttpError && e.code === ErrorCode.NOT_FOUND) {
          throw new HttpError(
            ErrorCode.NOT_FOUND,
            `${e.route}: map ${mapId} was not found with game mode ${gameMode} (${e.apiCode ?? e.status}). Check the map's type; it may have been deleted.`,
            { status: e.status, method: e.method, route: e.route, apiError: e.apiCode ? { code: e.apiCode, correlation_id: e.correlationId } : undefined, targetLength: e.targetLength },
            { cause: e },
          );
        }
        throw e;
      }
      const checked = checkRecords(wire, { mapId, accounts: t.original, seasonId });
      const byAccount = new Map<string, PlayerRecord>();
      for (const w of checked.kept) byAccount.set(w.accountId.toLowerCase(), toPlayerRecord(w));
      const records: PlayerRecord[] = [];
      const invalidAccounts: string[] = [...t.invalid];
      for (const key of t.keys) {
        const r = byAccount.get(key);
        if (r) records.push(r);
        else if (rejected.has(key)) invalidAccounts.push(t.original.get(key)!);
      }
      return { records, invalidAccounts, rejected: checked.rejected };
    },

    async download(url, destFile, o = {}) {
      ensureOpen();
      const maxBytes = o.maxBytes ?? maxDownloadBytes;
      checkPositive('maxBytes', maxBytes, true);
      return downloadFile({ pipeline, now }, url, destFile, { signal: o.signal, maxBytes, deadlineMs: downloadDeadlineMs, dataDir: o.dataDir });
    },

    async getDisplayNames(accountIds, o = {}) {
      ensureOpen();
      if (!oauthBase || !tokens.oauth) {
        throw new ConfigError('Display names need a Trackmania OAuth app: set oauth.clientId and oauth.clientSecret (register one on api.trackmania.com).');
      }
      const t = triageKeys(accountIds, isUuid, lower);
      const names = new Map<string, string>();
      await requestNames(
        { pipeline, now, base: oauthBase, path: '/api/display-names', param: 'accountId', keys: t.keys, maxUriLength, signal: o.signal },
        (body, route) => {
          for (const [id, name] of Object.entries(parseBody(DisplayNamesWire, body, route, 'names'))) {
            const original = t.original.get(id.toLowerCase());
            if (original !== undefined) names.set(original, name);
          }
        },
      );
      return names;
    },

    async testLogin(o = {}) {
      ensureOpen();
      const signal = o.signal ?? new AbortController().signal;
      throwIfAborted(signal);
      if (nadeoAuth) {
        await nadeoAuth.login(signal);
        return;
      }
      // No credentials: check the service answers at all, with the cheapest lookup there is.
      try {
        const route = routes.mapsByUid.current();
        await getJson(route, listTarget(route, ['TrackwatchReachabilityCheck']), signal);
      } catch (e) {
        // Any final HTTP answer proves the service is reachable; a 401 arrives here as an AuthError.
        if (e instanceof HttpError && !e.retryable) return;
        throw e;
      }
    },

    stats() {
      return pipeline.stats();
    },

    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort(new AbortError('The client was closed.'));
      if (!options.limiters) limiters.dispose();
      if (ownsDispatcher) await dispatcher.destroy();
    },
  };
  return client;
}

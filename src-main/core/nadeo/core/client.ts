// The Core service's client (the seed's endpoints, docs/nadeo-api.md "The real service"): its options, and the
// endpoint functions (maps.ts, records.ts, the OAuth API's display names) bound to one connection.
import type { MapInfo, PlayerRecord } from '../../model.ts';
import { parseNadeoBase, REAL_OAUTH_BASE_URL } from '../hosts.ts';
import { DEFAULT_MAX_URI_LENGTH } from '../http/batching.ts';
import { checkPositive, openConnection, TIME_LIMIT, type ConnectionOptions } from '../http/connection.ts';
import { DEFAULT_MAX_DOWNLOAD_BYTES, downloadFile, type DownloadOptions, type DownloadResult } from '../http/download.ts';
import { ConfigError, HttpError } from '../http/errors.ts';
import { checkRange } from '../http/limiter.ts';
import { UriLimits } from '../http/lookup.ts';
import { RouteChoice, type RouteVersion } from '../http/route-choice.ts';
import { throwIfAborted } from '../http/signals.ts';
import { getDisplayNames } from '../oauth/display-names.ts';
import { OAuthClientCredentials } from '../oauth/token.ts';
import { NadeoAuth, type Credentials } from './auth.ts';
import type { RejectedMap, RejectedRecord } from './checks.ts';
import { getJson, listTarget, type CoreContext } from './context.ts';
import { getMapsById, getMapsByUid } from './maps.ts';
import { getRecords, recordRequestCount } from './records.ts';
import { ROUTE_FAMILIES, ROUTES, type RouteChoices, type RouteFamily } from './routes.ts';

export interface NadeoClientOptions extends ConnectionOptions {
  /** The Core service's base URL: REAL_BASE_URL, or the emulator's. */
  baseUrl: string;
  /** A Nadeo service account or a dedicated-server account. Without it no Authorization header is sent. */
  credentials?: Credentials | undefined;
  /** Longest request-target sent (default 8219: the service answers 414 at 8220). */
  maxUriLength?: number | undefined;
  /** Download size cap (default 32 MiB). */
  maxDownloadBytes?: number | undefined;
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
  /** How many requests getRecords would send for these accounts on this map now; sends nothing. */
  recordRequests?(map: Pick<MapInfo, 'mapId' | 'mapType' | 'hasClones'>, accountIds: readonly string[], o?: { seasonId?: string | undefined }): number;
  download(url: string, destFile: string, o?: CallOptions & DownloadOptions): Promise<DownloadResult>;
  getDisplayNames(accountIds: readonly string[], o?: CallOptions): Promise<Map<string, string>>;
  testLogin(o?: CallOptions): Promise<void>;
  /**
   * Who the records are read as: the account of the Core token (a login's `sub`), null without credentials (nobody's
   * records are spared the secret threshold), undefined while not known (no login yet, or no account in the token).
   */
  viewer(): string | null | undefined;
  stats(): NadeoClientStats;
  close(): Promise<void>;
}

/** Each family's route, starting where the saved choice (else the preference) says; a fallback is reported whole. */
function routeChoices(options: NadeoClientOptions): Record<RouteFamily, RouteChoice> {
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
  return routes;
}

/** The login, or without credentials the cheapest lookup there is: any final HTTP answer proves the service is there. */
async function testLogin(ctx: CoreContext, o: CallOptions): Promise<void> {
  ctx.conn.ensureOpen();
  const signal = o.signal ?? new AbortController().signal;
  throwIfAborted(signal);
  if (ctx.auth) {
    await ctx.auth.login(signal);
    return;
  }
  try {
    const route = ctx.routes.mapsByUid.current();
    await getJson(ctx, route, listTarget(ctx, route, ['TrackwatchReachabilityCheck']), signal);
  } catch (e) {
    // A 401 arrives here as an AuthError.
    if (e instanceof HttpError && !e.retryable) return;
    throw e;
  }
}

export function createNadeoClient(options: NadeoClientOptions): NadeoClient {
  const api = parseNadeoBase(options.baseUrl, 'baseUrl');
  // Beside an emulator the names API is the emulator's too: the OAuth app's secret never goes to the real host.
  const oauthBase = options.oauth ? parseNadeoBase(options.oauth.baseUrl ?? (api.real ? REAL_OAUTH_BASE_URL : options.baseUrl), 'oauth.baseUrl') : undefined;
  if (oauthBase && oauthBase.real !== api.real) {
    throw new ConfigError('baseUrl and oauth.baseUrl must both be the real services or both an emulator: an emulator setup never sends its OAuth app to the real host.');
  }
  checkPositive('maxUriLength', options.maxUriLength, true);
  checkPositive('maxDownloadBytes', options.maxDownloadBytes, true);
  checkRange('downloadDeadlineMs', options.downloadDeadlineMs, TIME_LIMIT, false);
  if (options.credentials && (!options.credentials.login || !options.credentials.password)) {
    throw new ConfigError('credentials need both a login and a password (a Nadeo service account).');
  }
  if (options.oauth && (!options.oauth.clientId || !options.oauth.clientSecret)) {
    throw new ConfigError('oauth needs both clientId and clientSecret (an app registered on api.trackmania.com).');
  }
  const conn = openConnection('core', options, {
    real: api.real || oauthBase?.real === true,
    authOrigins: { nadeo: api.origin, ...(oauthBase ? { oauth: oauthBase.origin } : {}) },
  });
  const { pipeline, now } = conn;
  const auth = options.credentials
    ? new NadeoAuth({ origin: api.origin, basePath: api.basePath, credentials: options.credentials, pipeline: () => pipeline, now, lifetime: conn.lifetime })
    : undefined;
  if (auth) conn.tokens.nadeo = auth;
  if (options.oauth && oauthBase) {
    const { clientId, clientSecret } = options.oauth;
    conn.tokens.oauth = new OAuthClientCredentials({ origin: oauthBase.origin, basePath: oauthBase.basePath, clientId, clientSecret, pipeline: () => pipeline, now, lifetime: conn.lifetime });
  }
  const maxUriLength = options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH;
  const ctx: CoreContext = { conn, api, routes: routeChoices(options), limits: new UriLimits(maxUriLength), auth };
  const names = { conn, base: oauthBase, maxUriLength };
  const maxDownloadBytes = options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  const downloadDeadlineMs = options.downloadDeadlineMs ?? 300_000;

  return {
    getMapsByUid: (uids, o) => getMapsByUid(ctx, uids, o),
    getMapsById: (ids, o) => getMapsById(ctx, ids, o),
    getRecords: (map, accountIds, o) => getRecords(ctx, map, accountIds, o),
    recordRequests: (map, accountIds, o) => recordRequestCount(ctx, map, accountIds, o),
    async download(url, destFile, o = {}) {
      conn.ensureOpen();
      const maxBytes = o.maxBytes ?? maxDownloadBytes;
      checkPositive('maxBytes', maxBytes, true);
      return downloadFile({ pipeline, now }, url, destFile, { signal: o.signal, maxBytes, deadlineMs: downloadDeadlineMs, dataDir: o.dataDir });
    },
    getDisplayNames: (accountIds, o) => getDisplayNames(names, accountIds, o),
    testLogin: (o = {}) => testLogin(ctx, o),
    viewer: () => (auth ? auth.account() : null),
    stats: () => conn.stats(),
    close: () => conn.close(),
  };
}

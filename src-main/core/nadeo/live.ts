// The Live services client (docs/nadeo-api.md "Beyond the seed"; route shapes from openplanet-nl/nadeoapi-docs docs/live/):
// seasonal campaigns, Track of the Day months, club campaigns, world positions by score and the top of a
// leaderboard. Same layers as the Core client (pipeline, limiter, retry, errors); its own token (audience
// NadeoLiveServices, from the same login) and its own budget.
import type { Credentials } from './auth.ts';
import { NadeoAuth } from './auth.ts';
import { DEFAULT_MAX_URI_LENGTH, halve } from './batching.ts';
import { buildUserAgent, checkPositive, isRealServiceHost, parseBase } from './client.ts';
import { ConfigError, ErrorCode, HttpError, InputError, NadeoError } from './errors.ts';
import { httpErrorFor, readBody, readJson, type ErrorSpec, type RawResponse, type TokenSource } from './http.ts';
import { UriLimits } from './lookup.ts';
import {
  MAX_MAPS_PER_POSITION_REQUEST,
  packPositionQueries,
  PERSONAL_BEST_GROUP,
  positionQueryString,
  WORLD_ZONE_ID,
  type PositionQuery,
} from './live-positions.ts';
import {
  CampaignListWire,
  ClubCampaignWire,
  LeaderboardTopWire,
  LiveErrorWire,
  PositionListWire,
  TotdPageWire,
  type CampaignWire,
} from './live-schemas.ts';
import { openServiceConnection, type ServiceClientOptions } from './live-service.ts';
import { parseRetryAfter } from './retry.ts';
import { RouteChoice, type RouteDef } from './routes.ts';
import { isSendableId } from '../../shared/ids.ts';
import { parseBody } from './schemas.ts';
import { linkSignals } from './signals.ts';

export const REAL_LIVE_BASE_URL = 'https://live-services.trackmania.nadeo.live';

export interface LiveClientOptions extends ServiceClientOptions {
  /** The Core service's base URL, where the login happens (REAL_BASE_URL, or the emulator's `url`). */
  coreBaseUrl: string;
  /**
   * The Live service's base URL. Default: REAL_LIVE_BASE_URL when coreBaseUrl is the real service, else coreBaseUrl
   * itself (the emulator serves Live on its own origin: its `liveUrl`).
   */
  liveBaseUrl?: string | undefined;
  /** The same Nadeo service account as the Core client's; without it no Authorization header is sent. */
  credentials?: Credentials | undefined;
  /** Longest request-target sent (default 8219). */
  maxUriLength?: number | undefined;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

/** A campaign's maps in playlist order, and when it runs. */
export interface Campaign {
  id: number;
  name: string;
  seasonUid: string;
  /** 0 for official campaigns. */
  clubId: number;
  /** ISO 8601. */
  startsAt: string;
  /** ISO 8601; null when the campaign never ends (club campaigns answer 0). */
  endsAt: string | null;
  mapUids: string[];
}

export interface CampaignPage {
  campaigns: Campaign[];
  /** How many campaigns exist in all (offsets run from 0 to itemCount - 1). */
  itemCount: number;
}

export interface ClubCampaign extends Campaign {
  clubName: string;
  activityId: number;
}

export interface TrackOfTheDay {
  monthDay: number;
  /** Null for a day not yet played. */
  mapUid: string | null;
  campaignId: number;
  /** ISO 8601. */
  startsAt: string;
  endsAt: string;
}

export interface TrackOfTheDayMonth {
  year: number;
  /** 1 to 12. */
  month: number;
  lastDay: number;
  days: TrackOfTheDay[];
}

export interface TrackOfTheDayPage {
  months: TrackOfTheDayMonth[];
  itemCount: number;
  /** When the next Track of the Day is due (ISO 8601); null when none is scheduled yet (the service's -1). */
  nextAt: string | null;
}

export interface ZonePosition {
  zoneId: string;
  zoneName: string;
  position: number;
}

/** One answer per question, in the order asked. `asOf` is when it was asked: the service can lag hours behind. */
export type PositionResult =
  | { state: 'ranked'; mapUid: string; score: number; position: number; zones: ZonePosition[]; asOf: string }
  /**
   * The logged-in account holds a record on this map worse than `score`, and the service gives no position better
   * than an asker's own record: it answered for `ownScore` instead. Use an account without records for positions.
   */
  | { state: 'limitedByOwnRecord'; mapUid: string; score: number; ownScore: number; asOf: string }
  /** The service left the map out: unknown map, or a closed leaderboard. */
  | { state: 'unavailable'; mapUid: string; score: number; asOf: string }
  /** Not asked: the question itself was malformed. */
  | { state: 'invalid'; mapUid: string; score: number; reason: string };

export interface WorldRecord {
  mapUid: string;
  accountId: string;
  /** Null when a secret threshold hides it (the service's -1). */
  score: number | null;
  position: number;
  /** ISO 8601, when the record was set (when the service says). */
  setAt: string | null;
}

export interface LiveClientStats {
  requests: number;
  retries: number;
  uriTooLong: number;
  byRoute: Record<string, number>;
}

export interface LiveClient {
  /** Official seasonal campaigns, newest first: offset 0 is the current one. */
  getSeasonalCampaigns(o?: CallOptions & { offset?: number | undefined; length?: number | undefined }): Promise<CampaignPage>;
  /** Track of the Day months, newest first: offset 0 is the current month. */
  getTrackOfTheDayMonths(o?: CallOptions & { offset?: number | undefined; length?: number | undefined }): Promise<TrackOfTheDayPage>;
  /** Throws HttpError NOT_FOUND for an unknown club or campaign, FORBIDDEN for one only the club's members may see. */
  getClubCampaign(clubId: number, campaignId: number, o?: CallOptions): Promise<ClubCampaign>;
  /**
   * The world position (and the zones the service adds) a record of each score would have: one result per
   * question, same order. Distinct (map, score) questions are packed into the fewest requests (50 maps a request,
   * one score per map); repeated questions are asked once.
   */
  getPositions(queries: readonly PositionQuery[], o?: CallOptions & { groupUid?: string | undefined }): Promise<PositionResult[]>;
  /** The map's world record on the personal-best leaderboard; null when the leaderboard is empty. */
  getWorldRecord(mapUid: string, o?: CallOptions): Promise<WorldRecord | null>;
  /** Logs in for the Live audience; throws AuthError on a wrong login. Without credentials, does nothing. */
  testLogin(o?: CallOptions): Promise<void>;
  stats(): LiveClientStats;
  close(): Promise<void>;
}

const LIVE_ROUTES = {
  campaigns: [
    { path: '/api/campaign/official', listParam: '', label: 'GET /api/campaign/official', ownNotFoundCodes: [] },
    // The deprecated route answers the same list with more fields (docs/live/campaigns/campaigns.md).
    { path: '/api/token/campaign/official', listParam: '', label: 'GET /api/token/campaign/official', ownNotFoundCodes: [] },
  ],
  months: [{ path: '/api/token/campaign/month', listParam: '', label: 'GET /api/token/campaign/month', ownNotFoundCodes: [] }],
} as const satisfies Record<string, readonly RouteDef[]>;

const CLUB_CAMPAIGN_ROUTE = 'GET /api/token/club/:clubId/campaign/:campaignId';
const POSITIONS_ROUTE = 'POST /api/token/leaderboard/group/map';
const TOP_ROUTE = 'GET /api/token/leaderboard/group/:groupUid/map/:mapUid/top';

/** The Live error code of an error body (`["activity:error-notFound"]`), if it is one. */
function liveErrorCode(bodyText: string): string | undefined {
  try {
    const parsed = LiveErrorWire.safeParse(JSON.parse(bodyText));
    return parsed.success ? parsed.data[0] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a Live answer: the JSON body on 2xx; otherwise the error of the shared taxonomy, where Live's own error
 * arrays prove the route alive and a 404/410 with neither Live's nor Core's error body means the route is gone.
 */
function liveHandler(spec: ErrorSpec, now: () => number): (res: RawResponse) => Promise<unknown> {
  return async (res) => {
    if (res.status >= 200 && res.status < 300) return readJson(res, spec.route);
    let text = '';
    try {
      text = (await readBody(res, spec.route, 64 * 1024)).toString('utf8');
    } catch (e) {
      if (!(e instanceof NadeoError)) throw e;
    }
    const base = httpErrorFor({ ...spec, detectGoneRoute: false }, res.status, text, parseRetryAfter(res.headers['retry-after'], now()));
    const code = liveErrorCode(text);
    const details = { status: base.status, method: base.method, route: base.route, targetLength: base.targetLength, ...(base.retryAfterMs !== undefined ? { retryAfterMs: base.retryAfterMs } : {}) };
    if (code !== undefined) {
      throw new HttpError(base.code, `${spec.route} answered HTTP ${res.status} (${code}).`, { ...details, apiError: { code } }, { retryable: base.retryable });
    }
    if ((res.status === 404 || res.status === 410) && base.apiCode === undefined && spec.detectGoneRoute) {
      throw new HttpError(ErrorCode.ROUTE_GONE, `${spec.route} answered HTTP ${res.status} without a Live error: the service no longer has this route. Update Trackwatch.`, details);
    }
    throw base;
  };
}

function isoFromSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}

function toCampaign(w: CampaignWire): Campaign {
  return {
    id: w.id,
    name: w.name,
    seasonUid: w.seasonUid,
    clubId: w.clubId ?? 0,
    startsAt: isoFromSeconds(w.startTimestamp),
    endsAt: w.endTimestamp > 0 ? isoFromSeconds(w.endTimestamp) : null,
    mapUids: [...w.playlist].sort((a, b) => a.position - b.position).map((p) => p.mapUid),
  };
}

function checkPage(o: { offset?: number | undefined; length?: number | undefined }): { offset: number; length: number } {
  const offset = o.offset ?? 0;
  const length = o.length ?? 1;
  if (!Number.isSafeInteger(offset) || offset < 0) throw new InputError(`offset must be a whole number of at least 0, got ${offset}.`);
  if (!Number.isSafeInteger(length) || length < 1 || length > 100) throw new InputError(`length must be a whole number from 1 to 100, got ${length}.`);
  return { offset, length };
}

/** Why a position question cannot be asked, or undefined when it can. */
function positionQueryProblem(q: PositionQuery): string | undefined {
  if (typeof q.mapUid !== 'string' || !isSendableId(q.mapUid)) return `"${String(q.mapUid).slice(0, 40)}" is not a map UID`;
  if (!Number.isSafeInteger(q.score) || q.score < 0 || q.score >= 4294967295) {
    return `${String(q.score)} is not a score to ask about (a time in milliseconds or Stunt points, 0 or more; a hidden time has no position)`;
  }
  return undefined;
}

export function createLiveClient(options: LiveClientOptions): LiveClient {
  const core = parseBase(options.coreBaseUrl, 'coreBaseUrl');
  const coreIsReal = isRealServiceHost(core.url.hostname);
  const live = parseBase(options.liveBaseUrl ?? (coreIsReal ? REAL_LIVE_BASE_URL : options.coreBaseUrl), 'liveBaseUrl');
  const real = coreIsReal || isRealServiceHost(live.url.hostname);
  if (coreIsReal !== isRealServiceHost(live.url.hostname)) {
    throw new ConfigError('coreBaseUrl and liveBaseUrl must both be the real service or both an emulator: a login on one does not open the other.');
  }
  checkPositive('maxUriLength', options.maxUriLength, true);
  if (options.credentials && (!options.credentials.login || !options.credentials.password)) {
    throw new ConfigError('credentials need both a login and a password (a Nadeo service account).');
  }
  const userAgent = buildUserAgent(options.appVersion, options.contact, real);
  const conn = openServiceConnection('live', options, { userAgent, authOrigins: { nadeo: live.origin } });
  const { pipeline, now } = conn;
  let auth: NadeoAuth | undefined;
  if (options.credentials) {
    // The login and refresh go to the Core host, with the Live audience (docs/nadeo-api.md "Beyond the seed").
    auth = new NadeoAuth({
      origin: core.origin,
      basePath: core.basePath,
      credentials: options.credentials,
      audience: 'NadeoLiveServices',
      pipeline: () => pipeline,
      now,
      lifetime: conn.lifetime,
    });
    const source = auth;
    // The Live token goes to the Live origin only.
    const liveToken: TokenSource = {
      origin: live.origin,
      authorization: (signal) => source.authorization(signal),
      renewAfterRejection: (token, signal) => source.renewAfterRejection(token, signal),
    };
    conn.tokens.nadeo = liveToken;
  }
  const limits = new UriLimits(options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH);
  const campaignsRoute = new RouteChoice(LIVE_ROUTES.campaigns);
  const monthsRoute = new RouteChoice(LIVE_ROUTES.months);

  const request = (method: 'GET' | 'POST', route: string, target: string, signal: AbortSignal | undefined, extra: { body?: string; detectGoneRoute?: boolean } = {}) =>
    pipeline.request({
      method,
      origin: live.origin,
      target,
      route,
      auth: 'nadeo',
      headers: extra.body !== undefined ? { accept: 'application/json', 'content-type': 'application/json' } : { accept: 'application/json' },
      ...(extra.body !== undefined ? { body: extra.body } : {}),
      signal,
      handle: liveHandler({ method, route, target, detectGoneRoute: extra.detectGoneRoute ?? true }, now),
    });

  /** A GET on a route family with a successor: a gone route moves to the next for the client's lifetime. */
  const getWithFallback = async (choice: RouteChoice, query: string, signal: AbortSignal | undefined): Promise<{ body: unknown; route: string }> => {
    for (;;) {
      const route = choice.current();
      try {
        return { body: await request('GET', route.label, `${live.basePath}${route.path}?${query}`, signal), route: route.label };
      } catch (e) {
        if (e instanceof HttpError && e.code === ErrorCode.ROUTE_GONE) {
          choice.markGone(route, e);
          continue;
        }
        throw e;
      }
    }
  };

  async function askPositions(
    batch: PositionQuery[],
    group: string,
    signal: AbortSignal,
    answers: Map<PositionQuery, PositionResult>,
  ): Promise<void> {
    const fixed = `${live.basePath}/api/token/leaderboard/group/map?`;
    const target = fixed + positionQueryString(batch);
    const asOf = new Date(now()).toISOString();
    const body = JSON.stringify({ maps: batch.map((q) => ({ mapUid: q.mapUid, groupUid: group })) });
    let wire;
    try {
      wire = parseBody(PositionListWire, await request('POST', POSITIONS_ROUTE, target, signal, { body }), POSITIONS_ROUTE, 'positions');
    } catch (e) {
      // A stricter proxy: remember its limit and split the batch (each half still asks one score per map).
      if (e instanceof HttpError && e.code === ErrorCode.URI_TOO_LONG && batch.length > 1) {
        const halves = halve(batch);
        limits.lower(POSITIONS_ROUTE, Math.max(...halves.map((h) => fixed.length + positionQueryString(h).length)));
        await Promise.all(halves.map((h) => askPositions(h, group, signal, answers)));
        return;
      }
      throw e;
    }
    const byMap = new Map(wire.map((entry) => [entry.mapUid, entry]));
    for (const q of batch) {
      const entry = byMap.get(q.mapUid);
      if (!entry) {
        answers.set(q, { state: 'unavailable', mapUid: q.mapUid, score: q.score, asOf });
        continue;
      }
      if (entry.score !== q.score) {
        answers.set(q, { state: 'limitedByOwnRecord', mapUid: q.mapUid, score: q.score, ownScore: entry.score, asOf });
        continue;
      }
      // World first, then the zones the service gives, in its order.
      const zones = entry.zones.map((z) => ({ zoneId: z.zoneId, zoneName: z.zoneName, position: z.ranking.position }));
      const worldAt = zones.findIndex((z) => z.zoneId === WORLD_ZONE_ID || z.zoneName === 'World');
      if (worldAt > 0) zones.unshift(...zones.splice(worldAt, 1));
      const world = zones[0];
      if (!world) {
        answers.set(q, { state: 'unavailable', mapUid: q.mapUid, score: q.score, asOf });
        continue;
      }
      answers.set(q, { state: 'ranked', mapUid: q.mapUid, score: q.score, position: world.position, zones, asOf });
    }
  }

  const client: LiveClient = {
    async getSeasonalCampaigns(o = {}) {
      conn.ensureOpen();
      const { offset, length } = checkPage(o);
      const { body, route } = await getWithFallback(campaignsRoute, `offset=${offset}&length=${length}`, o.signal);
      const wire = parseBody(CampaignListWire, body, route, 'campaigns');
      return { campaigns: wire.campaignList.map(toCampaign), itemCount: wire.itemCount };
    },

    async getTrackOfTheDayMonths(o = {}) {
      conn.ensureOpen();
      const { offset, length } = checkPage(o);
      const { body, route } = await getWithFallback(monthsRoute, `offset=${offset}&length=${length}`, o.signal);
      const wire = parseBody(TotdPageWire, body, route, 'months');
      const next = wire.nextRequestTimestamp;
      return {
        itemCount: wire.itemCount,
        nextAt: next !== undefined && next > 0 ? isoFromSeconds(next) : null,
        months: wire.monthList.map((m) => ({
          year: m.year,
          month: m.month,
          lastDay: m.lastDay,
          days: [...m.days]
            .sort((a, b) => a.monthDay - b.monthDay)
            .map((d) => ({
              monthDay: d.monthDay,
              mapUid: d.mapUid === '' ? null : d.mapUid,
              campaignId: d.campaignId,
              startsAt: isoFromSeconds(d.startTimestamp),
              endsAt: isoFromSeconds(d.endTimestamp),
            })),
        })),
      };
    },

    async getClubCampaign(clubId, campaignId, o = {}) {
      conn.ensureOpen();
      for (const [name, value] of [['clubId', clubId], ['campaignId', campaignId]] as const) {
        if (!Number.isSafeInteger(value) || value < 1) throw new InputError(`${name} must be a whole number of at least 1, got ${String(value)}.`);
      }
      const target = `${live.basePath}/api/token/club/${clubId}/campaign/${campaignId}`;
      let body: unknown;
      try {
        body = await request('GET', CLUB_CAMPAIGN_ROUTE, target, o.signal);
      } catch (e) {
        if (e instanceof HttpError && (e.code === ErrorCode.NOT_FOUND || e.code === ErrorCode.FORBIDDEN)) {
          const why =
            e.code === ErrorCode.NOT_FOUND
              ? `club ${clubId} has no campaign ${campaignId} (or the club does not exist). Check the trackmania.io link.`
              : `club ${clubId}'s campaign ${campaignId} is open to the club's members only.`;
          throw new HttpError(e.code, `${CLUB_CAMPAIGN_ROUTE}: ${why} (${e.apiCode ?? `HTTP ${e.status}`})`, {
            status: e.status,
            method: e.method,
            route: e.route,
            ...(e.apiCode ? { apiError: { code: e.apiCode } } : {}),
          }, { cause: e });
        }
        throw e;
      }
      const wire = parseBody(ClubCampaignWire, body, CLUB_CAMPAIGN_ROUTE, 'clubCampaign');
      return { ...toCampaign(wire.campaign), clubId: wire.clubId, clubName: wire.clubName, activityId: wire.activityId, name: wire.name };
    },

    async getPositions(queries, o = {}) {
      conn.ensureOpen();
      const group = o.groupUid ?? PERSONAL_BEST_GROUP;
      if (!isSendableId(group)) throw new InputError(`"${group.slice(0, 60)}" is not a leaderboard group; use "${PERSONAL_BEST_GROUP}" or a season ID.`);
      // One question per distinct (map, score): players with the same score get the same answer.
      const distinct = new Map<string, PositionQuery>();
      const problems = new Map<number, string>();
      queries.forEach((q, i) => {
        const problem = positionQueryProblem(q);
        if (problem !== undefined) problems.set(i, problem);
        else {
          const key = `${q.mapUid}\n${q.score}`;
          if (!distinct.has(key)) distinct.set(key, { mapUid: q.mapUid, score: q.score });
        }
      });
      const fixedLength = `${live.basePath}/api/token/leaderboard/group/map?`.length;
      const batches = packPositionQueries([...distinct.values()], { limit: limits.get(POSITIONS_ROUTE), fixedLength, maxMaps: MAX_MAPS_PER_POSITION_REQUEST });
      const answers = new Map<PositionQuery, PositionResult>();
      // One failed batch cancels its siblings: the call fails as a whole.
      const linked = linkSignals(o.signal);
      try {
        await Promise.all(batches.map((b) => askPositions(b, group, linked.signal, answers)));
      } catch (e) {
        linked.abort();
        throw e;
      } finally {
        linked.dispose();
      }
      return queries.map((q, i) => {
        const problem = problems.get(i);
        if (problem !== undefined) return { state: 'invalid', mapUid: String(q.mapUid), score: q.score, reason: problem };
        return answers.get(distinct.get(`${q.mapUid}\n${q.score}`)!)!;
      });
    },

    async getWorldRecord(mapUid, o = {}) {
      conn.ensureOpen();
      if (typeof mapUid !== 'string' || !isSendableId(mapUid)) throw new InputError(`"${String(mapUid).slice(0, 40)}" is not a map UID.`);
      const target = `${live.basePath}/api/token/leaderboard/group/${PERSONAL_BEST_GROUP}/map/${mapUid}/top?length=1&onlyWorld=true`;
      const wire = parseBody(LeaderboardTopWire, await request('GET', TOP_ROUTE, target, o.signal), TOP_ROUTE, 'top');
      const world = wire.tops?.find((t) => t.zoneId === WORLD_ZONE_ID || t.zoneName === 'World') ?? wire.tops?.[0];
      const best = world?.top[0];
      if (!best) return null;
      return {
        mapUid,
        accountId: best.accountId,
        score: best.score < 0 ? null : best.score,
        position: best.position,
        setAt: best.timestamp !== undefined && best.timestamp > 0 ? isoFromSeconds(best.timestamp) : null,
      };
    },

    async testLogin(o = {}) {
      conn.ensureOpen();
      if (auth) await auth.login(o.signal ?? new AbortController().signal);
    },

    stats() {
      return pipeline.stats();
    },

    close() {
      return conn.close();
    },
  };
  return client;
}

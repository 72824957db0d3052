// The Live services client (docs/nadeo-api.md "Beyond the seed"; route shapes from openplanet-nl/nadeoapi-docs docs/live/):
// seasonal campaigns, Track of the Day months, club campaigns (campaigns.ts), world positions by score and the top of
// a leaderboard (positions.ts). Built like every client (http/connection.ts); its own token (audience
// NadeoLiveServices, from the same login at the Core host) and its own budget.
import { NadeoAuth, type Credentials } from '../core/auth.ts';
import { isRealServiceHost, parseNadeoBase, REAL_LIVE_BASE_URL } from '../hosts.ts';
import { DEFAULT_MAX_URI_LENGTH } from '../http/batching.ts';
import { checkPositive, openConnection, type ConnectionOptions } from '../http/connection.ts';
import { ConfigError } from '../http/errors.ts';
import { UriLimits } from '../http/lookup.ts';
import type { PipelineStats } from '../http/pipeline.ts';
import { RouteChoice } from '../http/route-choice.ts';
import {
  getClubCampaign,
  getSeasonalCampaigns,
  getTrackOfTheDayMonths,
  LIVE_ROUTES,
  type CampaignPage,
  type ClubCampaign,
  type TrackOfTheDayPage,
} from './campaigns.ts';
import type { LiveContext } from './context.ts';
import type { PositionQuery } from './position-packing.ts';
import { getPositions, getWorldRecord, type PositionResult, type WorldRecord } from './positions.ts';

export type { Campaign, CampaignPage, ClubCampaign, TrackOfTheDay, TrackOfTheDayMonth, TrackOfTheDayPage } from './campaigns.ts';
export type { PositionResult, WorldRecord, ZonePosition } from './positions.ts';

export interface LiveClientOptions extends ConnectionOptions {
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

export type LiveClientStats = PipelineStats;

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

export function createLiveClient(options: LiveClientOptions): LiveClient {
  const core = parseNadeoBase(options.coreBaseUrl, 'coreBaseUrl');
  const live = parseNadeoBase(options.liveBaseUrl ?? (core.real ? REAL_LIVE_BASE_URL : options.coreBaseUrl), 'liveBaseUrl');
  if (core.real !== isRealServiceHost(live.url.hostname)) {
    throw new ConfigError('coreBaseUrl and liveBaseUrl must both be the real service or both an emulator: a login on one does not open the other.');
  }
  checkPositive('maxUriLength', options.maxUriLength, true);
  if (options.credentials && (!options.credentials.login || !options.credentials.password)) {
    throw new ConfigError('credentials need both a login and a password (a Nadeo service account).');
  }
  const conn = openConnection('live', options, { real: core.real || live.real, authOrigins: { nadeo: live.origin } });
  let auth: NadeoAuth | undefined;
  if (options.credentials) {
    // The login and refresh go to the Core host, with the Live audience (docs/nadeo-api.md "Beyond the seed").
    const source = (auth = new NadeoAuth({
      origin: core.origin,
      basePath: core.basePath,
      credentials: options.credentials,
      audience: 'NadeoLiveServices',
      pipeline: () => conn.pipeline,
      now: conn.now,
      lifetime: conn.lifetime,
    }));
    // The Live token goes to the Live origin only.
    conn.tokens.nadeo = {
      origin: live.origin,
      authorization: (signal) => source.authorization(signal),
      renewAfterRejection: (token, signal) => source.renewAfterRejection(token, signal),
    };
  }
  const ctx: LiveContext = {
    conn,
    live,
    limits: new UriLimits(options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH),
    campaignsRoute: new RouteChoice(LIVE_ROUTES.campaigns),
    monthsRoute: new RouteChoice(LIVE_ROUTES.months),
  };
  return {
    getSeasonalCampaigns: (o) => getSeasonalCampaigns(ctx, o),
    getTrackOfTheDayMonths: (o) => getTrackOfTheDayMonths(ctx, o),
    getClubCampaign: (clubId, campaignId, o) => getClubCampaign(ctx, clubId, campaignId, o),
    getPositions: (queries, o) => getPositions(ctx, queries, o),
    getWorldRecord: (mapUid, o) => getWorldRecord(ctx, mapUid, o),
    async testLogin(o = {}) {
      conn.ensureOpen();
      if (auth) await auth.login(o.signal ?? new AbortController().signal);
    },
    stats: () => conn.stats(),
    close: () => conn.close(),
  };
}

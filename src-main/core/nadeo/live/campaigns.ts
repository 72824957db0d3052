// Campaigns (docs/live/campaigns/): the official seasonal ones, the Track of the Day months, a club's campaign.
import { ErrorCode, HttpError, InputError } from '../http/errors.ts';
import { parseBody } from '../http/parse.ts';
import type { RouteDef } from '../http/route-choice.ts';
import { getWithFallback, isoFromSeconds, liveRequest, type LiveContext } from './context.ts';
import { CampaignListWire, ClubCampaignWire, TotdPageWire, type CampaignWire } from './schemas.ts';

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

export const LIVE_ROUTES = {
  campaigns: [
    { path: '/api/campaign/official', listParam: '', label: 'GET /api/campaign/official', ownNotFoundCodes: [] },
    // The deprecated route answers the same list with more fields (docs/live/campaigns/campaigns.md).
    { path: '/api/token/campaign/official', listParam: '', label: 'GET /api/token/campaign/official', ownNotFoundCodes: [] },
  ],
  months: [{ path: '/api/token/campaign/month', listParam: '', label: 'GET /api/token/campaign/month', ownNotFoundCodes: [] }],
} as const satisfies Record<string, readonly RouteDef[]>;

const CLUB_CAMPAIGN_ROUTE = 'GET /api/token/club/:clubId/campaign/:campaignId';

type Page = { signal?: AbortSignal | undefined; offset?: number | undefined; length?: number | undefined };

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

/** Official seasonal campaigns, newest first: offset 0 is the current one. */
export async function getSeasonalCampaigns(ctx: LiveContext, o: Page = {}): Promise<CampaignPage> {
  ctx.conn.ensureOpen();
  const { offset, length } = checkPage(o);
  const { body, route } = await getWithFallback(ctx, ctx.campaignsRoute, `offset=${offset}&length=${length}`, o.signal);
  const wire = parseBody(CampaignListWire, body, route, 'campaigns');
  return { campaigns: wire.campaignList.map(toCampaign), itemCount: wire.itemCount };
}

/** Track of the Day months, newest first: offset 0 is the current month. */
export async function getTrackOfTheDayMonths(ctx: LiveContext, o: Page = {}): Promise<TrackOfTheDayPage> {
  ctx.conn.ensureOpen();
  const { offset, length } = checkPage(o);
  const { body, route } = await getWithFallback(ctx, ctx.monthsRoute, `offset=${offset}&length=${length}`, o.signal);
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
}

/** Throws HttpError NOT_FOUND for an unknown club or campaign, FORBIDDEN for one only the club's members may see. */
export async function getClubCampaign(ctx: LiveContext, clubId: number, campaignId: number, o: { signal?: AbortSignal | undefined } = {}): Promise<ClubCampaign> {
  ctx.conn.ensureOpen();
  for (const [name, value] of [['clubId', clubId], ['campaignId', campaignId]] as const) {
    if (!Number.isSafeInteger(value) || value < 1) throw new InputError(`${name} must be a whole number of at least 1, got ${String(value)}.`);
  }
  const target = `${ctx.live.basePath}/api/token/club/${clubId}/campaign/${campaignId}`;
  let body: unknown;
  try {
    body = await liveRequest(ctx, 'GET', CLUB_CAMPAIGN_ROUTE, target, o.signal);
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
}

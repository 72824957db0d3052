// The Live services' answers (Openplanet web-services docs, openplanet-nl/nadeoapi-docs, docs/live/...), as zod
// schemas. Loose objects: only the fields Trackwatch reads are required, the rest pass through untouched.
import { z } from 'zod';

const int = z.number().int();
/** Seconds since 1970 that a Date can hold and the service could mean (-1 is its "none"): 1e15 is an unexpected body, not a crash. */
const seconds = int.min(-1).max(32_503_680_000);

/** docs/live/campaigns/campaigns-v2.md: playlist entries, `position` from 0. */
export const PlaylistItemWire = z.looseObject({
  id: int,
  position: int,
  mapUid: z.string(),
});

/** A campaign as the seasonal list (v2 and deprecated) and the club campaign route give it. */
export const CampaignWire = z.looseObject({
  id: int,
  seasonUid: z.string(),
  name: z.string(),
  clubId: int.optional(),
  startTimestamp: seconds,
  // 0 on club campaigns that never end (docs/live/clubs/campaign-by-id.md).
  endTimestamp: seconds,
  playlist: z.array(PlaylistItemWire),
});
export type CampaignWire = z.infer<typeof CampaignWire>;

/** GET /api/campaign/official (v2) and /api/token/campaign/official: an unknown offset gives an empty list. */
export const CampaignListWire = z.looseObject({
  itemCount: int,
  campaignList: z.array(CampaignWire),
  nextRequestTimestamp: seconds.optional(),
});

/** docs/live/campaigns/totds.md: a day not yet played has an empty mapUid. */
export const TotdDayWire = z.looseObject({
  campaignId: int,
  mapUid: z.string(),
  // Day of the week, Monday 0.
  day: int,
  // A day of a month and a month of a year: anything else would be echoed in messages ("2026--5") and labels.
  monthDay: int.min(1).max(31),
  seasonUid: z.string().nullable().optional(),
  startTimestamp: seconds,
  endTimestamp: seconds,
});

export const TotdMonthWire = z.looseObject({
  // No Track of the Day before the game came out (1 July 2020, docs/nadeo-api.md).
  year: int.min(2020).max(9999),
  month: int.min(1).max(12),
  lastDay: int.min(1).max(31),
  days: z.array(TotdDayWire),
});

/** GET /api/token/campaign/month: nextRequestTimestamp may be -1 (the next TOTD is not scheduled yet). */
export const TotdPageWire = z.looseObject({
  monthList: z.array(TotdMonthWire),
  itemCount: int,
  nextRequestTimestamp: seconds.optional(),
});

/** GET /api/token/club/{clubId}/campaign/{campaignId} (docs/live/clubs/campaign-by-id.md). */
export const ClubCampaignWire = z.looseObject({
  campaignId: int,
  activityId: int,
  campaign: CampaignWire,
  clubId: int,
  clubName: z.string(),
  name: z.string(),
});

export const ZoneRankingWire = z.looseObject({
  zoneId: z.string(),
  zoneName: z.string(),
  ranking: z.looseObject({ position: int, length: int.optional() }),
});

/** POST /api/token/leaderboard/group/map (docs/live/leaderboards/position.md): one entry per map answered. */
export const PositionListWire = z.array(
  z.looseObject({
    groupUid: z.string(),
    mapUid: z.string(),
    score: int,
    zones: z.array(ZoneRankingWire),
  }),
);

/** GET /api/token/leaderboard/group/{groupUid}/map/{mapUid}/top (docs/live/leaderboards/top.md); `{}` for an unknown group. */
export const LeaderboardTopWire = z.looseObject({
  groupUid: z.string().optional(),
  mapUid: z.string().optional(),
  tops: z
    .array(
      z.looseObject({
        zoneId: z.string(),
        zoneName: z.string(),
        top: z.array(
          z.looseObject({
            accountId: z.string(),
            zoneId: z.string().optional(),
            zoneName: z.string().optional(),
            position: int,
            // -1 for entries hidden by a secret threshold.
            score: int,
            timestamp: seconds.optional(),
          }),
        ),
      }),
    )
    .optional(),
});

/** Live's own error answers are arrays of `<area>:error-<what>` strings, e.g. ["activity:error-notFound"]. */
export const LiveErrorWire = z.array(z.string().regex(/^[A-Za-z]+:error-[A-Za-z]+$/)).min(1);

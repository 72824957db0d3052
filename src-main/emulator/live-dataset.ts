// What the emulator's Live services and Exchange stub serve, as optional dataset fields: seasonal campaigns, Track
// of the Day months, club campaigns and Exchange map packs, all made of the dataset's own maps. Also how a generated
// dataset fills them (deterministically, from the seed, without touching the main generator's random sequence).
import { z } from 'zod';
import type { Dataset, DatasetMap } from './dataset.ts';
import { mulberry32, uuidFromName } from './prng.ts';

/** An official seasonal campaign. The one with the latest start is the current one (offset 0 on the Live route). */
export interface DatasetCampaign {
  id: number;
  /** E.g. "Spring 2026". */
  name: string;
  /** ISO 8601 with offset. */
  start: string;
  end: string;
  /** The playlist, in order. */
  mapUids: string[];
}

/** One month of Tracks of the Day; the month with the latest date is the current one. */
export interface DatasetTotdMonth {
  /** 'YYYY-MM'. */
  month: string;
  /** Day 1 first, one entry per day of the month; '' for a day not yet played. */
  mapUids: string[];
}

export interface DatasetClubCampaign {
  clubId: number;
  campaignId: number;
  clubName: string;
  name: string;
  mapUids: string[];
  /** Open to the club's members only: everyone else gets 403 ["clubMemberRole:error-notMember"]. */
  membersOnly?: boolean;
}

/** A Trackmania Exchange map pack: Exchange map numbers, in the pack's order. */
export interface DatasetExchangePack {
  packId: number;
  name: string;
  exchangeIds: number[];
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;
const timestamp = z.string().regex(TIMESTAMP, { error: 'must be ISO 8601 with a numeric offset, like 2026-05-01T12:00:00+00:00' });
const id = z.number().int({ error: 'must be a whole number' }).min(1).max(2 ** 31 - 1);
const uid = z.string().regex(/^[^\s,]+$/, { error: 'must be a map UID' });

export const campaignsSchema = z.array(z.strictObject({ id, name: z.string().min(1), start: timestamp, end: timestamp, mapUids: z.array(uid).max(200) }));
export const trackOfTheDaySchema = z.array(
  z
    .strictObject({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "must be 'YYYY-MM'" }), mapUids: z.array(z.union([uid, z.literal('')])) })
    .superRefine((m, ctx) => {
      const days = daysInMonth(m.month);
      if (m.mapUids.length !== days) ctx.addIssue({ code: 'custom', path: ['mapUids'], message: `must list the ${days} days of ${m.month} ('' for a day not yet played)` });
    }),
);
export const clubCampaignsSchema = z.array(
  z.strictObject({ clubId: id, campaignId: id, clubName: z.string(), name: z.string(), mapUids: z.array(uid).max(200), membersOnly: z.boolean().optional() }),
);
export const exchangePacksSchema = z.array(z.strictObject({ packId: id, name: z.string(), exchangeIds: z.array(id) }));

export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Checks that the Live and Exchange fields name the dataset's own maps, and that their IDs are unique. */
export function liveFieldIssues(dataset: Pick<Dataset, 'maps' | 'campaigns' | 'trackOfTheDay' | 'clubCampaigns' | 'exchangePacks'>): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const uids = new Set(dataset.maps.map((m) => m.mapUid));
  const exchangeIds = new Map<number, number>();
  dataset.maps.forEach((m, i) => {
    if (m.exchangeId === undefined) return;
    const before = exchangeIds.get(m.exchangeId);
    if (before !== undefined) issues.push({ path: ['maps', i, 'exchangeId'], message: `repeats maps[${before}].exchangeId` });
    else exchangeIds.set(m.exchangeId, i);
  });
  const checkUids = (path: (string | number)[], list: string[]) =>
    list.forEach((u, j) => {
      if (u !== '' && !uids.has(u)) issues.push({ path: [...path, j], message: 'names no map of the dataset' });
    });
  const unique = (field: string, keys: string[]) => {
    const seen = new Map<string, number>();
    keys.forEach((k, i) => {
      const before = seen.get(k);
      if (before !== undefined) issues.push({ path: [field, i], message: `repeats ${field}[${before}]` });
      else seen.set(k, i);
    });
  };
  dataset.campaigns?.forEach((c, i) => checkUids(['campaigns', i, 'mapUids'], c.mapUids));
  unique('campaigns', (dataset.campaigns ?? []).map((c) => String(c.id)));
  dataset.trackOfTheDay?.forEach((m, i) => checkUids(['trackOfTheDay', i, 'mapUids'], m.mapUids));
  unique('trackOfTheDay', (dataset.trackOfTheDay ?? []).map((m) => m.month));
  dataset.clubCampaigns?.forEach((c, i) => checkUids(['clubCampaigns', i, 'mapUids'], c.mapUids));
  unique('clubCampaigns', (dataset.clubCampaigns ?? []).map((c) => `${c.clubId}/${c.campaignId}`));
  dataset.exchangePacks?.forEach((p, i) =>
    p.exchangeIds.forEach((x, j) => {
      if (!exchangeIds.has(x)) issues.push({ path: ['exchangePacks', i, 'exchangeIds', j], message: 'names no map of the dataset (no map has this exchangeId)' });
    }),
  );
  unique('exchangePacks', (dataset.exchangePacks ?? []).map((p) => String(p.packId)));
  return issues;
}

/**
 * When the generated Live fields happen: the official campaigns (newest first) with the indexes of their maps, and
 * the Track of the Day months. A season-style dataset passes its own (seasonCalendar), so that its current campaign
 * is the one its official maps are named after; other datasets get DEFAULT_CALENDAR.
 */
export interface LiveCalendar {
  campaigns: { name: string; start: string; end: string; /** Map indexes in playlist order; none: a slice of any maps. */ maps?: number[] }[];
  /** 'YYYY-MM' of the last full month and of the current one, and how many days of the current one are played. */
  totd: { previous: string; current: string; daysPlayed: number };
}

export const DEFAULT_CALENDAR: LiveCalendar = {
  campaigns: [
    { name: 'Spring 2026', start: '2026-04-01T15:00:00+00:00', end: '2026-07-01T15:00:00+00:00' },
    { name: 'Winter 2026', start: '2026-01-01T16:00:00+00:00', end: '2026-04-01T15:00:00+00:00' },
    { name: 'Fall 2025', start: '2025-10-01T15:00:00+00:00', end: '2026-01-01T16:00:00+00:00' },
  ],
  totd: { previous: '2026-04', current: '2026-05', daysPlayed: 12 },
};
const CAMPAIGN_SIZE = 25;

/** `count` maps from `start`, wrapping around: distinct when the dataset has that many. */
function slice(maps: readonly DatasetMap[], start: number, count: number): string[] {
  const n = Math.min(count, maps.length);
  return Array.from({ length: n }, (_, i) => maps[(start + i) % maps.length]!.mapUid);
}

/**
 * Fills a generated dataset's Live and Exchange fields: a current campaign (its maps from the calendar, else 25 maps,
 * all of them when there are fewer) and two earlier ones, a full Track of the Day month and a current one with days
 * still to come, an open and a members-only club campaign, an Exchange number on every map and two packs. The
 * current campaign's maps declare a population, so positions on them look like the real game's. Mutates `maps`
 * (exchangeId, population).
 */
export function fillLiveFields(
  maps: DatasetMap[],
  seed: number,
  calendar: LiveCalendar = DEFAULT_CALENDAR,
): Pick<Dataset, 'campaigns' | 'trackOfTheDay' | 'clubCampaigns' | 'exchangePacks'> {
  if (maps.length === 0) return {};
  const rng = mulberry32((seed ^ 0x7f4a7c15) >>> 0);
  const exchangeBase = 100_000 + Math.floor(rng() * 50_000) * 10;
  maps.forEach((m, i) => {
    m.exchangeId = exchangeBase + i * 3 + 1;
  });
  const seasons = calendar.campaigns.map((c, k) => ({
    ...c,
    mapUids: c.maps && c.maps.length > 0 ? c.maps.map((i) => maps[i]!.mapUid) : slice(maps, k * CAMPAIGN_SIZE, CAMPAIGN_SIZE),
  }));
  const current = new Set(seasons[0]?.mapUids ?? []);
  for (const m of maps) if (current.has(m.mapUid)) m.population = 5_000 + Math.floor(rng() * 45_000);
  const campaigns = seasons.map(({ name, start, end, mapUids }, k) => ({ id: 91_000 + seasons.length - k, name, start, end, mapUids }));
  const offset = Math.floor(rng() * maps.length);
  const { previous, current: month, daysPlayed } = calendar.totd;
  const before = Array.from({ length: daysInMonth(previous) }, (_, d) => maps[(offset + d) % maps.length]!.mapUid);
  const now = Array.from({ length: daysInMonth(month) }, (_, d) => (d < daysPlayed ? maps[(offset + before.length + d) % maps.length]!.mapUid : ''));
  const clubMaps = slice(maps, Math.floor(maps.length / 2), 5);
  return {
    campaigns,
    trackOfTheDay: [
      { month: previous, mapUids: before },
      { month, mapUids: now },
    ],
    clubCampaigns: [
      { clubId: 4242, campaignId: 1701, clubName: '$s$0c0Trackwatch $fffClub', name: 'Club Cup #1', mapUids: clubMaps },
      { clubId: 4242, campaignId: 1702, clubName: '$s$0c0Trackwatch $fffClub', name: 'Members Cup', mapUids: clubMaps.slice().reverse(), membersOnly: true },
    ],
    exchangePacks: [
      { packId: 5150, name: 'Trackwatch Starter Pack', exchangeIds: maps.slice(0, 10).map((m) => m.exchangeId!) },
      { packId: 5151, name: 'Everything', exchangeIds: maps.map((m) => m.exchangeId!) },
    ],
  };
}

/** A season's stable UID, derived from the campaign (the service's are UUIDs). */
export function seasonUidOf(kind: string, id: number): string {
  return uuidFromName(`season|${kind}|${id}`);
}

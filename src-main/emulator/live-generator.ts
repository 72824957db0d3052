// How a generated dataset fills its Live and Exchange fields (live-dataset.ts): deterministically, from the seed,
// without touching the main generator's random sequence.
import { daysInMonth, seasonAt, totdMonthsAt } from './calendar.ts';
import type { Dataset, DatasetMap } from './dataset.ts';
import { mulberry32 } from './prng.ts';

/**
 * When the generated Live fields happen: the official campaigns (newest first) with the indexes of their maps, and
 * the Track of the Day months. A season-style dataset passes its own (seasonCalendar), so that its current campaign
 * is the one its official maps are named after; other datasets get calendarAt.
 */
export interface LiveCalendar {
  campaigns: { name: string; start: string; end: string; /** Map indexes in playlist order; none: a slice of any maps. */ maps?: number[] }[];
  /** 'YYYY-MM' of the last full month and of the current one, and how many days of the current one are played. */
  totd: { previous: string; current: string; daysPlayed: number };
}

function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** The calendar as of `nowMs`: the campaign running then and the two before it, the Track of the Day months. */
export function calendarAt(nowMs: number): LiveCalendar {
  const campaigns = [0, 1, 2].map((k) => seasonAt(nowMs, k)).map((c) => ({ name: c.name, start: isoUtc(c.startMs), end: isoUtc(c.endMs) }));
  const { previous, current, daysOpened } = totdMonthsAt(nowMs);
  return { campaigns, totd: { previous, current, daysPlayed: daysOpened } };
}
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
 * current campaign's maps declare a population (a crowd of unwatched players, world.ts), so their world leaderboards
 * look like the real game's. Mutates `maps` (exchangeId, population).
 */
export function fillLiveFields(
  maps: DatasetMap[],
  seed: number,
  calendar: LiveCalendar,
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


// The Live services (docs/nadeo-api.md "Beyond the seed"), answering from the dataset with the shapes of the example answers
// in openplanet-nl/nadeoapi-docs docs/live/: seasonal campaigns (v2 and deprecated), Track of the Day months, club
// campaigns, positions by score and the top of a leaderboard. Live's own errors are arrays of strings.
import { json, text, type Answer } from './answers.ts';
import { daysInMonth, nextTotdAfter, seasonAt, totdStart } from './calendar.ts';
import { seasonUidOf, type DatasetCampaign } from './live-dataset.ts';
import type { DatasetIndex } from './lookup.ts';
import { fnv1a } from './prng.ts';
import { isBetterLiveScore, isHiddenFrom, isSecret, MAX_MAPS_PER_POSITION_REQUEST, PERSONAL_BEST_GROUP, WORLD_ZONE_ID } from './rules.ts';
import { crowdPlayer, crowdStuntTime, TOP_READABLE, WorldBoard } from './world.ts';

/** Live's error answers (docs/live/clubs/campaign-by-id.md and its siblings). */
export const LIVE_ERROR = {
  notFound: 'activity:error-notFound',
  notMember: 'clubMemberRole:error-notMember',
  // Not shown by the docs: emulator choices in the same form.
  tooManyMaps: 'leaderboard:error-tooManyMaps',
  invalidScore: 'leaderboard:error-invalidScore',
  invalidBody: 'request:error-invalidBody',
  invalidParameter: 'request:error-invalidParameter',
} as const;

export function liveError(status: number, code: string): Answer {
  return json(status, [code]);
}

const seconds = (iso: string): number => Math.floor(Date.parse(iso) / 1000);
const EMPTY_MEDIA = {
  buttonBackgroundUrl: '',
  buttonForegroundUrl: '',
  decalUrl: '',
  popUpBackgroundUrl: '',
  popUpImageUrl: '',
  liveButtonBackgroundUrl: '',
  liveButtonForegroundUrl: '',
};

/** A page parameter: absent gives the default; anything but a whole number in range is refused. */
function pageParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d{1,9}$/.test(raw)) return undefined;
  return Math.min(max, Math.max(min, Number(raw)));
}

export class LiveApi {
  readonly #index: DatasetIndex;
  readonly #now: () => number;

  constructor(index: DatasetIndex, now: () => number = Date.now) {
    this.#index = index;
    this.#now = now;
  }

  #nowSec(): number {
    return Math.floor(this.#now() / 1000);
  }

  #playlist(campaignId: number, mapUids: readonly string[]): { id: number; position: number; mapUid: string }[] {
    return mapUids.map((mapUid, position) => ({ id: campaignId * 100 + position, position, mapUid }));
  }

  /** GET /api/campaign/official (v2) and, with `deprecated`, /api/token/campaign/official: newest first. */
  seasonalCampaigns(query: URLSearchParams, deprecated: boolean): Answer {
    const offset = pageParam(query, 'offset', 0, 0, 1e9);
    const length = pageParam(query, 'length', 1, 1, 100);
    if (offset === undefined || length === undefined) return liveError(400, LIVE_ERROR.invalidParameter);
    const all = [...(this.#index.dataset.campaigns ?? [])].sort((a, b) => Date.parse(b.start) - Date.parse(a.start));
    const nowSec = this.#nowSec();
    // Ask again when the next seasonal campaign opens, by the service's clock (calendar.ts).
    const next = Math.floor(seasonAt(this.#now()).endMs / 1000);
    return json(200, {
      itemCount: all.length,
      campaignList: all.slice(offset, offset + length).map((c) => this.#campaign(c, deprecated, nowSec)),
      nextRequestTimestamp: next,
      relativeNextRequest: next < 0 ? -1 : next - nowSec,
    });
  }

  #campaign(c: DatasetCampaign, deprecated: boolean, nowSec: number): Record<string, unknown> {
    const seasonUid = seasonUidOf('official', c.id);
    const [start, end] = [seconds(c.start), seconds(c.end)];
    const v2 = {
      id: c.id,
      seasonUid,
      name: c.name,
      useCase: 0,
      clubId: 0,
      startTimestamp: start,
      endTimestamp: end,
      rankingSentTimestamp: end <= nowSec ? end + 3600 : null,
      year: -1,
      week: -1,
      day: -1,
      monthYear: -1,
      month: -1,
      monthDay: -1,
      playlist: this.#playlist(c.id, c.mapUids),
      editionTimestamp: start - 86_400,
    };
    if (!deprecated) return v2;
    // The deprecated route's model adds these (docs/live/campaigns/campaigns.md).
    return {
      ...v2,
      color: '',
      leaderboardGroupUid: seasonUid,
      publicationTimestamp: start,
      published: true,
      latestSeasons: [
        { uid: seasonUid, name: c.name, startTimestamp: start, endTimestamp: end, relativeStart: start - nowSec, relativeEnd: end - nowSec, campaignId: c.id, active: start <= nowSec && nowSec < end },
      ],
      categories: Array.from({ length: Math.ceil(c.mapUids.length / 5) }, (_, i) => ({ position: i * 5, length: Math.min(5, c.mapUids.length - i * 5), name: String(i) })),
      media: EMPTY_MEDIA,
    };
  }

  /** GET /api/token/campaign/month: newest month first; a day not yet played has an empty mapUid. */
  trackOfTheDay(query: URLSearchParams): Answer {
    const offset = pageParam(query, 'offset', 0, 0, 1e9);
    const length = pageParam(query, 'length', 1, 1, 100);
    if (offset === undefined || length === undefined) return liveError(400, LIVE_ERROR.invalidParameter);
    const royal = query.get('royal') === 'true' || query.get('royal') === '1';
    const months = royal ? [] : [...(this.#index.dataset.trackOfTheDay ?? [])].sort((a, b) => b.month.localeCompare(a.month));
    const nowSec = this.#nowSec();
    const dayStart = (month: string, day: number): number => Math.floor(totdStart(month, day) / 1000);
    // The next Track of the Day opens at 19:00 Paris time by the service's clock (calendar.ts).
    const next = Math.floor(nextTotdAfter(this.#now()) / 1000);
    return json(200, {
      monthList: months.slice(offset, offset + length).map((m) => {
        const [year, month] = m.month.split('-').map(Number) as [number, number];
        return {
          year,
          month,
          lastDay: daysInMonth(m.month),
          days: m.mapUids.map((mapUid, i) => {
            const start = dayStart(m.month, i + 1);
            const campaignId = 20_000 + year * 400 + month * 32 + i;
            return {
              campaignId,
              mapUid,
              // Monday 0.
              day: (new Date(start * 1000).getUTCDay() + 6) % 7,
              monthDay: i + 1,
              seasonUid: seasonUidOf('totd', campaignId),
              leaderboardGroup: null,
              startTimestamp: start,
              endTimestamp: start + 86_400,
              relativeStart: start - nowSec,
              relativeEnd: start + 86_400 - nowSec,
            };
          }),
          media: EMPTY_MEDIA,
        };
      }),
      itemCount: months.length,
      nextRequestTimestamp: next,
      relativeNextRequest: next < 0 ? -1 : next - nowSec,
    });
  }

  /** GET /api/token/club/{clubId}/campaign/{campaignId}: 404 for an unknown one, 403 for a members-only one. */
  clubCampaign(clubIdText: string, campaignIdText: string): Answer {
    const clubId = Number(clubIdText);
    const campaignId = Number(campaignIdText);
    const c = (this.#index.dataset.clubCampaigns ?? []).find((x) => x.clubId === clubId && x.campaignId === campaignId);
    if (!c) return liveError(404, LIVE_ERROR.notFound);
    if (c.membersOnly) return liveError(403, LIVE_ERROR.notMember);
    const seasonUid = `NLS-${seasonUidOf('club', campaignId).replace(/-/g, '')}`;
    const published = 1_772_366_400 + (fnv1a(`${clubId}/${campaignId}`) % 86_400);
    const activityId = 300_000 + campaignId;
    const creator = seasonUidOf('club-creator', clubId);
    return json(200, {
      clubDecalUrl: '',
      campaignId,
      activityId,
      campaign: {
        id: campaignId,
        seasonUid,
        name: c.name,
        color: '',
        useCase: 2,
        clubId,
        leaderboardGroupUid: seasonUid,
        publicationTimestamp: published,
        startTimestamp: published,
        endTimestamp: 0,
        rankingSentTimestamp: null,
        year: -1,
        week: -1,
        day: -1,
        monthYear: -1,
        month: -1,
        monthDay: -1,
        published: true,
        playlist: this.#playlist(campaignId, c.mapUids),
        latestSeasons: [{ uid: seasonUid, name: c.name, startTimestamp: published, endTimestamp: 0, relativeStart: published - this.#nowSec(), relativeEnd: 0, campaignId, active: true }],
        categories: [{ position: 0, length: c.mapUids.length, name: c.name }],
        media: EMPTY_MEDIA,
        editionTimestamp: published,
      },
      popularityLevel: 0,
      publicationTimestamp: published,
      creationTimestamp: published,
      creatorAccountId: creator,
      latestEditorAccountId: creator,
      id: activityId,
      clubId,
      clubName: c.clubName,
      name: c.name,
      mapsCount: c.mapUids.length,
      mediaUrl: '',
      mediaUrlPngLarge: '',
      mediaUrlPngMedium: '',
      mediaUrlPngSmall: '',
      mediaUrlDds: '',
      mediaTheme: '',
    });
  }

  /**
   * POST /api/token/leaderboard/group/map?scores[<mapUid>]=<score>, body {"maps":[{"mapUid","groupUid"}]}: per map
   * asked, the position a record of that score would have. Unknown maps and closed leaderboards are left out; a
   * caller with a record on the map gets nothing better than its own record (the answer is for its own score).
   */
  positions(query: URLSearchParams, body: string, caller: string | undefined): Answer {
    let maps: { mapUid: string; groupUid: string }[];
    try {
      const parsed = JSON.parse(body) as { maps?: unknown };
      if (!Array.isArray(parsed.maps)) throw new Error('no maps');
      maps = parsed.maps.map((m: unknown) => {
        const { mapUid, groupUid } = (m ?? {}) as { mapUid?: unknown; groupUid?: unknown };
        if (typeof mapUid !== 'string' || typeof groupUid !== 'string') throw new Error('bad map');
        return { mapUid, groupUid };
      });
    } catch {
      return liveError(400, LIVE_ERROR.invalidBody);
    }
    const scores = new Map<string, number>();
    for (const [key, value] of query) {
      const mapUid = /^scores\[(.+)\]$/.exec(key)?.[1];
      if (mapUid === undefined) continue;
      if (!/^\d{1,10}$/.test(value)) return liveError(400, LIVE_ERROR.invalidScore);
      scores.set(mapUid, Number(value));
    }
    if (maps.length > MAX_MAPS_PER_POSITION_REQUEST || scores.size > MAX_MAPS_PER_POSITION_REQUEST) return liveError(400, LIVE_ERROR.tooManyMaps);
    // The docs: a score for a map the body does not list may give a 500.
    const listed = new Set(maps.map((m) => m.mapUid));
    if ([...scores.keys()].some((uid) => !listed.has(uid))) return text(500, 'Internal Server Error');
    const answer: unknown[] = [];
    for (const { mapUid, groupUid } of maps) {
      const asked = scores.get(mapUid);
      const map = this.#index.mapByUid(mapUid);
      if (asked === undefined || !map) continue;
      const board = WorldBoard.of(this.#index.dataset, map, groupUid);
      if (!board) continue;
      const own = caller === undefined ? undefined : board.records.find((e) => e.record.accountId.toLowerCase() === caller)?.score;
      const score = own !== undefined && isBetterLiveScore(board.kind, asked, own) ? own : asked;
      answer.push({
        groupUid,
        mapUid,
        score,
        zones: [{ zoneId: WORLD_ZONE_ID, zoneName: 'World', ranking: { position: board.position(score), length: 0 } }],
      });
    }
    return json(200, answer);
  }

  /**
   * GET /api/token/leaderboard/group/{groupUid}/map/{mapUid}/top?length=&onlyWorld=&offset=: the world's best, the
   * dataset's records and the crowd nobody here watches alike, with the positions the positions route gives their
   * scores; -1 for a score a secret threshold hides from the caller. Without onlyWorld=true only the first five, and
   * never beyond the first 10,000 (the docs' remarks).
   */
  top(groupUid: string, mapUid: string, query: URLSearchParams, caller: string | undefined): Answer {
    const map = this.#index.mapByUid(mapUid);
    const world = { zoneId: WORLD_ZONE_ID, zoneName: 'World' };
    const board = map ? WorldBoard.of(this.#index.dataset, map, groupUid) : undefined;
    if (groupUid !== PERSONAL_BEST_GROUP && !board) return json(200, {});
    if (!map || !board) return json(200, { groupUid, mapUid, tops: [{ ...world, top: [] }] });
    const onlyWorld = query.get('onlyWorld') === 'true';
    const length = onlyWorld ? pageParam(query, 'length', 5, 1, 100) : 5;
    const offset = onlyWorld ? pageParam(query, 'offset', 0, 0, TOP_READABLE) : 0;
    if (length === undefined || offset === undefined) return liveError(400, LIVE_ERROR.invalidParameter);
    const nowMs = this.#now();
    const top = board.slice(offset, Math.max(0, Math.min(length, TOP_READABLE - offset))).map((entry) => {
      if ('record' in entry) {
        const { record } = entry;
        return { accountId: record.accountId, ...world, position: entry.position, score: isHiddenFrom(map, record, caller) ? -1 : entry.score, timestamp: seconds(record.timestamp) };
      }
      const player = crowdPlayer(map, entry.crowdRank, nowMs);
      const time = board.kind === 'stunt' ? crowdStuntTime(map, entry.crowdRank) : entry.score;
      return { accountId: player.accountId, ...world, position: entry.position, score: isSecret(map, { time }) ? -1 : entry.score, timestamp: player.timestampSec };
    });
    return json(200, { groupUid, mapUid, tops: [{ ...world, top }] });
  }
}

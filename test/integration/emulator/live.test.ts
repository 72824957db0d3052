// The emulator's Live services: the docs' answer shapes (openplanet-nl/nadeoapi-docs docs/live/), the audience rule,
// campaigns and Track of the Day months made of the dataset's maps, club campaigns, positions and the top.
import { describe, expect, it } from 'vitest';
import { WORLD_ZONE_ID } from '../../../src-main/emulator/rules.ts';
import { generateDataset, type Dataset } from '../../../src-main/emulator/index.ts';
import { WorldBoard } from '../../../src-main/emulator/world.ts';
import { startTestEmulator, useEmulator } from '../../helpers/emulator.ts';
import { call, get, HOSTILE_NOW } from './support.ts';

const LOGIN = { login: 'svc-live', password: 'pw' };
// The data and the service's clock at one fixed moment: Spring 2026, May played to the 12th.
const dataset = generateDataset({ seed: 21, maps: 12, players: 10, now: HOSTILE_NOW });
const emulator = useEmulator({ dataset, auth: { ...LOGIN }, now: () => HOSTILE_NOW });

async function token(url: string, audience?: string): Promise<string> {
  const reply = await call(`${url}/v2/authentication/token/basic`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${LOGIN.login}:${LOGIN.password}`).toString('base64')}`, 'content-type': 'application/json' },
    body: audience === undefined ? '' : JSON.stringify({ audience }),
  });
  expect(reply.status).toBe(200);
  return `nadeo_v1 t=${reply.json<{ accessToken: string }>().accessToken}`;
}

let liveToken: string | undefined;
async function live(): Promise<{ authorization: string }> {
  liveToken ??= await token(emulator().url, 'NadeoLiveServices');
  return { authorization: liveToken };
}

function positionsCall(url: string, headers: Record<string, string>, scores: [string, number][], maps = scores.map(([uid]) => uid), group = 'Personal_Best') {
  const query = scores.map(([uid, score]) => `scores[${uid}]=${score}`).join('&');
  return call(`${url}/api/token/leaderboard/group/map?${query}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ maps: maps.map((mapUid) => ({ mapUid, groupUid: group })) }),
  });
}

interface PositionEntry {
  groupUid: string;
  mapUid: string;
  score: number;
  zones: { zoneId: string; zoneName: string; ranking: { position: number; length: number } }[];
}

function boardValues(d: Dataset, mapUid: string): number[] {
  const map = d.maps.find((m) => m.mapUid === mapUid)!;
  return d.records.filter((r) => r.mapId === map.mapId && r.scopeId === null).map((r) => (map.mapType.endsWith('TM_Stunt') ? r.recordScore.score : r.recordScore.time));
}

describe('Live services: audience', () => {
  it('live: a NadeoLiveServices token opens Live routes; a NadeoServices token, none, or a Live token on Core is 401', async () => {
    const url = emulator().url;
    const core = await token(url, 'NadeoServices');
    const campaigns = `${url}/api/campaign/official?offset=0&length=1`;
    expect((await get(campaigns, await live())).status).toBe(200);
    const refused = await get(campaigns, { authorization: core });
    expect(refused.status).toBe(401);
    expect(refused.json<{ message: string }>().message).toContain('needs a NadeoLiveServices token');
    expect((await get(campaigns)).status).toBe(401);
    expect((await get(`${url}/maps/?mapUidList=${dataset.maps[0]!.mapUid}`, await live())).status).toBe(401);
    expect((await get(`${url}/maps/?mapUidList=${dataset.maps[0]!.mapUid}`, { authorization: core })).status).toBe(200);
  });

  it('live: the Live JWT carries aud NadeoLiveServices; a login with no body is a NadeoServices one', async () => {
    const claims = (t: string) => JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims((await live()).authorization.slice('nadeo_v1 t='.length))).toMatchObject({ aud: 'NadeoLiveServices' });
    expect(claims((await token(emulator().url)).slice('nadeo_v1 t='.length))).toMatchObject({ aud: 'NadeoServices' });
  });
});

describe('Live services: seasonal campaigns', () => {
  it('live: GET /api/campaign/official answers the v2 shape, newest first, the playlist in order', async () => {
    const reply = await get(`${emulator().url}/api/campaign/official?offset=0&length=2`, await live());
    expect(reply.status).toBe(200);
    const body = reply.json<{ itemCount: number; campaignList: Record<string, unknown>[]; nextRequestTimestamp: number; relativeNextRequest: number }>();
    expect(Object.keys(body).sort()).toEqual(['campaignList', 'itemCount', 'nextRequestTimestamp', 'relativeNextRequest']);
    expect(body.itemCount).toBe(3);
    expect(body.campaignList.map((c) => c.name)).toEqual(['Spring 2026', 'Winter 2026']);
    const current = body.campaignList[0]!;
    expect(Object.keys(current).sort()).toEqual(
      ['day', 'editionTimestamp', 'endTimestamp', 'clubId', 'id', 'month', 'monthDay', 'monthYear', 'name', 'playlist', 'rankingSentTimestamp', 'seasonUid', 'startTimestamp', 'useCase', 'week', 'year'].sort(),
    );
    const playlist = current.playlist as { id: number; position: number; mapUid: string }[];
    expect(playlist.map((p) => p.position)).toEqual(dataset.maps.map((_, i) => i));
    expect(playlist.map((p) => p.mapUid)).toEqual(dataset.campaigns![0]!.mapUids);
    expect(current.startTimestamp).toBe(Date.parse(dataset.campaigns![0]!.start) / 1000);
    // The next campaign opens when the current one ends.
    expect(body.nextRequestTimestamp).toBe(Date.parse(dataset.campaigns![0]!.end) / 1000);
    expect(body.relativeNextRequest).toBe(body.nextRequestTimestamp - HOSTILE_NOW / 1000);
  });

  it('live: an offset past the last campaign gives an empty list; the deprecated route adds its fields', async () => {
    const empty = (await get(`${emulator().url}/api/campaign/official?offset=3&length=1`, await live())).json<{ itemCount: number; campaignList: unknown[] }>();
    expect(empty).toMatchObject({ itemCount: 3, campaignList: [] });
    const old = (await get(`${emulator().url}/api/token/campaign/official?offset=1&length=1`, await live())).json<{ campaignList: Record<string, unknown>[] }>();
    expect(old.campaignList[0]).toMatchObject({ name: 'Winter 2026', published: true, color: '' });
    for (const field of ['leaderboardGroupUid', 'publicationTimestamp', 'latestSeasons', 'categories', 'media']) expect(old.campaignList[0]).toHaveProperty(field);
    expect((await get(`${emulator().url}/api/campaign/official?offset=x`, await live())).json()).toEqual(['request:error-invalidParameter']);
  });
});

describe('Live services: Track of the Day', () => {
  it('live: months newest first; days not yet played have an empty mapUid; nextRequestTimestamp is the next day to come', async () => {
    const reply = await get(`${emulator().url}/api/token/campaign/month?offset=0&length=2`, await live());
    expect(reply.status).toBe(200);
    const body = reply.json<{ monthList: { year: number; month: number; lastDay: number; days: Record<string, unknown>[] }[]; itemCount: number; nextRequestTimestamp: number }>();
    expect(body.itemCount).toBe(2);
    expect(body.monthList.map((m) => [m.year, m.month, m.lastDay])).toEqual([
      [2026, 5, 31],
      [2026, 4, 30],
    ]);
    const may = body.monthList[0]!.days;
    expect(may).toHaveLength(31);
    expect(Object.keys(may[0]!).sort()).toEqual(
      ['campaignId', 'day', 'endTimestamp', 'leaderboardGroup', 'mapUid', 'monthDay', 'relativeEnd', 'relativeStart', 'seasonUid', 'startTimestamp'].sort(),
    );
    expect(may.map((d) => d.mapUid)).toEqual(dataset.trackOfTheDay!.find((m) => m.month === '2026-05')!.mapUids);
    expect(may.filter((d) => d.mapUid === '').length).toBe(31 - 12);
    // 2026-05-01 is a Friday: Monday is 0.
    expect(may[0]).toMatchObject({ monthDay: 1, day: 4, startTimestamp: Date.UTC(2026, 4, 1, 17) / 1000 });
    expect(body.nextRequestTimestamp).toBe(Date.UTC(2026, 4, 13, 17) / 1000);
    expect(body.monthList[1]!.days.every((d) => typeof d.mapUid === 'string' && d.mapUid !== '')).toBe(true);
  });

  it('live: a month past the list is an empty monthList; on a month\'s last evening the next Track of the Day is the next month\'s first', async () => {
    const empty = (await get(`${emulator().url}/api/token/campaign/month?offset=5&length=1`, await live())).json<{ monthList: unknown[]; itemCount: number }>();
    expect(empty).toMatchObject({ monthList: [], itemCount: 2 });
    const lastEvening = Date.parse('2026-05-31T20:00:00Z');
    const emu = await startTestEmulator({ dataset: generateDataset({ seed: 21, maps: 12, players: 10, now: lastEvening }), now: () => lastEvening });
    try {
      const body = (await get(`${emu.url}/api/token/campaign/month?offset=0&length=1`)).json<{ monthList: { days: { mapUid: string }[] }[]; nextRequestTimestamp: number; relativeNextRequest: number }>();
      expect(body.monthList[0]!.days.every((d) => d.mapUid !== '')).toBe(true);
      // 1 June, 19:00 Paris time (summer time: 17:00 UTC).
      expect(body).toMatchObject({ nextRequestTimestamp: Date.UTC(2026, 5, 1, 17) / 1000, relativeNextRequest: 21 * 3600 });
    } finally {
      await emu.close();
    }
  });
});

describe('Live services: club campaigns', () => {
  it('live: a club campaign answers the docs shape with its playlist', async () => {
    const club = dataset.clubCampaigns![0]!;
    const reply = await get(`${emulator().url}/api/token/club/${club.clubId}/campaign/${club.campaignId}`, await live());
    expect(reply.status).toBe(200);
    const body = reply.json<Record<string, unknown> & { campaign: { playlist: { mapUid: string }[]; clubId: number; endTimestamp: number } }>();
    expect(body).toMatchObject({ campaignId: club.campaignId, clubId: club.clubId, clubName: club.clubName, name: club.name, mapsCount: club.mapUids.length });
    expect(body.campaign.playlist.map((p) => p.mapUid)).toEqual(club.mapUids);
    expect(body.campaign).toMatchObject({ clubId: club.clubId, endTimestamp: 0 });
    for (const field of ['activityId', 'clubDecalUrl', 'creatorAccountId', 'mediaUrl', 'popularityLevel', 'publicationTimestamp']) expect(body).toHaveProperty(field);
  });

  it('live: an unknown club campaign is 404 ["activity:error-notFound"]; a members-only one is 403 ["clubMemberRole:error-notMember"]', async () => {
    const unknown = await get(`${emulator().url}/api/token/club/4242/campaign/999`, await live());
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toEqual(['activity:error-notFound']);
    const closed = dataset.clubCampaigns!.find((c) => c.membersOnly)!;
    const refused = await get(`${emulator().url}/api/token/club/${closed.clubId}/campaign/${closed.campaignId}`, await live());
    expect(refused.status).toBe(403);
    expect(refused.json()).toEqual(['clubMemberRole:error-notMember']);
  });
});

describe('Live services: positions by score', () => {
  it('live: per map asked, the World position a record of that score would have among the records and the crowd', async () => {
    const [a, b] = dataset.maps;
    const scores: [string, number][] = [
      [a!.mapUid, a!.authorScore],
      [b!.mapUid, b!.bronzeScore],
    ];
    const reply = await positionsCall(emulator().url, await live(), scores);
    expect(reply.status).toBe(200);
    const body = reply.json<PositionEntry[]>();
    expect(body.map((e) => e.mapUid)).toEqual([a!.mapUid, b!.mapUid]);
    for (const [i, entry] of body.entries()) {
      const [uid, score] = scores[i]!;
      const map = dataset.maps.find((m) => m.mapUid === uid)!;
      expect(entry).toEqual({
        groupUid: 'Personal_Best',
        mapUid: uid,
        score,
        zones: [{ zoneId: WORLD_ZONE_ID, zoneName: 'World', ranking: { position: WorldBoard.of(dataset, map, 'Personal_Best')!.position(score), length: 0 } }],
      });
    }
    // With a crowd nobody here watches, a bronze score is far down the world's leaderboard.
    expect(body[1]!.zones[0]!.ranking.position).toBeGreaterThan(1000);
  });

  it('live: without a population (no crowd) a position counts the records strictly better; unknown maps and closed groups are left out', async () => {
    const plain: Dataset = structuredClone(dataset);
    for (const m of plain.maps) delete m.population;
    const emu = await startTestEmulator({ dataset: plain });
    try {
      const map = plain.maps.find((m) => m.mapType.endsWith('TM_Race'))!;
      const values = boardValues(plain, map.mapUid).sort((x, y) => x - y);
      const third = values[2]!;
      const body = (await positionsCall(emu.url, {}, [[map.mapUid, third], ['NoSuchMapUidAtAllxxxxxxxx', 1000]])).json<PositionEntry[]>();
      expect(body).toHaveLength(1);
      expect(body[0]!.zones[0]!.ranking.position).toBe(values.filter((v) => v < third).length + 1);
      expect((await positionsCall(emu.url, {}, [[map.mapUid, 1]], [map.mapUid], 'NoSuchSeason')).json()).toEqual([]);
    } finally {
      await emu.close();
    }
  });

  it('live: more than 50 maps is refused; a score for a map the body does not list is a 500, as the docs warn', async () => {
    const many: [string, number][] = Array.from({ length: 51 }, (_, i) => [`Map${String(i).padStart(24, 'x')}`, 1000]);
    const tooMany = await positionsCall(emulator().url, await live(), many);
    expect(tooMany.status).toBe(400);
    expect(tooMany.json()).toEqual(['leaderboard:error-tooManyMaps']);
    const fifty = await positionsCall(emulator().url, await live(), many.slice(0, 50));
    expect(fifty.status).toBe(200);
    const missing = await positionsCall(emulator().url, await live(), [[dataset.maps[0]!.mapUid, 1000]], [dataset.maps[1]!.mapUid]);
    expect(missing.status).toBe(500);
  });

  it('live: an account with a record on the map gets no position better than its own record', async () => {
    const map = dataset.maps.find((m) => m.mapType.endsWith('TM_Race'))!;
    const board = dataset.records.filter((r) => r.mapId === map.mapId && r.scopeId === null).sort((x, y) => x.recordScore.time - y.recordScore.time);
    const player = board[Math.floor(board.length / 2)]!;
    const own = player.recordScore.time;
    const emu = await startTestEmulator({ dataset, auth: { ...LOGIN, accountId: player.accountId } });
    try {
      const headers = { authorization: await token(emu.url, 'NadeoLiveServices') };
      const better = (await positionsCall(emu.url, headers, [[map.mapUid, own - 500]])).json<PositionEntry[]>();
      expect(better[0]!.score).toBe(own);
      expect(better[0]!.zones[0]!.ranking.position).toBe(WorldBoard.of(dataset, map, 'Personal_Best')!.position(own));
      const worse = (await positionsCall(emu.url, headers, [[map.mapUid, own + 500]])).json<PositionEntry[]>();
      expect(worse[0]!.score).toBe(own + 500);
    } finally {
      await emu.close();
    }
  });
});

describe('Live services: top of a leaderboard', () => {
  // Without a crowd (no population), the world's leaderboard is the dataset's records.
  const plain: Dataset = structuredClone(dataset);
  for (const m of plain.maps) delete m.population;
  const uncrowded = useEmulator({ dataset: plain, auth: { ...LOGIN } });
  const top = async (path: string) => get(`${uncrowded().url}${path}`, { authorization: await token(uncrowded().url, 'NadeoLiveServices') });

  it('live: length=1&onlyWorld=true gives the world record at position 1; unknown groups {}; unknown maps an empty top', async () => {
    const map = plain.maps.find((m) => m.mapType.endsWith('TM_Race') && m.secretThreshold === undefined)!;
    const best = plain.records.filter((r) => r.mapId === map.mapId && r.scopeId === null).sort((x, y) => x.recordScore.time - y.recordScore.time)[0]!;
    const reply = await top(`/api/token/leaderboard/group/Personal_Best/map/${map.mapUid}/top?length=1&onlyWorld=true`);
    expect(reply.json()).toEqual({
      groupUid: 'Personal_Best',
      mapUid: map.mapUid,
      tops: [
        {
          zoneId: WORLD_ZONE_ID,
          zoneName: 'World',
          top: [{ accountId: best.accountId, zoneId: WORLD_ZONE_ID, zoneName: 'World', position: 1, score: best.recordScore.time, timestamp: Date.parse(best.timestamp) / 1000 }],
        },
      ],
    });
    expect((await top(`/api/token/leaderboard/group/NoSuchGroup/map/${map.mapUid}/top?length=1&onlyWorld=true`)).json()).toEqual({});
    const unknown = (await top(`/api/token/leaderboard/group/Personal_Best/map/NoSuchMapUidxxxxxxxxxxxx/top?length=1&onlyWorld=true`)).json();
    expect(unknown).toEqual({ groupUid: 'Personal_Best', mapUid: 'NoSuchMapUidxxxxxxxxxxxx', tops: [{ zoneId: WORLD_ZONE_ID, zoneName: 'World', top: [] }] });
    const five = (await top(`/api/token/leaderboard/group/Personal_Best/map/${map.mapUid}/top?length=50`)).json<{ tops: { top: unknown[] }[] }>();
    expect(five.tops[0]!.top.length).toBeLessThanOrEqual(5);
  });

  it('live: a record hidden by a secret threshold shows -1 as its score', async () => {
    const map = plain.maps.find((m) => m.secretThreshold !== undefined)!;
    const body = (await top(`/api/token/leaderboard/group/Personal_Best/map/${map.mapUid}/top?length=100&onlyWorld=true`)).json<{
      tops: { top: { score: number }[] }[];
    }>();
    const entries = body.tops[0]!.top;
    expect(entries[0]!.score).toBe(-1);
    // The threshold is a time (map-page.md): the records faster than it.
    const hiddenCount = plain.records.filter((r) => r.mapId === map.mapId && r.scopeId === null && r.recordScore.time < map.secretThreshold!).length;
    expect(entries.filter((e) => e.score === -1)).toHaveLength(hiddenCount);
  });
});

describe('Live services: budget', () => {
  it('live: Live, Exchange and names each have their own rate limit, apart from Core', async () => {
    // 0.01 requests/s: one request per service passes, the next waits 100 s; no clock can race that.
    const emu = await startTestEmulator({ dataset, rateLimitRps: 0.01 });
    try {
      expect((await get(`${emu.url}/maps/?mapUidList=${dataset.maps[0]!.mapUid}`)).status).toBe(200);
      expect((await get(`${emu.url}/api/campaign/official`)).status).toBe(200);
      expect((await get(`${emu.exchangeUrl}/api/maps?fields=MapId`)).status).toBe(200);
      expect((await get(`${emu.oauthUrl}/api/display-names/account-ids?displayName[]=Speedy`)).status).toBe(200);
      const again = await get(`${emu.liveUrl}/api/token/campaign/month`);
      expect(again.status).toBe(429);
      expect(Number(again.headers['retry-after'])).toBeGreaterThan(1);
    } finally {
      await emu.close();
    }
  });
});

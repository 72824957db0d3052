// The Live client against the emulator: campaigns, Track of the Day, club campaigns, the top, world positions
// (packed at the minimum), the own-record rule, and a budget of its own.
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  createLiveClient,
  createNadeoClient,
  ErrorCode,
  HttpError,
  minimumPositionRequests,
  ServiceLimiters,
  type LiveClientOptions,
  type PositionQuery,
} from '../../../src-main/core/nadeo/index.ts';
import { generateDataset, WorldBoard, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { startTestEmulator, useEmulator } from '../../helpers/emulator.ts';
import { FakeClock, flush } from '../../unit/nadeo/fake-clock.ts';
import { testClientOptions } from './helpers.ts';

const LOGIN = { login: 'svc-live', password: 'pw' };
const POSITIONS = 'POST /api/token/leaderboard/group/map';
// As of mid-May 2026 (the emulator's calendar follows `now`): Spring 2026, May played to the 12th.
const dataset = generateDataset({ seed: 41, maps: 25, players: 50, now: Date.parse('2026-05-12T20:00:00Z') });
delete dataset.maps.find((m) => m.mapType.endsWith('TM_Race') && m.secretThreshold === undefined)!.population;
const emulator = useEmulator({ dataset, auth: { ...LOGIN } });

function liveOptions(emu: RunningEmulator, extra: Partial<LiveClientOptions> = {}): LiveClientOptions {
  const { baseUrl: _unused, ...fast } = testClientOptions(emu.url);
  return { ...fast, coreBaseUrl: emu.url, liveBaseUrl: emu.liveUrl, credentials: { ...LOGIN }, ...extra };
}


describe('Live client', () => {
  it('live client: logs in once for NadeoLiveServices and reads campaigns, months, a club campaign and the world record', async () => {
    const emu = emulator();
    emu.resetStats();
    const live = createLiveClient(liveOptions(emu));
    try {
      const page = await live.getSeasonalCampaigns({ offset: 0, length: 3 });
      expect(page.itemCount).toBe(3);
      expect(page.campaigns.map((c) => c.name)).toEqual(['Spring 2026', 'Winter 2026', 'Fall 2025']);
      expect(page.campaigns[0]).toMatchObject({ clubId: 0, startsAt: '2026-04-01T15:00:00.000Z', endsAt: '2026-07-01T15:00:00.000Z', mapUids: dataset.maps.map((m) => m.mapUid) });

      const asked = Date.now();
      const months = await live.getTrackOfTheDayMonths({ offset: 0, length: 2 });
      expect(months.months.map((m) => `${m.year}-${m.month}`)).toEqual(['2026-5', '2026-4']);
      const may = months.months[0]!;
      expect(may.days).toHaveLength(31);
      expect(may.days.filter((d) => d.mapUid === null)).toHaveLength(19);
      expect(may.days[0]).toMatchObject({ monthDay: 1, startsAt: '2026-05-01T17:00:00.000Z', endsAt: '2026-05-02T17:00:00.000Z' });
      // The next Track of the Day by the service's clock (the real one here): within a day of asking.
      expect(Date.parse(months.nextAt!)).toBeGreaterThan(asked);
      expect(Date.parse(months.nextAt!)).toBeLessThanOrEqual(Date.now() + 86_400_000);

      const club = await live.getClubCampaign(4242, 1701);
      expect(club).toMatchObject({ clubId: 4242, id: 1701, name: 'Club Cup #1', clubName: '$s$0c0Trackwatch $fffClub', endsAt: null, mapUids: dataset.clubCampaigns![0]!.mapUids });

      // A map without a crowd of unwatched players (no population): its world record is the dataset's best.
      const race = dataset.maps.find((m) => m.mapType.endsWith('TM_Race') && m.secretThreshold === undefined && m.population === undefined)!;
      const best = dataset.records.filter((r) => r.mapId === race.mapId && r.scopeId === null).sort((a, b) => a.recordScore.time - b.recordScore.time || a.timestamp.localeCompare(b.timestamp))[0]!;
      expect(await live.getWorldRecord(race.mapUid)).toEqual({
        mapUid: race.mapUid,
        accountId: best.accountId,
        score: best.recordScore.time,
        position: 1,
        setAt: new Date(Date.parse(best.timestamp)).toISOString(),
        timestamp: Math.floor(Date.parse(best.timestamp) / 1000),
      });
      expect(await live.getWorldRecord('NoSuchMapUidxxxxxxxxxxxxx')).toBeNull();
      expect(emu.stats().byRoute['POST /v2/authentication/token/basic']).toBe(1);
    } finally {
      await live.close();
    }
  });

  it('live client: an unknown club campaign is NOT_FOUND and a members-only one FORBIDDEN, saying so', async () => {
    const live = createLiveClient(liveOptions(emulator()));
    try {
      const unknown = await live.getClubCampaign(4242, 999).catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(HttpError);
      expect(unknown).toMatchObject({ code: ErrorCode.NOT_FOUND, status: 404, apiCode: 'activity:error-notFound' });
      expect((unknown as Error).message).toContain('Club 4242 has no campaign 999');
      const closed = await live.getClubCampaign(4242, 1702).catch((e: unknown) => e);
      expect(closed).toMatchObject({ code: ErrorCode.FORBIDDEN, status: 403, apiCode: 'clubMemberRole:error-notMember' });
      expect((closed as Error).message).toContain("open to the club's members only");
    } finally {
      await live.close();
    }
  });

  it('live client: positions for 25 maps x 50 players cost 50 requests, the minimum, each answer in the order asked', async () => {
    const emu = emulator();
    const live = createLiveClient(liveOptions(emu));
    try {
      await live.testLogin();
      const queries: PositionQuery[] = [];
      dataset.maps.forEach((map, m) => {
        for (let p = 0; p < 50; p++) queries.push({ mapUid: map.mapUid, score: (map.mapType.endsWith('TM_Stunt') ? 1000 : 30_000) + p * 17 + m });
      });
      emu.resetStats();
      const results = await live.getPositions(queries);
      expect(minimumPositionRequests(queries)).toBe(50);
      expect(emu.stats().byRoute[POSITIONS]).toBe(50);
      expect(emu.stats().byStatus['400'] ?? 0).toBe(0);
      expect(results).toHaveLength(queries.length);
      results.forEach((r, i) => {
        const q = queries[i]!;
        const map = dataset.maps.find((x) => x.mapUid === q.mapUid)!;
        expect(r).toMatchObject({ state: 'ranked', mapUid: q.mapUid, score: q.score, position: WorldBoard.of(dataset, map, 'Personal_Best')!.position(q.score) });
        if (r.state === 'ranked') expect(r.zones[0]).toMatchObject({ zoneName: 'World', position: r.position });
      });

      // The same questions again, repeated: asked once each, so the same 50 requests.
      emu.resetStats();
      await live.getPositions([...queries, ...queries]);
      expect(emu.stats().byRoute[POSITIONS]).toBe(50);
    } finally {
      await live.close();
    }
  });

  it('live client: faults on the Live host (500, 503, 429, drops, cut bodies) are retried to the same answers', async () => {
    const emu = await startTestEmulator({ dataset, failRate: 0.3, faultSeed: 7, retryAfterSec: 0 });
    const calm = createLiveClient(liveOptions(emulator()));
    const live = createLiveClient({ ...liveOptions(emu), credentials: undefined });
    try {
      const queries = dataset.maps.flatMap((map, m) => [0, 1, 2].map((p) => ({ mapUid: map.mapUid, score: 30_000 + p * 101 + m })));
      expect(await live.getPositions(queries)).toEqual((await calm.getPositions(queries)).map((r) => ({ ...r, asOf: expect.any(String) })));
      expect((await live.getSeasonalCampaigns({ length: 3 })).campaigns).toHaveLength(3);
      expect(emu.stats().faults).toBeGreaterThan(0);
      expect(live.stats().retries).toBeGreaterThan(0);
    } finally {
      await live.close();
      await calm.close();
      await emu.close();
    }
  });

  it('live client: unknown maps are unavailable and malformed questions invalid, never sent', async () => {
    const emu = emulator();
    const live = createLiveClient(liveOptions(emu));
    try {
      emu.resetStats();
      const results = await live.getPositions([
        { mapUid: 'NoSuchMapUidxxxxxxxxxxxxx', score: 40_000 },
        { mapUid: 'bad uid,with comma', score: 40_000 },
        { mapUid: dataset.maps[0]!.mapUid, score: 4294967295 },
        { mapUid: dataset.maps[0]!.mapUid, score: -3 },
      ]);
      expect(results[0]).toMatchObject({ state: 'unavailable', mapUid: 'NoSuchMapUidxxxxxxxxxxxxx' });
      expect(results[0]!.state === 'unavailable' && Date.parse(results[0]!.asOf)).toBeGreaterThan(0);
      expect(results.slice(1).map((r) => r.state)).toEqual(['invalid', 'invalid', 'invalid']);
      expect(results[2]!.state === 'invalid' && results[2]!.reason).toContain('a hidden time has no position');
      expect(emu.stats().byRoute[POSITIONS]).toBe(1);
      await expect(live.getPositions([], { groupUid: 'bad group!' })).rejects.toThrow(/not a leaderboard group/);
    } finally {
      await live.close();
    }
  });

  it('live client: logged in as a player, scores better than its own record come back limitedByOwnRecord', async () => {
    const map = dataset.maps.find((m) => m.mapType.endsWith('TM_Race'))!;
    const board = dataset.records.filter((r) => r.mapId === map.mapId && r.scopeId === null).sort((a, b) => a.recordScore.time - b.recordScore.time);
    const player = board[Math.floor(board.length / 2)]!;
    const own = player.recordScore.time;
    const emu = await startTestEmulator({ dataset, auth: { ...LOGIN, accountId: player.accountId } });
    const live = createLiveClient(liveOptions(emu));
    try {
      const [better, worse] = await live.getPositions([
        { mapUid: map.mapUid, score: own - 250 },
        { mapUid: map.mapUid, score: own + 250 },
      ]);
      expect(better).toMatchObject({ state: 'limitedByOwnRecord', score: own - 250, ownScore: own });
      expect(worse).toMatchObject({ state: 'ranked', score: own + 250 });
    } finally {
      await live.close();
      await emu.close();
    }
  });
});

describe('Budgets per service', () => {
  it('budget: Core and Live on one origin each have their own limiter; a second Live call waits for its own budget only', async () => {
    const emu = await startTestEmulator({ dataset });
    // Time stands still: each service may start one request (burst 1) and no more.
    const clock = new FakeClock();
    const budgets = new ServiceLimiters({ clock, core: { maxRps: 1 }, live: { maxRps: 1 } });
    const core = createNadeoClient({ ...testClientOptions(emu.url), limiters: budgets.for('core') });
    const live = createLiveClient({ ...liveOptions(emu), credentials: undefined, limiters: budgets.for('live') });
    try {
      const [maps, campaigns] = await Promise.all([core.getMapsByUid([dataset.maps[0]!.mapUid]), live.getSeasonalCampaigns()]);
      expect(maps.maps).toHaveLength(1);
      expect(campaigns.campaigns).toHaveLength(1);
      const stop = new AbortController();
      const waiting = live.getTrackOfTheDayMonths({ signal: stop.signal });
      await flush();
      const origin = new URL(emu.url).origin;
      expect(budgets.for('live').for(origin).stats()).toMatchObject({ granted: 1, waiting: 1 });
      expect(budgets.for('core').for(origin).stats()).toMatchObject({ granted: 1, waiting: 0 });
      stop.abort();
      await expect(waiting).rejects.toBeInstanceOf(AbortError);
      // Once Live's second has passed, it goes.
      await clock.advance(1000);
      expect((await live.getTrackOfTheDayMonths()).months).toHaveLength(1);
    } finally {
      await core.close();
      await live.close();
      budgets.dispose();
      await emu.close();
    }
  });
});

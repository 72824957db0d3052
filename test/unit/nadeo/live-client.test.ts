// The Live, Exchange and names clients against programmable servers: the docs' example bodies, the token going to
// the Live host only, a gone route's successor, zones ordered world first, and the configuration checks.
import { afterEach, describe, expect, it } from 'vitest';
import {
  ConfigError,
  createExchangeClient,
  createLiveClient,
  createNamesClient,
  REAL_BASE_URL,
  WORLD_ZONE_ID,
  type ExchangeClient,
  type LiveClient,
  type NamesClient,
} from '../../../src-main/core/nadeo/index.ts';
import { pathOf, queryOf, sendJson, startLocalServer, type LocalServer } from './local-server.ts';

let servers: LocalServer[] = [];
let clients: (LiveClient | ExchangeClient | NamesClient)[] = [];
afterEach(async () => {
  for (const c of clients) await c.close();
  for (const s of servers) await s.close();
  servers = [];
  clients = [];
});

const fast = { appVersion: '0.1.0', maxRps: 1000, burst: 20, retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } };

function jwt(claims: Record<string, unknown>): string {
  const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.sig`;
}

/** The v2 example answer of docs/live/campaigns/campaigns-v2.md, shortened to two maps. */
const CAMPAIGNS_EXAMPLE = {
  itemCount: 18,
  campaignList: [
    {
      id: 77963,
      seasonUid: '402f721f-65ca-4975-9eb0-afa753561a8a',
      name: 'Fall 2024',
      useCase: 0,
      clubId: 0,
      startTimestamp: 1727794800,
      endTimestamp: 1735747200,
      rankingSentTimestamp: null,
      year: -1,
      week: -1,
      day: -1,
      monthYear: -1,
      month: -1,
      monthDay: -1,
      playlist: [
        { id: 926467, position: 24, mapUid: 'End5ikYJa8pgN8RI347E6l4i7lg' },
        { id: 926443, position: 0, mapUid: 'rw7jr8WlTrYor0vN0A0PiKzgg78' },
      ],
      editionTimestamp: 1727082440,
    },
  ],
  nextRequestTimestamp: 1735747200,
  relativeNextRequest: 704811,
};

async function serve(handler: Parameters<typeof startLocalServer>[0]): Promise<LocalServer> {
  const s = await startLocalServer(handler);
  servers.push(s);
  return s;
}

function track<T extends LiveClient | ExchangeClient | NamesClient>(c: T): T {
  clients.push(c);
  return c;
}

describe('Live client, wire details', () => {
  it('logs in on the Core host with the Live audience and sends the token to the Live host only', async () => {
    const core = await serve((req, res) => {
      if (pathOf(req.url) === '/v2/authentication/token/basic') return sendJson(res, 200, { accessToken: jwt({ exp: 4e9, rat: 3e9, aud: 'NadeoLiveServices' }), refreshToken: jwt({ exp: 4e9 }) });
      return sendJson(res, 404, {});
    });
    const live = await serve((req, res) => sendJson(res, 200, CAMPAIGNS_EXAMPLE));
    const client = track(createLiveClient({ ...fast, coreBaseUrl: core.url, liveBaseUrl: live.url, credentials: { login: 'l', password: 'p' } }));
    const page = await client.getSeasonalCampaigns({ offset: 0, length: 1 });
    expect(page.campaigns[0]).toEqual({
      id: 77963,
      name: 'Fall 2024',
      seasonUid: '402f721f-65ca-4975-9eb0-afa753561a8a',
      clubId: 0,
      startsAt: '2024-10-01T15:00:00.000Z',
      endsAt: '2025-01-01T16:00:00.000Z',
      mapUids: ['rw7jr8WlTrYor0vN0A0PiKzgg78', 'End5ikYJa8pgN8RI347E6l4i7lg'],
    });
    expect(core.requests).toHaveLength(1);
    expect(JSON.parse(core.requests[0]!.body)).toEqual({ audience: 'NadeoLiveServices' });
    expect(live.requests[0]!.url).toBe('/api/campaign/official?offset=0&length=1');
    expect(live.requests[0]!.headers['authorization']).toMatch(/^nadeo_v1 t=/);
    expect(live.requests[0]!.headers['user-agent']).toBe('Trackwatch/0.1.0 (emulator; no contact)');
  });

  it('moves to the deprecated campaigns route when v2 answers 404 without a Live error, and stays there', async () => {
    const live = await serve((req, res) => {
      if (pathOf(req.url) === '/api/campaign/official') return sendJson(res, 404, { message: 'No route found' });
      return sendJson(res, 200, CAMPAIGNS_EXAMPLE);
    });
    const client = track(createLiveClient({ ...fast, coreBaseUrl: live.url }));
    expect((await client.getSeasonalCampaigns()).campaigns).toHaveLength(1);
    expect((await client.getSeasonalCampaigns({ offset: 1 })).campaigns).toHaveLength(1);
    expect(live.requests.map((r) => pathOf(r.url))).toEqual(['/api/campaign/official', '/api/token/campaign/official', '/api/token/campaign/official']);
  });

  it('reads Track of the Day months: empty mapUids are days to come, nextRequestTimestamp -1 is "not scheduled"', async () => {
    const live = await serve((_req, res) =>
      sendJson(res, 200, {
        monthList: [
          {
            year: 2021,
            month: 12,
            lastDay: 31,
            days: [
              { campaignId: 18865, mapUid: '', day: 4, monthDay: 31, seasonUid: '90769a06-30f6-4980-83eb-b046e15c111b', leaderboardGroup: null, startTimestamp: 1640973600, endTimestamp: 1641060000, relativeStart: 1, relativeEnd: 2 },
              { campaignId: 18255, mapUid: 'CFI34MJLLF0M88pCmn1WHTSd6K9', day: 2, monthDay: 1, seasonUid: 'ee58b4e5-a7f0-41de-a8dd-e4744b009ab2', leaderboardGroup: null, startTimestamp: 1638381600, endTimestamp: 1638468000, relativeStart: -1, relativeEnd: -2 },
            ],
            media: {},
          },
        ],
        itemCount: 25,
        nextRequestTimestamp: -1,
        relativeNextRequest: -1,
      }),
    );
    const client = track(createLiveClient({ ...fast, coreBaseUrl: live.url }));
    const page = await client.getTrackOfTheDayMonths({ offset: 7 });
    expect(queryOf(live.requests[0]!.url).get('offset')).toBe('7');
    expect(page).toEqual({
      itemCount: 25,
      nextAt: null,
      months: [
        {
          year: 2021,
          month: 12,
          lastDay: 31,
          days: [
            { monthDay: 1, mapUid: 'CFI34MJLLF0M88pCmn1WHTSd6K9', campaignId: 18255, startsAt: '2021-12-01T18:00:00.000Z', endsAt: '2021-12-02T18:00:00.000Z' },
            { monthDay: 31, mapUid: null, campaignId: 18865, startsAt: '2021-12-31T18:00:00.000Z', endsAt: '2022-01-01T18:00:00.000Z' },
          ],
        },
      ],
    });
  });

  it('puts the world first among the zones an answer gives, and keeps the others in order', async () => {
    const live = await serve((req, res) => {
      const uid = JSON.parse(req.body).maps[0].mapUid as string;
      const score = Number(queryOf(req.url).get(`scores[${uid}]`));
      sendJson(res, 200, [
        {
          groupUid: 'Personal_Best',
          mapUid: uid,
          score,
          zones: [
            { zoneId: 'z-eu', zoneName: 'Europe', ranking: { position: 80, length: 0 } },
            { zoneId: WORLD_ZONE_ID, zoneName: 'World', ranking: { position: 294, length: 0 } },
            { zoneId: 'z-fr', zoneName: 'France', ranking: { position: 12, length: 0 } },
          ],
        },
      ]);
    });
    const client = track(createLiveClient({ ...fast, coreBaseUrl: live.url }));
    const [result] = await client.getPositions([{ mapUid: 'gjt2DWATrQ_NdrbrXG0G9oDpTfh', score: 15800 }]);
    expect(result).toMatchObject({ state: 'ranked', position: 294, zones: [{ zoneName: 'World', position: 294 }, { zoneName: 'Europe', position: 80 }, { zoneName: 'France', position: 12 }] });
    expect(live.requests[0]!.method).toBe('POST');
    expect(live.requests[0]!.url).toBe('/api/token/leaderboard/group/map?scores[gjt2DWATrQ_NdrbrXG0G9oDpTfh]=15800');
    expect(JSON.parse(live.requests[0]!.body)).toEqual({ maps: [{ mapUid: 'gjt2DWATrQ_NdrbrXG0G9oDpTfh', groupUid: 'Personal_Best' }] });
    expect(live.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('a stricter proxy (414) splits a positions request and remembers the shorter limit', async () => {
    const live = await serve((req, res) => {
      if (req.url.length > 200) return sendJson(res, 414, {});
      const maps = (JSON.parse(req.body) as { maps: { mapUid: string }[] }).maps;
      sendJson(res, 200, maps.map(({ mapUid }) => ({ groupUid: 'Personal_Best', mapUid, score: Number(queryOf(req.url).get(`scores[${mapUid}]`)), zones: [{ zoneId: WORLD_ZONE_ID, zoneName: 'World', ranking: { position: 1 } }] })));
    });
    const client = track(createLiveClient({ ...fast, coreBaseUrl: live.url }));
    const queries = Array.from({ length: 8 }, (_, i) => ({ mapUid: `Map${i}xxxxxxxxxxxxxxxxxxxxxxx`, score: 1000 + i }));
    const results = await client.getPositions(queries);
    expect(results.every((r) => r.state === 'ranked')).toBe(true);
    const tooLong = live.requests.filter((r) => r.url.length > 200).length;
    expect(tooLong).toBe(1);
    live.requests.length = 0;
    await client.getPositions(queries.map((q) => ({ ...q, score: q.score + 1 })));
    expect(live.requests.every((r) => r.url.length <= 200)).toBe(true);
  });

  it('refuses a real Core host with an emulator Live host, and needs a contact against the real service', () => {
    expect(() => createLiveClient({ ...fast, coreBaseUrl: REAL_BASE_URL, liveBaseUrl: 'http://127.0.0.1:9' })).toThrow(ConfigError);
    expect(() => createLiveClient({ ...fast, coreBaseUrl: REAL_BASE_URL })).toThrow(/contact is required/);
    expect(() => createExchangeClient({ ...fast })).toThrow(/contact is required/);
    expect(() => createExchangeClient({ ...fast, baseUrl: 'http://trackmania.exchange', contact: 'me' })).toThrow(/https/);
    expect(() => createNamesClient({ ...fast, clientId: '', clientSecret: 'x' })).toThrow(/OAuth app/);
  });

  it('a 429 from the Live host is retried after its Retry-After, like the Core host', async () => {
    let first = true;
    const live = await serve((_req, res) => {
      if (first) {
        first = false;
        return sendJson(res, 429, {}, { 'retry-after': '0' });
      }
      sendJson(res, 200, CAMPAIGNS_EXAMPLE);
    });
    const client = track(createLiveClient({ ...fast, coreBaseUrl: live.url }));
    expect((await client.getSeasonalCampaigns()).campaigns).toHaveLength(1);
    expect(client.stats()).toMatchObject({ requests: 2, retries: 1 });
  });
});

describe('names and Exchange clients, wire details', () => {
  it('reads the PHP empty map [] as "no names" and matches a name the service spells in another case', async () => {
    const oauth = await serve((req, res) => {
      if (pathOf(req.url) === '/api/access_token') return sendJson(res, 200, { token_type: 'bearer', access_token: jwt({ exp: 4e9 }) });
      const names = queryOf(req.url).getAll('displayName[]');
      if (names.includes('Nsgr')) return sendJson(res, 200, { nsgr: '5b4d42f4-c2de-407d-b367-cbff3fe817bc' });
      sendJson(res, 200, []);
    });
    const client = track(createNamesClient({ ...fast, baseUrl: oauth.url, clientId: 'a', clientSecret: 'b' }));
    expect(await client.getAccountIds(['Ghost'])).toEqual({ found: new Map(), unknown: ['Ghost'], ambiguous: [], invalid: [] });
    expect((await client.getAccountIds(['Nsgr'])).found).toEqual(new Map([['Nsgr', '5b4d42f4-c2de-407d-b367-cbff3fe817bc']]));
    expect(oauth.requests.filter((r) => pathOf(r.url) === '/api/access_token')).toHaveLength(1);
    expect(oauth.requests[1]!.headers['authorization']).toMatch(/^Bearer /);
  });

  it('an OAuth token without expires_in lives as long as its JWT exp claim says', async () => {
    let t = 1_000_000_000_000;
    let issued = 0;
    const oauth = await serve((req, res) => {
      if (pathOf(req.url) === '/api/access_token') return sendJson(res, 200, { token_type: 'bearer', access_token: jwt({ exp: t / 1000 + 120, n: ++issued }) });
      sendJson(res, 200, []);
    });
    const client = track(createNamesClient({ ...fast, baseUrl: oauth.url, clientId: 'a', clientSecret: 'b', now: () => t }));
    await client.getAccountIds(['One']);
    t += 60_000;
    await client.getAccountIds(['Two']);
    expect(issued).toBe(1);
    // Past its two minutes (less the safety margin): a new token, not one kept for the default hour.
    t += 60_000;
    await client.getAccountIds(['Three']);
    expect(issued).toBe(2);
  });

  it('an Exchange answer with More but nothing new stops paging instead of looping', async () => {
    const tmx = await serve((_req, res) => sendJson(res, 200, { More: true, Results: [{ MapId: 5, MapUid: 'Uid5xxxxxxxxxxxxxxxxxxxxx', Name: 'Five' }] }));
    const client = track(createExchangeClient({ ...fast, baseUrl: tmx.url }));
    const pack = await client.getMapPack(1);
    expect(pack.maps.map((m) => m.exchangeId)).toEqual([5]);
    expect(tmx.requests.map((r) => queryOf(r.url).get('after'))).toEqual([null, '5']);
  });
});

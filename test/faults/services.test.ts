// The newer services (Trackmania Exchange, the Live campaigns) against a hostile server of the tests' own (issue 17
// section 1): each case ends in one clear line, within a bounded number of requests, and a paged source stops with
// its caller. No sleeps: the server's own events say when a request arrived.
import type { ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createExchangeClient, EXCHANGE_MAX_MAPS, type ExchangeClient } from '../../src-main/core/exchange/client.ts';
import { createLiveClient, createNadeoClient, createNamesClient, resolveListSource, type LiveClient } from '../../src-main/core/nadeo/index.ts';
import { MAX_CAMPAIGN_PAGES, MAX_SOURCE_MAPS } from '../../src-main/core/nadeo/sources/sources.ts';
import { addMaps } from '../../src-main/core/trackwatch/watch.ts';
import { memoryStore } from '../unit/store/fixtures.ts';
import { makeMap } from '../unit/nadeo/fixtures.ts';
import { sendJson, startHostileServer, type HostileServer, FAST_CLIENT } from './hostile-server.ts';

let server: HostileServer;
let exchange: ExchangeClient | undefined;
let live: LiveClient | undefined;
beforeEach(async () => {
  server = await startHostileServer();
});
afterEach(async () => {
  await exchange?.close();
  await live?.close();
  exchange = live = undefined;
  await server.close();
});


function openExchange(): ExchangeClient {
  exchange = createExchangeClient({ ...FAST_CLIENT, baseUrl: server.url });
  return exchange;
}

function openLive(): LiveClient {
  live = createLiveClient({ ...FAST_CLIENT, coreBaseUrl: server.url });
  return live;
}

/** Exchange maps numbered from `from`, `count` of them. */
function exchangeMaps(from: number, count: number): { MapId: number; MapUid: string; Name: string }[] {
  return Array.from({ length: count }, (_, i) => ({ MapId: from + i, MapUid: `uid${String(from + i).padStart(20, '0')}`, Name: `Map ${from + i}` }));
}

/** One line of text: what the player reads. */
function oneLine(error: unknown): string {
  const message = (error as Error).message;
  expect(message).not.toMatch(/\n/);
  return message;
}

describe('Trackmania Exchange map packs', () => {
  it('stops a pack that keeps answering "more" with new maps at what a list holds, with one line', async () => {
    server.answer = (req, res) => {
      const after = Number(req.query.get('after') ?? 0);
      sendJson(res, 200, { More: true, Results: exchangeMaps(after + 1, 100) });
    };
    const error = await openExchange().getMapPack(5150).catch((e: unknown) => e);
    expect(oneLine(error)).toContain(`more than ${EXCHANGE_MAX_MAPS.toLocaleString('en-US')} maps for map pack 5150`);
    expect(server.requests.length).toBeLessThanOrEqual(EXCHANGE_MAX_MAPS / 100 + 1);
  });

  it('stops when a page that says "more" brings no map not seen before', async () => {
    server.answer = (_req, res) => sendJson(res, 200, { More: true, Results: exchangeMaps(1, 3) });
    const pack = await openExchange().getMapPack(7);
    expect(pack.maps.map((m) => m.exchangeId)).toEqual([1, 2, 3]);
    expect(server.requests).toHaveLength(2);
  });

  it('stops with a page that repeats old maps beside one it already had (ids going back)', async () => {
    let page = 0;
    server.answer = (_req, res) => {
      page++;
      sendJson(res, 200, { More: true, Results: page === 1 ? exchangeMaps(10, 2) : exchangeMaps(10, 2).reverse() });
    };
    const pack = await openExchange().getMapPack(8);
    expect(pack.maps).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('ends the paging with its caller, and a second ask for the same pack does not wait on the abandoned one', async () => {
    let hungUp!: () => void;
    const firstHungUp = new Promise<void>((ok) => (hungUp = ok));
    server.answer = (_req, res) => {
      // The first request never gets an answer: the caller gives up, and the client must hang up on it.
      if (server.requests.length === 1) return void res.on('close', hungUp);
      sendJson(res, 200, { More: false, Results: exchangeMaps(1, 2) });
    };
    const client = openExchange();
    const caller = new AbortController();
    const first = client.getMapPack(9, { signal: caller.signal }).catch((e: unknown) => e);
    await server.received(1);
    caller.abort();
    expect(((await first) as Error).name).toBe('AbortError');
    await firstHungUp;
    const second = await client.getMapPack(9);
    expect(second.maps).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('a pack is titled by its name; a name the Exchange cannot give, or gives for another pack, leaves its number', async () => {
    let names: (res: ServerResponse) => void = (res) => sendJson(res, 200, { More: false, Results: [{ MappackId: 4, Name: 'Spring Cup\u202e\u0007' }] });
    server.answer = (req, res) => (req.path.endsWith('/api/mappacks') ? names(res) : sendJson(res, 200, { More: false, Results: exchangeMaps(1, 2) }));
    const title = async (): Promise<string> => {
      const client = createExchangeClient({ ...FAST_CLIENT, baseUrl: server.url });
      try {
        return (await resolveListSource({ kind: 'tmx-pack', packId: 4 }, { exchange: client })).title;
      } finally {
        await client.close();
      }
    };
    // What reaches a list's name is one harmless line: no direction override, no control character.
    expect(await title()).toBe('Spring Cup');
    names = (res) => sendJson(res, 500, { error: 'down' });
    expect(await title()).toBe('Trackmania Exchange pack 4');
    names = (res) => sendJson(res, 200, { More: false, Results: [{ MappackId: 5, Name: 'Another pack' }] });
    expect(await title()).toBe('Trackmania Exchange pack 4');
    names = (res) => sendJson(res, 200, { Results: 'garbage' });
    expect(await title()).toBe('Trackmania Exchange pack 4');
    // A bounded number of requests: two maps pages are one, each name one (500 retried once).
    expect(server.requests.filter((r) => r.path.endsWith('/api/mappacks')).length).toBeLessThanOrEqual(5);
  });

  it('a pack none of whose maps the service knows is refused by the source, one line', async () => {
    server.answer = (_req, res) => sendJson(res, 200, { More: false, Results: [] });
    const error = await resolveListSource({ kind: 'tmx-pack', packId: 3 }, { exchange: openExchange() }).catch((e: unknown) => e);
    expect(oneLine(error)).toContain('map pack 3 has no maps, or does not exist');
  });
});

/** A seasonal campaign as the Live list gives it. */
function campaign(id: number, name: string, maps = 1): object {
  return {
    id,
    seasonUid: `season-${id}`,
    name,
    startTimestamp: 1_700_000_000,
    endTimestamp: 1_710_000_000,
    playlist: Array.from({ length: maps }, (_, i) => ({ id: i, position: i, mapUid: `map${String(id)}x${String(i).padStart(18, '0')}` })),
  };
}

describe('Live campaigns by name', () => {
  it('does not trust an inflated itemCount: a page with nothing new ends the search', async () => {
    server.answer = (req, res) =>
      req.path.endsWith('/campaign/official') ? sendJson(res, 200, { itemCount: 1_000_000_000, campaignList: [campaign(1, 'Fall 2025'), campaign(2, 'Summer 2025')] }) : sendJson(res, 404, []);
    const error = await resolveListSource({ kind: 'campaign', which: 'named', name: 'Winter 1999' }, { live: openLive() }).catch((e: unknown) => e);
    expect(oneLine(error)).toBe('There is no seasonal campaign named "Winter 1999". The latest are: Fall 2025, Summer 2025.');
    expect(server.requests).toHaveLength(2);
  });

  it('stops at its cap when every page brings new campaigns', async () => {
    server.answer = (req, res) => {
      const offset = Number(req.query.get('offset'));
      sendJson(res, 200, { itemCount: 1_000_000_000, campaignList: Array.from({ length: 10 }, (_, i) => campaign(offset + i + 1, `Season ${offset + i + 1}`)) });
    };
    const error = await resolveListSource({ kind: 'campaign', which: 'named', name: 'Winter 1999' }, { live: openLive() }).catch((e: unknown) => e);
    expect(oneLine(error)).toContain('There is no seasonal campaign named "Winter 1999"');
    expect(server.requests).toHaveLength(MAX_CAMPAIGN_PAGES);
  });

  it('ends the search with its caller', async () => {
    server.answer = () => {};
    const caller = new AbortController();
    const search = resolveListSource({ kind: 'campaign', which: 'named', name: 'x' }, { live: openLive() }, { signal: caller.signal }).catch((e: unknown) => e);
    await server.received(1);
    caller.abort();
    expect(((await search) as Error).name).toBe('AbortError');
    expect(server.requests).toHaveLength(1);
  });

  it('refuses a campaign of more maps than a list holds before anything is stored', async () => {
    server.answer = (_req, res) => sendJson(res, 200, { itemCount: 1, campaignList: [campaign(1, 'Huge', MAX_SOURCE_MAPS + 1)] });
    const error = await resolveListSource({ kind: 'campaign', which: 'current' }, { live: openLive() }).catch((e: unknown) => e);
    expect(oneLine(error)).toBe(`The campaign "Huge" holds 5,001 maps, more than a list can follow (5,000); nothing was added.`);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps a remote name with control and direction characters as one harmless line', async () => {
    server.answer = (_req, res) => sendJson(res, 200, { itemCount: 1, campaignList: [campaign(1, 'Fall\n2025\u202Egnp.exe')] });
    const resolved = await resolveListSource({ kind: 'campaign', which: 'current' }, { live: openLive() });
    expect(resolved.title).toBe('Fall 2025 gnp.exe');
    expect(resolved.pinned).toEqual({ kind: 'campaign', which: 'named', name: 'Fall 2025 gnp.exe' });
  });

  it('answers a timestamp outside any date with one line, not a RangeError', async () => {
    server.answer = (_req, res) => sendJson(res, 200, { itemCount: 1, campaignList: [{ ...campaign(1, 'Fall 2025'), startTimestamp: -1e15 }] });
    const error = await openLive().getSeasonalCampaigns().catch((e: unknown) => e);
    expect((error as Error).name).toBe('SchemaError');
    expect(oneLine(error)).toContain('startTimestamp');
  });
});

describe('Live world positions', () => {
  const A = 'MapAxxxxxxxxxxxxxxxxxxxxxxx';
  const B = 'MapBxxxxxxxxxxxxxxxxxxxxxxx';
  const entry = (mapUid: string, score: number, position: number) => ({
    groupUid: 'Personal_Best',
    mapUid,
    score,
    zones: [{ zoneId: '301e1b69-7e13-11e8-8060-e284abfd2bc4', zoneName: 'World', ranking: { position } }],
  });

  it('does not believe an absurd position: the map has none, the others keep theirs, one request', async () => {
    server.answer = (_req, res) => sendJson(res, 200, [entry(A, 50_000, Number.MAX_SAFE_INTEGER), entry(B, 60_000, 1234)]);
    const results = await openLive().getPositions([{ mapUid: A, score: 50_000 }, { mapUid: B, score: 60_000 }]);
    expect(results.map((r) => r.state)).toEqual(['unavailable', 'ranked']);
    expect(results[1]).toMatchObject({ position: 1234 });
    expect(server.requests).toHaveLength(1);
  });

  it('does not take the last of two answers for one map', async () => {
    server.answer = (_req, res) => sendJson(res, 200, [entry(A, 50_000, 10), entry(A, 50_000, 3), entry(B, 60_000, 7)]);
    const results = await openLive().getPositions([{ mapUid: A, score: 50_000 }, { mapUid: B, score: 60_000 }]);
    expect(results.map((r) => r.state)).toEqual(['unavailable', 'ranked']);
  });

  it.each([0, -5])('refuses position %s the same way', async (position) => {
    server.answer = (_req, res) => sendJson(res, 200, [entry(A, 50_000, position)]);
    const [result] = await openLive().getPositions([{ mapUid: A, score: 50_000 }]);
    expect(result!.state).toBe('unavailable');
  });
});

describe('tokens with a line break', () => {
  const broken = 'eyJhbGciOiJIUzI1NiJ9.e30.sig\r\nX-Injected: 1';

  it('a Nadeo login answering one: one line, nothing sent with it', async () => {
    server.answer = (_req, res) => sendJson(res, 200, { accessToken: broken, refreshToken: broken });
    const client = createNadeoClient({ ...FAST_CLIENT, baseUrl: server.url, credentials: { login: 'svc', password: 'pw' } });
    try {
      const error = await client.getMapsByUid(['MapAxxxxxxxxxxxxxxxxxxxxxxx']).catch((e: unknown) => e);
      expect((error as Error).name).toBe('SchemaError');
      expect(oneLine(error)).toContain('a token must be one line of visible characters');
      expect(server.requests.every((r) => r.path.includes('authentication'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('an OAuth token answering one: one line, the name look-up never sent', async () => {
    server.answer = (_req, res) => sendJson(res, 200, { access_token: broken, expires_in: 3600 });
    const names = createNamesClient({ ...FAST_CLIENT, baseUrl: server.url, clientId: 'app', clientSecret: 'secret' });
    try {
      const error = await names.getAccountIds(['Somebody']).catch((e: unknown) => e);
      expect(oneLine(error)).toContain('a token must be one line of visible characters');
      expect(server.requests.map((r) => r.path)).toEqual(['/api/access_token']);
    } finally {
      await names.close();
    }
  });
});

describe('refusals in the player words', () => {
  /** No route label, no service error code: what the player reads. */
  function playerWords(error: unknown): string {
    const message = oneLine(error);
    expect(message).not.toMatch(/\b(GET|POST) \/|:error-|\/api\//);
    return message;
  }

  it('an Exchange 401 does not send the player to their account settings', async () => {
    server.answer = (_req, res) => sendJson(res, 401, { error: 'nope' });
    const message = playerWords(await openExchange().getMapPack(5).catch((e: unknown) => e));
    expect(message).toBe('Trackmania Exchange refused the request (HTTP 401); it needs no account, so nothing in your settings causes this: try again later, or check --exchange-url.');
    expect(message).not.toContain('account settings');
  });

  it('a Live 403 says what to do', async () => {
    server.answer = (_req, res) => sendJson(res, 403, ['campaign:error-forbidden']);
    const message = playerWords(await openLive().getSeasonalCampaigns().catch((e: unknown) => e));
    expect(message).toContain('HTTP 403');
    expect(message).toContain('Use a service account that may');
  });

  it('a members-only club campaign: said plainly, the route and the code kept out of the message', async () => {
    server.answer = (_req, res) => sendJson(res, 403, ['clubMemberRole:error-notMember']);
    const error = await resolveListSource({ kind: 'club', clubId: 4242, campaignId: 1702 }, { live: openLive() }).catch((e: unknown) => e);
    expect(playerWords(error)).toMatch(/^Club 4242's campaign 1702 is open to the club's members only/);
    expect(error).toMatchObject({ code: 'FORBIDDEN', apiCode: 'clubMemberRole:error-notMember' });
  });
});

describe('names by the OAuth API', () => {
  it('an answer of garbage for an ID is a broken answer in one line, not "no player named"', async () => {
    server.answer = (req, res) =>
      req.path === '/api/access_token' ? sendJson(res, 200, { access_token: 'tok', expires_in: 3600 }) : sendJson(res, 200, { Somebody: '<script>' });
    const names = createNamesClient({ ...FAST_CLIENT, baseUrl: server.url, clientId: 'app', clientSecret: 'secret' });
    try {
      const error = await names.getAccountIds(['Somebody']).catch((e: unknown) => e);
      expect((error as Error).name).toBe('SchemaError');
      expect(oneLine(error)).toContain('"<script>" is not an account ID');
      expect(server.requests).toHaveLength(2);
    } finally {
      await names.close();
    }
  });
});

describe('maps the Core service answers unasked', () => {
  it('are not reported to the player as refs of theirs (no `not a map: ""`), and nothing of theirs is lost', async () => {
    const asked = makeMap(1);
    server.answer = (_req, res) => sendJson(res, 200, [asked, makeMap(2)]);
    const store = await memoryStore();
    const core = createNadeoClient({ ...FAST_CLIENT, baseUrl: server.url });
    try {
      const outcome = await addMaps({ store, client: () => core, exchange: () => openExchange() }, 'Fall', [asked.mapUid]);
      expect(outcome.added).toEqual([asked.mapUid]);
      expect(outcome.invalid).toEqual([]);
      expect(store.maps.get(makeMap(2).mapUid)).toBeUndefined();
    } finally {
      await core.close();
      store.close();
    }
  });
});

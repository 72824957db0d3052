// Nadeo login and refresh, tokens on every API and file call, and the OAuth display-names API.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { startTestEmulator, useEmulator } from '../../helpers/emulator.ts';
import { SENTINEL, accountsOf, call, get, mapsByKind, recordsOf, recordsUrl, type ApiErrorBody, type WireMap, type WireRecord } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 13, maps: 6, players: 12 });
const LOGIN = { login: 'svc-trackwatch', password: 'pa:ss word' };
const emulator = useEmulator({ dataset, auth: { ...LOGIN }, oauth: { clientId: 'client-1', clientSecret: 'secret-1' } });
const mapId = mapsByKind(dataset).race.mapId;

interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

function basic(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

function logIn(url: string, login = LOGIN.login, password = LOGIN.password, body = '{"audience":"NadeoServices"}') {
  return call(`${url}/v2/authentication/token/basic`, {
    method: 'POST',
    headers: { authorization: basic(login, password), 'content-type': 'application/json' },
    body,
  });
}

function claims(jwt: string): Record<string, unknown> {
  const [, payload] = jwt.split('.');
  return JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('Nadeo auth', () => {
  it('auth: Basic login with {"audience":"NadeoServices"} gives a JWT pair with exp, rat, iat, aud, sub', async () => {
    const reply = await logIn(emulator().url);
    expect(reply.status).toBe(200);
    const pair = reply.json<TokenPair>();
    expect(Object.keys(pair).sort()).toEqual(['accessToken', 'refreshToken']);
    for (const token of [pair.accessToken, pair.refreshToken]) {
      expect(token.split('.')).toHaveLength(3);
      const c = claims(token);
      expect(c).toMatchObject({ aud: 'NadeoServices' });
      for (const claim of ['exp', 'rat', 'iat']) expect(Number.isInteger(c[claim])).toBe(true);
      expect(c.sub).toMatch(/^[0-9a-f-]{36}$/);
    }
    const access = claims(pair.accessToken);
    expect(Number(access.exp) - Number(access.iat)).toBeGreaterThanOrEqual(3600);
    expect(Number(access.rat)).toBeLessThan(Number(access.exp));
    expect(Number(claims(pair.refreshToken).exp)).toBeGreaterThan(Number(access.exp));
  });

  it('auth: a valid access token opens API routes and files', async () => {
    const { accessToken } = (await logIn(emulator().url)).json<TokenPair>();
    const authorization = `nadeo_v1 t=${accessToken}`;
    const maps = await get(`${emulator().url}/maps/?mapIdList=${mapId}`, { authorization });
    expect(maps.status).toBe(200);
    const [map] = maps.json<WireMap[]>();
    expect((await get(map?.thumbnailUrl ?? '', { authorization })).status).toBe(200);
    const records = await get(`${emulator().url}/v2/mapRecords/by-account/?accountIdList=${accountsOf(dataset)[0]}&mapId=${mapId}`, { authorization });
    expect(records.status).toBe(200);
  });

  it('auth: an unknown login is 401 "Username could not be found."; a wrong password 401 "Invalid credentials."', async () => {
    const unknown = await logIn(emulator().url, 'someone-else');
    expect(unknown.status).toBe(401);
    expect(unknown.json<ApiErrorBody>().message).toBe('Username could not be found.');
    const wrong = await logIn(emulator().url, LOGIN.login, 'guess');
    expect(wrong.status).toBe(401);
    expect(wrong.json<ApiErrorBody>().message).toBe('Invalid credentials.');
  });

  it('auth: a login with an unknown audience is refused (NadeoServices and NadeoLiveServices are the two there are)', async () => {
    expect((await logIn(emulator().url, LOGIN.login, LOGIN.password, '{"audience":"SomeOtherService"}')).status).toBe(400);
  });

  it('auth (issue 10 fidelity): a login POST with no body gives a NadeoServices token pair that opens the API', async () => {
    const bare = await call(`${emulator().url}/v2/authentication/token/basic`, { method: 'POST', headers: { authorization: basic(LOGIN.login, LOGIN.password) } });
    const empty = await logIn(emulator().url, LOGIN.login, LOGIN.password, '');
    for (const reply of [bare, empty]) {
      expect(reply.status).toBe(200);
      const pair = reply.json<TokenPair>();
      expect(claims(pair.accessToken)).toMatchObject({ aud: 'NadeoServices' });
      expect((await get(`${emulator().url}/maps/by-id/?mapIdList=${mapId}`, { authorization: `nadeo_v1 t=${pair.accessToken}` })).status).toBe(200);
    }
    // The credentials are still checked.
    const wrong = await call(`${emulator().url}/v2/authentication/token/basic`, { method: 'POST', headers: { authorization: basic(LOGIN.login, 'guess') } });
    expect(wrong.status).toBe(401);
  });

  it('auth: the successor routes\' file addresses and their redirect targets need the token like every file', async () => {
    const authorization = `nadeo_v1 t=${(await logIn(emulator().url)).json<TokenPair>().accessToken}`;
    const [map] = (await get(`${emulator().url}/maps/by-id/?mapIdList=${mapId}`, { authorization })).json<WireMap[]>();
    expect((await get(map?.fileUrl ?? '')).status).toBe(401);
    const moved = await get(map?.fileUrl ?? '', { authorization });
    expect(moved.status).toBe(302);
    expect((await get(String(moved.headers.location), { authorization })).status).toBe(200);
  });

  it('auth: a missing, malformed or forged token is 401 on API routes and files', async () => {
    const { accessToken, refreshToken } = (await logIn(emulator().url)).json<TokenPair>();
    const forged = `${accessToken.slice(0, accessToken.lastIndexOf('.'))}.AAAA`;
    const urls = [`${emulator().url}/maps/?mapIdList=${mapId}`, `${emulator().url}/mapRecords/${dataset.records[0]?.mapRecordId}/replay`];
    for (const url of urls) {
      for (const headers of [undefined, { authorization: accessToken }, { authorization: `Bearer ${accessToken}` }, { authorization: `nadeo_v1 t=${forged}` }, { authorization: `nadeo_v1 t=${refreshToken}` }]) {
        const reply = await get(url, headers);
        expect(reply.status).toBe(401);
        expect(Object.keys(reply.json<ApiErrorBody>()).sort()).toEqual(['code', 'correlation_id', 'message']);
      }
    }
  });

  it('auth: an expired access token is 401; refresh gives a new working pair; an expired refresh token is 401', async () => {
    // The service's clock moves when the test says, so no lifetime runs out early on a loaded machine.
    let now = Date.parse('2026-11-21T10:00:00Z');
    const emu = await startTestEmulator({ dataset, now: () => now, auth: { ...LOGIN, accessTtlSec: 0.15, refreshTtlSec: 0.5, refreshAllowedAfterSec: 0.05 } });
    try {
      const pair = (await logIn(emu.url)).json<TokenPair>();
      const mapsUrl = `${emu.url}/maps/?mapIdList=${mapId}`;
      expect((await get(mapsUrl, { authorization: `nadeo_v1 t=${pair.accessToken}` })).status).toBe(200);
      now += 200;
      const expired = await get(mapsUrl, { authorization: `nadeo_v1 t=${pair.accessToken}` });
      expect(expired.status).toBe(401);
      const refreshed = await call(`${emu.url}/v2/authentication/token/refresh`, { method: 'POST', headers: { authorization: `nadeo_v1 t=${pair.refreshToken}` } });
      expect(refreshed.status).toBe(200);
      const next = refreshed.json<TokenPair>();
      expect(next.accessToken).not.toBe(pair.accessToken);
      expect((await get(mapsUrl, { authorization: `nadeo_v1 t=${next.accessToken}` })).status).toBe(200);
      now += 350;
      const late = await call(`${emu.url}/v2/authentication/token/refresh`, { method: 'POST', headers: { authorization: `nadeo_v1 t=${pair.refreshToken}` } });
      expect(late.status).toBe(401);
    } finally {
      await emu.close();
    }
  });

  it('auth: refresh with an access token, or before rat, is 401', async () => {
    const pair = (await logIn(emulator().url)).json<TokenPair>();
    const refresh = (token: string) => call(`${emulator().url}/v2/authentication/token/refresh`, { method: 'POST', headers: { authorization: `nadeo_v1 t=${token}` } });
    expect((await refresh(pair.accessToken)).status).toBe(401);
    // The default rat is 30 minutes away.
    expect((await refresh(pair.refreshToken)).status).toBe(401);
  });

  it('auth: the login\'s own record is never hidden from it by a secret threshold; others\' still are', async () => {
    const secret = mapsByKind(dataset).secret;
    const hidden = recordsOf(dataset, secret.mapId).filter((r) => r.recordScore.time < secret.secretThreshold!);
    expect(hidden.length).toBeGreaterThanOrEqual(2);
    const [mine, theirs] = hidden;
    const own = await startTestEmulator({ dataset, auth: { ...LOGIN, accountId: mine!.accountId.toUpperCase() } });
    try {
      const { accessToken } = (await logIn(own.url)).json<TokenPair>();
      expect(claims(accessToken).sub).toBe(mine!.accountId);
      const authorization = `nadeo_v1 t=${accessToken}`;
      const reply = await get(recordsUrl(own.url, { accountIdList: `${mine!.accountId},${theirs!.accountId}`, mapId: secret.mapId }), { authorization });
      const byAccount = new Map(reply.json<WireRecord[]>().map((r) => [r.accountId, r]));
      expect(byAccount.get(mine!.accountId)?.recordScore.time).toBe(mine!.recordScore.time);
      expect(byAccount.get(theirs!.accountId)?.recordScore.time).toBe(SENTINEL);
      expect((await get(byAccount.get(mine!.accountId)!.url, { authorization })).status).toBe(200);
      expect((await get(byAccount.get(theirs!.accountId)!.url, { authorization })).status).toBe(403);
    } finally {
      await own.close();
    }
  });

  it('auth: a login\'s own hidden Stunt entry keeps its score and time for it; others\' show 4294967295 in both', async () => {
    const stunt = structuredClone(dataset);
    const map = mapsByKind(stunt).stunt;
    const [mine, theirs] = recordsOf(stunt, map.mapId).sort((a, b) => a.recordScore.time - b.recordScore.time);
    if (!mine || !theirs) throw new Error('too few Stunt records');
    // The threshold is a time on Stunt maps too (map-page.md): both runs are faster than it.
    map.secretThreshold = Math.max(mine.recordScore.time, theirs.recordScore.time) + 1;
    const own = await startTestEmulator({ dataset: stunt, auth: { ...LOGIN, accountId: mine.accountId } });
    try {
      const authorization = `nadeo_v1 t=${(await logIn(own.url)).json<TokenPair>().accessToken}`;
      const reply = await get(recordsUrl(own.url, { accountIdList: `${mine.accountId},${theirs.accountId}`, mapId: map.mapId, gameMode: 'Stunt' }), { authorization });
      const byAccount = new Map(reply.json<WireRecord[]>().map((r) => [r.accountId, r]));
      expect(byAccount.get(mine.accountId)?.recordScore).toEqual(mine.recordScore);
      expect(byAccount.get(theirs.accountId)?.recordScore).toMatchObject({ time: SENTINEL, score: SENTINEL });
    } finally {
      await own.close();
    }
  });

  it('auth: without the auth option no token is needed, and a sent one is ignored', async () => {
    const open = await startTestEmulator({ dataset });
    try {
      expect((await get(`${open.url}/maps/?mapIdList=${mapId}`)).status).toBe(200);
      expect((await get(`${open.url}/maps/?mapIdList=${mapId}`, { authorization: 'nadeo_v1 t=garbage' })).status).toBe(200);
      // Any login works, so a client configured with credentials still runs against it.
      expect((await logIn(open.url, 'anyone', 'anything')).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('OAuth display names', () => {
  async function oauthToken(url: string, clientSecret = 'secret-1') {
    return call(`${url}/api/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=client-1&client_secret=${clientSecret}`,
    });
  }

  it('oauth: client credentials give {"token_type":"bearer","expires_in":3600,"access_token"}; a wrong secret is 401', async () => {
    const reply = await oauthToken(emulator().url);
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ token_type: 'bearer', expires_in: 3600, access_token: expect.any(String) });
    expect((await oauthToken(emulator().url, 'wrong')).status).toBe(401);
  });

  it('oauth: display names with a Bearer token map known account IDs to names; unknown ones are left out', async () => {
    const { access_token } = (await oauthToken(emulator().url)).json<{ access_token: string }>();
    const names = dataset.displayNames ?? {};
    const known = Object.keys(names).slice(0, 3);
    const unknown = '00000000-0000-4000-8000-0000000000aa';
    const query = [...known, unknown].map((id) => `accountId[]=${id}`).join('&');
    const reply = await get(`${emulator().url}/api/display-names?${query}`, { authorization: `Bearer ${access_token}` });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual(Object.fromEntries(known.map((id) => [id, names[id]])));
  });

  it('oauth: display names need the Bearer token when oauth is configured, and take at most 50 IDs', async () => {
    const id = Object.keys(dataset.displayNames ?? {})[0];
    expect((await get(`${emulator().url}/api/display-names?accountId[]=${id}`)).status).toBe(401);
    expect((await get(`${emulator().url}/api/display-names?accountId[]=${id}`, { authorization: 'Bearer nope' })).status).toBe(401);
    const { access_token } = (await oauthToken(emulator().url)).json<{ access_token: string }>();
    const ids = (n: number): string => Array.from({ length: n }, (_, i) => `accountId[]=00000000-0000-4000-8000-${String(i).padStart(12, '0')}`).join('&');
    expect((await get(`${emulator().url}/api/display-names?${ids(50)}`, { authorization: `Bearer ${access_token}` })).status).toBe(200);
    expect((await get(`${emulator().url}/api/display-names?${ids(51)}`, { authorization: `Bearer ${access_token}` })).status).toBe(400);
  });

  it('oauth: without the oauth option display names need no token; generated names include hostile text', async () => {
    const open = await startTestEmulator({ dataset });
    try {
      const ids = Object.keys(dataset.displayNames ?? {});
      const reply = await get(`${open.url}/api/display-names?${ids.slice(0, 50).map((id) => `accountId[]=${id}`).join('&')}`);
      expect(reply.status).toBe(200);
      const names = Object.values(reply.json<Record<string, string>>());
      expect(names).toContain('<script>alert(1)</script>');
      expect(names).toContain('Red Baron');
    } finally {
      await open.close();
    }
  });
});

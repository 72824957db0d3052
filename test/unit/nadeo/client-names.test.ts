import { afterEach, describe, expect, it } from 'vitest';
import { createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { AuthError, ConfigError } from '../../../src-main/core/nadeo/http/errors.ts';
import { startLocalServer, sendJson, pathOf, type LocalServer } from './local-server.ts';
import { fastOptions, uuid } from './fixtures.ts';

let api: LocalServer | undefined;
let oauth: LocalServer | undefined;
let client: NadeoClient | undefined;
afterEach(async () => {
  await client?.close();
  await api?.close();
  await oauth?.close();
  client = api = oauth = undefined;
});

function fakeOAuth() {
  let issued = 0;
  return async (req: { url: string; headers: Record<string, unknown>; body: string; method: string }, res: Parameters<typeof sendJson>[0]) => {
    if (pathOf(req.url) === '/api/access_token') {
      const form = new URLSearchParams(req.body);
      if (form.get('client_secret') !== 'secret') return sendJson(res, 401, { error: 'invalid_client' });
      return sendJson(res, 200, { token_type: 'bearer', expires_in: 3600, access_token: `tok${++issued}` });
    }
    if (!String(req.headers['authorization']).startsWith('Bearer tok')) return sendJson(res, 401, { error: 'invalid_token' });
    const ids = new URL(req.url, 'http://x').searchParams.getAll('accountId[]');
    if (ids.length > 50) return sendJson(res, 400, { error: 'too many' });
    sendJson(res, 200, Object.fromEntries(ids.filter((_, i) => i % 10 !== 9).map((id) => [id, `Name ${id.slice(-4)}`])));
  };
}

describe('display names', () => {
  it('gets an OAuth token once, asks 50 accounts per call, and sends the bearer token only to the OAuth host', async () => {
    oauth = await startLocalServer(fakeOAuth());
    api = await startLocalServer((_req, res) => sendJson(res, 200, []));
    client = createNadeoClient({
      ...fastOptions(api.url),
      credentials: undefined,
      oauth: { baseUrl: oauth.url, clientId: 'app', clientSecret: 'secret' },
    });
    const ids = Array.from({ length: 120 }, (_, i) => uuid(i, 0xacc));
    const names = await client.getDisplayNames([...ids, 'not-an-id']);
    expect(names.size).toBe(108); // every tenth has no name
    expect(names.get(ids[0]!)).toBe(`Name ${ids[0]!.slice(-4)}`);
    const tokenCalls = oauth.requests.filter((r) => pathOf(r.url) === '/api/access_token');
    const nameCalls = oauth.requests.filter((r) => pathOf(r.url) === '/api/display-names');
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0]!.body).toBe('grant_type=client_credentials&client_id=app&client_secret=secret');
    expect(nameCalls).toHaveLength(3);
    for (const c of nameCalls) expect(c.headers['authorization']).toBe('Bearer tok1');
    await client.getDisplayNames(ids.slice(0, 5));
    expect(oauth.requests.filter((r) => pathOf(r.url) === '/api/access_token')).toHaveLength(1);
    await client.getMapsByUid(['abc']);
    expect(api.requests[0]!.headers['authorization']).toBeUndefined();
  });

  it('a wrong client secret is an AuthError; no OAuth app is a ConfigError', async () => {
    oauth = await startLocalServer(fakeOAuth());
    client = createNadeoClient({ ...fastOptions('http://127.0.0.1:9'), oauth: { baseUrl: oauth.url, clientId: 'app', clientSecret: 'nope' } });
    await expect(client.getDisplayNames([uuid(1)])).rejects.toBeInstanceOf(AuthError);
    await client.close();
    client = createNadeoClient(fastOptions('http://127.0.0.1:9'));
    await expect(client.getDisplayNames([uuid(1)])).rejects.toBeInstanceOf(ConfigError);
  });
});

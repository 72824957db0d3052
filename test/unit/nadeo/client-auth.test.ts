import { afterEach, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { AuthError } from '../../../src-main/core/nadeo/http/errors.ts';
import { startLocalServer, sendJson, pathOf, type LocalServer, type SeenRequest } from './local-server.ts';
import { fakeJwt, fastOptions } from './fixtures.ts';

const LOGIN = 'svc-account';
const PASSWORD = 'correct horse battery staple';
const T0 = Date.parse('2026-06-01T12:00:00Z');

/** A Nadeo-like auth service whose clock is the test's. */
function fakeNadeo(clock: { t: number }, opts: { omitRefreshOnRefresh?: boolean } = {}) {
  const access = new Set<string>();
  const refresh = new Set<string>();
  let serial = 0;
  const issue = (withRefresh: boolean) => {
    const now = Math.floor(clock.t / 1000);
    const a = fakeJwt({ exp: now + 3600, rat: now + 1800, iat: now, n: ++serial });
    access.add(a);
    const pair: { accessToken: string; refreshToken?: string } = { accessToken: a };
    if (withRefresh) {
      const r = fakeJwt({ exp: now + 86400, iat: now, n: ++serial });
      refresh.add(r);
      pair.refreshToken = r;
    }
    return pair;
  };
  const refuse = (res: ServerResponse, message: string) => sendJson(res, 401, { code: 'C-AA-00-01', correlation_id: 'c0ffee', message });
  const handler = (req: SeenRequest, res: ServerResponse) => {
    const auth = req.headers['authorization'] ?? '';
    const token = /^nadeo_v1 t=(.+)$/.exec(auth)?.[1];
    switch (pathOf(req.url)) {
      case '/v2/authentication/token/basic': {
        const basic = /^Basic (.+)$/.exec(auth)?.[1];
        const [login, ...rest] = Buffer.from(basic ?? '', 'base64').toString().split(':');
        if (login !== LOGIN) return refuse(res, 'Username could not be found.');
        if (rest.join(':') !== PASSWORD) return refuse(res, 'Invalid credentials.');
        return sendJson(res, 200, issue(true));
      }
      case '/v2/authentication/token/refresh':
        if (!token || !refresh.has(token)) return refuse(res, 'Invalid token.');
        return sendJson(res, 200, issue(!opts.omitRefreshOnRefresh));
      default:
        if (!token || !access.has(token)) return refuse(res, 'Token expired.');
        return sendJson(res, 200, []);
    }
  };
  return { handler, revokeAccess: () => access.clear(), access };
}

let server: LocalServer | undefined;
let other: LocalServer | undefined;
let client: NadeoClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  await other?.close();
  client = other = server = undefined;
});

const byPath = (s: LocalServer, p: string) => s.requests.filter((r) => pathOf(r.url) === p);
const LOGIN_PATH = '/v2/authentication/token/basic';
const REFRESH_PATH = '/v2/authentication/token/refresh';

async function setUp(opts: { omitRefreshOnRefresh?: boolean } = {}) {
  const clock = { t: T0 };
  const nadeo = fakeNadeo(clock, opts);
  server = await startLocalServer(nadeo.handler);
  client = createNadeoClient({ ...fastOptions(server.url), credentials: { login: LOGIN, password: PASSWORD }, now: () => clock.t });
  return { clock, nadeo, server, client };
}

describe('auth', () => {
  it('logs in once for concurrent callers and sends the token on every call', async () => {
    const { server, client } = await setUp();
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.getMapsByUid([`uid${i}`])));
    const logins = byPath(server, LOGIN_PATH);
    expect(logins).toHaveLength(1);
    expect(logins[0]!.method).toBe('POST');
    expect(logins[0]!.headers['authorization']).toBe(`Basic ${Buffer.from(`${LOGIN}:${PASSWORD}`).toString('base64')}`);
    expect(JSON.parse(logins[0]!.body)).toEqual({ audience: 'NadeoServices' });
    expect(logins[0]!.headers['user-agent']).toMatch(/^Trackwatch\/0\.1\.0 /);
    const calls = byPath(server, '/maps/');
    expect(calls).toHaveLength(6);
    for (const c of calls) expect(c.headers['authorization']).toMatch(/^nadeo_v1 t=ey/);
  });

  it('refreshes ahead of expiry once rat allows, and keeps the old refresh token if none comes back', async () => {
    const { clock, server, client } = await setUp({ omitRefreshOnRefresh: true });
    await client.getMapsByUid(['a']);
    clock.t = T0 + 20 * 60_000; // before rat (30 min): no renewal
    await client.getMapsByUid(['b']);
    expect(byPath(server, REFRESH_PATH)).toHaveLength(0);
    clock.t = T0 + 57 * 60_000; // within 5 min of expiry and past rat: refresh
    await client.getMapsByUid(['c']);
    const refreshes = byPath(server, REFRESH_PATH);
    expect(refreshes).toHaveLength(1);
    const used = refreshes[0]!.headers['authorization'];
    expect(used).toMatch(/^nadeo_v1 t=ey/);
    clock.t = T0 + 115 * 60_000; // the second access token nears expiry: refresh again with the same refresh token
    await client.getMapsByUid(['d']);
    expect(byPath(server, REFRESH_PATH)).toHaveLength(2);
    expect(byPath(server, REFRESH_PATH)[1]!.headers['authorization']).toBe(used);
    expect(byPath(server, LOGIN_PATH)).toHaveLength(1);
  });

  it('logs in again once the refresh token has expired', async () => {
    const { clock, server, client } = await setUp();
    await client.getMapsByUid(['a']);
    clock.t = T0 + 25 * 3600_000;
    await client.getMapsByUid(['b']);
    expect(byPath(server, LOGIN_PATH)).toHaveLength(2);
    expect(byPath(server, REFRESH_PATH)).toHaveLength(0);
  });

  it('on a 401 renews once and retries once', async () => {
    const { clock, nadeo, server, client } = await setUp();
    await client.getMapsByUid(['a']);
    clock.t = T0 + 31 * 60_000; // refresh allowed, not yet due
    nadeo.revokeAccess();
    await client.getMapsByUid(['b']);
    expect(byPath(server, REFRESH_PATH)).toHaveLength(1);
    expect(byPath(server, '/maps/')).toHaveLength(3); // a, b refused, b again
  });

  it('a 401 after the renewal is an AuthError, not retried again, without the token in the message', async () => {
    const { nadeo, server, client } = await setUp();
    await client.getMapsByUid(['a']);
    const refuseAll = server.handler;
    server.handler = (req, res, raw) => {
      if (pathOf(req.url) === '/maps/') return sendJson(res, 401, { code: 'C-AA-00-01', message: 'no' });
      return refuseAll(req, res, raw);
    };
    const error = await client.getMapsByUid(['b']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(byPath(server, '/maps/')).toHaveLength(3); // a, b, b after renewal
    const tokens = [...nadeo.access];
    for (const t of tokens) expect((error as Error).message).not.toContain(t);
  });

  it('a wrong password is an AuthError that says what to do, never retried, never echoing the password', async () => {
    const server0 = await startLocalServer(fakeNadeo({ t: T0 }).handler);
    server = server0;
    client = createNadeoClient({ ...fastOptions(server0.url), credentials: { login: LOGIN, password: 'wrong-password' } });
    const error = await client.getMapsByUid(['a']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).code).toBe('UNAUTHORIZED');
    expect((error as AuthError).message).toMatch(/login or password is wrong/);
    expect((error as AuthError).message).toMatch(/service account/);
    expect((error as AuthError).message).not.toContain('wrong-password');
    expect(byPath(server0, LOGIN_PATH)).toHaveLength(1);
    expect(byPath(server0, '/maps/')).toHaveLength(0);
    await expect(client.testLogin()).rejects.toBeInstanceOf(AuthError);
  });

  it('testLogin logs in fresh and succeeds with good credentials', async () => {
    const { server, client } = await setUp();
    await client.testLogin();
    await client.testLogin();
    expect(byPath(server, LOGIN_PATH)).toHaveLength(2);
  });

  it('testLogin without credentials checks reachability, and says a login is needed on a 401', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, []));
    client = createNadeoClient(fastOptions(server.url));
    await client.testLogin();
    expect(server.requests[0]!.headers['authorization']).toBeUndefined();
    server.handler = (_req, res) => sendJson(res, 401, { code: 'C-AA-00-01', message: 'Unauthorized.' });
    const error = await client.testLogin().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toMatch(/service account/);
  });

  it('sends the token only to the API origin: a download from another host carries no Authorization', async () => {
    const { server, client } = await setUp();
    other = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-length': '3' });
      res.end('abc');
    });
    const dir = await import('node:fs/promises').then((fs) => fs.mkdtemp('/tmp/tw-nadeo-'));
    await client.download(`${other.url}/storageObjects/x`, `${dir}/x.gbx`);
    expect(other.requests[0]!.headers['authorization']).toBeUndefined();
    expect(other.requests[0]!.headers['user-agent']).toMatch(/^Trackwatch\//);
    server.handler = ((h) => (req: SeenRequest, res: ServerResponse, raw: Parameters<typeof h>[2]) => {
      if (pathOf(req.url).startsWith('/mapRecords/')) {
        res.writeHead(200, { 'content-length': '3' });
        return res.end('xyz');
      }
      return h(req, res, raw);
    })(server.handler);
    await client.download(`${server.url}/mapRecords/r1/replay`, `${dir}/y.gbx`);
    expect(byPath(server, '/mapRecords/r1/replay')[0]!.headers['authorization']).toMatch(/^nadeo_v1 t=/);
    await import('node:fs/promises').then((fs) => fs.rm(dir, { recursive: true }));
  });
});

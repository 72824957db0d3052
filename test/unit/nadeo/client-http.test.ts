import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { createNadeoClient, LimiterPool, REAL_BASE_URL, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { toNadeoError } from '../../../src-main/core/nadeo/http/answers.ts';
import { warpClock } from './fake-clock.ts';
import { AbortError, ConfigError, HttpError, isUnreachable, NetworkError, SchemaError, TimeoutError } from '../../../src-main/core/nadeo/http/errors.ts';
import { startLocalServer, sendJson, pathOf, queryOf, type LocalServer } from './local-server.ts';
import { fastOptions, makeMap, sampleRecord, uuid } from './fixtures.ts';

let server: LocalServer | undefined;
let client: NadeoClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** Answers map lookups from `maps`, like the seed route. */
function mapsAnswer(maps: ReturnType<typeof makeMap>[], url: string) {
  const q = queryOf(url);
  const uids = q.get('mapUidList')?.split(',') ?? [];
  const ids = q.get('mapIdList')?.split(',') ?? [];
  return maps.filter((m) => uids.includes(m.mapUid) || ids.includes(m.mapId)).reverse();
}

describe('configuration', () => {
  it('refuses the real service without a contact, before any request', () => {
    expect(() => createNadeoClient({ baseUrl: REAL_BASE_URL, appVersion: '1.0.0' })).toThrow(ConfigError);
    expect(() => createNadeoClient({ baseUrl: REAL_BASE_URL, appVersion: '1.0.0' })).toThrow(/contact/);
    expect(() => createNadeoClient({ baseUrl: 'http://prod.trackmania.core.nadeo.online', appVersion: '1.0.0', contact: 'a@b.c' })).toThrow(/https/);
  });
  it('refuses bad settings with a message saying what to fix', () => {
    expect(() => createNadeoClient({ baseUrl: 'not a url', appVersion: '1.0.0' })).toThrow(ConfigError);
    expect(() => createNadeoClient({ baseUrl: 'ftp://x', appVersion: '1.0.0' })).toThrow(ConfigError);
    expect(() => createNadeoClient({ baseUrl: 'http://127.0.0.1:1', appVersion: '1.0.0', contact: 'a\r\nX-Evil: 1' })).toThrow(/one line/);
    expect(() => createNadeoClient({ baseUrl: 'http://127.0.0.1:1', appVersion: '1.0.0', maxRps: 0 })).toThrow(ConfigError);
    expect(() => createNadeoClient({ baseUrl: 'http://127.0.0.1:1', appVersion: '1.0.0', credentials: { login: 'x', password: '' } })).toThrow(ConfigError);
  });
});

describe('transport and headers', () => {
  it('sends the User-Agent on every request, no Authorization without credentials, commas raw', async () => {
    const maps = [makeMap(1), makeMap(2)];
    server = await startLocalServer((req, res) => sendJson(res, 200, mapsAnswer(maps, req.url)));
    client = createNadeoClient({ ...fastOptions(server.url), contact: 'player: Tester; contact: t@example.com' });
    const result = await client.getMapsByUid([maps[0]!.mapUid, maps[1]!.mapUid]);
    expect(result.maps.map((m) => m.mapUid)).toEqual([maps[0]!.mapUid, maps[1]!.mapUid]);
    const req = server.requests[0]!;
    expect(req.headers['user-agent']).toBe('Trackwatch/0.1.0 (player: Tester; contact: t@example.com)');
    expect(req.headers['authorization']).toBeUndefined();
    expect(req.url).toBe(`/maps/?mapUidList=${maps[0]!.mapUid},${maps[1]!.mapUid}`);
  });

  it('names an emulator without contact in the User-Agent', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, []));
    client = createNadeoClient(fastOptions(server.url));
    await client.getMapsByUid(['abc']);
    expect(server.requests[0]!.headers['user-agent']).toBe('Trackwatch/0.1.0 (emulator; no contact)');
  });

  it('uses an injected dispatcher and leaves it open on close', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, []));
    const agent = new Agent();
    client = createNadeoClient({ ...fastOptions(server.url), dispatcher: agent });
    await client.getMapsByUid(['abc']);
    await client.close();
    expect(agent.closed).toBe(false);
    await agent.close();
  });

  it('reports every attempt to onRequest without query strings or tokens', async () => {
    let n = 0;
    server = await startLocalServer((_req, res) => (n++ === 0 ? sendJson(res, 503, {}) : sendJson(res, 200, [])));
    const events: unknown[] = [];
    client = createNadeoClient({ ...fastOptions(server.url), onRequest: (e) => events.push(e) });
    await client.getMapsByUid(['abc']);
    expect(events).toMatchObject([
      { method: 'GET', route: 'GET /maps/', status: 503, attempt: 1 },
      { method: 'GET', route: 'GET /maps/', status: 200, attempt: 2 },
    ]);
    expect(JSON.stringify(events)).not.toContain('abc');
  });
});

describe('retry', () => {
  it('retries 5xx and 429, honouring Retry-After over the computed backoff', async () => {
    const answers = [503, 429, 200];
    server = await startLocalServer((_req, res) => {
      const status = answers.shift()!;
      if (status === 200) return sendJson(res, 200, []);
      sendJson(res, status, { message: 'busy' }, status === 429 ? { 'retry-after': '2' } : {});
    });
    const sleeps: number[] = [];
    const clock = warpClock();
    client = createNadeoClient({ ...fastOptions(server.url, sleeps), limiters: new LimiterPool({ maxRps: 1000, burst: 64, clock }) });
    await client.getMapsByUid(['abc']);
    expect(server.requests).toHaveLength(3);
    expect(sleeps[0]).toBeLessThanOrEqual(1); // computed backoff, base 1 ms
    expect(sleeps[1]).toBe(2000); // Retry-After: 2
    // ...and the whole host paused for it, not just this request.
    expect(Math.max(...clock.waited)).toBeGreaterThanOrEqual(1999);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2 });
  });

  // Changed with issue 9: a wait longer than the cap is not waited out by the next call either; it fails at once.
  it('a Retry-After longer than the cap fails this call and every later one at once, without waiting', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 429, { message: 'slow down' }, { 'retry-after': '300' }));
    const clock = warpClock();
    const now = Date.parse('2026-03-01T12:00:00Z');
    client = createNadeoClient({ ...fastOptions(server.url, []), now: () => now, limiters: new LimiterPool({ maxRps: 1000, burst: 64, clock }) });
    await expect(client.getMapsByUid(['abc'])).rejects.toMatchObject({ code: 'RATE_LIMITED_LONG', retryAt: new Date(now + 300_000) });
    expect(server.requests).toHaveLength(1);
    await expect(client.getMapsByUid(['def'])).rejects.toThrow(/2026-03-01T12:05:00.000Z/);
    expect(server.requests).toHaveLength(1);
    expect(Math.max(0, ...clock.waited)).toBeLessThan(1000);
  });

  it("never retries a validation error, a 403 or the records lookup's own 404", async () => {
    for (const [status, body] of [
      [403, { code: 'C-AA-00-19', message: 'Forbidden.' }],
      [404, { code: 'C-AL-02-03', message: 'Not Found' }],
    ] as const) {
      server = await startLocalServer((_req, res) => sendJson(res, status, body));
      client = createNadeoClient(fastOptions(server.url));
      await expect(client.getRecords(makeMap(1), [uuid(1)])).rejects.toMatchObject({ status });
      expect(server.requests).toHaveLength(1);
      await client.close();
      await server.close();
    }
    server = undefined;
    client = undefined;
  });

  it('gives up after maxAttempts with the last error', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 500, {}));
    client = createNadeoClient(fastOptions(server.url));
    const error = await client.getMapsByUid(['abc']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 500, retryable: true });
    expect(server.requests).toHaveLength(4);
  });

  it('retries a body cut short (declared length not reached) and a dropped connection', async () => {
    let n = 0;
    server = await startLocalServer((_req, res, raw) => {
      n++;
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write('[{"mapUid":', () => raw.socket.destroy());
        return;
      }
      if (n === 2) {
        raw.socket.destroy();
        return;
      }
      sendJson(res, 200, []);
    });
    client = createNadeoClient(fastOptions(server.url));
    await expect(client.getMapsByUid(['abc'])).resolves.toEqual({ maps: [], notFound: ['abc'], rejected: [] });
    expect(n).toBe(3);
  });

  it('treats unparseable JSON without a Content-Length as truncated (retried), with one as a SchemaError', async () => {
    let n = 0;
    server = await startLocalServer((_req, res) => {
      n++;
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('[{"mapUid":"ab'); // chunked, ends cleanly, but the JSON stops halfway
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5' });
      res.end('{oops');
    });
    client = createNadeoClient(fastOptions(server.url));
    const error = await client.getMapsByUid(['abc']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect(n).toBe(2);
  });

  it('times out a silent server and retries', async () => {
    let n = 0;
    server = await startLocalServer((_req, res) => {
      if (++n === 1) return; // never answers
      sendJson(res, 200, []);
    });
    client = createNadeoClient({ ...fastOptions(server.url), timeoutMs: 150 });
    await client.getMapsByUid(['abc']);
    expect(n).toBe(2);
    expect(client.stats().retries).toBe(1);
  });

  it('maps undici timeouts to a retryable TimeoutError', () => {
    const e = toNadeoError(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), undefined, 'GET /maps/');
    expect(e).toBeInstanceOf(TimeoutError);
    expect((e as TimeoutError).retryable).toBe(true);
    const bug = new TypeError('bug');
    expect(toNadeoError(bug, undefined, 'r')).toBe(bug);
  });

  it('a connection failing before any answer is UNREACHABLE; after the headers it is a broken answer (NETWORK)', () => {
    const reset = Object.assign(new Error('x'), { code: 'ECONNRESET' });
    const before = toNadeoError(reset, undefined, 'GET /maps/', false);
    expect(before).toBeInstanceOf(NetworkError);
    expect(before).toMatchObject({ code: 'UNREACHABLE', retryable: true });
    expect(isUnreachable(before)).toBe(true);
    const after = toNadeoError(reset, undefined, 'GET /maps/', true);
    expect(after).toMatchObject({ code: 'NETWORK', retryable: true });
    expect(isUnreachable(after)).toBe(false);
    const dns = toNadeoError(Object.assign(new Error('x'), { code: 'ENOTFOUND' }), undefined, 'GET /maps/');
    expect(dns).toMatchObject({ code: 'UNREACHABLE', retryable: false });
    expect(isUnreachable(toNadeoError(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), undefined, 'r'))).toBe(true);
    expect(isUnreachable(toNadeoError(Object.assign(new Error('x'), { code: 'UND_ERR_BODY_TIMEOUT' }), undefined, 'r', true))).toBe(false);
    expect(isUnreachable(new TypeError('bug'))).toBe(false);
  });

  it('maps a refused connection to a retryable NetworkError', async () => {
    const probe = await startLocalServer(() => {});
    const url = probe.url;
    await probe.close();
    client = createNadeoClient({ ...fastOptions(url), retry: { maxAttempts: 2, baseDelayMs: 1 } });
    const error = await client.getMapsByUid(['abc']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).retryable).toBe(true);
    expect(client.stats().requests).toBe(2);
  });
});

describe('schemas at the endpoints', () => {
  it('raises a SchemaError naming the field path of a bad record', async () => {
    const map = makeMap(1);
    const records = [0, 1, 2, 3].map(sampleRecord).map((r) => ({ ...r, mapId: map.mapId }));
    (records[3]!.recordScore as Record<string, unknown>)['time'] = 'fast';
    server = await startLocalServer((_req, res) => sendJson(res, 200, records));
    client = createNadeoClient(fastOptions(server.url));
    const error = await client.getRecords(map, records.map((r) => r.accountId)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaError);
    expect((error as SchemaError).message).toContain('records[3].recordScore.time: expected number, got string');
    expect(server.requests).toHaveLength(1);
  });
});

describe('abort', () => {
  it('stops a wait in the limiter promptly', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, []));
    client = createNadeoClient({ ...fastOptions(server.url), maxRps: 0.01, burst: 1 });
    await client.getMapsByUid(['first']); // takes the only token for the next 100 s
    const controller = new AbortController();
    const pending = client.getMapsByUid(['second'], { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('stops a request in flight and a retry wait', async () => {
    server = await startLocalServer(() => {}); // never answers
    client = createNadeoClient(fastOptions(server.url));
    const controller = new AbortController();
    const pending = client.getMapsByUid(['abc'], { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    await expect(pending).rejects.toBeInstanceOf(AbortError);

    await server.close();
    server = await startLocalServer((_req, res) => sendJson(res, 503, {}, { 'retry-after': '100' }));
    await client.close();
    const c2 = new AbortController();
    // Aborted once the 503 came back, so during the retry's wait (100 s by Retry-After), not before the request left.
    client = createNadeoClient({ ...fastOptions(server.url), sleep: undefined, onRequest: () => c2.abort() });
    const waiting = client.getMapsByUid(['abc'], { signal: c2.signal });
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
  });

  it('close() fails later calls and pending waits', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, []));
    client = createNadeoClient({ ...fastOptions(server.url), maxRps: 0.01, burst: 1 });
    await client.getMapsByUid(['first']);
    const pending = client.getMapsByUid(['second']).catch((e: unknown) => e);
    await client.close();
    expect(await pending).toBeInstanceOf(AbortError);
    expect(server.requests).toHaveLength(1);
    await expect(client.getMapsByUid(['x'])).rejects.toBeInstanceOf(AbortError);
  });
});

void pathOf;

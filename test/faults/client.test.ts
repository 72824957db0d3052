// The API client against a hostile server of the tests' own (issue 9 "Done when"): one scenario per kind of bad
// answer. Each asserts the error's code and message, and what the client kept. No sleeps race the client: waits
// are bounded by short deadlines given through options, by a fake clock, or by the server's own events.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type Dispatcher } from 'undici';
import {
  createNadeoClient,
  type ArmDeadline,
  isUnreachable,
  LimiterPool,
  REAL_BASE_URL,
  RetryLaterError,
  type NadeoClient,
  type NadeoClientOptions,
  type RouteChoices,
} from '../../src-main/core/nadeo/index.ts';
import { SENTINEL_U32 } from '../../src-main/core/model.ts';
import { FakeClock } from '../unit/nadeo/fake-clock.ts';
import { makeMap, sampleRecord, uuid } from '../unit/nadeo/fixtures.ts';
import { flood, sendJson, startHostileServer, trickle, type HostileServer, type Seen } from './hostile-server.ts';

const NOW = Date.parse('2026-11-21T10:00:00Z');

let server: HostileServer;
let other: HostileServer | undefined;
let client: NadeoClient | undefined;
let dir: string;
beforeEach(async () => {
  server = await startHostileServer();
  dir = await mkdtemp(join(tmpdir(), 'tw-faults-'));
});
/** Dispatchers a test made itself (a client closes only its own). */
const agents: Agent[] = [];
afterEach(async () => {
  await client?.close();
  await Promise.all(agents.splice(0).map((a) => a.destroy()));
  await server.close();
  await other?.close();
  client = other = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** A client that never really waits between retries; three attempts in all. */
function connect(extra: Partial<NadeoClientOptions> = {}, url = server.url): NadeoClient {
  client = createNadeoClient({
    baseUrl: url,
    appVersion: '0.1.0',
    maxRps: 10_000,
    burst: 64,
    concurrency: 8,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
    sleep: async () => {},
    now: () => NOW,
    ...extra,
  });
  return client;
}

/**
 * Deadlines that expire at a moment the test controls: once the client holds an answer's headers and its first body
 * bytes (seen by an interceptor on its dispatcher), so "the body trickled past the deadline" never depends on how
 * fast a loaded machine delivers the headers.
 */
function deadlinesAfterFirstBodyBytes(): { armDeadline: ArmDeadline; dispatcher: Dispatcher; expired: () => number } {
  const armed = new Set<() => void>();
  let expired = 0;
  const expireAll = (): void => {
    for (const expire of armed) {
      armed.delete(expire);
      expired += 1;
      expire();
    }
  };
  const agent = new Agent();
  agents.push(agent);
  const dispatcher = agent.compose((dispatch) => (opts, handler) => {
    let seen = false;
    return dispatch(opts, {
      onRequestStart: (...a) => handler.onRequestStart?.(...a),
      onRequestUpgrade: (...a) => handler.onRequestUpgrade?.(...a),
      onResponseStart: (...a) => handler.onResponseStart?.(...a),
      onResponseData: (controller, chunk) => {
        if (!seen) {
          seen = true;
          setImmediate(expireAll);
        }
        return handler.onResponseData?.(controller, chunk);
      },
      onResponseEnd: (...a) => handler.onResponseEnd?.(...a),
      onResponseError: (...a) => handler.onResponseError?.(...a),
    });
  });
  const armDeadline: ArmDeadline = (_ms, expire) => {
    armed.add(expire);
    return () => armed.delete(expire);
  };
  return { armDeadline, dispatcher, expired: () => expired };
}

const failure = (p: Promise<unknown>) => p.then(
  () => {
    throw new Error('expected the call to fail');
  },
  (e: unknown) => e as Error & { code: string },
);

const map = makeMap(1);
const accounts = [0, 1, 2, 3].map((i) => uuid(i, 0xacc));

/** A record of `accounts[i]` on `map`, with its own record ID; `change` alters the wire object. */
function record(i: number, change: (r: ReturnType<typeof sampleRecord>) => void = () => {}) {
  const r = { ...sampleRecord(i), mapId: map.mapId, recordScore: { ...sampleRecord(i).recordScore } };
  change(r);
  return r;
}

/** Answers the records lookup with `records`, whatever was asked. */
const answerRecords = (records: unknown[]) => (_req: Seen, res: Parameters<typeof sendJson>[0]) => sendJson(res, 200, records);

describe('waits are bounded', () => {
  it('a long Retry-After fails the call at once, says until when, and pauses the host for every later call', async () => {
    const clock = new FakeClock();
    server.answer = (_req, res) => sendJson(res, 429, { message: 'Too Many Requests' }, { 'retry-after': '999999' });
    connect({ limiters: new LimiterPool({ maxRps: 10_000, burst: 64, clock }) });
    const first = await failure(client!.getMapsByUid([map.mapUid]));
    expect(first).toBeInstanceOf(RetryLaterError);
    expect(first.code).toBe('RATE_LIMITED_LONG');
    const retryAt = new Date(NOW + 999_999_000);
    expect((first as RetryLaterError).retryAt).toEqual(retryAt);
    expect(first.message).toContain(retryAt.toISOString());
    expect(server.requests).toHaveLength(1);

    // Every later call of this client fails the same way, without a request and without waiting.
    const later = await failure(client!.getRecords(map, accounts));
    expect(later).toMatchObject({ code: 'RATE_LIMITED_LONG', retryAt });
    expect(server.requests).toHaveLength(1);
    expect(clock.pending).toBe(0);

    // Once the time has come, the host is asked again.
    server.answer = (_req, res) => sendJson(res, 200, []);
    await clock.advance(999_999_000);
    await expect(client!.getMapsByUid([map.mapUid])).resolves.toMatchObject({ maps: [], notFound: [map.mapUid] });
    expect(server.requests).toHaveLength(2);
  });

  it('a 503 whose Retry-After is a date a day away is the same: no wait, the date in the error', async () => {
    const retryAt = new Date(NOW + 86_400_000);
    server.answer = (_req, res) => sendJson(res, 503, {}, { 'retry-after': retryAt.toUTCString() });
    connect();
    const e = await failure(client!.getRecords(map, accounts));
    expect(e).toMatchObject({ code: 'RATE_LIMITED_LONG', status: 503, retryAt });
    expect(server.requests).toHaveLength(1);
  });

  it('a body trickling one byte at a time ends with a timeout at the deadline, retried like other timeouts', async () => {
    server.answer = (_req, res) => trickle(res, 5);
    const deadlines = deadlinesAfterFirstBodyBytes();
    connect({ deadlineMs: 120, timeoutMs: 60_000, retry: { maxAttempts: 2, baseDelayMs: 1 }, armDeadline: deadlines.armDeadline, dispatcher: deadlines.dispatcher });
    const e = await failure(client!.getMapsByUid([map.mapUid]));
    expect(deadlines.expired()).toBe(2);
    expect(e).toMatchObject({ code: 'TIMEOUT', phase: 'body', retryable: true });
    expect(e.message).toMatch(/^The service at 127\.0\.0\.1:\d+ did not send its answer in full within 120 ms/);
    expect(isUnreachable(e)).toBe(false);
    expect(server.requests).toHaveLength(2);
  });

  it("the caller's own cancel during a trickling body is ABORTED at once, not a timeout", async () => {
    server.answer = (_req, res) => trickle(res, 5);
    connect({ deadlineMs: 60_000 });
    const controller = new AbortController();
    const pending = failure(client!.getMapsByUid([map.mapUid], { signal: controller.signal }));
    await server.received(1);
    controller.abort();
    expect(await pending).toMatchObject({ code: 'ABORTED' });
    expect(server.requests).toHaveLength(1);
  });

  it('stalled headers time out, are retried, and count as the service being unreachable', async () => {
    server.answer = () => {}; // never answers
    // The deadline, not undici's headers timeout: that one ticks in whole seconds.
    connect({ deadlineMs: 80, retry: { maxAttempts: 2, baseDelayMs: 1 } });
    const e = await failure(client!.getMapsByUid([map.mapUid]));
    expect(e).toMatchObject({ code: 'TIMEOUT', phase: 'headers' });
    expect(e.message).toMatch(/^The service at 127\.0\.0\.1:\d+ gave no answer within 80 ms/);
    expect(isUnreachable(e)).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('a refused connection is UNREACHABLE, retried, and recognisable with isUnreachable', async () => {
    const url = server.url;
    await server.close();
    connect({}, url);
    const e = await failure(client!.getRecords(map, accounts));
    expect(e.code).toBe('UNREACHABLE');
    // Named by its host, as a player knows it, never by a route template (issue 17 §2.10).
    expect(e.message).toMatch(/^The service at 127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED\)/);
    expect(isUnreachable(e)).toBe(true);
    expect(client!.stats().requests).toBe(3);
  });

  it('rates outside the sane range are refused at construction, naming the option and the range', () => {
    const base = { baseUrl: 'http://127.0.0.1:9', appVersion: '0.1.0' };
    expect(() => createNadeoClient({ ...base, maxRps: 1e-12 })).toThrow('maxRps must be a number from 0.01 to 10000, got 1e-12.');
    expect(() => createNadeoClient({ ...base, maxRps: Number.NaN })).toThrow(/maxRps must be a number from 0.01/);
    expect(() => createNadeoClient({ ...base, burst: 65 })).toThrow('burst must be a whole number from 1 to 64, got 65.');
    expect(() => createNadeoClient({ ...base, concurrency: 0 })).toThrow('concurrency must be a whole number from 1 to 64, got 0.');
    expect(() => createNadeoClient({ ...base, deadlineMs: 0 })).toThrow(/deadlineMs must be a number from 1 to 3600000/);
    expect(() => createNadeoClient({ ...base, retry: { maxRetryAfterMs: 86_400_000 } })).toThrow(/retry.maxRetryAfterMs must be a number from 0 to 3600000/);
    const real = { baseUrl: REAL_BASE_URL, appVersion: '0.1.0', contact: 'player: T; contact: t@example.com' };
    expect(() => createNadeoClient({ ...real, maxRps: 2.5 })).toThrow('maxRps must be a number from 0.01 to 2 against the real services (2 is the ceiling Nadeo staff gave; faster can get your account or IP banned), got 2.5.');
    expect(() => createNadeoClient({ ...real, maxRps: 2 })).not.toThrow();
    expect(() => new LimiterPool({ maxRps: 1e-12 })).toThrow(/maxRps must be a number from 0.01/);
  });
});

describe('the server is untrusted, value by value', () => {
  it('a negative time is skipped and reported; the rest of the map is kept', async () => {
    server.answer = answerRecords([record(0, (r) => (r.recordScore.time = -5)), record(1), record(2)]);
    const { records, rejected } = await connect().getRecords(map, accounts);
    expect(records.map((r) => r.accountId)).toEqual([accounts[1], accounts[2]]);
    expect(rejected).toEqual([{ accountId: accounts[0], mapRecordId: sampleRecord(0).mapRecordId, reason: 'time -5 is negative' }]);
  });

  it('times, scores and respawns beyond 2^32-1 are refused; the sentinel means hidden or not tracked', async () => {
    server.answer = answerRecords([
      record(0, (r) => (r.recordScore.time = SENTINEL_U32 + 1)),
      record(1, (r) => (r.recordScore.respawnCount = -1)),
      record(2, (r) => (r.recordScore = { time: 61_000, score: SENTINEL_U32, respawnCount: SENTINEL_U32 })),
      record(3, (r) => (r.recordScore = { time: 10, score: 0, respawnCount: 0 })),
    ]);
    const { records, rejected } = await connect().getRecords(map, accounts);
    expect(rejected.map((r) => [r.accountId, r.reason])).toEqual([
      [accounts[0], 'time 4294967296 is beyond 2^32-1'],
      [accounts[1], 'respawnCount -1 is negative'],
    ]);
    // A hidden Stunt entry may carry the sentinel in its score: hidden, no score, no time.
    expect(records[0]).toMatchObject({ accountId: accounts[2], hidden: true, time: null, score: 0, respawnCount: null });
    expect(records[1]).toMatchObject({ accountId: accounts[3], hidden: false, time: 10, score: 0, respawnCount: 0 });
  });

  it('times of 0 and 1 ms (below one physics tick, 10 ms) are skipped and reported; 10 ms and the sentinel are kept', async () => {
    server.answer = answerRecords([
      record(0, (r) => (r.recordScore.time = 0)),
      record(1, (r) => (r.recordScore.time = 1)),
      record(2, (r) => (r.recordScore.time = 9)),
      record(3, (r) => (r.recordScore.time = 10)),
    ]);
    const { records, rejected } = await connect().getRecords(map, accounts);
    expect(records.map((r) => [r.accountId, r.time])).toEqual([[accounts[3], 10]]);
    expect(rejected.map((r) => [r.accountId, r.reason])).toEqual([0, 1, 9].map((ms, i) => [
      accounts[i], `time ${ms} ms is shorter than any run the game can time (at least 10 ms, one physics tick)`,
    ]));
  });

  it('medals 99 and -1 are skipped and reported', async () => {
    server.answer = answerRecords([record(0, (r) => (r.medal = 99)), record(1, (r) => (r.medal = -1)), record(2, (r) => (r.medal = 0))]);
    const { records, rejected } = await connect().getRecords(map, accounts);
    expect(records.map((r) => [r.accountId, r.medal])).toEqual([[accounts[2], 0]]);
    expect(rejected.map((r) => r.reason)).toEqual(['medal 99 is not one of 0 (none) to 4 (author)', 'medal -1 is not one of 0 (none) to 4 (author)']);
  });

  it('a timestamp "not-a-date" (or February 30th) is skipped and reported', async () => {
    server.answer = answerRecords([
      record(0, (r) => (r.timestamp = 'not-a-date')),
      record(1, (r) => (r.timestamp = '2024-02-30T10:00:00+00:00')),
      record(2, (r) => (r.timestamp = '2024-02-29T10:00:00.123Z')),
    ]);
    const { records, rejected } = await connect().getRecords(map, accounts);
    expect(records.map((r) => r.accountId)).toEqual([accounts[2]]);
    expect(rejected.map((r) => r.reason)).toEqual([
      'timestamp "not-a-date" is not an ISO 8601 date and time with an offset',
      'timestamp "2024-02-30T10:00:00+00:00" is not an ISO 8601 date and time with an offset',
    ]);
  });

  it('a record ID shared by several accounts: all those records are skipped', async () => {
    const shared = uuid(77, 0x5ec);
    server.answer = answerRecords([record(0, (r) => (r.mapRecordId = shared)), record(1, (r) => (r.mapRecordId = shared)), record(2)]);
    const { records, rejected } = await connect().getRecords(map, accounts);
    expect(records.map((r) => r.accountId)).toEqual([accounts[2]]);
    expect(rejected).toEqual([
      { accountId: accounts[0], mapRecordId: shared, reason: `record ID "${shared}" is shared by 2 accounts` },
      { accountId: accounts[1], mapRecordId: shared, reason: `record ID "${shared}" is shared by 2 accounts` },
    ]);
  });

  it('records for a map or an account not asked for, or two different records of one account, are skipped', async () => {
    const stranger = uuid(99, 0xbad);
    const otherMap = uuid(5, 0xa11);
    server.answer = answerRecords([
      record(0, (r) => (r.mapId = otherMap)),
      record(1, (r) => (r.accountId = stranger)),
      record(2),
      record(2, (r) => (r.recordScore.time = 1)),
      record(3),
      record(3), // an exact repeat is one record
    ]);
    const { records, rejected } = await connect().getRecords(map, accounts);
    expect(records.map((r) => r.accountId)).toEqual([accounts[3]]);
    expect(rejected).toEqual([
      { accountId: accounts[0], mapRecordId: sampleRecord(0).mapRecordId, reason: `a record for map "${otherMap}", not the map asked for` },
      { mapRecordId: sampleRecord(1).mapRecordId, reason: `a record for account "${stranger}", not one asked for` },
      { accountId: accounts[2], mapRecordId: sampleRecord(2).mapRecordId, reason: 'the service answered several different records for this account' },
    ]);
  });

  it('a hostile account ID is reported quoted, control characters escaped', async () => {
    server.answer = answerRecords([record(0, (r) => (r.accountId = '\u001b[2J\u009b31mEvil'))]);
    const { rejected } = await connect().getRecords(map, accounts);
    expect(rejected[0]!.reason).toBe('a record for account "\\u001b[2J\\u009b31mEvil", not one asked for');
    expect(rejected[0]).not.toHaveProperty('accountId');
  });

  it('a map with bad values is reported, not kept, and not called "not found"', async () => {
    const maps = [
      makeMap(1, { authorScore: -1 }),
      makeMap(2, { mapType: '' }),
      makeMap(3, { timestamp: 'yesterday' }),
      makeMap(4, { mapId: '../../etc' }),
      makeMap(5),
      makeMap(6, { mapUid: 'SomeOtherMapUid0000000000' }),
    ];
    server.answer = (_req, res) => sendJson(res, 200, maps);
    const wanted = [1, 2, 3, 4, 5, 6].map((i) => makeMap(i).mapUid);
    const { maps: kept, notFound, rejected } = await connect().getMapsByUid(wanted);
    expect(kept.map((m) => m.mapUid)).toEqual([wanted[4]]);
    expect(rejected).toEqual([
      { reason: 'the service answered map "SomeOtherMapUid0000000000", which was not asked for' },
      { mapUid: wanted[0], reason: 'authorScore -1 is not a medal score (0 to 2^32-1)' },
      { mapUid: wanted[1], reason: 'map type "" is not a map type' },
      { mapUid: wanted[2], reason: 'timestamp "yesterday" is not an ISO 8601 date and time with an offset' },
      { mapUid: wanted[3], reason: 'map ID "../../etc" is not a UUID' },
    ]);
    expect(notFound).toEqual([wanted[5]]);
  });

  it('a display-names answer of [] is an empty answer', async () => {
    server.answer = (req, res) => {
      if (req.path === '/api/access_token') return sendJson(res, 200, { token_type: 'bearer', expires_in: 3600, access_token: 'tok' });
      sendJson(res, 200, []);
    };
    connect({ oauth: { baseUrl: server.url, clientId: 'app', clientSecret: 'secret' } });
    const names = await client!.getDisplayNames(accounts);
    expect(names.size).toBe(0);
    expect(server.requests.map((r) => r.path)).toEqual(['/api/access_token', '/api/display-names']);
  });
});

describe('broken answers', () => {
  it('JSON cut short is a NETWORK error after every attempt', async () => {
    server.answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('[{"mapUid":"ab');
    };
    const e = await failure(connect().getMapsByUid([map.mapUid]));
    expect(e.code).toBe('NETWORK');
    expect(e.message).toMatch(/ended before its JSON did/);
    expect(server.requests).toHaveLength(3);
  });

  it('a wrong content type (a login page in the way) is a SCHEMA error, not retried', async () => {
    server.answer = (_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><form>Log in to the hotel Wi-Fi</form></html>');
    const e = await failure(connect().getMapsByUid([map.mapUid]));
    expect(e.code).toBe('SCHEMA');
    expect(e.message).toContain('expected JSON, got content type "text/html; charset=utf-8"');
    expect(server.requests).toHaveLength(1);
  });

  it('a huge body is refused: by its declared length unread, or while it streams', async () => {
    server.answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(17 * 1024 * 1024) }).end();
    const declared = await failure(connect().getMapsByUid([map.mapUid]));
    expect(declared).toMatchObject({ code: 'TOO_LARGE' });
    expect(declared.message).toMatch(/answered 17825792 bytes, more than the 16777216 allowed/);
    server.answer = (_req, res) => flood(res, 256 * 1024);
    const streamed = await failure(client!.getMapsByUid([map.mapUid]));
    expect(streamed).toMatchObject({ code: 'TOO_LARGE' });
    expect(server.requests).toHaveLength(2); // neither retried
  });
});

describe('route fallback trusts only the endpoint\'s own answer', () => {
  const routeNotFound = { code: 'C-AA-00-04', correlation_id: '5d1e7c0ffee', message: 'Route not found' };

  it('a removed route answering 404 with an API-looking body falls back; the choice is reported once', async () => {
    server.answer = (req, res) => {
      if (req.path === '/v2/mapRecords/') return sendJson(res, 404, routeNotFound);
      sendJson(res, 200, [record(0)]);
    };
    const changes: RouteChoices[] = [];
    connect({ routeChoice: { onChange: (c) => changes.push(c) } });
    const first = await client!.getRecords(map, accounts);
    expect(first.records.map((r) => r.accountId)).toEqual([accounts[0]]);
    await client!.getRecords(map, accounts);
    expect(server.requests.map((r) => r.path)).toEqual(['/v2/mapRecords/', '/v2/mapRecords/by-account/', '/v2/mapRecords/by-account/']);
    expect(changes).toEqual([{ mapsByUid: 'seed', mapsById: 'seed', records: 'successor' }]);
  });

  it("the records endpoint's own not-found C-AL-02-03 is not a removed route", async () => {
    server.answer = (_req, res) => sendJson(res, 404, { code: 'C-AL-02-03', correlation_id: '77', message: 'Not Found' });
    const changes: RouteChoices[] = [];
    connect({ routeChoice: { onChange: (c) => changes.push(c) } });
    const e = await failure(client!.getRecords(map, accounts));
    expect(e).toMatchObject({ code: 'NOT_FOUND', apiCode: 'C-AL-02-03' });
    expect(server.requests.map((r) => r.path)).toEqual(['/v2/mapRecords/']);
    expect(changes).toEqual([]);
  });

  it('a saved choice is where the next client starts', async () => {
    server.answer = (req, res) => sendJson(res, 200, req.path === '/maps/by-uid/' ? [map] : []);
    connect({ routeChoice: { initial: { mapsByUid: 'successor' } } });
    const { maps } = await client!.getMapsByUid([map.mapUid]);
    expect(maps).toHaveLength(1);
    expect(server.requests.map((r) => r.path)).toEqual(['/maps/by-uid/']);
  });
});

describe('downloads and redirects', () => {
  const payload = Buffer.from('GBX map file bytes '.repeat(200));
  const sha256 = createHash('sha256').update(payload).digest('hex');
  const tokens = { accessToken: 'access.token.x', refreshToken: 'refresh.token.y' };

  it('a redirect to another origin is followed without the token; the file lands whole with its sha256', async () => {
    other = await startHostileServer((_req, res) => res.writeHead(200, { 'content-length': String(payload.length) }).end(payload));
    server.answer = (req, res) => {
      if (req.path.startsWith('/v2/authentication/')) return sendJson(res, 200, tokens);
      res.writeHead(302, { location: `${other!.url}/storageObjects/abc` }).end();
    };
    connect({ credentials: { login: 'svc', password: 'pw' } });
    const dest = join(dir, 'map.Map.Gbx');
    await expect(client!.download(`${server.url}/maps/${map.mapId}/file`, dest)).resolves.toEqual({ state: 'downloaded', bytes: payload.length, sha256 });
    expect(server.requests.find((r) => r.path.endsWith('/file'))!.headers['authorization']).toBe(`nadeo_v1 t=${tokens.accessToken}`);
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers['authorization']).toBeUndefined();
    expect(await readFile(dest)).toEqual(payload);
    expect(await readdir(dir)).toEqual(['map.Map.Gbx']);
  });

  it('a redirect loop ends after a bounded number of hops with TOO_MANY_REDIRECTS and no file', async () => {
    server.answer = (_req, res) => res.writeHead(302, { location: '/file' }).end();
    const e = await failure(connect().download(`${server.url}/file`, join(dir, 'x.gbx')));
    expect(e.code).toBe('TOO_MANY_REDIRECTS');
    expect(e.message).toMatch(/redirected more than 5 times/);
    expect(server.requests).toHaveLength(6);
    expect(await readdir(dir)).toEqual([]);
  });

  it('a redirect to a non-http scheme is refused', async () => {
    server.answer = (_req, res) => res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    const e = await failure(connect().download(`${server.url}/file`, join(dir, 'x.gbx')));
    expect(e.code).toBe('BAD_URL');
    expect(await readdir(dir)).toEqual([]);
  });

  it('a download trickling forever ends at its own deadline and leaves no temp file', async () => {
    server.answer = (_req, res) => trickle(res, 5);
    const deadlines = deadlinesAfterFirstBodyBytes();
    connect({ downloadDeadlineMs: 120, timeoutMs: 60_000, retry: { maxAttempts: 1 }, armDeadline: deadlines.armDeadline, dispatcher: deadlines.dispatcher });
    const e = await failure(client!.download(`${server.url}/file`, join(dir, 'x.gbx')));
    expect(e).toMatchObject({ code: 'TIMEOUT', phase: 'body' });
    expect(await readdir(dir)).toEqual([]);
  });
});

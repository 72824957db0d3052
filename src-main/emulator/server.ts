// The emulator's HTTP server (node:http, no framework): routing, URI limit, latency, rate limit, faults, auth.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { clubTags } from './accounts.ts';
import { apiError, API_ERROR, bytes, json, noRoute, text, type Answer } from './answers.ts';
import { lookUpMaps, lookUpRecords, mapFileRedirect, type MapsRoute } from './api.ts';
import { NadeoAuth, type AuthOptions } from './auth.ts';
import type { Dataset } from './dataset.ts';
import { FaultPlan, TokenBucket, type FaultKind } from './faults.ts';
import { mapFileBytes, replayBytesFor, THUMBNAIL_JPEG } from './files.ts';
import { crowdRecordById } from './world.ts';
import { nameBookOf } from './crowd-names.ts';
import { evolveDataset, type EvolveOptions } from './generator.ts';
import { DatasetIndex } from './lookup.ts';
import { DisplayNamesApi, type OAuthOptions } from './oauth.ts';
import { searchExchangeMaps, searchExchangePacks } from './exchange.ts';
import { LiveApi } from './live.ts';
import { isHiddenFrom } from './rules.ts';

export interface EmulatorOptions {
  dataset: Dataset;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  /** Nadeo login; without it no token is needed (and one that is sent is ignored). TTLs in seconds, fractions allowed. */
  auth?: AuthOptions;
  /** The display-names API's client; without it those routes need no token. */
  oauth?: OAuthOptions;
  /** Added before every answer. */
  latencyMs?: number;
  /**
   * Awaited before a request (by its path, without the query) is answered, when it gives a promise: a test holds the
   * service at a moment it chooses (a sync mid-way) instead of racing a timer.
   */
  hold?: ((path: string) => Promise<void> | undefined) | undefined;
  /** 0..1: that share of API and file requests fail (500, 503, 429, dropped connection, truncated body). */
  failRate?: number;
  /** Makes the fault choice reproducible; default 1. */
  faultSeed?: number;
  /** Retry-After on injected 429/503 faults; default 1. */
  retryAfterSec?: number;
  /** Token bucket (burst ceil(rps)) over API and file requests; beyond it 429 with Retry-After. */
  rateLimitRps?: number;
  /** The seed's deprecated routes answer 404 with a body that is not an API error: only the successors work. */
  withoutDeprecatedRoutes?: boolean;
  /** /maps/by-id/ drops invalid IDs silently instead of the validation error (the docs disagree on this). */
  byIdDropsInvalid?: boolean;
  /**
   * The service's wall clock, ms: token lifetimes, the Live routes' calendar (the next campaign, the next Track of the
   * Day, relative times) and when evolve's new records are set. Default Date.now; a test moves it instead of sleeping.
   */
  now?: () => number;
}

export interface EmulatorStats {
  requests: number;
  /** Keyed by route, e.g. 'GET /maps/', 'GET /storageObjects/:id'; 'unknown' for anything else. */
  byRoute: Record<string, number>;
  /** Keyed by HTTP status; 'dropped' for connections dropped by a fault (a truncated answer counts under its status). */
  byStatus: Record<string, number>;
  /** Injected faults (rate-limit answers are counted under byStatus['429'] only). */
  faults: number;
  uriTooLong: number;
  maxUriLength: number;
}

export interface RunningEmulator {
  /** 'http://127.0.0.1:PORT', no trailing slash: both {base_url} and {storage_url}. */
  url: string;
  /** The Live services' base URL (the same origin as `url`). */
  liveUrl: string;
  /** The OAuth API's base URL (display names, account IDs by name; the same origin as `url`). */
  oauthUrl: string;
  /** The Trackmania Exchange stub's base URL: `url` + '/tmx'. */
  exchangeUrl: string;
  port: number;
  /** The live dataset: changes to it are served (edited fields at once; added, removed or replaced items too). */
  dataset: Dataset;
  stats(): EmulatorStats;
  resetStats(): void;
  /**
   * Deterministically improves about `fraction` of the personal bests and adds some first ones (new mapRecordId,
   * later timestamp, better result, new replay bytes), of every account or of a few `rivals`; returns what changed.
   */
  evolve(opts: EvolveOptions): { improved: number; added: number };
  close(): Promise<void>;
}

/** Seed 7.3 / 8: a request URI (path and query as sent) this long or longer gets 414. */
export const MAX_URI_LENGTH = 8220;
const MAX_BODY_BYTES = 64 * 1024;

/** Which policies apply: API and file requests are rate limited and faulted; token routes never are. */
type RouteKind = 'api' | 'file' | 'login' | 'names-token' | 'names' | 'live' | 'exchange';

interface Route {
  name: string;
  kind: RouteKind;
  method: 'GET' | 'POST';
  deprecated?: boolean;
  handle(request: RouteRequest): Answer;
}

interface RouteRequest {
  query: URLSearchParams;
  /** The ID captured from the path, for file routes. */
  pathId: string;
  /** Every part captured from the path (pattern routes). */
  params: string[];
  body: string;
  authorization: string | undefined;
  /** The account the request's access token acts for (only when the emulator requires auth). */
  caller: string | undefined;
  origin: string;
}

function emptyStats(): EmulatorStats {
  return { requests: 0, byRoute: {}, byStatus: {}, faults: 0, uriTooLong: 0, maxUriLength: 0 };
}

function count(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : undefined));
    req.on('error', reject);
  });
}

// eslint-disable-next-line max-lines-per-function -- the emulator's route table: one entry per route of docs/seed-contract.md
export async function startEmulator(options: EmulatorOptions): Promise<RunningEmulator> {
  const failRate = options.failRate ?? 0;
  if (!(failRate >= 0 && failRate <= 1)) throw new RangeError(`failRate must be between 0 and 1, got ${failRate}`);
  if (options.rateLimitRps !== undefined && !(options.rateLimitRps > 0))
    throw new RangeError(`rateLimitRps must be above 0, got ${options.rateLimitRps}`);
  const dataset = options.dataset;
  const index = new DatasetIndex(dataset);
  const auth = new NadeoAuth(options.auth, options.now);
  const names = new DisplayNamesApi(options.oauth, options.now);
  const now = options.now ?? Date.now;
  const nameBook = nameBookOf(dataset, now);
  const live = new LiveApi(index, now);
  const faults = new FaultPlan(failRate, options.faultSeed ?? 1);
  // The names API is another service in reality (api.trackmania.com), so it gets its own budget.
  const coreBucket = options.rateLimitRps ? new TokenBucket(options.rateLimitRps) : undefined;
  const namesBucket = options.rateLimitRps ? new TokenBucket(options.rateLimitRps) : undefined;
  // Live and the Exchange are other services in reality too: each its own budget.
  const liveBucket = options.rateLimitRps ? new TokenBucket(options.rateLimitRps) : undefined;
  const exchangeBucket = options.rateLimitRps ? new TokenBucket(options.rateLimitRps) : undefined;
  const retryAfter = String(options.retryAfterSec ?? 1);
  const latencyMs = options.latencyMs ?? 0;
  let stats = emptyStats();

  const mapsRoute = (path: string, route: MapsRoute, deprecated: boolean): [string, Route] => [
    path,
    {
      name: `GET ${path}`,
      kind: 'api',
      method: 'GET',
      deprecated,
      handle: (r) => lookUpMaps(index, route, r.query, r.origin, options.byIdDropsInvalid ?? false),
    },
  ];
  const recordsRoute = (path: string, deprecated: boolean): [string, Route] => [
    path,
    { name: `GET ${path}`, kind: 'api', method: 'GET', deprecated, handle: (r) => lookUpRecords(index, r.query, r.origin, r.caller, now) },
  ];
  const exactRoutes = new Map<string, Route>([
    mapsRoute('/maps/', 'seed', true),
    mapsRoute('/maps/by-id/', 'by-id', false),
    mapsRoute('/maps/by-uid/', 'by-uid', false),
    recordsRoute('/v2/mapRecords/', true),
    recordsRoute('/v2/mapRecords/by-account/', false),
    ['/accounts/clubTags/', { name: 'GET /accounts/clubTags/', kind: 'api', method: 'GET', handle: (r) => clubTags(index, r.query) }],
    ['/v2/authentication/token/basic', { name: 'POST /v2/authentication/token/basic', kind: 'login', method: 'POST', handle: (r) => auth.login(r.authorization, r.body) }],
    ['/v2/authentication/token/refresh', { name: 'POST /v2/authentication/token/refresh', kind: 'login', method: 'POST', handle: (r) => auth.refresh(r.authorization) }],
    ['/api/access_token', { name: 'POST /api/access_token', kind: 'names-token', method: 'POST', handle: (r) => names.accessToken(r.body) }],
    ['/api/display-names', { name: 'GET /api/display-names', kind: 'names', method: 'GET', handle: (r) => names.displayNames(r.authorization, r.query, nameBook) }],
    ['/api/display-names/account-ids', { name: 'GET /api/display-names/account-ids', kind: 'names', method: 'GET', handle: (r) => names.accountIds(r.authorization, r.query, nameBook) }],
    ['/api/campaign/official', { name: 'GET /api/campaign/official', kind: 'live', method: 'GET', handle: (r) => live.seasonalCampaigns(r.query, false) }],
    ['/api/token/campaign/official', { name: 'GET /api/token/campaign/official', kind: 'live', method: 'GET', handle: (r) => live.seasonalCampaigns(r.query, true) }],
    ['/api/token/campaign/month', { name: 'GET /api/token/campaign/month', kind: 'live', method: 'GET', handle: (r) => live.trackOfTheDay(r.query) }],
    ['/api/token/leaderboard/group/map', { name: 'POST /api/token/leaderboard/group/map', kind: 'live', method: 'POST', handle: (r) => live.positions(r.query, r.body, r.caller) }],
    ['/tmx/api/maps', { name: 'GET /tmx/api/maps', kind: 'exchange', method: 'GET', handle: (r) => searchExchangeMaps(index, r.query) }],
    ['/tmx/api/mappacks', { name: 'GET /tmx/api/mappacks', kind: 'exchange', method: 'GET', handle: (r) => searchExchangePacks(index, r.query) }],
  ]);
  const patternRoutes: Array<[RegExp, Route]> = [
    [
      /^\/api\/token\/club\/(\d{1,10})\/campaign\/(\d{1,10})$/,
      { name: 'GET /api/token/club/:clubId/campaign/:campaignId', kind: 'live', method: 'GET', handle: (r) => live.clubCampaign(r.params[0] ?? '', r.params[1] ?? '') },
    ],
    [
      /^\/api\/token\/leaderboard\/group\/([A-Za-z0-9_-]+)\/map\/([A-Za-z0-9_-]+)\/top$/,
      { name: 'GET /api/token/leaderboard/group/:groupUid/map/:mapUid/top', kind: 'live', method: 'GET', handle: (r) => live.top(r.params[0] ?? '', r.params[1] ?? '', r.query, r.caller) },
    ],
    [
      /^\/storageObjects\/([A-Za-z0-9_-]+(?:\.jpg)?)$/,
      {
        name: 'GET /storageObjects/:id',
        kind: 'file',
        method: 'GET',
        handle: ({ pathId, caller }) => {
          const object = index.storageObject(pathId);
          if (!object) return text(404, 'Not Found');
          if (object.kind === 'thumbnail') return bytes(THUMBNAIL_JPEG, 'image/jpeg');
          if (object.kind === 'map') return bytes(mapFileBytes(object.map), 'application/octet-stream');
          return replayAnswer(object.record, caller);
        },
      },
    ],
    [
      /^\/maps\/([0-9A-Fa-f-]+)\/file$/,
      { name: 'GET /maps/:mapId/file', kind: 'file', method: 'GET', handle: (r) => mapFileRedirect(index, r.pathId, 'file', r.origin) },
    ],
    [
      /^\/maps\/([0-9A-Fa-f-]+)\/thumbnail\.jpg$/,
      { name: 'GET /maps/:mapId/thumbnail.jpg', kind: 'file', method: 'GET', handle: (r) => mapFileRedirect(index, r.pathId, 'thumbnail', r.origin) },
    ],
    [
      /^\/mapRecords\/([0-9A-Fa-f-]+)\/replay$/,
      {
        name: 'GET /mapRecords/:mapRecordId/replay',
        kind: 'file',
        method: 'GET',
        handle: ({ pathId, caller }) => {
          const record = index.recordById(pathId) ?? crowdRecordById(dataset.maps, pathId, now());
          return record ? replayAnswer(record, caller) : text(404, 'Not Found');
        },
      },
    ],
  ];

  function replayAnswer(record: Parameters<typeof replayBytesFor>[0], caller: string | undefined): Answer {
    // Seed 2.2 / 7.3: the replay of an entry hidden by a secret threshold answers 403 (to all but its player).
    if (isHiddenFrom(index.mapById(record.mapId), record, caller)) return apiError(403, API_ERROR.forbidden);
    return bytes(replayBytesFor(record, dataset, nameBook.nameOf(record.accountId)), 'application/octet-stream');
  }

  function resolve(path: string): { route: Route; pathId: string; params: string[] } | undefined {
    const exact = exactRoutes.get(path);
    if (exact) return { route: exact, pathId: '', params: [] };
    for (const [pattern, route] of patternRoutes) {
      const match = pattern.exec(path);
      if (match) return { route, pathId: match[1] ?? '', params: match.slice(1) };
    }
    return undefined;
  }

  const sockets = new Set<Socket>();
  const pendingSleeps = new Set<() => void>();
  let closing = false;
  const sleep = (ms: number): Promise<void> =>
    new Promise((done) => {
      const finish = (): void => {
        clearTimeout(timer);
        pendingSleeps.delete(finish);
        done();
      };
      const timer = setTimeout(finish, ms);
      pendingSleeps.add(finish);
    });

  let listeningOrigin = '';
  let wildcardHost = false;
  /** Addresses in answers use the origin the client reached; on a wildcard address that is the Host header. */
  function originOf(req: IncomingMessage): string {
    const host = req.headers.host;
    if (wildcardHost && host && /^[A-Za-z0-9.:[\]-]+$/.test(host)) return `http://${host}`;
    return listeningOrigin;
  }

  function send(req: IncomingMessage, res: ServerResponse, answer: Answer, fault?: FaultKind): void {
    if (res.destroyed || req.socket.destroyed) return;
    count(stats.byStatus, String(answer.status));
    const headers = { 'Content-Type': answer.contentType, 'Content-Length': String(answer.body.length), ...answer.headers };
    res.writeHead(answer.status, headers);
    if (fault === 'truncate') {
      // Declares the whole length, sends about half, then hangs up: the client must notice the short body.
      res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () => req.socket.destroy());
      return;
    }
    res.end(answer.body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => undefined);
    const rawUrl = req.url ?? '/';
    stats.requests++;
    stats.maxUriLength = Math.max(stats.maxUriLength, rawUrl.length);
    const queryAt = rawUrl.indexOf('?');
    const path = queryAt < 0 ? rawUrl : rawUrl.slice(0, queryAt);
    const resolved = resolve(path);
    count(stats.byRoute, resolved?.route.name ?? 'unknown');
    if (latencyMs > 0) await sleep(latencyMs);
    const held = options.hold?.(path);
    if (held) await held;
    if (closing) {
      req.socket.destroy();
      return;
    }
    if (rawUrl.length >= MAX_URI_LENGTH) {
      stats.uriTooLong++;
      return send(req, res, text(414, '414 Request-URI Too Large'));
    }
    if (!resolved || (resolved.route.deprecated && options.withoutDeprecatedRoutes)) return send(req, res, noRoute());
    const { route, pathId, params } = resolved;
    if (req.method !== route.method) return send(req, res, json(405, { message: 'Method Not Allowed' }, { Allow: route.method }));

    const limited = route.kind !== 'login' && route.kind !== 'names-token';
    if (limited) {
      const bucket = route.kind === 'names' ? namesBucket : route.kind === 'live' ? liveBucket : route.kind === 'exchange' ? exchangeBucket : coreBucket;
      const wait = bucket?.take();
      if (wait !== undefined) return send(req, res, text(429, 'Too Many Requests', { 'Retry-After': String(wait) }));
    }
    const fault = limited ? faults.next(`${req.method} ${rawUrl}`) : undefined;
    if (fault) {
      stats.faults++;
      if (fault === 'drop') {
        count(stats.byStatus, 'dropped');
        req.socket.destroy();
        return;
      }
      if (fault === '500') return send(req, res, text(500, 'Internal Server Error'));
      if (fault === '503') return send(req, res, text(503, 'Service Unavailable', { 'Retry-After': retryAfter }));
      if (fault === '429') return send(req, res, text(429, 'Too Many Requests', { 'Retry-After': retryAfter }));
    }
    const authorization = req.headers.authorization;
    let caller: string | undefined;
    if (route.kind === 'api' || route.kind === 'file' || route.kind === 'live') {
      const access = auth.checkAccess(authorization, route.kind === 'live' ? 'NadeoLiveServices' : 'NadeoServices');
      if ('refused' in access) return send(req, res, access.refused, fault);
      caller = access.caller;
    }
    let body = '';
    if (route.method === 'POST') {
      const read = await readBody(req);
      if (read === undefined) return send(req, res, text(413, 'Payload Too Large'));
      body = read;
    }
    const answer = route.handle({ query: new URLSearchParams(queryAt < 0 ? '' : rawUrl.slice(queryAt + 1)), pathId, params, body, authorization, caller, origin: originOf(req) });
    send(req, res, answer, fault);
  }

  // Node refuses long request lines itself (431) at 16 KB; the emulator must see them to answer 414 like the service.
  const server = createServer({ maxHeaderSize: 1024 * 1024, keepAliveTimeout: 5000 }, (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) send(req, res, text(500, `emulator error: ${error instanceof Error ? error.message : String(error)}`));
      else req.socket.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', fail);
      done();
    });
  });
  const address = server.address() as AddressInfo;
  wildcardHost = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcardHost ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  listeningOrigin = `http://${host}:${address.port}`;

  return {
    url: listeningOrigin,
    liveUrl: listeningOrigin,
    oauthUrl: listeningOrigin,
    exchangeUrl: `${listeningOrigin}/tmx`,
    port: address.port,
    dataset,
    stats: () => structuredClone(stats),
    resetStats: () => {
      stats = emptyStats();
    },
    evolve: (opts) => {
      const changed = evolveDataset(dataset, { now: now(), ...opts });
      index.markStale();
      return changed;
    },
    close: () =>
      new Promise<void>((done) => {
        closing = true;
        for (const wake of [...pendingSleeps]) wake();
        server.close(() => done());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

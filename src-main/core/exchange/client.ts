// Trackmania Exchange (trackmania.exchange) client. The Exchange is a community site, not one of Nadeo's services: it
// lives beside core/nadeo, built with the same connection builder (core/nadeo/http). Map numbers and map packs to map UIDs through the Exchange's
// public API, `GET /api/maps?fields=MapId,MapUid,Name&id=<ids>` and `...&mappackid=<id>&count=100[&after=<MapId>]`,
// answering `{"More": boolean, "Results": [...]}`; a pack's name from `GET /api/mappacks?fields=MappackId,Name&id=<id>`
// (docs/nadeo-api.md). The Exchange asks for a descriptive User-Agent and for caching:
// answers are kept in memory for the client's life (cacheTtlMs), and the client has its own polite budget.
import { z } from 'zod';
import { jsonHandler } from '../nadeo/http/answers.ts';
import { parseBase } from '../nadeo/http/base-url.ts';
import { checkPositive, openConnection, type ConnectionOptions } from '../nadeo/http/connection.ts';
import { ErrorCode, HttpError, InputError, NadeoError } from '../nadeo/http/errors.ts';
import { parseBody } from '../nadeo/http/parse.ts';
import type { Pipeline, PipelineStats } from '../nadeo/http/pipeline.ts';
import { linkSignals, raceSignal } from '../nadeo/http/signals.ts';

export const REAL_EXCHANGE_BASE_URL = 'https://trackmania.exchange';
const FIELDS = 'MapId,MapUid,Name';
/** The API's page size ceiling. */
export const EXCHANGE_MAX_PAGE = 100;
const MAPS_ROUTE = 'GET /api/maps';
/** The most maps one query reads (a list holds at most 5,000 maps): a server that keeps answering "More" stops here. */
export const EXCHANGE_MAX_MAPS = 5000;

export const ExchangeMapsWire = z.looseObject({
  More: z.boolean(),
  Results: z.array(z.looseObject({ MapId: z.number().int(), MapUid: z.string(), Name: z.string() })),
});

const PACKS_ROUTE = 'GET /api/mappacks';
export const ExchangePacksWire = z.looseObject({
  Results: z.array(z.looseObject({ MappackId: z.number().int(), Name: z.string() })),
});

export interface ExchangeClientOptions extends ConnectionOptions {
  /** REAL_EXCHANGE_BASE_URL (default), or the emulator's `exchangeUrl`. */
  baseUrl?: string | undefined;
  /** How long an answer is reused (default 1 h; map numbers never change their UID, packs gain maps). */
  cacheTtlMs?: number | undefined;
  /** Results per request (default and ceiling 100). */
  pageSize?: number | undefined;
}

/** A map as the Exchange knows it: its own number, the game's UID, and its name (formatting codes included). */
export interface ExchangeMap {
  exchangeId: number;
  mapUid: string;
  name: string;
}

export interface ExchangeClientStats extends PipelineStats {
  /** Answers served from the cache instead of the network. */
  cacheHits: number;
}

export interface ExchangeClient {
  /** One entry per known number in the order asked; unknown numbers are listed in notFound. */
  getMaps(exchangeIds: readonly number[], o?: { signal?: AbortSignal | undefined }): Promise<{ maps: ExchangeMap[]; notFound: number[] }>;
  /** The pack's maps in the Exchange's order; an unknown pack answers like an empty one (the API cannot tell them apart). */
  getMapPack(packId: number, o?: { signal?: AbortSignal | undefined }): Promise<{ packId: number; maps: ExchangeMap[] }>;
  /** The pack's name as its owner wrote it (formatting codes included); null for an unknown pack. */
  getMapPackName(packId: number, o?: { signal?: AbortSignal | undefined }): Promise<string | null>;
  stats(): ExchangeClientStats;
  close(): Promise<void>;
}

/** Hosts of the real Exchange: a contact in the User-Agent is required there. */
export function isRealExchangeHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'trackmania.exchange' || h.endsWith('.trackmania.exchange') || h.endsWith('.mania.exchange');
}

/**
 * An Exchange refusal in the player's words: it needs no account, so a 401 or 403 is the site's doing (or the wrong
 * --exchange-url), never the player's login. The route stays in the error's fields.
 */
function exchangeWords(e: unknown): unknown {
  if (!(e instanceof HttpError) || e.code === ErrorCode.ROUTE_GONE) return e;
  const words =
    e.status === 401 || e.status === 403
      ? `Trackmania Exchange refused the request (HTTP ${e.status}); it needs no account, so nothing in your settings causes this: try again later, or check --exchange-url.`
      : e.status === 429
        ? 'Trackmania Exchange asks Trackwatch to slow down (HTTP 429): try again later.'
        : e.status >= 500
          ? `Trackmania Exchange had a problem (HTTP ${e.status}); try again later.`
          : `Trackmania Exchange answered HTTP ${e.status}, which Trackwatch did not expect; try again later, or check --exchange-url.`;
  return new HttpError(e.code, words, { status: e.status, method: e.method, route: e.route, ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}) }, { retryable: e.retryable, cause: e });
}

interface PackNameDeps {
  pipeline: Pipeline;
  now: () => number;
  origin: string;
  basePath: string;
  fresh: (at: number) => boolean;
  open: () => void;
  hit: () => void;
}

/** A pack's name by its number, each kept for the client's cache time. */
function packNamesOf(at: PackNameDeps): (packId: number, signal: AbortSignal | undefined) => Promise<string | null> {
  const names = new Map<number, { name: string | null; at: number }>();
  return async (packId, signal) => {
    at.open();
    checkExchangeId('map pack', packId);
    const known = names.get(packId);
    if (known && at.fresh(known.at)) {
      at.hit();
      return known.name;
    }
    const name = await askPackName(at, packId, signal);
    names.set(packId, { name, at: at.now() });
    return name;
  };
}

/** GET /api/mappacks for one pack's name; null when the Exchange lists no such pack. */
async function askPackName(at: PackNameDeps, packId: number, signal: AbortSignal | undefined): Promise<string | null> {
  const target = `${at.basePath}/api/mappacks?fields=MappackId,Name&id=${packId}`;
  const body = await at.pipeline
    .request({
      method: 'GET',
      origin: at.origin,
      target,
      route: PACKS_ROUTE,
      headers: { accept: 'application/json' },
      signal,
      detectGoneRoute: true,
      handle: jsonHandler({ method: 'GET', route: PACKS_ROUTE, target, detectGoneRoute: true }, at.now),
    })
    .catch((e: unknown) => {
      throw exchangeWords(e);
    });
  // Only the pack asked for counts: a server answering another pack's name is not believed.
  return parseBody(ExchangePacksWire, body, PACKS_ROUTE, 'mappacks').Results.find((r) => r.MappackId === packId)?.Name ?? null;
}

function checkExchangeId(what: string, id: number): void {
  if (!Number.isSafeInteger(id) || id < 1) throw new InputError(`${String(id)} is not a Trackmania Exchange ${what} number (a whole number of at least 1).`);
}

export function createExchangeClient(options: ExchangeClientOptions): ExchangeClient {
  // The real Exchange wants https and a contact, like Nadeo's real services.
  const base = parseBase(options.baseUrl ?? REAL_EXCHANGE_BASE_URL, 'exchange baseUrl', isRealExchangeHost);
  checkPositive('cacheTtlMs', options.cacheTtlMs, false);
  checkPositive('pageSize', options.pageSize, true);
  const pageSize = Math.min(options.pageSize ?? EXCHANGE_MAX_PAGE, EXCHANGE_MAX_PAGE);
  const ttl = options.cacheTtlMs ?? 3600_000;
  const conn = openConnection('exchange', options, { real: base.real, authOrigins: {} });
  const { pipeline, now } = conn;
  const byId = new Map<number, { map: ExchangeMap | null; at: number }>();
  const packs = new Map<number, { maps: Promise<ExchangeMap[]>; at: number }>();
  let cacheHits = 0;

  /**
   * Every page of one query: `after` the last MapId seen until More is false. Bounded: a page that brings no map not
   * seen before ends it, and past EXCHANGE_MAX_MAPS maps (what a list may hold) it fails with one clear line.
   */
  async function allPages(query: string, what: string, signal: AbortSignal | undefined): Promise<ExchangeMap[]> {
    const out: ExchangeMap[] = [];
    const seen = new Set<number>();
    let after: number | undefined;
    for (;;) {
      const target = `${base.basePath}/api/maps?fields=${FIELDS}&${query}&count=${pageSize}${after !== undefined ? `&after=${after}` : ''}`;
      const body = await pipeline
        .request({
          method: 'GET',
          origin: base.origin,
          target,
          route: MAPS_ROUTE,
          headers: { accept: 'application/json' },
          signal,
          detectGoneRoute: true,
          handle: jsonHandler({ method: 'GET', route: MAPS_ROUTE, target, detectGoneRoute: true }, now),
        })
        .catch((e: unknown) => {
          throw exchangeWords(e);
        });
      const page = parseBody(ExchangeMapsWire, body, MAPS_ROUTE, 'maps');
      const fresh = page.Results.filter((r) => !seen.has(r.MapId));
      for (const r of fresh) seen.add(r.MapId);
      out.push(...fresh.map((r) => ({ exchangeId: r.MapId, mapUid: r.MapUid, name: r.Name })));
      if (out.length > EXCHANGE_MAX_MAPS) {
        throw new NadeoError(
          ErrorCode.TOO_LARGE,
          `Trackmania Exchange listed more than ${EXCHANGE_MAX_MAPS.toLocaleString('en-US')} maps for ${what} and kept going; stopped there. A list holds at most ${EXCHANGE_MAX_MAPS.toLocaleString('en-US')} maps.`,
        );
      }
      // A page that says More but brings nothing new would loop forever: stop there.
      const last = page.Results.at(-1)?.MapId;
      if (!page.More || fresh.length === 0 || last === undefined) return out;
      after = last;
    }
  }

  /** The pack fetches under way: askers share one, which stops once every asker has given up (or the client closes). */
  const packFetches = new Map<number, { maps: Promise<ExchangeMap[]>; askers: number; stop: () => void }>();

  async function askPack(packId: number, signal: AbortSignal | undefined): Promise<ExchangeMap[]> {
    let fetch = packFetches.get(packId);
    if (!fetch) {
      const linked = linkSignals(conn.lifetime);
      const maps = allPages(`mappackid=${packId}`, `map pack ${packId}`, linked.signal).finally(() => {
        linked.dispose();
        if (packFetches.get(packId) === entry) packFetches.delete(packId);
      });
      maps.catch(() => {});
      const entry = { maps, askers: 0, stop: linked.abort };
      packFetches.set(packId, entry);
      fetch = entry;
    }
    const shared = fetch;
    shared.askers++;
    try {
      return await raceSignal(shared.maps, signal);
    } finally {
      shared.askers--;
      // The last asker gone: nobody waits for the answer, so the paging ends with them.
      if (shared.askers === 0 && packFetches.get(packId) === shared) {
        packFetches.delete(packId);
        shared.stop();
      }
    }
  }

  const fresh = (at: number) => now() - at < ttl;
  const packName = packNamesOf({ pipeline, now, origin: base.origin, basePath: base.basePath, fresh, open: () => conn.ensureOpen(), hit: () => cacheHits++ });

  return {
    async getMaps(exchangeIds, o = {}) {
      conn.ensureOpen();
      for (const id of exchangeIds) checkExchangeId('map', id);
      const wanted = [...new Set(exchangeIds)];
      const missing = wanted.filter((id) => {
        const hit = byId.get(id);
        if (hit && fresh(hit.at)) {
          cacheHits++;
          return false;
        }
        return true;
      });
      const batches: number[][] = [];
      for (let i = 0; i < missing.length; i += pageSize) batches.push(missing.slice(i, i + pageSize));
      const linked = linkSignals(o.signal);
      try {
        await Promise.all(
          batches.map(async (ids) => {
            const found = await allPages(`id=${ids.join(',')}`, 'these map numbers', linked.signal);
            const at = now();
            for (const id of ids) byId.set(id, { map: null, at });
            for (const m of found) if (ids.includes(m.exchangeId)) byId.set(m.exchangeId, { map: m, at });
          }),
        );
      } catch (e) {
        linked.abort();
        throw e;
      } finally {
        linked.dispose();
      }
      const maps: ExchangeMap[] = [];
      const notFound: number[] = [];
      for (const id of wanted) {
        const m = byId.get(id)?.map;
        if (m) maps.push(m);
        else notFound.push(id);
      }
      return { maps, notFound };
    },

    async getMapPack(packId, o = {}) {
      conn.ensureOpen();
      checkExchangeId('map pack', packId);
      const hit = packs.get(packId);
      if (hit && fresh(hit.at)) {
        cacheHits++;
        return { packId, maps: [...(await raceSignal(hit.maps, o.signal))] };
      }
      // Concurrent askers share one fetch; a failed or abandoned fetch is not kept.
      const list = await askPack(packId, o.signal);
      packs.set(packId, { maps: Promise.resolve(list), at: now() });
      const at = now();
      for (const m of list) byId.set(m.exchangeId, { map: m, at });
      return { packId, maps: [...list] };
    },

    getMapPackName: (packId, o = {}) => packName(packId, o.signal),

    stats: () => ({ ...conn.stats(), cacheHits }),
    close: () => conn.close(),
  };
}

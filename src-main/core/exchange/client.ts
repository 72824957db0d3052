// Trackmania Exchange (trackmania.exchange) client. The Exchange is a community site, not one of Nadeo's services: it
// lives beside core/nadeo, built with the same connection builder (core/nadeo/http). Map numbers and map packs to map UIDs through the Exchange's
// public API, `GET /api/maps?fields=MapId,MapUid,Name&id=<ids>` and `...&mappackid=<id>&count=100[&after=<MapId>]`,
// answering `{"More": boolean, "Results": [...]}`. The Exchange asks for a descriptive User-Agent and for caching:
// answers are kept in memory for the client's life (cacheTtlMs), and the client has its own polite budget.
import { z } from 'zod';
import { jsonHandler } from '../nadeo/http/answers.ts';
import { parseBase } from '../nadeo/http/base-url.ts';
import { checkPositive, openConnection, type ConnectionOptions } from '../nadeo/http/connection.ts';
import { InputError } from '../nadeo/http/errors.ts';
import { parseBody } from '../nadeo/http/parse.ts';
import type { PipelineStats } from '../nadeo/http/pipeline.ts';
import { linkSignals, raceSignal } from '../nadeo/http/signals.ts';

export const REAL_EXCHANGE_BASE_URL = 'https://trackmania.exchange';
const FIELDS = 'MapId,MapUid,Name';
/** The API's page size ceiling. */
export const EXCHANGE_MAX_PAGE = 100;
const MAPS_ROUTE = 'GET /api/maps';

export const ExchangeMapsWire = z.looseObject({
  More: z.boolean(),
  Results: z.array(z.looseObject({ MapId: z.number().int(), MapUid: z.string(), Name: z.string() })),
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
  stats(): ExchangeClientStats;
  close(): Promise<void>;
}

/** Hosts of the real Exchange: a contact in the User-Agent is required there. */
export function isRealExchangeHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'trackmania.exchange' || h.endsWith('.trackmania.exchange') || h.endsWith('.mania.exchange');
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

  /** Every page of one query: `after` the last MapId seen until More is false. */
  async function allPages(query: string, signal: AbortSignal | undefined): Promise<ExchangeMap[]> {
    const out: ExchangeMap[] = [];
    let after: number | undefined;
    for (;;) {
      const target = `${base.basePath}/api/maps?fields=${FIELDS}&${query}&count=${pageSize}${after !== undefined ? `&after=${after}` : ''}`;
      const body = await pipeline.request({
        method: 'GET',
        origin: base.origin,
        target,
        route: MAPS_ROUTE,
        headers: { accept: 'application/json' },
        signal,
        detectGoneRoute: true,
        handle: jsonHandler({ method: 'GET', route: MAPS_ROUTE, target, detectGoneRoute: true }, now),
      });
      const page = parseBody(ExchangeMapsWire, body, MAPS_ROUTE, 'maps');
      out.push(...page.Results.map((r) => ({ exchangeId: r.MapId, mapUid: r.MapUid, name: r.Name })));
      const last = page.Results.at(-1)?.MapId;
      // A page that says More but brings nothing new would loop forever: stop there.
      if (!page.More || last === undefined || last === after) return out;
      after = last;
    }
  }

  const fresh = (at: number) => now() - at < ttl;

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
            const found = await allPages(`id=${ids.join(',')}`, linked.signal);
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
      // Concurrent askers share one fetch, which one asker giving up does not cancel; a failed fetch is not kept.
      const maps = allPages(`mappackid=${packId}`, conn.lifetime);
      const entry = { maps, at: now() };
      packs.set(packId, entry);
      maps.catch(() => {
        if (packs.get(packId) === entry) packs.delete(packId);
      });
      const list = await raceSignal(maps, o.signal);
      const at = now();
      for (const m of list) byId.set(m.exchangeId, { map: m, at });
      return { packId, maps: [...list] };
    },

    stats: () => ({ ...conn.stats(), cacheHits }),
    close: () => conn.close(),
  };
}

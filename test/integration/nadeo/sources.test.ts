// Lists from a source, players by name and Exchange links, through the clients against the emulator; every refusal.
import { describe, expect, it } from 'vitest';
import {
  createExchangeClient,
  createLiveClient,
  createNamesClient,
  ErrorCode,
  HttpError,
  parseListSource,
  resolveListSource,
  SourceError,
  type ExchangeClient,
  type ListSource,
  type LiveClient,
} from '../../../src-main/core/nadeo/index.ts';
import { generateDataset, type Dataset } from '../../../src-main/emulator/index.ts';
import { startTestEmulator, useEmulator } from '../../helpers/emulator.ts';
import { testClientOptions } from './helpers.ts';

const OAUTH = { clientId: 'app-1', clientSecret: 'secret-1' };
// As of mid-May 2026 (the emulator's calendar follows `now`): Spring 2026, May played to the 12th.
const dataset = generateDataset({ seed: 51, maps: 30, players: 12, now: Date.parse('2026-05-12T20:00:00Z') });
const emulator = useEmulator({ dataset, oauth: OAUTH });

function fast() {
  const { baseUrl: _unused, ...rest } = testClientOptions('http://unused');
  return rest;
}

async function withClients<T>(run: (c: { live: LiveClient; exchange: ExchangeClient }) => Promise<T>, emu = emulator()): Promise<T> {
  const live = createLiveClient({ ...fast(), coreBaseUrl: emu.url, liveBaseUrl: emu.liveUrl });
  const exchange = createExchangeClient({ ...fast(), baseUrl: emu.exchangeUrl });
  try {
    return await run({ live, exchange });
  } finally {
    await live.close();
    await exchange.close();
  }
}

function source(text: string): ListSource {
  const parsed = parseListSource(text);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.source;
}

describe('lists from a source', () => {
  it('sources: campaign:current is the newest campaign (25 maps), pinned to its name; campaign:<name> finds an earlier one', async () => {
    await withClients(async (clients) => {
      const current = await resolveListSource(source('campaign:current'), clients);
      expect(current).toMatchObject({ title: 'Spring 2026', pinned: { kind: 'campaign', which: 'named', name: 'Spring 2026' }, notes: [] });
      expect(current.mapUids).toEqual(dataset.maps.slice(0, 25).map((m) => m.mapUid));
      const winter = await resolveListSource(source('campaign:winter-2026'), clients);
      expect(winter.title).toBe('Winter 2026');
      expect(winter.mapUids).toEqual(dataset.campaigns!.find((c) => c.name === 'Winter 2026')!.mapUids);
    });
  });

  it('sources: an unknown campaign is refused, naming the latest ones', async () => {
    await withClients(async (clients) => {
      const error = await resolveListSource(source('campaign:Summer 1999'), clients).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SourceError);
      expect((error as SourceError).code).toBe(ErrorCode.NOT_FOUND);
      expect((error as Error).message).toBe('There is no seasonal campaign named "Summer 1999". The latest are: Spring 2026, Winter 2026, Fall 2025.');
    });
  });

  it('sources: totd:YYYY-MM gives the days played, in order, and says how many are to come', async () => {
    await withClients(async (clients) => {
      const may = await resolveListSource(source('totd:2026-05'), clients);
      const played = dataset.trackOfTheDay!.find((m) => m.month === '2026-05')!.mapUids.filter((u) => u !== '');
      expect(may.mapUids).toEqual([...new Set(played)]);
      expect(may.title).toBe('Track of the Day 2026-05');
      expect(may.notes).toEqual(['19 days of 2026-05 not played yet; a later sync adds their maps.']);
      const april = await resolveListSource(source('totd:2026-04'), clients);
      expect(april.mapUids).toEqual([...new Set(dataset.trackOfTheDay!.find((m) => m.month === '2026-04')!.mapUids)]);
      expect(april.notes).toEqual([]);
    });
  });

  it('sources: a month not started, one before the calendar, and one without maps are refused, saying which', async () => {
    await withClients(async (clients) => {
      await expect(resolveListSource(source('totd:2026-06'), clients)).rejects.toThrow('Track of the Day 2026-06 has not started yet (the current month is 2026-05).');
      await expect(resolveListSource(source('totd:2025-01'), clients)).rejects.toThrow('There is no Track of the Day month 2025-01');
    });
    const empty: Dataset = structuredClone(dataset);
    empty.trackOfTheDay = [{ month: '2026-06', mapUids: Array.from({ length: 30 }, () => '') }];
    const emu = await startTestEmulator({ dataset: empty });
    try {
      await withClients(async (clients) => {
        await expect(resolveListSource(source('totd:2026-06'), clients)).rejects.toThrow('Track of the Day 2026-06 has no maps yet: no day of it has been played.');
      }, emu);
    } finally {
      await emu.close();
    }
  });

  it('sources: club:<clubId>/<campaignId> and its trackmania.io link; closed and unknown club campaigns are refused', async () => {
    await withClients(async (clients) => {
      const club = await resolveListSource(source('https://trackmania.io/#/campaigns/4242/1701'), clients);
      expect(club).toMatchObject({ title: 'Club Cup #1', mapUids: dataset.clubCampaigns![0]!.mapUids, pinned: { kind: 'club', clubId: 4242, campaignId: 1701 } });
      const closed = await resolveListSource(source('club:4242/1702'), clients).catch((e: unknown) => e);
      expect(closed).toBeInstanceOf(HttpError);
      expect(closed).toMatchObject({ code: ErrorCode.FORBIDDEN });
      await expect(resolveListSource(source('club:4242/31337'), clients)).rejects.toMatchObject({ code: ErrorCode.NOT_FOUND, status: 404 });
    });
  });

  it('sources: tmx-pack:<id> and a pack link give the pack maps; an unknown pack is refused', async () => {
    await withClients(async (clients) => {
      const pack = await resolveListSource(source('https://trackmania.exchange/mappack/view/5150'), clients);
      expect(pack.mapUids).toEqual(dataset.maps.slice(0, 10).map((m) => m.mapUid));
      await expect(resolveListSource(source('tmx-pack:424242'), clients)).rejects.toThrow('Trackmania Exchange map pack 424242 has no maps, or does not exist.');
      await expect(resolveListSource(source('tmx-pack:5150'), { live: clients.live })).rejects.toMatchObject({ code: ErrorCode.CONFIG });
    });
  });
});

describe('Trackmania Exchange client', () => {
  it('exchange: map numbers to UIDs in the order asked; unknown numbers listed; answers cached', async () => {
    const emu = emulator();
    const exchange = createExchangeClient({ ...fast(), baseUrl: emu.exchangeUrl });
    try {
      const [a, b] = dataset.maps;
      const first = await exchange.getMaps([b!.exchangeId!, 999_999_999, a!.exchangeId!, b!.exchangeId!]);
      expect(first.maps).toEqual([
        { exchangeId: b!.exchangeId, mapUid: b!.mapUid, name: b!.name },
        { exchangeId: a!.exchangeId, mapUid: a!.mapUid, name: a!.name },
      ]);
      expect(first.notFound).toEqual([999_999_999]);
      const requests = exchange.stats().requests;
      expect(await exchange.getMaps([a!.exchangeId!, 999_999_999])).toEqual({ maps: [first.maps[1]], notFound: [999_999_999] });
      expect(exchange.stats()).toMatchObject({ requests, cacheHits: 2 });
      await expect(exchange.getMaps([0])).rejects.toThrow('0 is not a Trackmania Exchange map number');
    } finally {
      await exchange.close();
    }
  });

  it('exchange: a pack of 30 maps at 8 a page takes 4 requests with after=<last MapId>, then comes from the cache', async () => {
    const emu = emulator();
    const exchange = createExchangeClient({ ...fast(), baseUrl: emu.exchangeUrl, pageSize: 8 });
    try {
      emu.resetStats();
      const pack = await exchange.getMapPack(5151);
      expect(pack.maps.map((m) => m.exchangeId)).toEqual(dataset.exchangePacks!.find((p) => p.packId === 5151)!.exchangeIds);
      expect(emu.stats().byRoute['GET /tmx/api/maps']).toBe(4);
      await exchange.getMapPack(5151);
      // The pack's maps are cached by number too.
      await exchange.getMaps([dataset.maps[29]!.exchangeId!]);
      expect(emu.stats().byRoute['GET /tmx/api/maps']).toBe(4);
      expect((await exchange.getMapPack(424242)).maps).toEqual([]);
      // The pack's name (GET /api/mappacks), asked once, then from the cache; an unknown pack has none.
      expect(await exchange.getMapPackName(5151)).toBe('Everything');
      expect(await exchange.getMapPackName(5151)).toBe('Everything');
      expect(emu.stats().byRoute['GET /tmx/api/mappacks']).toBe(1);
      expect(await exchange.getMapPackName(424242)).toBeNull();
    } finally {
      await exchange.close();
    }
  });
});

describe('players by name', () => {
  it('names: display names to account IDs, 50 a call; unknown and malformed names are said plainly', async () => {
    const emu = emulator();
    const names = createNamesClient({ ...fast(), baseUrl: emu.oauthUrl, ...OAUTH });
    try {
      const known = Object.entries(dataset.displayNames!).filter(([, n]) => !/[\n\r]/.test(n));
      const unknownNames = Array.from({ length: 110 }, (_, i) => `Nobody${i}`);
      emu.resetStats();
      const result = await names.getAccountIds([...known.map(([, n]) => n), ...unknownNames, '', 'x'.repeat(65), 'line\nbreak']);
      expect(result.found).toEqual(new Map(known.map(([id, n]) => [n.trim(), id])));
      expect(result.unknown).toEqual(unknownNames);
      expect(result.ambiguous).toEqual([]);
      expect(result.invalid.map((i) => i.reason)).toEqual(['empty', 'longer than any display name (64 characters at most)', 'holds control characters']);
      const calls = emu.stats().byRoute['GET /api/display-names/account-ids'] ?? 0;
      expect(calls).toBe(Math.ceil((known.length + unknownNames.length) / 50));
      expect(emu.stats().byRoute['POST /api/access_token']).toBe(1);
      expect((await names.getAccountIds(['nobody at all'])).unknown).toEqual(['nobody at all']);
    } finally {
      await names.close();
    }
  });
});

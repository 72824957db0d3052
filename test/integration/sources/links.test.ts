// What players paste beyond UIDs, against the emulator: Trackmania Exchange map and pack links for maps, display names
// and trackmania.io player links for players; unknown ones said plainly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, type NamesClient } from '../../../src-main/core/nadeo/index.ts';
import { expandExchangeLinks } from '../../../src-main/core/map-links.ts';
import { resolvePlayerRefs } from '../../../src-main/core/player-refs.ts';
import { generateDataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { startTestEmulator } from '../../helpers/emulator.ts';
import { openProduct, type Product } from './helpers.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const OAUTH = { clientId: 'app-1', clientSecret: 'secret-1' };
const dataset = generateDataset({ now: DATA_NOW, seed: 52, maps: 14, players: 8, style: 'season' });
let emu: RunningEmulator;
let p: Product;
beforeAll(async () => {
  emu = await startTestEmulator({ dataset, oauth: OAUTH });
  p = await openProduct(emu, { oauth: OAUTH });
});
afterAll(async () => {
  await p.close();
  await emu.close();
});

const EXCHANGE = 'GET /tmx/api/maps';

describe('Trackmania Exchange links in maps add', () => {
  it('map links of every form and a pack link become UIDs in one request per kind; the rest passes through', async () => {
    const [a, b, c] = dataset.maps;
    const pack = dataset.exchangePacks![0]!;
    const uid = dataset.maps[12]!.mapUid;
    emu.resetStats();
    const expanded = await expandExchangeLinks(
      [
        `https://trackmania.exchange/mapshow/${a!.exchangeId}`,
        `trackmania.exchange/maps/${b!.exchangeId}/NeonRushFullSpeedTechMaps`,
        `https://trackmania.exchange/s/tr/${c!.exchangeId}, ${uid}`,
        `https://trackmania.exchange/mappack/view/${pack.packId}`,
      ],
      p.exchange,
    );
    const byExchangeId = new Map(dataset.maps.map((m) => [m.exchangeId, m.mapUid]));
    const packUids = pack.exchangeIds.map((id) => byExchangeId.get(id)!);
    expect(expanded.refs).toEqual([uid, ...new Set([a!.mapUid, b!.mapUid, c!.mapUid, ...packUids])]);
    expect(expanded.resolved.map((r) => r.mapUids.length)).toEqual([1, 1, 1, packUids.length]);
    expect(expanded).toMatchObject({ notFound: [], invalid: [] });
    expect(emu.stats().byRoute[EXCHANGE]).toBe(2);

    // The same through maps add: the links' maps are looked up and added like pasted UIDs.
    const links = [`https://trackmania.exchange/mapshow/${a!.exchangeId}`, `https://trackmania.exchange/mappack/view/${pack.packId}`, 'https://trackmania.exchange/mapshow/7'];
    const added = await p.tw.addMaps('Pasted', links);
    expect(added.added).toEqual([...new Set([a!.mapUid, ...packUids])]);
    expect(added.invalid).toEqual([{ input: 'https://trackmania.exchange/mapshow/7', reason: 'Trackmania Exchange has no map number 7' }]);
    expect(p.tw.store.maps.list('Pasted').map((m) => m.mapUid)).toEqual(added.added);
  });

  it('an unknown map number or pack is not found; player, club and broken links are refused with the reason; no links, no request', async () => {
    emu.resetStats();
    const expanded = await expandExchangeLinks(
      'https://trackmania.exchange/mapshow/7 https://trackmania.exchange/mappack/view/424242 https://trackmania.io/#/player/' +
        `${Object.keys(dataset.displayNames!)[1]} https://trackmania.io/#/campaigns/4242/1701 https://trackmania.exchange/mapshow/abc`,
      p.exchange,
    );
    expect(expanded.notFound).toEqual([
      { input: 'https://trackmania.exchange/mapshow/7', reason: 'Trackmania Exchange has no map number 7' },
      { input: 'https://trackmania.exchange/mappack/view/424242', reason: 'Trackmania Exchange map pack 424242 has no maps, or does not exist' },
    ]);
    expect(expanded.invalid.map((i) => i.reason)).toEqual([
      'this is a player link, not a map: add the player with "players add"',
      'this club campaign link is a whole list: make a list from it ("lists create NAME --from <link>")',
      '"abc" is not a Trackmania Exchange map number',
    ]);
    expect(expanded.refs).toEqual([]);
    // A broken trackmania.io map link is the map refs reader's to explain.
    expect((await expandExchangeLinks('https://trackmania.io/#/leaderboard/%E0%A4%A', p.exchange)).refs).toEqual(['https://trackmania.io/#/leaderboard/%E0%A4%A']);
    emu.resetStats();
    expect((await expandExchangeLinks([dataset.maps[0]!.mapUid], p.exchange)).refs).toEqual([dataset.maps[0]!.mapUid]);
    expect(emu.stats().requests).toBe(0);
  });
});

describe('players by display name and by trackmania.io link', () => {
  it('names, IDs and links to accounts in the order given, one name lookup; unknown names and foreign links said plainly', async () => {
    const accounts = Object.keys(dataset.displayNames!).filter((id) => dataset.records.some((r) => r.accountId === id));
    const [first, second, third] = accounts;
    emu.resetStats();
    const resolved = await p.tw.resolvePlayers(
      [
        dataset.displayNames![first!]!,
        second!.toUpperCase(),
        `https://trackmania.io/#/player/${third}`,
        dataset.displayNames![first!]!.toLowerCase(),
        'NoSuchPlayerAnywhere',
        'https://example.com/u/1',
        ' ',
      ],
    );
    expect(resolved.players).toEqual([
      { accountId: first, input: dataset.displayNames![first!], foundByName: dataset.displayNames![first!] },
      { accountId: second, input: second!.toUpperCase(), foundByName: null },
      { accountId: third, input: `https://trackmania.io/#/player/${third}`, foundByName: null },
    ]);
    expect(resolved.unknown).toEqual(['NoSuchPlayerAnywhere']);
    expect(resolved.invalid).toEqual([
      { input: 'https://example.com/u/1', reason: 'links from this site do not name a player; paste an account ID, a trackmania.io player link or a display name' },
    ]);
    expect(emu.stats().byRoute['GET /api/display-names/account-ids']).toBe(1);
    p.tw.store.watchlists.create('Rivals');
    const added = p.tw.store.players.add('Rivals', resolved.players.map((r) => ({ accountId: r.accountId })));
    expect(added.added).toEqual([first, second, third]);
  });

  it('IDs and links need no OAuth app (nor the network); a name without one is refused, naming it', async () => {
    const id = Object.keys(dataset.displayNames!)[2]!;
    const asked: string[] = [];
    expect((await resolvePlayerRefs([id], () => (asked.push('names'), undefined))).players).toHaveLength(1);
    expect(asked).toEqual([]);
    expect((await resolvePlayerRefs([id, `trackmania.io/#/player/${id}`], () => undefined)).players).toHaveLength(1);
    const error = await resolvePlayerRefs(['Skyline', 'Kessel'], () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      '"Skyline", "Kessel" are not account IDs: finding players by display name needs a Trackmania OAuth app (the same one as for display names). Paste account IDs or trackmania.io player links instead.',
    );
  });

  it('a name the service answers for several accounts is ambiguous, with each ID', async () => {
    const twins = ['0a0a0a0a-0000-4000-8000-000000000001', '0a0a0a0a-0000-4000-8000-000000000002'];
    const fake: NamesClient = {
      getAccountIds: async (asked) => ({ found: new Map(), unknown: [], ambiguous: asked.map((name) => ({ name, accountIds: twins })), invalid: [] }),
      stats: () => ({ requests: 0, retries: 0, uriTooLong: 0, byRoute: {} }),
      close: async () => {},
    };
    expect(await resolvePlayerRefs(['Twin'], () => fake)).toEqual({ players: [], unknown: [], ambiguous: [{ name: 'Twin', accountIds: twins }], invalid: [] });
  });
});

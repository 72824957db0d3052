// Lists from a source against the emulator: made from a campaign, a Track of the Day month, a club campaign or an
// Exchange pack; refreshed when the source grows (removed maps stay out); every refusal leaves nothing behind.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode, HttpError, SourceError } from '../../../src-main/core/nadeo/index.ts';
import { createListFromSource, refreshListSource } from '../../../src-main/core/sources.ts';
import { StoreError } from '../../../src-main/core/store/index.ts';
import { generateDataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { startTestEmulator } from '../../helpers/emulator.ts';
import { openProduct, type Product } from './helpers.ts';

let emu: RunningEmulator;
let p: Product;
beforeEach(async () => {
  // A fresh dataset each test: some tests grow it.
  // As of mid-May 2026 (the emulator's calendar follows `now`): Spring 2026, May played to the 12th.
  emu = await startTestEmulator({ dataset: generateDataset({ seed: 51, maps: 30, players: 6, now: Date.parse('2026-05-12T20:00:00Z') }) });
  p = await openProduct(emu);
});
afterEach(async () => {
  await p.close();
  await emu.close();
});

function lookups(): number {
  return Object.entries(emu.stats().byRoute).filter(([route]) => route.startsWith('GET /maps')).reduce((n, [, c]) => n + c, 0);
}

describe('lists from a source', () => {
  it('campaign:current: a list named after the campaign, its 25 maps in playlist order, looked up in one request, the source pinned', async () => {
    emu.resetStats();
    const made = await createListFromSource(p.deps, { source: 'campaign:current' });
    const campaign = emu.dataset.campaigns!.find((c) => c.name === 'Spring 2026')!;
    expect(made).toEqual({
      list: 'Spring 2026',
      title: 'Spring 2026',
      source: 'campaign:current',
      pinned: 'campaign:Spring 2026',
      added: campaign.mapUids,
      notFound: [],
      notes: [],
    });
    expect(p.tw.store.maps.list('Spring 2026').map((m) => m.mapUid)).toEqual(campaign.mapUids);
    expect(lookups()).toBe(1);
    expect(emu.stats().byRoute['GET /api/campaign/official']).toBe(1);
    expect(p.sources.get('Spring 2026')).toMatchObject({ source: 'campaign:current', pinned: 'campaign:Spring 2026', broughtMaps: 25 });
  });

  it('an earlier campaign by name, a club campaign link and an Exchange pack, each under the name given or its own', async () => {
    const winter = await createListFromSource(p.deps, { source: 'campaign:winter 2026', name: 'Last winter' });
    expect(winter).toMatchObject({ list: 'Last winter', title: 'Winter 2026', pinned: 'campaign:Winter 2026' });
    expect(p.tw.store.maps.list('Last winter').map((m) => m.mapUid)).toEqual(emu.dataset.campaigns!.find((c) => c.name === 'Winter 2026')!.mapUids);

    const club = await createListFromSource(p.deps, { source: 'https://trackmania.io/#/campaigns/4242/1701' });
    expect(club).toMatchObject({ list: 'Club Cup #1', source: 'club:4242/1701', pinned: 'club:4242/1701' });
    expect(club.added).toEqual(emu.dataset.clubCampaigns![0]!.mapUids);

    const pack = await createListFromSource(p.deps, { source: 'tmx-pack:5150' });
    const byExchangeId = new Map(emu.dataset.maps.map((m) => [m.exchangeId, m.mapUid]));
    // Named after the pack's own name on the Exchange, not its number (issue 17 §2.10).
    expect(pack).toMatchObject({ list: 'Trackwatch Starter Pack', title: 'Trackwatch Starter Pack', source: 'tmx-pack:5150' });
    expect(pack.added).toEqual(emu.dataset.exchangePacks![0]!.exchangeIds.map((id) => byExchangeId.get(id)));
  });

  it('Track of the Day: the days played; a later refresh adds a new day once and keeps a removed map out', async () => {
    const may = emu.dataset.trackOfTheDay!.find((m) => m.month === '2026-05')!;
    const made = await createListFromSource(p.deps, { source: 'totd:2026-05', name: 'May' });
    const played = [...new Set(may.mapUids.filter((u) => u !== ''))];
    expect(made.added).toEqual(played);
    expect(made.notes).toEqual(['19 days of 2026-05 not played yet; a later sync adds their maps.']);

    // Nothing new: the refresh adds nothing and asks the map lookup nothing.
    emu.resetStats();
    expect(await refreshListSource(p.deps, 'May')).toMatchObject({ list: 'May', title: 'Track of the Day 2026-05', added: [] });
    expect(lookups()).toBe(0);

    // The player removes a map; day 13 is played on a map not in the list yet.
    const removed = played[0]!;
    p.tw.store.maps.removeFromList('May', { mapUid: removed });
    const newDay = emu.dataset.maps.map((m) => m.mapUid).find((u) => !played.includes(u))!;
    may.mapUids[12] = newDay;
    const refresh = await refreshListSource(p.deps, 'May');
    expect(refresh).toMatchObject({ added: [newDay], notFound: [], notes: ['18 days of 2026-05 not played yet; a later sync adds their maps.'] });
    const listed = p.tw.store.maps.list('May').map((m) => m.mapUid);
    expect(listed).toContain(newDay);
    expect(listed).not.toContain(removed);
    expect(p.sources.removed('May')).toEqual([removed]);
    expect((await refreshListSource(p.deps, 'May'))!.added).toEqual([]);
    expect(await refreshListSource(p.deps, 'Nope').catch((e: unknown) => e)).toBeInstanceOf(StoreError);
  });

  it('a list that follows no source has nothing to refresh', async () => {
    await p.tw.addMaps('Mine', [emu.dataset.maps[0]!.mapUid]);
    expect(await refreshListSource(p.deps, 'Mine')).toBeUndefined();
  });

  it('a map the Core service does not know yet is left out, said, and added by a later refresh once it is known', async () => {
    const may = emu.dataset.trackOfTheDay!.find((m) => m.month === '2026-05')!;
    const fresh = 'FreshTotdUid0000000000000x';
    may.mapUids[12] = fresh;
    const made = await createListFromSource(p.deps, { source: 'totd:2026-05', name: 'May' });
    expect(made.notFound).toEqual([fresh]);
    expect(made.added).not.toContain(fresh);
    expect(made.notes).toContain('1 map of Track of the Day 2026-05 is not known to the map lookup yet; the next sync tries again.');
    expect(p.tw.store.maps.refs('May').map((r) => r.mapUid)).not.toContain(fresh);

    const base = emu.dataset.maps[0]!;
    emu.dataset.maps.push({ ...base, mapUid: fresh, mapId: '0f0f0f0f-0000-4000-8000-000000000001', exchangeId: undefined });
    const refresh = await refreshListSource(p.deps, 'May');
    expect(refresh).toMatchObject({ added: [fresh], notFound: [] });
    expect(p.tw.store.maps.list('May').map((m) => m.mapUid)).toContain(fresh);
  });
});

describe('a sync of lists that follow a source', () => {
  it('adds the day played since before it reads the maps, says so, and syncs its records; a source gone is one error line', async () => {
    const may = emu.dataset.trackOfTheDay!.find((m) => m.month === '2026-05')!;
    await createListFromSource(p.deps, { source: 'totd:2026-05', name: 'May' });
    await createListFromSource(p.deps, { source: 'campaign:Fall 2025', name: 'Old' });
    const players = [...new Set(emu.dataset.records.map((r) => r.accountId))];
    p.tw.store.players.add('May', players.map((accountId) => ({ accountId })));
    const newDay = emu.dataset.maps.map((m) => m.mapUid).find((u) => !may.mapUids.includes(u))!;
    may.mapUids[12] = newDay;
    const summary = await p.tw.sync({ list: 'May', replays: false });
    expect(summary).toMatchObject({ outcome: 'ok', errors: [], newMaps: [{ list: 'May', title: 'Track of the Day 2026-05', mapUids: [newDay] }] });
    expect(summary.maps).toBe(p.tw.store.maps.list('May').length);
    const newMap = p.tw.store.maps.get(newDay)!;
    expect(p.tw.store.records.forMap(newMap.mapId).length).toBeGreaterThan(0);
    expect(summary.positions?.asked).toBeGreaterThan(0);

    // Nothing new: nothing said. The other list's source is not read by a sync of this one.
    emu.resetStats();
    expect((await p.tw.sync({ list: 'May', replays: false })).newMaps).toEqual([]);
    expect(emu.stats().byRoute['GET /api/campaign/official'] ?? 0).toBe(0);

    // The campaign is no longer listed: that list's sync says why in one line, and keeps its maps.
    emu.dataset.campaigns = emu.dataset.campaigns!.filter((c) => c.name !== 'Fall 2025');
    p.tw.store.players.add('Old', players.slice(0, 2).map((accountId) => ({ accountId })));
    const old = await p.tw.sync({ list: 'Old', replays: false });
    expect(old.outcome).toBe('partial');
    expect(old.errors).toEqual([{ mapId: null, message: expect.stringMatching(/^could not read what Fall 2025 holds now \(list "Old"\): There is no seasonal campaign named "Fall 2025"/) }]);
    expect(p.tw.store.maps.list('Old')).toHaveLength(25);
  });
});

describe('refusals leave nothing behind', () => {
  it('an unknown campaign, a month without maps, a closed club campaign, an unknown pack; a taken name before any request', async () => {
    const refused = async (source: string) => {
      const error = await createListFromSource(p.deps, { source, name: 'X' }).catch((e: unknown) => e);
      expect(p.tw.store.watchlists.list()).toEqual([]);
      return error as Error;
    };
    const unknown = await refused('campaign:Summer 1999');
    expect(unknown).toBeInstanceOf(SourceError);
    expect(unknown.message).toBe('There is no seasonal campaign named "Summer 1999". The latest are: Spring 2026, Winter 2026, Fall 2025.');

    emu.dataset.trackOfTheDay!.push({ month: '2026-06', mapUids: Array.from({ length: 30 }, () => '') });
    const empty = await refused('totd:2026-06');
    expect(empty).toBeInstanceOf(SourceError);
    expect(empty.message).toBe('Track of the Day 2026-06 has no maps yet: no day of it has been played.');

    const closed = await refused('club:4242/1702');
    expect(closed).toBeInstanceOf(HttpError);
    expect(closed).toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect(closed.message).toContain("open to the club's members only");

    const pack = await refused('tmx-pack:999999');
    expect(pack).toBeInstanceOf(SourceError);
    expect(pack.message).toBe('Trackmania Exchange map pack 999999 has no maps, or does not exist. Check the pack\'s number.');

    const bad = await refused('season:fall');
    expect(bad.message).toMatch(/^Not a list source: "season:fall" is not a list source; use campaign:current/);

    await p.tw.addMaps('Taken', [emu.dataset.maps[0]!.mapUid]);
    emu.resetStats();
    const taken = await createListFromSource(p.deps, { source: 'campaign:current', name: 'taken' }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(StoreError);
    expect((taken as Error).message).toBe('a list named "Taken" already exists; choose another name');
    expect(emu.stats().requests).toBe(0);
  });

  it('a failure while writing the list, its maps and its source leaves none of them (one transaction)', async () => {
    // The source recorded, then the write fails (a disk gone full, a kill): everything rolls back together.
    const failing: typeof p.deps = {
      ...p.deps,
      addMaps: (list, uids, o) => p.deps.addMaps(list, uids, { ...o, commit: (outcome) => { o.commit?.(outcome); throw new Error('disk full'); } }),
    };
    await expect(createListFromSource(failing, { source: 'campaign:current' })).rejects.toThrow('disk full');
    expect(p.tw.store.watchlists.list()).toEqual([]);
    expect(p.sources.list()).toEqual([]);
    // The retry is not blocked by a leftover list.
    const made = await createListFromSource(p.deps, { source: 'campaign:current' });
    expect(p.tw.store.watchlists.get(made.list)?.name).toBe(made.list);
    expect(p.sources.list()).toHaveLength(1);
  });

  it('the map lookup failing after the source resolved leaves no list', async () => {
    const failing = { ...p.deps, addMaps: () => Promise.reject(new Error('lookup down')) };
    await expect(createListFromSource(failing, { source: 'campaign:current' })).rejects.toThrow('lookup down');
    expect(p.tw.store.watchlists.list()).toEqual([]);
    expect(p.sources.list()).toEqual([]);
  });
});

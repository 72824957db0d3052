// The window's lists from a source and world positions, over real SQLite and the demo's emulator: "New list from…"
// creates a list from a campaign, a Track of the Day month or a pack (refusals as values); the map and player views
// carry each PB's world position with its zones and as-of time once a sync asked for it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { serviceCaller, testHost } from '../../helpers/service.ts';

const root = mkdtempSync(path.join(tmpdir(), 'tw-service-sources-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('lists from a source and world positions in the window', () => {
  let service: TrackwatchService;

  const { call, fail: failure } = serviceCaller(() => service);
  async function sync(list: string): Promise<void> {
    const done = new Promise<void>((resolve) => {
      const off = service.events.subscribe((name) => {
        if (name === 'sync.finished') {
          off();
          resolve();
        }
      });
    });
    await call('sync.start', { list });
    await done;
  }

  beforeAll(async () => {
    // The demo's world as of mid-November 2026 (Fall 2026, October before it), as the names below say.
    service = await TrackwatchService.open({ dataDir: path.join(root, 'data'), host: testHost(), demo: { maps: 30, players: 5, maxRps: 500, asOf: Date.parse('2026-11-15T20:00:00Z') } });
    await call('setup.startDemo', {});
  });
  afterAll(() => service.close());

  it('sources.campaigns lists the seasonal campaigns, newest first', async () => {
    expect(await call('sources.campaigns', {})).toEqual({ names: ['Fall 2026', 'Summer 2026', 'Spring 2026'] });
  });

  it('New list from a campaign, a month, a pack: created with its maps and named after the source unless named', async () => {
    const october = await call('watchlists.createFromSource', { source: 'totd:2026-10' });
    expect(october).toMatchObject({ list: { name: 'Track of the Day 2026-10', players: 0 }, title: 'Track of the Day 2026-10', source: 'totd:2026-10', pinned: 'totd:2026-10', notFound: 0, notes: [] });
    // 31 days on the demo's 30 maps: one map came twice, and a list holds it once.
    expect(october.added).toBe(30);
    expect(october.list.maps).toBe(30);
    const pack = await call('watchlists.createFromSource', { source: 'https://trackmania.exchange/mappack/view/5150', name: '  Starter  ' });
    expect(pack).toMatchObject({ list: { name: 'Starter', maps: 10 }, source: 'tmx-pack:5150', added: 10 });
    expect((await call('watchlists.list', {})).map((l) => l.name)).toEqual(['Demo', 'Starter', 'Track of the Day 2026-10']);
  });

  it('refusals come back as values saying why, and create nothing', async () => {
    expect(await failure('watchlists.createFromSource', { source: 'campaign:Summer 1999' })).toMatchObject({
      code: 'not_found',
      message: 'There is no seasonal campaign named "Summer 1999". The latest are: Fall 2026, Summer 2026, Spring 2026.',
    });
    expect(await failure('watchlists.createFromSource', { source: 'club:4242/1702' })).toMatchObject({ code: 'auth_failed', message: expect.stringContaining("open to the club's members only") });
    expect(await failure('watchlists.createFromSource', { source: 'totd:13-13' })).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('is not a month') });
    expect(await failure('watchlists.createFromSource', { source: 'campaign:current', name: 'demo' })).toMatchObject({ code: 'conflict' });
    expect(await failure('watchlists.createFromSource', { source: '' })).toMatchObject({ code: 'invalid_input' });
    expect((await call('watchlists.list', {})).map((l) => l.name)).toEqual(['Demo', 'Starter', 'Track of the Day 2026-10']);
  });

  it('players.findByName gives the account of a display name; an unknown one is said plainly; IDs are not sent', async () => {
    const names = service.demo!.emulator.dataset.displayNames!;
    const [accountId, name] = Object.entries(names).find(([id]) => id !== service.demo!.me)!;
    const found = await call('players.findByName', { names: [name.toUpperCase(), 'NoSuchPlayer42', accountId] });
    expect(found).toEqual({ found: [{ name: name.toUpperCase(), accountId }], unknown: ['NoSuchPlayer42'], ambiguous: [], invalid: [] });
    expect(await failure('players.findByName', { names: [] })).toMatchObject({ code: 'invalid_input' });
  });

  it('after a sync, the map view and the player view give each PB its world position, zones and as-of time', async () => {
    await sync('Demo');
    const detail = await call('watchlists.get', { list: 'Demo' });
    const me = detail.players.find((p) => p.isMe)!;
    const player = await call('players.get', { list: 'Demo', accountId: me.accountId });
    const ranked = player.pbs.filter((pb) => pb.position?.state === 'ranked');
    // Every visible PB but those on Platform maps, which get no world position (hasWorldPositions).
    expect(ranked.length).toBe(player.pbs.filter((pb) => pb.hasRecord && !pb.hidden && pb.kind !== 'platform').length);
    expect(player.pbs.some((pb) => pb.kind === 'platform' && pb.hasRecord)).toBe(true);
    expect(player.pbs.filter((pb) => pb.kind === 'platform').every((pb) => !pb.position)).toBe(true);
    expect(ranked.length).toBeGreaterThan(0);
    for (const pb of ranked) {
      expect(pb.position!.position).toBeGreaterThanOrEqual(1);
      expect(Date.parse(pb.position!.asOf)).toBeGreaterThan(0);
    }
    const onMap = ranked[0]!;
    const map = await call('maps.get', { list: 'Demo', mapUid: onMap.mapUid });
    const mine = map.entries.find((e) => e.player.isMe)!;
    expect(mine.position).toEqual(onMap.position);
    // Players without a record have no position; those ahead of "me" are beyond what "me"'s login may ask.
    expect(map.entries.filter((e) => !e.hasRecord).every((e) => e.position === null)).toBe(true);
    for (const e of map.entries.filter((x) => x.hasRecord && !x.hidden)) expect(['ranked', 'limitedByOwnRecord']).toContain(e.position?.state);
  });

  it('Settings can turn the world positions off: the plan counts none and a sync asks none; on again, they are asked', async () => {
    const emulator = service.demo!.emulator;
    const route = 'POST /api/token/leaderboard/group/map';
    const list = 'Positions off';
    await call('watchlists.createFromSource', { source: 'campaign:Summer 2026', name: list });
    const players = (await call('watchlists.get', { list: 'Demo' })).players.slice(0, 3).map((p) => ({ accountId: p.accountId }));
    await call('watchlists.addPlayers', { list, players });
    expect(await call('settings.get', {})).toMatchObject({ worldPositions: true });

    expect(await call('settings.update', { worldPositions: false })).toMatchObject({ worldPositions: false });
    // Every PB improves: each one's position is due, and none is asked while they are off.
    emulator.evolve({ seed: 11, fraction: 1 });
    const asked = emulator.stats().byRoute[route] ?? 0;
    expect((await call('sync.plan', { list })).positionRequests).toBe(0);
    await sync(list);
    expect(emulator.stats().byRoute[route] ?? 0).toBe(asked);
    const off = await call('sync.plan', { list });
    expect(off.positionRequests).toBe(0);
    expect(off.line).not.toContain('position');

    await call('settings.update', { worldPositions: true });
    const on = await call('sync.plan', { list });
    expect(on.positionRequests).toBeGreaterThan(0);
    expect(on.line).toContain(`${on.positionRequests} position request`);
    await sync(list);
    expect((emulator.stats().byRoute[route] ?? 0) - asked).toBe(on.positionRequests);
  });
});

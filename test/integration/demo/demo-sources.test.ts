// The demo makes its list as a player would: the current campaign from the Live services, the other maps by link,
// UID and map ID; its syncs then show world positions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LIST, startDemo, type Demo } from '../../../src-main/service/demo.ts';
import { isHiddenByThreshold, tempDataDir } from '../../helpers/sync.ts';
import { mapKind } from '../../../src-main/shared/leaderboard.ts';

describe('the demo list', () => {
  let demo: Demo;
  let data: { dir: string; remove: () => Promise<void> };
  beforeAll(async () => {
    data = await tempDataDir();
    // The demo's world as of mid-November 2026 (Fall 2026), as the names below say.
    demo = await startDemo({ dataDir: `${data.dir}/demo`, maxRps: 500, asOf: Date.parse('2026-11-15T20:00:00Z') });
  });
  afterAll(async () => {
    await demo.close();
    await data.remove();
  });

  it('follows the current campaign, Fall 2026, read through the Live route, then holds every other map of the season', () => {
    const { store } = demo.trackwatch;
    expect(store.sources.get(DEMO_LIST)).toMatchObject({ source: 'campaign:current', pinned: 'campaign:Fall 2026', title: 'Fall 2026' });
    expect(demo.emulator.stats().byRoute['GET /api/campaign/official']).toBe(1);
    const campaign = demo.emulator.dataset.campaigns!.find((c) => c.name === 'Fall 2026')!;
    const refs = store.maps.refs(DEMO_LIST);
    expect(refs.slice(0, campaign.mapUids.length).map((r) => r.mapUid)).toEqual(campaign.mapUids);
    expect(refs).toHaveLength(demo.emulator.dataset.maps.length);
    expect(store.maps.list(DEMO_LIST).slice(0, campaign.mapUids.length).map((m) => m.name)).toEqual(campaign.mapUids.map((_, i) => `Fall 2026 - ${String(i + 1).padStart(2, '0')}`));
  });

  it('a sync asks for world positions: "me" gets one on every map with a record, others are ranked or beat "me"', async () => {
    const summary = await demo.trackwatch.sync({ list: DEMO_LIST, replays: false });
    expect(summary.outcome).toBe('ok');
    expect(summary.positions).toMatchObject({ asked: summary.positions!.ranked + summary.positions!.limitedByOwnRecord, unavailable: 0 });
    expect(summary.positions!.requests).toBe(summary.positions!.minimumRequests);
    const { store } = demo.trackwatch;
    const mine = store.positions.forList(DEMO_LIST).filter((p) => p.accountId === demo.me);
    const myRecords = store.records.forList(DEMO_LIST, { scope: 'PersonalBest' }).filter((r) => r.accountId === demo.me && !r.hidden);
    // Platform maps get none: one score (a time) would contradict their respawns-first ranking.
    const platform = new Set(store.maps.list(DEMO_LIST).filter((m) => mapKind(m) === 'platform').map((m) => m.mapId));
    expect(myRecords.some((r) => platform.has(r.mapId))).toBe(true);
    expect(mine.some((p) => platform.has(p.mapId))).toBe(false);
    expect(mine.length).toBe(myRecords.filter((r) => !platform.has(r.mapId)).length);
    expect(mine.every((p) => p.state === 'ranked' && p.position! >= 1)).toBe(true);
  });

  it('"me" holds a personal best the secret threshold hides from others, and sees it (your own record is never hidden)', () => {
    const { maps, records } = demo.emulator.dataset;
    const behind = records.filter((r) => {
      const map = maps.find((m) => m.mapId === r.mapId);
      return r.accountId === demo.me && r.scopeType === 'PersonalBest' && map !== undefined && isHiddenByThreshold(map, r);
    });
    expect(behind.length).toBeGreaterThan(0);
    const { store } = demo.trackwatch;
    for (const r of behind) expect(store.records.get(r.mapId, r.accountId)).toMatchObject({ mapRecordId: r.mapRecordId, hidden: false, time: r.recordScore.time });
  });
});

// World records at the product level, against the emulator (issue 15 part 4): a list's sync asks each map's WR once
// (Live top route), asks the WR holder's record in the SAME records request as the watched players' (the requests
// counted stay one per map), stores it without making the holder a watched player, and downloads the WR's ghost into
// the replay store; where one more account would not fit the request, it is said and skipped instead.
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportCsv } from '../../../src-main/core/export/csv.ts';
import { generateDataset, startEmulator, type Dataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import { describeCost } from '../../../src-main/core/sync/plan.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const TOP = 'GET /api/token/leaderboard/group/:groupUid/map/:mapUid/top';
const recordRequests = (emu: RunningEmulator): number =>
  Object.entries(emu.stats().byRoute).filter(([route]) => route.startsWith('GET /v2/mapRecords')).reduce((n, [, c]) => n + c, 0);

describe('world records of a list', () => {
  const dataset: Dataset = generateDataset({ now: DATA_NOW, seed: 41, maps: 6, players: 12 });
  let emu: RunningEmulator;
  let data: { dir: string; remove: () => Promise<void> };
  let tw: Trackwatch;
  let holders: Map<string, { accountId: string; score: number | null }>;

  async function open(maxUriLength?: number, names = false): Promise<string[]> {
    const oauth = names ? { oauth: { clientId: 'app', clientSecret: 'secret', baseUrl: emu.oauthUrl } } : {};
    tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emu.url, maxRps: 2000, ...oauth, tuning: { burst: 50, concurrency: 4, ...(maxUriLength ? { maxUriLength } : {}) } });
    holders = new Map();
    for (const map of dataset.maps) {
      const wr = await tw.live.getWorldRecord(map.mapUid);
      if (wr) holders.set(map.mapId, { accountId: wr.accountId.toLowerCase(), score: wr.score });
    }
    // Every player but the WR holders: each holder is someone the list does not watch.
    const held = new Set([...holders.values()].map((h) => h.accountId));
    const watched = [...new Set(dataset.records.map((r) => r.accountId))].filter((a) => !held.has(a)).sort();
    await tw.addMaps('Rivals', dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.store.players.add('Rivals', watched.map((accountId) => ({ accountId })));
    return watched;
  }

  beforeEach(async () => {
    emu = await startEmulator({ dataset });
    data = await tempDataDir();
  });
  afterEach(async () => {
    await tw.close();
    await emu.close();
    await data.remove();
  });

  it('asks a WR per map, rides its holder in the records request (no request more), stores its record and downloads its ghost', async () => {
    const watched = await open();
    const visible = [...holders].filter(([, h]) => h.score !== null);
    const secret = [...holders].filter(([, h]) => h.score === null);
    expect(visible.length).toBeGreaterThan(2);
    expect(watched.length).toBeGreaterThan(3);

    const plan = tw.planSync({ list: 'Rivals' });
    expect(plan).toMatchObject({ worldRecordRequests: dataset.maps.length, recordRequests: dataset.maps.length });
    expect(describeCost(plan)).toContain(`and ${dataset.maps.length} world record requests`);

    emu.resetStats();
    const summary = await tw.sync({ list: 'Rivals' });
    expect(summary.outcome, JSON.stringify(summary.errors)).toBe('ok');
    expect(emu.stats().byRoute[TOP]).toBe(dataset.maps.length);
    // The minimum: one records request per map, the WR holder's account in it.
    expect(recordRequests(emu)).toBe(dataset.maps.length);
    expect(summary.worldRecords).toMatchObject({ asked: dataset.maps.length, found: visible.length, secret: secret.length, rejected: 0, ghostsAsked: visible.length, ghostsSkipped: 0 });

    for (const [mapId, holder] of visible) {
      // The holder's record as Core gave it (a dataset player's, or one of the crowd nobody here watches) agrees with the WR.
      const record = tw.store.records.get(mapId, holder.accountId);
      expect(record, `${mapId} ${holder.accountId}`).toBeDefined();
      expect(record!.scope).toBe('PersonalBest');
      expect(tw.store.maps.get(mapId)!.mapType.endsWith('TM_Stunt') ? record!.score : record!.time).toBe(holder.score);
      expect(tw.store.worldRecords.get(mapId)).toMatchObject({ accountId: holder.accountId, score: holder.score, secret: false, mapRecordId: record!.mapRecordId });
      expect(tw.store.replays.get(record!.mapRecordId)?.state).toBe('downloaded');
    }
    // Some WRs are held by the crowd (maps with a population): the emulator's Core knows their records too.
    expect(visible.some(([mapId, h]) => !dataset.records.some((r) => r.mapId === mapId && r.accountId.toLowerCase() === h.accountId))).toBe(true);
    for (const [mapId, holder] of secret) expect(tw.store.worldRecords.get(mapId)).toMatchObject({ accountId: holder.accountId, secret: true, score: null, mapRecordId: null });
    // The holders are stored as accounts, never as the list's players, and their records are not the list's.
    expect(tw.store.players.list('Rivals').map((p) => p.accountId).sort()).toEqual(watched);
    expect(tw.store.records.forList('Rivals').every((r) => watched.includes(r.accountId))).toBe(true);
    expect(summary.records).toBe(tw.store.records.forList('Rivals').length);
    // Nor anywhere a player lists records without naming a list: every record, the history, the CSV exports.
    const everyRecord = tw.store.maps.list().flatMap((m) => tw.store.records.forMap(m.mapId));
    expect(everyRecord.length).toBe(summary.records);
    expect(new Set(everyRecord.map((r) => r.accountId))).toEqual(new Set(watched.filter((a) => everyRecord.some((r) => r.accountId === a))));
    const history = tw.store.records.history({ limit: 10_000 });
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((h) => watched.includes(h.accountId))).toBe(true);
    for (const splits of [false, true]) {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      out.on('data', (c: Buffer) => chunks.push(c));
      await exportCsv(tw.store, out, { splits });
      const rows = Buffer.concat(chunks).toString('utf8').trimEnd().split('\r\n').slice(1);
      expect(rows.length, `splits: ${splits}`).toBeGreaterThan(0);
      expect(rows.filter((row) => [...holders.values()].some((h) => row.includes(h.accountId))), `splits: ${splits}`).toEqual([]);
    }
  });

  it('where one more account would not fit the records request, the WR ghost is not asked, and the sync says so', async () => {
    const gameMode = '&gameMode=TimeAttackClone'; // the longest: every map's request is at most this long
    // Room for exactly the watched players in the seed route's request, not one account more.
    const players = (await open()).length;
    await tw.close();
    const limit = `/v2/mapRecords/?accountIdList=&mapId=${'0'.repeat(36)}${gameMode}`.length + players * 37 - 1;
    await data.remove();
    data = await tempDataDir();
    await open(limit);
    emu.resetStats();
    const summary = await tw.sync({ list: 'Rivals' });
    expect(summary.outcome, JSON.stringify(summary.errors)).toBe('ok');
    expect(recordRequests(emu)).toBe(dataset.maps.length);
    const visible = [...holders.values()].filter((h) => h.score !== null).length;
    expect(summary.worldRecords).toMatchObject({ ghostsAsked: 0, ghostsSkipped: visible });
    const { worldRecordLine } = await import('../../../src-main/cli/commands/sync.ts');
    expect(worldRecordLine(summary)).toContain(`the WR ghost of ${visible} maps was not asked: one more account would not fit the records request`);
  });

  it('names each WR holder by the display name the OAuth API gives, the crowd\'s too, never by a piece of the account ID', async () => {
    await open(undefined, true);
    const summary = await tw.sync({ list: 'Rivals' });
    expect(summary.outcome, JSON.stringify(summary.errors)).toBe('ok');
    const visible = [...holders.values()].filter((h) => h.score !== null).map((h) => h.accountId);
    const crowd = visible.filter((id) => !dataset.records.some((r) => r.accountId.toLowerCase() === id));
    expect(crowd.length).toBeGreaterThan(0);
    const query = visible.map((id) => `accountId[]=${id}`).join('&');
    const given = (await (await fetch(`${emu.oauthUrl}/api/display-names?${query}`)).json()) as Record<string, string>;
    for (const id of visible) {
      expect(given[id], id).toBeDefined();
      expect(tw.store.players.nameOf(id)).toBe(given[id]);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, generateDataset, replayBytesFor, type RunningEmulator, type DatasetMap } from '../../../src-main/emulator/index.ts';
import { createNadeoClient, gameModeFor, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { SENTINEL_U32 } from '../../../src-main/core/model.ts';
import { testClientOptions } from './helpers.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

let emu: RunningEmulator;
let client: NadeoClient;
let players: string[];
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 1, maps: 24, players: 12 }) });
  client = createNadeoClient(testClientOptions(emu.url));
  players = [...new Set(emu.dataset.records.map((r) => r.accountId))];
  dir = await mkdtemp(join(tmpdir(), 'tw-nadeo-it-'));
});
afterAll(async () => {
  await client.close();
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

const personalBests = (map: DatasetMap) => emu.dataset.records.filter((r) => r.mapId === map.mapId && r.scopeType === 'PersonalBest');
const find = (pred: (m: DatasetMap) => boolean) => {
  const m = emu.dataset.maps.find(pred);
  if (!m) throw new Error('dataset lacks a map this test needs');
  return m;
};

describe('records against the emulator', () => {
  it.each([
    ['Stunt', (m: DatasetMap) => m.mapType.endsWith('TM_Stunt')],
    ['Platform', (m: DatasetMap) => m.mapType.endsWith('TM_Platform')],
    ['TimeAttackClone', (m: DatasetMap) => m.mapType.endsWith('TM_Race') && m.hasClones],
    ['TimeAttack', (m: DatasetMap) => m.mapType.endsWith('TM_Race') && !m.hasClones],
  ] as const)('reads every personal best of a %s map (the mode derived and sent)', async (mode, pick) => {
    const map = find(pick);
    expect(gameModeFor(map)).toBe(mode);
    const { records, invalidAccounts, rejected } = await client.getRecords(map, players);
    expect(invalidAccounts).toEqual([]);
    // The emulator's data passes every value check (issue 9 §4): nothing is left out.
    expect(rejected).toEqual([]);
    const expected = personalBests(map);
    expect(records.map((r) => r.accountId).sort()).toEqual(expected.map((r) => r.accountId).sort());
    for (const r of records) expect(r).toMatchObject({ mapId: map.mapId, scopeType: 'PersonalBest', scopeId: null, gameMode: expected[0]!.gameMode });
  });

  it('reads a season leaderboard with seasonId, distinct from personal bests', async () => {
    const seasonRecord = emu.dataset.records.find((r) => r.scopeType === 'Season')!;
    const map = emu.dataset.maps.find((m) => m.mapId === seasonRecord.mapId)!;
    const seasonId = seasonRecord.scopeId!;
    const { records } = await client.getRecords(map, players, { seasonId });
    const expected = emu.dataset.records.filter((r) => r.mapId === map.mapId && r.scopeId === seasonId);
    expect(records.map((r) => r.mapRecordId).sort()).toEqual(expected.map((r) => r.mapRecordId).sort());
    for (const r of records) expect(r).toMatchObject({ scopeType: 'Season', scopeId: seasonId });
    const pbs = await client.getRecords(map, players);
    expect(pbs.records.every((r) => r.scopeId === null)).toBe(true);
  });

  it('rejects Personal_Best as a season without a request', async () => {
    emu.resetStats();
    await expect(client.getRecords(emu.dataset.maps[0]!, players, { seasonId: 'Personal_Best' })).rejects.toMatchObject({ code: 'VALIDATION' });
    expect(emu.stats().requests).toBe(0);
  });

  it('reports a malformed account by name and keeps the others', async () => {
    const map = emu.dataset.maps[0]!;
    const { records, invalidAccounts } = await client.getRecords(map, [...players, 'not-an-account']);
    expect(invalidAccounts).toEqual(['not-an-account']);
    expect(records).toHaveLength(personalBests(map).length);
  });

  it('hides secret-threshold entries (time null) and their replay download is hidden, not an error', async () => {
    const map = find((m) => m.secretThreshold !== undefined && !m.mapType.endsWith('TM_Stunt'));
    const { records } = await client.getRecords(map, players);
    const hidden = records.filter((r) => r.hidden);
    const shown = records.filter((r) => !r.hidden);
    expect(hidden.length).toBeGreaterThan(0);
    expect(shown.length).toBeGreaterThan(0);
    for (const r of hidden) expect(r.time).toBeNull();
    for (const r of shown) expect(r.time).toBe(emu.dataset.records.find((d) => d.mapRecordId === r.mapRecordId)!.recordScore.time);
    emu.resetStats();
    expect(await client.download(hidden[0]!.url, join(dir, 'hidden.gbx'))).toEqual({ state: 'hidden' });
    expect(emu.stats().requests).toBe(1);
    expect(await readdir(dir)).not.toContain('hidden.gbx');
    const ok = await client.download(shown[0]!.url, join(dir, 'shown.gbx'));
    const source = emu.dataset.records.find((d) => d.mapRecordId === shown[0]!.mapRecordId)!;
    expect(ok).toEqual({ state: 'downloaded', bytes: replayBytesFor(source, emu.dataset).length, sha256: createHash('sha256').update(replayBytesFor(source, emu.dataset)).digest('hex') });
  });

  it('turns an untracked respawn count into null and keeps tracked ones', async () => {
    const untracked = emu.dataset.records.find((r) => r.recordScore.respawnCount === SENTINEL_U32 && r.scopeType === 'PersonalBest')!;
    const tracked = emu.dataset.records.find((r) => r.recordScore.respawnCount !== SENTINEL_U32 && r.scopeType === 'PersonalBest')!;
    for (const [source, expected] of [
      [untracked, null],
      [tracked, tracked.recordScore.respawnCount],
    ] as const) {
      const map = emu.dataset.maps.find((m) => m.mapId === source.mapId)!;
      const { records } = await client.getRecords(map, [source.accountId]);
      expect(records[0]!.respawnCount).toBe(expected);
    }
  });

  it('downloads map files and thumbnails from the storage URLs too', async () => {
    const { maps } = await client.getMapsByUid([emu.dataset.maps[0]!.mapUid]);
    const result = await client.download(maps[0]!.fileUrl, join(dir, 'map.Map.Gbx'));
    expect(result).toMatchObject({ state: 'downloaded' });
    await expect(client.download(maps[0]!.thumbnailUrl, join(dir, 'thumb.jpg'))).resolves.toMatchObject({ state: 'downloaded', bytes: 286 });
  });

  it('gets display names through OAuth from the emulator', async () => {
    const oauthEmu = await startEmulator({ dataset: emu.dataset, oauth: { clientId: 'app', clientSecret: 's3cret' } });
    const c = createNadeoClient(testClientOptions(oauthEmu.url, { oauth: { baseUrl: oauthEmu.url, clientId: 'app', clientSecret: 's3cret' } }));
    try {
      const names = await c.getDisplayNames(players);
      const expected = Object.entries(emu.dataset.displayNames!).filter(([id]) => players.includes(id));
      expect(names.size).toBe(expected.length);
      for (const [id, name] of expected) expect(names.get(id)).toBe(name);
    } finally {
      await c.close();
      await oauthEmu.close();
    }
  });
});

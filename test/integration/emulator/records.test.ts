// Seed 2.2 (map record object, secret thresholds) and 4.2 (map records v2 lookup), over real HTTP.
import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { useEmulator } from '../../helpers/emulator.ts';
import { accountsOf, get, mapsByKind, recordsOf, recordsUrl, SENTINEL, unknownUuid, type ApiErrorBody, type WireMap, type WireRecord } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 5, maps: 12, players: 30 });
const emulator = useEmulator({ dataset });
const kinds = mapsByKind(dataset);
const accounts = accountsOf(dataset);
const seasonRecord = dataset.records.find((r) => r.scopeType === 'Season' && r.mapId === kinds.race.mapId) ?? dataset.records.find((r) => r.scopeType === 'Season');
if (!seasonRecord?.scopeId) throw new Error('the dataset has no season record');
const seasonId = seasonRecord.scopeId;

const RECORD_FIELDS = [
  'accountId', 'filename', 'gameMode', 'gameModeCustomData', 'mapId', 'mapRecordId', 'medal', 'recordScore', 'removed', 'scopeId',
  'scopeType', 'timestamp', 'url',
].sort();

async function records(params: Record<string, string | undefined>, path?: string): Promise<WireRecord[]> {
  const reply = await get(recordsUrl(emulator().url, { accountIdList: accounts.join(','), ...params }, path));
  expect(reply.status).toBe(200);
  return reply.json<WireRecord[]>();
}

async function errorOf(params: Record<string, string | undefined>): Promise<{ status: number; body: ApiErrorBody }> {
  const reply = await get(recordsUrl(emulator().url, { accountIdList: accounts.join(','), ...params }));
  return { status: reply.status, body: reply.json<ApiErrorBody>() };
}

describe('2.2 map record object', () => {
  it('2.2: a record has exactly the seed fields; recordScore has time, score, respawnCount', async () => {
    const [record] = await records({ mapId: kinds.race.mapId });
    expect(Object.keys(record ?? {}).sort()).toEqual(RECORD_FIELDS);
    expect(Object.keys(record?.recordScore ?? {}).sort()).toEqual(['respawnCount', 'score', 'time']);
    expect(record).toMatchObject({ mapId: kinds.race.mapId, scopeType: 'PersonalBest', scopeId: null, gameMode: 'TimeAttack', gameModeCustomData: '', removed: false });
    expect(record?.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(Number.isInteger(record?.medal)).toBe(true);
  });

  it('2.2: the record time is the true time and score is 0 on race maps', async () => {
    const served = await records({ mapId: kinds.race.mapId });
    const stored = new Map(recordsOf(dataset, kinds.race.mapId).map((r) => [r.accountId, r]));
    expect(served).toHaveLength(stored.size);
    for (const record of served) {
      expect(record.recordScore.time).toBe(stored.get(record.accountId)?.recordScore.time);
      expect(record.recordScore.score).toBe(0);
    }
  });

  it('2.2: filename is built from map ID, account ID and result; some are hostile paths', async () => {
    const plain = dataset.records.filter((r) => r.filename.startsWith('Replays\\Downloaded\\') && !r.filename.includes('<'));
    expect(plain.length).toBeGreaterThan(0);
    for (const r of plain.slice(0, 50)) expect(r.filename).toContain(`${r.mapId}_${r.accountId}_(`);
    const names = dataset.records.map((r) => r.filename);
    expect(names).toContain('..\\..\\evil.replay.gbx');
    expect(names).toContain('../../etc/passwd');
  });

  it('2.2: respawnCount 4294967295 appears where no value applies', async () => {
    const all = [...(await records({ mapId: kinds.race.mapId })), ...(await records({ mapId: kinds.secret.mapId }))];
    expect(all.some((r) => r.recordScore.respawnCount === SENTINEL)).toBe(true);
    expect(all.some((r) => r.recordScore.respawnCount !== SENTINEL)).toBe(true);
  });

  it('2.2: Stunt records hold points in score and the run duration in time', async () => {
    const served = await records({ mapId: kinds.stunt.mapId, gameMode: 'Stunt' });
    expect(served.length).toBeGreaterThan(0);
    for (const r of served) {
      expect(r.gameMode).toBe('Stunt');
      expect(r.recordScore.score).toBeGreaterThan(0);
      expect(r.recordScore.time).toBeGreaterThan(0);
    }
  });

  it('map-page.md: a Platform map is served with respawn counts as medal scores, its records with real respawn counts and the medals they earn', async () => {
    const [map] = (await get(`${emulator().url}/maps/?mapIdList=${kinds.platform.mapId}`)).json<WireMap[]>();
    if (!map) throw new Error('the Platform map was not served');
    const medals = [map.authorScore, map.goldScore, map.silverScore, map.bronzeScore];
    expect(medals).toEqual([...medals].sort((a, b) => a - b));
    expect(map.bronzeScore).toBeLessThan(20);
    const served = await records({ mapId: kinds.platform.mapId, gameMode: 'Platform' });
    expect(served.length).toBeGreaterThan(5);
    for (const r of served) {
      const respawns = r.recordScore.respawnCount;
      expect(respawns).not.toBe(SENTINEL);
      expect(r.medal).toBe(respawns <= map.authorScore ? 4 : respawns <= map.goldScore ? 3 : respawns <= map.silverScore ? 2 : respawns <= map.bronzeScore ? 1 : 0);
    }
    expect(new Set(served.map((r) => r.recordScore.respawnCount)).size).toBeGreaterThan(1);
  });

  it('2.2 secret threshold: entries better than the threshold carry time 4294967295, the others their time', async () => {
    const threshold = kinds.secret.secretThreshold ?? 0;
    const served = await records({ mapId: kinds.secret.mapId });
    const stored = new Map(recordsOf(dataset, kinds.secret.mapId).map((r) => [r.accountId, r]));
    const hidden = served.filter((r) => r.recordScore.time === SENTINEL);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.length).toBeLessThan(served.length);
    for (const r of served) {
      const truth = stored.get(r.accountId)?.recordScore;
      const isHidden = (truth?.time ?? 0) < threshold;
      expect(r.recordScore.time).toBe(isHidden ? SENTINEL : truth?.time);
      // map-page.md: a secret record shows no score; on a Race map the score stays 0 and the respawn count goes too.
      expect(r.recordScore.score).toBe(0);
      expect(r.recordScore.respawnCount).toBe(isHidden ? SENTINEL : truth?.respawnCount);
      expect(r.medal).toBe(stored.get(r.accountId)?.medal);
    }
  });

  it('2.2 secret threshold: the url of a hidden entry answers 403 Forbidden; a visible one downloads', async () => {
    const served = await records({ mapId: kinds.secret.mapId });
    const hidden = served.find((r) => r.recordScore.time === SENTINEL);
    const visible = served.find((r) => r.recordScore.time !== SENTINEL);
    const forbidden = await get(hidden?.url ?? '');
    expect(forbidden.status).toBe(403);
    expect(forbidden.json<ApiErrorBody>()).toEqual({ code: 'C-AA-00-19', correlation_id: expect.stringMatching(/^[0-9a-f]+$/), message: 'Forbidden.' });
    expect((await get(visible?.url ?? '')).status).toBe(200);
  });
});

describe('4.2 get map records (v2)', () => {
  it('4.2 rule 1: one record per account that has one; accounts without a record are absent', async () => {
    const holders = recordsOf(dataset, kinds.race.mapId).map((r) => r.accountId);
    const without = accounts.filter((a) => !holders.includes(a));
    expect(without.length).toBeGreaterThan(0);
    const list = [holders[0] ?? '', holders[0] ?? '', without[0] ?? '', unknownUuid(7)].join(',');
    const reply = await get(recordsUrl(emulator().url, { accountIdList: list, mapId: kinds.race.mapId }));
    expect(reply.json<WireRecord[]>().map((r) => r.accountId)).toEqual([holders[0]]);
  });

  it('4.2 rule 2: seasonId=Personal_Best is never accepted (validation error); omitted it reads personal bests', async () => {
    const { status, body } = await errorOf({ mapId: kinds.race.mapId, seasonId: 'Personal_Best' });
    expect(status).toBe(400);
    expect(body.code).toBe('C-AA-00-03');
    expect(Array.isArray(body.info)).toBe(true);
    expect(String(body.info)).toContain('Personal_Best');
    const personalBests = await records({ mapId: kinds.race.mapId });
    expect(personalBests.every((r) => r.scopeType === 'PersonalBest' && r.scopeId === null)).toBe(true);
  });

  it('4.2: with seasonId, the season leaderboard answers (scopeType Season, scopeId = seasonId); an unknown season is empty', async () => {
    const map = dataset.maps.find((m) => m.mapId === seasonRecord.mapId);
    const gameMode = map?.mapType.endsWith('TM_Stunt') ? 'Stunt' : map?.mapType.endsWith('TM_Platform') ? 'Platform' : undefined;
    const season = await records({ mapId: seasonRecord.mapId, seasonId, gameMode });
    expect(season.length).toBe(recordsOf(dataset, seasonRecord.mapId, seasonId).length);
    expect(season.every((r) => r.scopeType === 'Season' && r.scopeId === seasonId)).toBe(true);
    expect(await records({ mapId: seasonRecord.mapId, seasonId: unknownUuid(3), gameMode })).toEqual([]);
  });

  it('4.2 rule 3: a Stunt map needs gameMode=Stunt, otherwise the not-found error', async () => {
    for (const gameMode of [undefined, 'TimeAttack', 'Platform']) {
      const { status, body } = await errorOf({ mapId: kinds.stunt.mapId, gameMode });
      expect(status).toBe(404);
      expect(body).toEqual({ code: 'C-AL-02-03', correlation_id: expect.any(String), message: 'Not Found' });
    }
    expect((await records({ mapId: kinds.stunt.mapId, gameMode: 'Stunt' })).length).toBe(recordsOf(dataset, kinds.stunt.mapId).length);
  });

  it('4.2 rule 3: a Platform map needs gameMode=Platform, otherwise the not-found error', async () => {
    for (const gameMode of [undefined, 'TimeAttack', 'Stunt']) expect((await errorOf({ mapId: kinds.platform.mapId, gameMode })).status).toBe(404);
    const served = await records({ mapId: kinds.platform.mapId, gameMode: 'Platform' });
    expect(served.length).toBe(recordsOf(dataset, kinds.platform.mapId).length);
    expect(served.every((r) => r.gameMode === 'Platform')).toBe(true);
  });

  it('4.2 rule 4: without seasonId, a Race map with clones needs gameMode=TimeAttackClone, otherwise an empty array', async () => {
    expect(await records({ mapId: kinds.clones.mapId })).toEqual([]);
    expect(await records({ mapId: kinds.clones.mapId, gameMode: 'TimeAttack' })).toEqual([]);
    const served = await records({ mapId: kinds.clones.mapId, gameMode: 'TimeAttackClone' });
    expect(served.length).toBe(recordsOf(dataset, kinds.clones.mapId).length);
    expect(served.every((r) => r.gameMode === 'TimeAttackClone')).toBe(true);
  });

  it('4.2 rule 4: a Race map without clones answers with or without gameMode=TimeAttack', async () => {
    const expected = recordsOf(dataset, kinds.race.mapId).length;
    expect((await records({ mapId: kinds.race.mapId })).length).toBe(expected);
    expect((await records({ mapId: kinds.race.mapId, gameMode: 'TimeAttack' })).length).toBe(expected);
  });

  it('4.2 rule 5: whether a map has clones is read from its hasClones field in the map info lookup', async () => {
    const reply = await get(`${emulator().url}/maps/?mapIdList=${kinds.clones.mapId},${kinds.race.mapId}`);
    const byId = new Map(reply.json<WireMap[]>().map((m) => [m.mapId, m]));
    expect(byId.get(kinds.clones.mapId)?.hasClones).toBe(true);
    expect(byId.get(kinds.race.mapId)?.hasClones).toBe(false);
  });

  it('4.2 rule 6: only one map per request; a list of IDs or a map UID is not a mapId', async () => {
    for (const mapId of [`${kinds.race.mapId},${kinds.clones.mapId}`, kinds.race.mapUid]) {
      const { status, body } = await errorOf({ mapId });
      expect(status).toBe(400);
      expect(body.info).toEqual(['mapId: Invalid uuid.']);
    }
  });

  it('4.2 rule 7: an invalid mapId gives the validation error with info ["mapId: Invalid uuid."]', async () => {
    const { status, body } = await errorOf({ mapId: 'nope' });
    expect(status).toBe(400);
    expect(body).toEqual({ code: 'C-AA-00-03', correlation_id: expect.any(String), message: 'There was a validation error.', info: ['mapId: Invalid uuid.'] });
  });

  it('4.2 rule 8: an invalid account ID gives the validation error with info ["accountIdList: Invalid account id."]', async () => {
    const reply = await get(recordsUrl(emulator().url, { accountIdList: `${accounts[0]},player-one`, mapId: kinds.race.mapId }));
    expect(reply.status).toBe(400);
    expect(reply.json<ApiErrorBody>()).toEqual({
      code: 'C-AA-00-03',
      correlation_id: expect.any(String),
      message: 'There was a validation error.',
      info: ['accountIdList: Invalid account id.'],
    });
  });

  it('4.2 rule 9 / map-page.md: on a Stunt map the threshold is a time too: runs faster than it hide time, score and respawns (replay 403), whatever their points', async () => {
    const stunt = kinds.stunt;
    const stored = recordsOf(dataset, stunt.mapId);
    const threshold = stored.map((r) => r.recordScore.time).sort((a, b) => a - b)[2] ?? 0;
    const before = stunt.secretThreshold;
    stunt.secretThreshold = threshold;
    try {
      const served = await records({ mapId: stunt.mapId, gameMode: 'Stunt' });
      const truth = new Map(stored.map((r) => [r.accountId, r.recordScore]));
      const hidden = served.filter((r) => (truth.get(r.accountId)?.time ?? 0) < threshold);
      expect(hidden.length).toBe(2);
      for (const r of hidden) {
        expect(r.recordScore).toEqual({ time: SENTINEL, score: SENTINEL, respawnCount: SENTINEL });
        expect((await get(r.url)).status).toBe(403);
      }
      const visible = served.filter((x) => !hidden.includes(x));
      for (const r of visible) expect(r.recordScore).toEqual(truth.get(r.accountId));
      // A secret Stunt entry is not necessarily ahead: some visible run has more points than a hidden one.
      const fewestHidden = Math.min(...hidden.map((r) => truth.get(r.accountId)!.score));
      expect(visible.some((r) => r.recordScore.score > fewestHidden)).toBe(true);
    } finally {
      if (before === undefined) delete stunt.secretThreshold;
      else stunt.secretThreshold = before;
    }
  });

  it('map-page.md SECRET: on a Platform map a hidden entry (faster than the threshold, in ms) hides its time and respawn count', async () => {
    const platform = kinds.platform;
    const stored = recordsOf(dataset, platform.mapId);
    const threshold = stored.map((r) => r.recordScore.time).sort((a, b) => a - b)[2] ?? 0;
    platform.secretThreshold = threshold;
    try {
      const served = await records({ mapId: platform.mapId, gameMode: 'Platform' });
      const truth = new Map(stored.map((r) => [r.accountId, r.recordScore]));
      const hidden = served.filter((r) => (truth.get(r.accountId)?.time ?? 0) < threshold);
      expect(hidden.length).toBe(2);
      for (const r of hidden) expect(r.recordScore).toEqual({ time: SENTINEL, score: 0, respawnCount: SENTINEL });
      for (const r of served.filter((x) => !hidden.includes(x))) expect(r.recordScore).toEqual(truth.get(r.accountId));
    } finally {
      delete platform.secretThreshold;
    }
  });

  it('4.2: an unknown but valid mapId gives the not-found error without info', async () => {
    const { status, body } = await errorOf({ mapId: unknownUuid(9) });
    expect(status).toBe(404);
    expect(Object.keys(body).sort()).toEqual(['code', 'correlation_id', 'message']);
    expect(body.code).toBe('C-AL-02-03');
  });

  it('4.2: the answer order does not follow the request order', async () => {
    const holders = recordsOf(dataset, kinds.race.mapId).map((r) => r.accountId);
    const ask = async (list: string[]): Promise<string[]> =>
      (await get(recordsUrl(emulator().url, { accountIdList: list.join(','), mapId: kinds.race.mapId }))).json<WireRecord[]>().map((r) => r.accountId);
    const forward = await ask(holders);
    const backward = await ask([...holders].reverse());
    expect(forward).toEqual(backward);
    expect(forward).not.toEqual(holders);
  });
});

describe('maps with many secret entries (secretHeavyMaps), served', () => {
  const heavy = generateDataset({ now: DATA_NOW, seed: 5, maps: 12, players: 30, secretHeavyMaps: 2 });
  const served = useEmulator({ dataset: heavy });

  it('secretHeavyMaps: on such a map most entries come back hidden (time, score and respawns 4294967295; replay 403), the rest visible', async () => {
    const plain = generateDataset({ now: DATA_NOW, seed: 5, maps: 12, players: 30 });
    const heavyMaps = heavy.maps.filter((m, i) => m.secretThreshold !== plain.maps[i]?.secretThreshold);
    expect(heavyMaps.length).toBeGreaterThanOrEqual(1);
    for (const map of heavyMaps) {
      const gameMode = map.mapType.endsWith('TM_Stunt') ? 'Stunt' : map.mapType.endsWith('TM_Platform') ? 'Platform' : map.hasClones ? 'TimeAttackClone' : undefined;
      const reply = await get(recordsUrl(served().url, { accountIdList: accountsOf(heavy).join(','), mapId: map.mapId, gameMode }));
      const entries = reply.json<WireRecord[]>();
      const hidden = entries.filter((r) => r.recordScore.time === SENTINEL);
      expect(hidden.length).toBeGreaterThanOrEqual(Math.max(2, entries.length * 0.6));
      expect(hidden.length).toBeLessThan(entries.length);
      for (const r of hidden) {
        expect(r.recordScore.respawnCount).toBe(SENTINEL);
        expect(r.recordScore.score).toBe(map.mapType.endsWith('TM_Stunt') ? SENTINEL : 0);
      }
      expect((await get(hidden[0]?.url ?? '')).status).toBe(403);
    }
  });
});


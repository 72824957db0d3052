// A sync stores the splits of every replay it downloads (read once, after the checksum): the emulator's runs come
// back checkpoint for checkpoint, a damaged file is marked with why and not read again, and an improved PB gets its
// new ghost's splits while the old record keeps its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, replayDamageOf, startEmulator, type DatasetRecord, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { ghostOfRecord } from '../../../src-main/emulator/gbx/index.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

describe('splits stored by the sync', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 7, maps: 8, players: 16 });
  const maps = new Map(dataset.maps.map((m) => [m.mapId, m]));
  let emulator: RunningEmulator;
  let tw: Trackwatch;
  let dir: { dir: string; remove: () => Promise<void> };

  beforeAll(async () => {
    emulator = await startEmulator({ dataset });
    dir = await tempDataDir();
    tw = await openTrackwatch({ dataDir: dir.dir, apiUrl: emulator.url, maxRps: 2000, tuning: { burst: 50 } });
    await tw.addMaps('Watched', dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.store.players.add('Watched', [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
  });
  afterAll(async () => {
    await tw.close();
    await emulator.close();
    await dir.remove();
  });

  const truthOf = (record: DatasetRecord): number[] => ghostOfRecord(record, maps.get(record.mapId)!, undefined).checkpoints.map((c) => c.time);
  const downloaded = (): string[] => tw.store.replays.list().filter((r) => r.state === 'downloaded').map((r) => r.mapRecordId);
  const byRecordId = (): Map<string, DatasetRecord> => new Map(dataset.records.map((r) => [r.mapRecordId.toLowerCase(), { ...r, recordScore: { ...r.recordScore } }]));

  it("reads every downloaded replay once: the record's checkpoints, or why the file could not be read", async () => {
    expect((await tw.sync()).outcome).toBe('ok');
    const truth = byRecordId();
    // The world records' ghosts (their holders are the emulator's crowd, outside the dataset) are read like any.
    const worldRecords = tw.store.worldRecords.forList('Watched').filter((wr) => wr.mapRecordId !== null && !truth.has(wr.mapRecordId));
    expect(worldRecords.length).toBeGreaterThan(0);
    for (const wr of worldRecords) {
      const splits = tw.store.splits.get(wr.mapRecordId!);
      expect(splits, wr.mapId).toBeDefined();
      if (splits!.state === 'read') expect(splits!.checkpoints.at(-1)).toBe(tw.store.records.get(wr.mapId, wr.accountId)!.time);
    }
    const ids = downloaded().filter((id) => truth.has(id));
    expect(ids.length).toBeGreaterThan(50);
    let damaged = 0;
    for (const id of ids) {
      const record = truth.get(id)!;
      const splits = tw.store.splits.get(id);
      expect(splits, id).toBeDefined();
      if (replayDamageOf(record) !== undefined) {
        damaged += 1;
        expect(splits).toMatchObject({ state: 'unreadable', error: expect.any(String) });
      } else {
        expect(splits).toMatchObject({ state: 'read', checkpoints: truthOf(record) });
        expect(splits!.checkpoints.at(-1)).toBe(record.recordScore.time);
      }
    }
    expect(damaged).toBeGreaterThan(0);
  });

  it('keeps the old PB splits when a PB improves, reads the new ghost, and never reads a damaged file again', async () => {
    const before = byRecordId();
    const oldRows = new Map(downloaded().map((id) => [id, tw.store.splits.get(id)!]));
    emulator.evolve({ seed: 5, fraction: 0.5 });
    expect((await tw.sync()).outcome).toBe('ok');

    const after = byRecordId();
    const improved = [...after.keys()].filter((id) => !before.has(id) && tw.store.splits.get(id) !== undefined);
    expect(improved.length).toBeGreaterThan(0);
    for (const id of improved) {
      const record = after.get(id)!;
      const splits = tw.store.splits.get(id)!;
      if (replayDamageOf(record) === undefined) expect(splits.checkpoints).toEqual(truthOf(record));
      else expect(splits.state).toBe('unreadable');
    }
    // Every earlier reading is still there, unchanged: history keeps the old PB's splits, damaged files stay marked.
    for (const [id, row] of oldRows) expect(tw.store.splits.get(id)).toEqual(row);
    const history = tw.store.records.history({ list: 'Watched', limit: 1000 }).filter((h) => h.kind === 'improved');
    expect(history.length).toBeGreaterThan(0);
  });
});

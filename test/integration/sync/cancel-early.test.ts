// A sync cancelled before its records phase (issue 17 §2.10): its summary still names the players it was for, as its
// plan counted them, not "0 maps x 0 players" under a plan line that said 8.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { openTrackwatch, type Trackwatch } from '../../../src-main/core/trackwatch.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

describe('a sync cancelled while the maps are looked up', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 16, maps: 6, players: 5 });
  const players = [...new Set(dataset.records.map((r) => r.accountId))];
  let emulator: RunningEmulator;
  let tw: Trackwatch;
  let data: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    emulator = await startEmulator({ dataset });
    data = await tempDataDir();
    tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000 });
    await tw.addMaps('Watched', dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.store.players.add('Watched', players.map((accountId) => ({ accountId })));
  });
  afterEach(async () => {
    await tw.close();
    await emulator.close();
    await data.remove();
  });

  it('says the players it was for, from its plan, and no map synced', async () => {
    const stop = new AbortController();
    const summary = await tw.sync({
      signal: stop.signal,
      onProgress: (p) => {
        if (p.phase === 'maps') stop.abort();
      },
    });
    expect(summary.outcome).toBe('cancelled');
    expect(summary.maps).toBe(0);
    expect(players.length).toBeGreaterThan(1);
    expect(summary.players).toBe(players.length);
  });
});

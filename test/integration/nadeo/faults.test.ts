import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, generateDataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { AbortError, createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { testClientOptions, withoutOrigin } from './helpers.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

// Two emulators with the same generated data: one clean, one failing a fifth of API and file requests.
let clean: RunningEmulator;
let faulty: RunningEmulator;
let dir: string;
beforeAll(async () => {
  const options = { seed: 7, maps: 40, players: 30, now: DATA_NOW };
  clean = await startEmulator({ dataset: generateDataset(options) });
  faulty = await startEmulator({ dataset: generateDataset(options), failRate: 0.2, faultSeed: 11, retryAfterSec: 0 });
  dir = await mkdtemp(join(tmpdir(), 'tw-faults-'));
});
afterAll(async () => {
  await clean.close();
  await faulty.close();
  await rm(dir, { recursive: true, force: true });
});

/** The same sequence of client calls; results with the emulator's origin taken out. */
async function scenario(emu: RunningEmulator, tag: string) {
  const client: NadeoClient = createNadeoClient(testClientOptions(emu.url, { retry: { maxAttempts: 10, baseDelayMs: 1, maxDelayMs: 5 } }));
  try {
    const players = [...new Set(emu.dataset.records.map((r) => r.accountId))];
    const byUid = await client.getMapsByUid([...emu.dataset.maps.map((m) => m.mapUid), 'NoSuchUid000000000000000']);
    const byId = await client.getMapsById([...emu.dataset.maps.map((m) => m.mapId), 'bad-id']);
    const records = [];
    for (const map of byUid.maps) records.push(await client.getRecords(map, [...players, 'bad-account']));
    const downloads = [];
    const all = records.flatMap((x) => x.records);
    for (const r of [...all.filter((x) => x.hidden).slice(0, 10), ...all.filter((x) => !x.hidden).slice(0, 30)]) {
      downloads.push(await client.download(r.url, join(dir, `${tag}-${r.mapRecordId}.gbx`)));
    }
    return { result: withoutOrigin({ byUid, byId, records, downloads }, emu.url), stats: client.stats() };
  } finally {
    await client.close();
  }
}

describe('faults', () => {
  it('the same client calls with failRate 0.2 return exactly what they return without faults', async () => {
    const calm = await scenario(clean, 'clean');
    const rough = await scenario(faulty, 'faulty');
    expect(faulty.stats().faults).toBeGreaterThan(10);
    expect(rough.stats.retries).toBeGreaterThanOrEqual(faulty.stats().faults);
    expect(calm.stats.retries).toBe(0);
    expect(rough.result).toEqual(calm.result);
    expect(calm.result.downloads.some((d) => d.state === 'hidden')).toBe(true);
    expect(calm.result.downloads.some((d) => d.state === 'downloaded')).toBe(true);
  });
});

describe('abort against the emulator', () => {
  it('a slow lookup stops promptly when aborted', async () => {
    const slow = await startEmulator({ dataset: generateDataset({ now: DATA_NOW, seed: 2, maps: 5, players: 2 }), latencyMs: 5_000 });
    const client = createNadeoClient(testClientOptions(slow.url));
    try {
      const controller = new AbortController();
      const pending = client.getMapsByUid(slow.dataset.maps.map((m) => m.mapUid), { signal: controller.signal });
      // Abort once the emulator holds the request (an event we can see), not after a delay that a loaded machine may outrun.
      await vi.waitFor(() => expect(slow.stats().requests).toBeGreaterThan(0), { timeout: 20_000, interval: 5 });
      controller.abort();
      await expect(pending).rejects.toBeInstanceOf(AbortError);
      // Prompt: the call ended while the emulator still held its answer back (no answer was sent yet).
      expect(slow.stats().byStatus).toEqual({});
    } finally {
      await client.close();
      await slow.close();
    }
  });
});

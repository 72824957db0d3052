// The replays phase alone, against the emulator: the due replays downloaded to disk with their sha256; a failed
// download marked for a later sync; a refused one counted hidden; a host's long wait said once.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RetryLaterError } from '../../../../src-main/core/nadeo/index.ts';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { recordsPhase } from '../../../../src-main/core/sync/phases/records.ts';
import { replaysPhase } from '../../../../src-main/core/sync/phases/replays.ts';
import { memoryStore } from '../../store/fixtures.ts';
import { tempDataDir } from '../../../helpers/sync.ts';
import { phaseContext } from './context.ts';
import { emulatedService, type EmulatedService } from './emulator.ts';

describe('the replays phase', () => {
  let service: EmulatedService;
  let store: Store;
  let data: { dir: string; remove: () => Promise<void> };
  beforeAll(async () => {
    service = await emulatedService({ seed: 33, maps: 3, players: 4 });
  });
  afterAll(async () => service.close());
  beforeEach(async () => {
    store = await memoryStore();
    data = await tempDataDir();
    store.watchlists.create('Fall');
    const uids = service.dataset.maps.map((m) => m.mapUid);
    store.maps.addRefs('Fall', uids.map((mapUid) => ({ mapUid })));
    store.maps.upsert((await service.client.getMapsByUid(uids)).maps);
    store.players.add('Fall', [...new Set(service.dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
    // The records phase queues the replays this phase downloads.
    await recordsPhase.run(phaseContext({ store, client: service.client, options: { list: 'Fall' } }));
    service.emulator.resetStats();
  });
  afterEach(async () => data.remove());

  it('downloads every due replay into the data folder, checked by sha256, and counts it', async () => {
    const due = store.replays.pending(1000);
    expect(due.length).toBeGreaterThan(0);
    const totals: number[] = [];
    const ctx = phaseContext({ store, client: service.client, dataDir: data.dir, options: { list: 'Fall', onProgress: (p) => totals.push(p.replaysTotal) } });
    await replaysPhase.run(ctx);
    expect(ctx.run).toMatchObject({ phase: 'replays', replaysTotal: due.length, replaysDone: due.length, replaysDownloaded: due.length, replaysFailed: 0 });
    expect(totals.every((t) => t === due.length)).toBe(true);
    expect(store.replays.pending(1000)).toEqual([]);
    for (const replay of due) {
      const entry = store.replays.get(replay.mapRecordId)!;
      const bytes = await readFile(join(data.dir, entry.path!));
      expect(entry.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('downloads nothing with replays off', async () => {
    const ctx = phaseContext({ store, client: service.client, dataDir: data.dir, options: { list: 'Fall', replays: false } });
    await replaysPhase.run(ctx);
    expect(ctx.run.phase).toBe('maps');
    expect(service.emulator.stats().requests).toBe(0);
  });

  it('marks a failed download for a later sync without failing the run, and counts a refused one as hidden', async () => {
    const [failing, refused] = store.replays.pending(1000);
    const client = {
      ...service.client,
      download: ((url, file, o) => {
        if (url === failing!.url) return Promise.reject(new Error('the file was cut short'));
        if (url === refused!.url) return Promise.resolve({ state: 'hidden' as const });
        return service.client.download(url, file, o);
      }) as typeof service.client.download,
    };
    const ctx = phaseContext({ store, client, dataDir: data.dir, options: { list: 'Fall' } });
    await replaysPhase.run(ctx);
    expect(ctx.run).toMatchObject({ replaysFailed: 1, replaysHidden: 1 });
    expect(ctx.run.errors).toEqual([]);
    expect(store.replays.get(failing!.mapRecordId)).toMatchObject({ state: 'failed', error: 'the file was cut short' });
    expect(store.replays.get(refused!.mapRecordId)?.state).toBe('hidden');
  });

  it('counts as done only what ended: downloads a cancel cut short are not, so the bar agrees with the summary', async () => {
    const due = store.replays.pending(1000);
    expect(due.length).toBeGreaterThan(2);
    const cancel = new AbortController();
    let first = true;
    const client = {
      ...service.client,
      download: (async (url, file, o) => {
        if (!first) {
          // Every later download waits until the cancel, which comes as the first one has ended.
          await new Promise((_resolve, reject) => o!.signal!.addEventListener('abort', () => reject(o!.signal!.reason), { once: true }));
        }
        first = false;
        const done = await service.client.download(url, file, o);
        queueMicrotask(() => cancel.abort());
        return done;
      }) as typeof service.client.download,
    };
    const done: number[] = [];
    const ctx = phaseContext({ store, client, dataDir: data.dir, options: { list: 'Fall', signal: cancel.signal, concurrency: 2, onProgress: (p) => done.push(p.replaysDone) } });
    await expect(replaysPhase.run(ctx)).rejects.toThrow(/cancelled/);
    expect(ctx.run).toMatchObject({ replaysDownloaded: 1, replaysFailed: 0, replaysHidden: 0, replaysDone: 1 });
    expect(Math.max(...done)).toBe(1);
  });

  it("stops asking a replay host that asked for a long wait: one line, the rest of its replays skipped", async () => {
    const due = store.replays.pending(1000);
    const host = new URL(due[0]!.url).host;
    let asked = 0;
    const client = {
      ...service.client,
      download: (() => {
        asked += 1;
        return Promise.reject(new RetryLaterError(`http://${host}`, 429, new Date('2026-12-05T14:03:00Z')));
      }) as typeof service.client.download,
    };
    const ctx = phaseContext({ store, client, dataDir: data.dir, options: { list: 'Fall', concurrency: 1 } });
    await replaysPhase.run(ctx);
    expect(asked).toBe(1);
    expect(ctx.run.errors).toHaveLength(1);
    expect(ctx.run.errors[0]!.message).toContain(`(${host}) asked Trackwatch to wait`);
    expect(ctx.run).toMatchObject({ replaysDone: due.length, replaysFailed: 0, replaysDownloaded: 0 });
  });
});

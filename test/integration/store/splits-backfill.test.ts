// Replays archived before schema 8 are read on first start: the migration on an old database with replays, then the
// backfill in slices, resumable from its cursor after a kill, a damaged file marked with its reason and not retried.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backfillNeeded, backfillSplits } from '../../../src-main/core/splits/backfill.ts';
import { SPLITS_READER_VERSION } from '../../../src-main/core/splits/read.ts';
import { LATEST_SCHEMA_VERSION, openStore, replayPath, type Store } from '../../../src-main/core/store/index.ts';
import { damage } from '../../../src-main/emulator/gbx/index.ts';
import { archiveReplay, ghostBytes, replayBytes } from '../../helpers/ghosts.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { accountId, makeMap, makeRecord, mapId } from '../../unit/store/fixtures.ts';

const PLAYERS = 40;
const DAMAGED = 5;
let data: { dir: string; remove: () => Promise<void> };
let store: Store;
const file = (): string => join(data.dir, 'trackwatch.sqlite');

function checkpointsOf(player: number): number[] {
  const time = 30000 + player;
  return [Math.round(time / 3), Math.round((2 * time) / 3), time];
}

/** A schema-7 data folder: records, their replays downloaded and verified, no splits table yet. */
async function oldFolderWithReplays(): Promise<void> {
  const s = openStore({ file: file() });
  s.maps.upsert([makeMap(1)]);
  const run = s.syncRuns.start();
  const records = Array.from({ length: PLAYERS }, (_, i) => makeRecord(1, i + 1));
  s.records.applyRecords({ mapId: mapId(1), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run, records });
  for (let p = 1; p <= PLAYERS; p++) {
    const record = records[p - 1]!;
    const bytes = p === DAMAGED ? damage(ghostBytes(accountId(p), checkpointsOf(p)), 'truncated') : ghostBytes(accountId(p), checkpointsOf(p));
    archiveReplay(s, data.dir, record, bytes);
  }
  // Back to schema 7: without what 8 (splits), 9 (world records) and 10 (WR holders) added.
  s.db.exec('DROP TABLE splits; DROP TABLE splits_backfill; DROP TABLE world_records; ALTER TABLE watchlists DROP COLUMN world_record; DROP TABLE world_record_holders; PRAGMA user_version = 7');
  s.close();
}

beforeEach(async () => {
  data = await tempDataDir();
  await oldFolderWithReplays();
  store = openStore({ file: file() });
});
afterEach(async () => {
  store.close();
  await data.remove();
});

describe('the splits backfill', () => {
  it('migrates an old database with replays and reads each once, a damaged one marked with its reason', async () => {
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(backfillNeeded(store)).toBe(PLAYERS);
    const seen: number[] = [];
    const done = await backfillSplits(store, data.dir, { onProgress: (p) => seen.push(p.done) });
    expect(done).toEqual({ done: PLAYERS, total: PLAYERS, read: PLAYERS - 1, unreadable: 1, finished: true });
    expect(seen.at(-1)).toBe(PLAYERS);
    expect(backfillNeeded(store)).toBe(0);

    const third = store.records.get(mapId(1), accountId(3))!;
    expect(store.splits.get(third.mapRecordId)).toMatchObject({ state: 'read', checkpoints: checkpointsOf(3), raceTime: 30003 });
    const broken = store.records.get(mapId(1), accountId(DAMAGED))!;
    expect(store.splits.get(broken.mapRecordId)).toMatchObject({ state: 'unreadable', errorCode: 'truncated', error: expect.stringMatching(/ends early/) });

    // Not retried blindly: another start reads nothing; a newer reader reads every replay again, the unreadable one too.
    expect((await backfillSplits(store, data.dir)).done).toBe(0);
    expect(store.splits.unreadCount(SPLITS_READER_VERSION + 1)).toBe(PLAYERS);
  });

  it('reads again what an older reader read: a replay read before the laps were read gets its laps, without a download', async () => {
    await backfillSplits(store, data.dir);
    const record = store.records.get(mapId(1), accountId(9))!;
    const times = [10_000, 20_000, 30_009];
    archiveReplay(store, data.dir, record, replayBytes(accountId(9), times, 3));
    const { sha256 } = store.replays.get(record.mapRecordId)!;
    // As reader 1 stored it: the splits, no laps.
    store.splits.put(record.mapRecordId, { readerVersion: 1, sha256: sha256!, state: 'read', ghostIndex: 0, ghostName: null, raceTime: 30_009, respawns: 0, stuntScore: 0, checkpoints: times, stuntScores: [0, 0, 0], laps: null });
    expect(backfillNeeded(store)).toBe(1);
    expect(await backfillSplits(store, data.dir)).toMatchObject({ done: 1, read: 1, finished: true });
    expect(store.splits.get(record.mapRecordId)).toMatchObject({ state: 'read', readerVersion: SPLITS_READER_VERSION, checkpoints: times, laps: 3 });
    expect(backfillNeeded(store)).toBe(0);
  });

  it('resumes after a kill from its cursor, losing nothing and reading nothing twice', async () => {
    const stop = new AbortController();
    const first = await backfillSplits(store, data.dir, {
      signal: stop.signal,
      sliceMs: 0,
      batch: 8,
      onProgress: (p) => {
        if (p.done >= 12) stop.abort();
      },
    });
    expect(first.finished).toBe(false);
    expect(first.done).toBeGreaterThanOrEqual(12);
    expect(first.done).toBeLessThan(PLAYERS);
    const stored = (store.db.prepare('SELECT count(*) AS n FROM splits').get() as { n: number }).n;
    expect(stored).toBe(first.done);
    const cursor = store.splits.backfillCursor();
    expect(cursor).not.toBe('');

    // The process dies: the next start opens the folder again and goes on from the cursor.
    store.close();
    store = openStore({ file: file() });
    expect(store.splits.backfillCursor()).toBe(cursor);
    const rest = await backfillSplits(store, data.dir);
    expect(rest.done).toBe(PLAYERS - first.done);
    expect(rest.finished).toBe(true);
    expect((store.db.prepare('SELECT count(*) AS n FROM splits').get() as { n: number }).n).toBe(PLAYERS);
    expect(store.splits.backfillCursor()).toBe('');
  });

  it('yields to the event loop between slices, so the window keeps answering', async () => {
    // At each progress report, a callback is queued for the loop's next turn: the next report must find it ran, which
    // it does only if the backfill gave the loop a turn in between (a slice that held on would find it waiting).
    let waiting = false;
    let heldOn = 0;
    let slices = 0;
    await backfillSplits(store, data.dir, {
      sliceMs: 0,
      onProgress: () => {
        slices += 1;
        if (waiting) heldOn += 1;
        waiting = true;
        setImmediate(() => (waiting = false));
      },
    });
    expect(slices).toBeGreaterThan(PLAYERS / 2);
    expect(heldOn).toBe(0);
  });

  it('sends a missing file back to the sync instead of marking it unreadable', async () => {
    const record = store.records.get(mapId(1), accountId(7))!;
    const { rm } = await import('node:fs/promises');
    await rm(join(data.dir, replayPath(record.mapId, record.accountId, record.mapRecordId)));
    await backfillSplits(store, data.dir);
    expect(store.splits.get(record.mapRecordId)).toBeUndefined();
    expect(store.replays.get(record.mapRecordId)).toMatchObject({ state: 'failed', error: expect.stringMatching(/missing/) });
  });
});

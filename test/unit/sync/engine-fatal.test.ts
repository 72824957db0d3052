// A fatal error out of a single-call phase (issue 17): a full disk while the maps phase writes, an AuthError in the
// positions phase. The run ends failed with its local fault (not "partial"), and is not left "running".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthError } from '../../../src-main/core/nadeo/index.ts';
import type { Store } from '../../../src-main/core/store/index.ts';
import { runSync } from '../../../src-main/core/sync/engine.ts';
import { RequestEventHub } from '../../../src-main/core/sync/run-requests.ts';
import { acquireSyncLock, closeAbandonedRuns } from '../../../src-main/core/sync/lock.ts';
import { memoryStore } from '../store/fixtures.ts';
import { emulatedService, type EmulatedService } from './phases/emulator.ts';

let service: EmulatedService;
let dataDir: string;
let store: Store;
beforeAll(async () => {
  service = await emulatedService({ seed: 5, maps: 3, players: 2 });
  dataDir = await mkdtemp(join(tmpdir(), 'tw-engine-fatal-'));
});
afterAll(async () => {
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
});
beforeEach(async () => {
  store = await memoryStore();
  store.watchlists.create('Fall');
  store.maps.addRefs('Fall', service.dataset.maps.map((m) => ({ mapUid: m.mapUid })));
  const accounts = [...new Set(service.dataset.records.map((r) => r.accountId))].slice(0, 2);
  store.players.add('Fall', accounts.map((accountId) => ({ accountId })));
});

const full = (): Error => new Database.SqliteError('database or disk is full', 'SQLITE_FULL');

describe('a fatal error in a single-call phase', () => {
  it('a full disk while the maps phase writes: the run fails with the local fault', async () => {
    store.maps.upsert = () => {
      throw full();
    };
    const summary = await runSync({ store, client: service.client, dataDir, requestEvents: new RequestEventHub() }, { list: 'Fall', replays: false });
    expect(summary.outcome).toBe('failed');
    expect(summary.localFault?.code).toBeDefined();
    expect(summary.localFault?.message).toMatch(/^the disk holding the data folder is full \(SQLITE_FULL\)/);
    expect(summary.errors.filter((e) => e.mapId === null).map((e) => e.message)).toEqual([summary.localFault!.message]);
    expect(store.syncRuns.get(summary.runId)?.outcome).toBe('failed');
  });

  it('an AuthError in the positions phase after the records went in: failed, not partial', async () => {
    const syncPositions = async (): Promise<never> => Promise.reject(new AuthError('the login was refused (HTTP 401); check TRACKWATCH_LOGIN.', 401));
    const summary = await runSync({ store, client: service.client, dataDir, syncPositions, requestEvents: new RequestEventHub() }, { list: 'Fall', replays: false });
    expect(summary.maps).toBeGreaterThan(0);
    expect(summary.outcome).toBe('failed');
    expect(summary.errors.map((e) => e.message)).toEqual(['the login was refused (HTTP 401); check TRACKWATCH_LOGIN.']);
    expect(store.syncRuns.get(summary.runId)?.outcome).toBe('failed');
  });
});

const corrupt = (): Error => new Database.SqliteError('database disk image is malformed', 'SQLITE_CORRUPT');
const DAMAGED = /^the database in the data folder is damaged \(SQLITE_CORRUPT\); it was left as it is\. Restore it from a backup/;

describe('a damaged page met at the end of a run (issue 17 §1.7)', () => {
  it('by the report (replays given up on), after every phase went well: the run fails with it, never ok', async () => {
    store.replays.givenUp = () => {
      throw corrupt();
    };
    const summary = await runSync({ store, client: service.client, dataDir, requestEvents: new RequestEventHub() }, { list: 'Fall', replays: false });
    expect(summary.maps).toBeGreaterThan(0);
    expect(summary.outcome).toBe('failed');
    expect(summary.localFault?.message).toMatch(DAMAGED);
    expect(summary.errors.map((e) => e.message)).toEqual([summary.localFault!.message]);
    expect(store.syncRuns.get(summary.runId)?.outcome).toBe('failed');
  });

  it('by the close of the run row (its counts): the outcome alone is written, and the summary says failed and why', async () => {
    const finish = store.syncRuns.finish.bind(store.syncRuns);
    const closes: string[] = [];
    store.syncRuns.finish = (id, outcome, counts) => {
      closes.push(outcome);
      if (counts !== undefined) throw corrupt();
      finish(id, outcome, counts);
    };
    const summary = await runSync({ store, client: service.client, dataDir, requestEvents: new RequestEventHub() }, { list: 'Fall', replays: false });
    expect(closes).toEqual(['ok', 'failed']);
    expect(summary.outcome).toBe('failed');
    expect(summary.localFault?.message).toMatch(DAMAGED);
    expect(store.syncRuns.get(summary.runId)?.outcome).toBe('failed');
  });
});

describe('a run left "running" by a process that is gone', () => {
  it('is closed when the folder is next opened to write, unless a sync holds it', async () => {
    const runId = store.syncRuns.start('Fall');
    const lock = await acquireSyncLock(dataDir);
    try {
      expect(await closeAbandonedRuns(store, dataDir)).toBe(0);
      expect(store.syncRuns.get(runId)?.outcome).toBe('running');
    } finally {
      await lock.release();
    }
    expect(await closeAbandonedRuns(store, dataDir)).toBe(1);
    expect(store.syncRuns.get(runId)?.outcome).toBe('failed');
  });
});

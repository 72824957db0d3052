// One time left for the whole sync (issue 17 §2.2): what the current phase has left plus the plan's estimate of the
// phases after it, at the pace kept so far. Measured on a clock the test moves, against a client the test counts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { runSync } from '../../../src-main/core/sync/engine.ts';
import { RequestEventHub } from '../../../src-main/core/sync/run-requests.ts';
import type { SyncProgress } from '../../../src-main/core/sync/types.ts';
import { accountId, makeMap, makeRecord, memoryStore } from '../store/fixtures.ts';
import { tempDataDir } from '../../helpers/sync.ts';
import { stubClient } from './phases/context.ts';

const MAPS = 4;
const PLAYERS = 3;

describe('the time left of a sync', () => {
  let store: Store;
  let data: { dir: string; remove: () => Promise<void> };
  beforeEach(async () => {
    store = await memoryStore();
    data = await tempDataDir();
    store.watchlists.create('Fall');
    const maps = Array.from({ length: MAPS }, (_, i) => makeMap(i + 1));
    store.maps.addRefs('Fall', maps.map((m) => ({ mapUid: m.mapUid })));
    store.maps.upsert(maps, new Date().toISOString());
    store.players.add('Fall', Array.from({ length: PLAYERS }, (_, i) => ({ accountId: accountId(i + 1) })));
  });
  afterEach(async () => data.remove());

  it("counts the replays still to come while the records are read, and ends at 0", async () => {
    // One request per map (three players fit one), one per replay; each request takes a second on the test's clock.
    const hub = new RequestEventHub();
    const request = () => hub.emit({ method: 'GET', route: 'stub', origin: 'http://127.0.0.1', status: 200, attempt: 1, ms: 1000 });
    let clock = Date.parse('2026-11-20T10:00:00Z');
    const client = stubClient({
      getRecords: async (map) => {
        request();
        clock += 1000;
        const n = Number.parseInt(map.mapId.slice(-12), 16);
        return { records: Array.from({ length: PLAYERS }, (_, i) => makeRecord(n, i + 1)), invalidAccounts: [], rejected: [] };
      },
      download: async () => {
        request();
        clock += 1000;
        return { state: 'downloaded', bytes: 10, sha256: '0'.repeat(64) };
      },
    });
    const seen: SyncProgress[] = [];
    const summary = await runSync(
      { store, client, requestEvents: hub, dataDir: data.dir, now: () => new Date(clock) },
      { list: 'Fall', positions: false, onProgress: (p) => seen.push(p) },
    );
    expect(summary.outcome).toBe('ok');
    const records = seen.filter((p) => p.phase === 'records' && p.mapsDone > 0);
    // A first sync: the plan expects a replay per player on each map no sync has read, 12 in all, after the 4 maps.
    expect(records.map((p) => p.etaMs)).toEqual([1, 2, 3, 4].map((done) => (MAPS - done + MAPS * PLAYERS) * 1000));
    // At the end of the records, the replays are still ahead: not "0 s left".
    expect(records.at(-1)!.etaMs).toBe(12_000);
    const replays = seen.filter((p) => p.phase === 'replays' && p.replaysDone > 0);
    expect(replays).toHaveLength(MAPS * PLAYERS);
    expect(replays.map((p) => p.etaMs)).toEqual(replays.map((p) => (p.replaysTotal - p.replaysDone) * 1000));
    expect(seen.at(-1)).toMatchObject({ phase: 'done', etaMs: 0 });
  });

  it('has no time left to say before the first request', async () => {
    const seen: SyncProgress[] = [];
    const client = stubClient({ getRecords: async () => ({ records: [], invalidAccounts: [], rejected: [] }) });
    await runSync({ store, client, requestEvents: new RequestEventHub(), dataDir: data.dir }, { list: 'Fall', replays: false, positions: false, onProgress: (p) => seen.push(p) });
    expect(seen.length).toBeGreaterThan(0);
    // The stub counts no request: there is no pace to go by.
    expect(seen.every((p) => p.etaMs === null)).toBe(true);
  });
});

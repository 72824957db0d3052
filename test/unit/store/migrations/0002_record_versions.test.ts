import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate, schemaVersion } from '../../../../src-main/core/store/migrate.ts';
import { openStore, type Store } from '../../../../src-main/core/store/index.ts';
import { accountId, describeSchema, mapId, makeRecord, recordId, seasonId } from '../fixtures.ts';
import { SCHEMA1, seedSchema1 } from './schema1-seed.ts';

let db: Database.Database | undefined;
let store: Store | undefined;
const dirs: string[] = [];
afterEach(() => {
  store?.close();
  db?.close();
  store = db = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function schema1WithData(): Database.Database {
  db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS, 1);
  seedSchema1(db);
  return db;
}

describe('migration 0002_record_versions', () => {
  it('folds current records and history into one table of versions, with its indexes', () => {
    const d = schema1WithData();
    migrate(d, MIGRATIONS, 2);
    expect(schemaVersion(d)).toBe(2);
    const { tables, indexes } = describeSchema(d);
    expect(tables.record_history).toBeUndefined();
    expect(tables.records_v1).toBeUndefined();
    expect(tables.records).toEqual(expect.arrayContaining(['id', 'map_ref', 'player_ref', 'scope', 'current', 'change', 'old_time', 'old_score', 'seen_at', 'sync_run_id']));
    expect(indexes).toEqual(expect.arrayContaining(['records_by_map', 'records_by_time', 'records_by_record_id']));
    expect(indexes).not.toContain('records_by_player');
    expect(indexes).not.toContain('history_by_player');
  });

  it('keeps every record, every history row and everything else', () => {
    const d = schema1WithData();
    migrate(d, MIGRATIONS, 2);
    const versions = d.prepare('SELECT map_record_id, current, change, time, old_time, url FROM records ORDER BY id').all();
    expect(versions).toEqual([
      { map_record_id: recordId(10), current: null, change: 'first', time: 32000, old_time: null, url: '' },
      { map_record_id: SCHEMA1.correctedRecordId, current: null, change: 'first', time: 30500, old_time: null, url: '' },
      { map_record_id: SCHEMA1.seasonRecordId, current: 1, change: 'first', time: 33000, old_time: null, url: 'https://u/3' },
      { map_record_id: SCHEMA1.improvedRecordId, current: 1, change: 'improved', time: 31000, old_time: 32000, url: 'https://u/1' },
      // History said 30500, the current record 30800 under the same ID: kept as a correction, not as history.
      { map_record_id: SCHEMA1.correctedRecordId, current: 1, change: null, time: 30800, old_time: null, url: 'https://u/2' },
    ]);
    for (const table of ['watchlists', 'maps', 'watchlist_maps', 'players', 'watchlist_players', 'sync_runs', 'sync_errors', 'settings', 'replays']) {
      expect((d.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, table).toBeGreaterThan(0);
    }
  });

  it('upgrades a schema-1 data folder on open: the repositories read and write it as before', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-0002-'));
    dirs.push(dir);
    const file = join(dir, 'trackwatch.sqlite');
    const old = new Database(file);
    old.pragma('foreign_keys = ON');
    migrate(old, MIGRATIONS, 1);
    seedSchema1(old);
    old.close();

    store = openStore({ file });
    expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
    expect(store.records.get(mapId(1), accountId(1))).toMatchObject({ time: 31000, respawnCount: 5, medal: 3, url: 'https://u/1', filename: 'f1', gameModeCustomData: 'cd' });
    expect(store.records.get(mapId(1), accountId(2))?.time).toBe(30800);
    expect(store.records.get(mapId(1), accountId(1), seasonId(1))?.time).toBe(33000);
    expect(store.records.history({ player: accountId(1), scope: 'PersonalBest', order: 'oldest' }).map((h) => [h.kind, h.oldTime, h.newTime])).toEqual([
      ['first', null, 32000],
      ['improved', 32000, 31000],
    ]);
    expect(store.records.leaderboards('Weekly')[0]!.records.map((r) => r.time).sort((a, b) => a! - b!)).toEqual([30800, 31000]);
    expect(store.replays.has(SCHEMA1.improvedRecordId)).toBe(true);
    expect(store.maps.unresolvedUids('Weekly')).toHaveLength(1);
    // And syncs go on from there.
    const run = store.syncRuns.start('Weekly');
    const better = makeRecord(1, 2, { time: 30000, mapRecordId: recordId(21) });
    expect(store.records.applyRecords({ mapId: mapId(1), scope: 'PersonalBest', records: [better], seenAt: '2025-03-01T00:00:00.000Z', syncRunId: run }).improvements)
      .toEqual([expect.objectContaining({ kind: 'improved', oldTime: 30800, newTime: 30000 })]);
  });
});

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../src-main/core/store/migrate.ts';
import { describeSchema } from '../fixtures.ts';
import { seedSchema2 } from './schema2-seed.ts';

let db: Database.Database;
afterEach(() => db?.close());

describe('migration 0006_history_by_time', () => {
  it('swaps the year index for one holding the time, adds the replaced respawn count, and keeps every row', () => {
    db = new Database(':memory:');
    migrate(db, MIGRATIONS, 5);
    seedSchema2(db);
    const before = describeSchema(db);
    const rows = db.prepare('SELECT * FROM records ORDER BY id').all();
    migrate(db, MIGRATIONS, 6);
    const after = describeSchema(db);
    expect(before.indexes.filter((i) => !after.indexes.includes(i))).toEqual(['records_by_year']);
    expect(after.indexes.filter((i) => !before.indexes.includes(i))).toEqual(['records_history_by_time']);
    expect(after.tables.records).toEqual([...before.tables.records!, 'old_respawn_count']);
    // Every row as it was, with no replaced respawn count known.
    expect(db.prepare('SELECT * FROM records ORDER BY id').all()).toEqual(rows.map((r) => ({ ...(r as object), old_respawn_count: null })));
    // The index holds exactly the history rows (change set), each with its year and time.
    const indexed = db.prepare(`SELECT id, timestamp FROM records INDEXED BY records_history_by_time
      WHERE change IS NOT NULL AND substr(timestamp, 1, 4) >= '' ORDER BY id`).all();
    const history = db.prepare('SELECT id, timestamp FROM records WHERE change IS NOT NULL ORDER BY id').all();
    expect(history.length).toBeGreaterThan(0);
    expect(indexed).toEqual(history);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

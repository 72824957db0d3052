import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../src-main/core/store/migrate.ts';
import { describeSchema } from '../fixtures.ts';
import { seedSchema2 } from './schema2-seed.ts';

let db: Database.Database;
afterEach(() => db?.close());

describe('migration 0004_history_by_year', () => {
  it('swaps the history time index for a year index over the same rows, and keeps every row', () => {
    db = new Database(':memory:');
    migrate(db, MIGRATIONS, 3);
    seedSchema2(db);
    const before = describeSchema(db);
    const rows = db.prepare('SELECT * FROM records ORDER BY id').all();
    migrate(db, MIGRATIONS, 4);
    const after = describeSchema(db);
    expect(after.tables).toEqual(before.tables);
    expect(before.indexes.filter((i) => !after.indexes.includes(i))).toEqual(['records_by_time']);
    expect(after.indexes.filter((i) => !before.indexes.includes(i))).toEqual(['records_by_year']);
    expect(db.prepare('SELECT * FROM records ORDER BY id').all()).toEqual(rows);
    // The index holds exactly the history rows (change set), each under the year its record was set.
    const indexed = db.prepare(`SELECT id, substr(timestamp, 1, 4) AS year FROM records INDEXED BY records_by_year
      WHERE change IS NOT NULL AND substr(timestamp, 1, 4) >= '' ORDER BY id`).all();
    const history = db.prepare(`SELECT id, substr(timestamp, 1, 4) AS year FROM records WHERE change IS NOT NULL ORDER BY id`).all();
    expect(history.length).toBeGreaterThan(0);
    expect(indexed).toEqual(history);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

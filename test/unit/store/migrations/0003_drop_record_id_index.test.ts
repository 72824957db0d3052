import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../src-main/core/store/migrate.ts';
import { describeSchema } from '../fixtures.ts';
import { seedSchema2 } from './schema2-seed.ts';

let db: Database.Database;
afterEach(() => db?.close());

describe('migration 0003_drop_record_id_index', () => {
  it('drops the record-ID index and nothing else', () => {
    db = new Database(':memory:');
    migrate(db, MIGRATIONS, 2);
    seedSchema2(db);
    const before = describeSchema(db);
    const rows = db.prepare('SELECT * FROM records ORDER BY id').all();
    migrate(db, MIGRATIONS, 3);
    const after = describeSchema(db);
    expect(after.tables).toEqual(before.tables);
    expect(before.indexes.filter((i) => !after.indexes.includes(i))).toEqual(['records_by_record_id']);
    expect(db.prepare('SELECT * FROM records ORDER BY id').all()).toEqual(rows);
  });
});

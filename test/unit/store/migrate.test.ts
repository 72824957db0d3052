import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseFromTheFutureError, StoreError } from '../../../src-main/core/store/errors.ts';
import { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate, schemaVersion, type Migration } from '../../../src-main/core/store/migrate.ts';
import { openStore } from '../../../src-main/core/store/index.ts';
import { describeSchema, makeMap } from './fixtures.ts';
import { seedSchema1 } from './migrations/schema1-seed.ts';
import { seedSchema2 } from './migrations/schema2-seed.ts';

let db: Database.Database;
afterEach(() => db?.close());

function fresh(): Database.Database {
  db = new Database(':memory:');
  return db;
}

/** What each earlier schema version holds for the upgrade test, written with that version's SQL. */
const SEED_AT: Record<number, (db: Database.Database) => void> = {
  0: () => {},
  1: seedSchema1,
  2: seedSchema2,
  3: seedSchema2, // schema 3 only dropped an index: the same tables
  4: seedSchema2, // schema 4 only swapped an index
  5: seedSchema2, // schema 5 only added the lists' replay policy, with defaults
  6: seedSchema2, // schema 6 only swapped the history index and added a column
  7: seedSchema2, // schema 7 only added tables (list sources, positions)
  8: seedSchema2, // schema 8 (splits) only adds tables
  9: seedSchema2, // schema 9 (world records) adds a table and a column with a default
};

/** Tables a later migration reshapes on purpose (its own test checks how); the others keep their rows as they are. */
const RESHAPED: readonly string[] = ['records', 'record_history'];

function rowCounts(d: Database.Database): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of Object.keys(describeSchema(d).tables)) {
    if (!RESHAPED.includes(table)) counts[table] = (d.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  }
  return counts;
}

describe('migrate', () => {
  it('numbers the shipped migrations 1..N and reports the latest', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('refuses a list with a gap', () => {
    const gap: Migration[] = [{ version: 1, name: 'a', up() {} }, { version: 3, name: 'c', up() {} }];
    expect(() => migrate(fresh(), gap)).toThrow(/numbered 3, expected 2/);
  });

  it('is a no-op on an up-to-date database', () => {
    migrate(fresh());
    const before = describeSchema(db);
    expect(migrate(db)).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION });
    expect(describeSchema(db)).toEqual(before);
  });

  for (let from = 0; from < LATEST_SCHEMA_VERSION; from += 1) {
    it(`upgrades a schema-${from} database to the latest, keeping its data`, () => {
      migrate(fresh(), MIGRATIONS, from);
      db.pragma('foreign_keys = ON');
      const seed = SEED_AT[from];
      expect(seed, `add a SEED_AT[${from}] for schema ${from}`).toBeDefined();
      seed!(db);
      const before = rowCounts(db);
      migrate(db);
      expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
      expect(rowCounts(db)).toMatchObject(before);
      expect(db.pragma('foreign_key_check')).toEqual([]);
    });
  }

  it('runs every pending step in one transaction: a failing step leaves the old schema and its data intact', () => {
    migrate(fresh(), MIGRATIONS);
    db.prepare("INSERT INTO watchlists (name, created_at) VALUES ('Weekly', 'x')").run();
    const next: Migration[] = [
      ...MIGRATIONS,
      { version: LATEST_SCHEMA_VERSION + 1, name: 'adds', up: (d) => d.exec('ALTER TABLE watchlists ADD COLUMN colour TEXT') },
      { version: LATEST_SCHEMA_VERSION + 2, name: 'breaks', up: (d) => d.exec('ALTER TABLE no_such_table ADD COLUMN x') },
    ];
    expect(() => migrate(db, next)).toThrow(/no such table/);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(describeSchema(db).tables.watchlists).not.toContain('colour');
    expect(db.prepare('SELECT name FROM watchlists').all()).toEqual([{ name: 'Weekly' }]);
  });

  it('keeps data across a later step that reshapes a table', () => {
    const store = openStore({ memory: true });
    try {
      store.maps.upsert([makeMap(1)], '2025-01-01T00:00:00.000Z');
      const next: Migration[] = [
        ...MIGRATIONS,
        { version: LATEST_SCHEMA_VERSION + 1, name: 'adds', up: (d) => d.exec("ALTER TABLE maps ADD COLUMN tag TEXT NOT NULL DEFAULT ''") },
      ];
      expect(migrate(store.db, next)).toEqual({ from: LATEST_SCHEMA_VERSION, to: LATEST_SCHEMA_VERSION + 1 });
      expect(store.db.prepare('SELECT map_uid, tag FROM maps').all()).toEqual([{ map_uid: makeMap(1).mapUid, tag: '' }]);
    } finally {
      store.close();
    }
  });

  it('refuses a database from a newer Trackwatch with a typed error saying what to do', () => {
    fresh().pragma(`user_version = ${LATEST_SCHEMA_VERSION + 3}`);
    let caught: unknown;
    try {
      migrate(db);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DatabaseFromTheFutureError);
    expect(caught).toBeInstanceOf(StoreError);
    const error = caught as DatabaseFromTheFutureError;
    expect(error.code).toBe('DATABASE_FROM_THE_FUTURE');
    expect(error.found).toBe(LATEST_SCHEMA_VERSION + 3);
    expect(error.known).toBe(LATEST_SCHEMA_VERSION);
    expect(error.message).toBe(
      `this data folder was written by a newer Trackwatch (schema ${LATEST_SCHEMA_VERSION + 3}, this one knows ${LATEST_SCHEMA_VERSION}); ` +
        'update Trackwatch or choose another data folder',
    );
    // Nothing was touched.
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION + 3);
    expect(describeSchema(db).tables).toEqual({});
  });
});

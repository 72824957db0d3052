import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../src-main/core/store/migrate.ts';
import { describeSchema } from '../fixtures.ts';
import { seedSchema2 } from './schema2-seed.ts';

let db: Database.Database;
afterEach(() => db?.close());

/** Schema 6 with data, then migration 7. */
function toSchema7(d: Database.Database, seed: (d: Database.Database) => void): void {
  migrate(d, MIGRATIONS, 6);
  seed(d);
  migrate(d, MIGRATIONS, 7);
}

describe('migration 0007_list_sources_and_positions', () => {
  it('adds the source, brought-maps and positions tables and touches nothing else', () => {
    db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    let before: ReturnType<typeof describeSchema> | undefined;
    let rows: unknown[] = [];
    toSchema7(db, (d) => {
      seedSchema2(d);
      before = describeSchema(d);
      rows = d.prepare('SELECT * FROM records ORDER BY id').all();
    });
    const after = describeSchema(db);
    expect(Object.keys(after.tables).filter((t) => !(t in before!.tables)).sort()).toEqual(['list_source_maps', 'list_sources', 'positions']);
    for (const [table, columns] of Object.entries(before!.tables)) expect(after.tables[table]).toEqual(columns);
    expect(after.indexes.filter((i) => !before!.indexes.includes(i))).toEqual(['positions_by_player']);
    expect(db.prepare('SELECT * FROM records ORDER BY id').all()).toEqual(rows);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('a deleted list takes its source and brought maps with it; a deleted map or player its positions', () => {
    db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    toSchema7(db, seedSchema2);
    const list = db.prepare<[], { id: number }>('SELECT id FROM watchlists LIMIT 1').get()!.id;
    const map = db.prepare<[], { id: number }>('SELECT id FROM maps LIMIT 1').get()!.id;
    const player = db.prepare<[], { id: number }>('SELECT id FROM players LIMIT 1').get()!.id;
    db.prepare("INSERT INTO list_sources VALUES (?, 'campaign:current', 'campaign:Fall 2026', 'Fall 2026', 'x', 'x')").run(list);
    db.prepare("INSERT INTO list_source_maps VALUES (?, 'SomeUid00000000000000000', 'x')").run(list);
    db.prepare("INSERT INTO positions VALUES (?, ?, 'PersonalBest', 41000, 'ranked', 12, '[]', NULL, 'x')").run(map, player);
    // A ranked row needs its position and zones; any other state has neither.
    expect(() => db.prepare("INSERT INTO positions VALUES (?, ?, 's', 1, 'ranked', NULL, NULL, NULL, 'x')").run(map, player)).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO positions VALUES (?, ?, 's', 1, 'unavailable', 3, '[]', NULL, 'x')").run(map, player)).toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO positions VALUES (?, ?, 's', 1, 'lost', NULL, NULL, NULL, 'x')").run(map, player)).toThrow(/CHECK/);
    // A source's maps belong to a source, not just to any list.
    const other = Number(db.prepare("INSERT INTO watchlists (name, created_at) VALUES ('Other', 'x')").run().lastInsertRowid);
    expect(() => db.prepare("INSERT INTO list_source_maps VALUES (?, 'SomeUid00000000000000000', 'x')").run(other)).toThrow(/FOREIGN KEY/);

    db.prepare('DELETE FROM watchlists WHERE id = ?').run(list);
    expect(db.prepare('SELECT count(*) AS n FROM list_sources').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM list_source_maps').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM positions').get()).toEqual({ n: 1 });
    db.prepare('DELETE FROM players WHERE id = ?').run(player);
    expect(db.prepare('SELECT count(*) AS n FROM positions').get()).toEqual({ n: 0 });
  });
});

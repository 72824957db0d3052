import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../src-main/core/store/migrate.ts';

let db: Database.Database;
afterEach(() => db?.close());

const MAP = `INSERT INTO maps (id, map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score, bronze_score,
  map_type, map_style, collection_name, filename, has_clones, is_playable, created_with_gamepad_editor,
  created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
  VALUES (1, '00000000-0000-4000-8000-000000000001', 'Uid000000000000000001', 'A', '00000000-0000-4000-8000-0000000000aa',
  '00000000-0000-4000-8000-0000000000aa', 1, 2, 3, 4, 'TrackMania\\TM_Race', '', 'Stadium', 'a.Map.Gbx', 0, 1, 0, 0,
  '2025-01-01T00:00:00.000Z', '', '', '2025-01-01T00:00:00.000Z')`;

describe('migration 0009_world_records', () => {
  it('leaves every existing list on the default setting, and holds a world record as secret or scored, never both', () => {
    db = new Database(':memory:');
    migrate(db, MIGRATIONS, 8);
    db.prepare("INSERT INTO watchlists (name, created_at) VALUES ('Old', '2025-01-01T00:00:00.000Z')").run();
    db.prepare(MAP).run();
    migrate(db, MIGRATIONS, 9);
    expect(db.prepare('SELECT name, world_record FROM watchlists').all()).toEqual([{ name: 'Old', world_record: null }]);
    expect(() => db.prepare('UPDATE watchlists SET world_record = 2').run()).toThrow(/CHECK/);
    const insert = db.prepare('INSERT INTO world_records (map_ref, account_id, score, secret, read_at) VALUES (1, ?, ?, ?, ?)');
    const holder = '00000000-0000-4000-8000-0000000000bb';
    expect(() => insert.run(holder, null, 0, '2026-01-01T00:00:00.000Z')).toThrow(/CHECK/);
    expect(() => insert.run(holder, 1000, 1, '2026-01-01T00:00:00.000Z')).toThrow(/CHECK/);
    expect(() => insert.run(holder, -5, 0, '2026-01-01T00:00:00.000Z')).toThrow(/CHECK/);
    insert.run(holder, null, 1, '2026-01-01T00:00:00.000Z');
    // A map that goes takes its world record with it.
    db.pragma('foreign_keys = ON');
    db.prepare('DELETE FROM maps').run();
    expect(db.prepare('SELECT count(*) AS n FROM world_records').get()).toEqual({ n: 0 });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

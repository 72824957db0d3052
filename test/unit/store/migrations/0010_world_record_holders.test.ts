import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../src-main/core/store/migrate.ts';

let db: Database.Database;
afterEach(() => db?.close());

const uuid = (n: number, tag = 'a'): string => `00000000-0000-4000-8000-${tag}${String(n).padStart(11, '0')}`;

function map(id: number): void {
  db.prepare(`INSERT INTO maps (id, map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score, bronze_score,
    map_type, map_style, collection_name, filename, has_clones, is_playable, created_with_gamepad_editor,
    created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
    VALUES (?, ?, ?, 'A', ?, ?, 1, 2, 3, 4, 'TrackMania\\TM_Race', '', 'Stadium', 'a.Map.Gbx', 0, 1, 0, 0,
    '2025-01-01T00:00:00.000Z', '', '', '2025-01-01T00:00:00.000Z')`).run(id, uuid(id, 'm'), `Uid${String(id).padStart(18, '0')}`, uuid(99, 'c'), uuid(99, 'c'));
}

function player(id: number): void {
  db.prepare("INSERT INTO players (id, account_id, added_at) VALUES (?, ?, '2025-01-01T00:00:00.000Z')").run(id, uuid(id, 'p'));
}

function record(id: number, mapRef: number, playerRef: number): void {
  db.prepare(`INSERT INTO records (id, map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score, medal,
    game_mode, game_mode_custom_data, removed, timestamp, url, filename, seen_at, updated_at)
    VALUES (?, ?, ?, 'PersonalBest', 1, 'first', ?, 30000, 0, 0, 0, 'TimeAttack', '', 0, '2025-01-01T00:00:00.000Z', '', '',
    '2025-01-02T00:00:00.000Z', '2025-01-02T00:00:00.000Z')`).run(id, mapRef, playerRef, uuid(id, 'r'));
}

describe('migration 0010_world_record_holders', () => {
  it('finds the accounts stored only as a WR holder and takes their records out of the history, keeping every row', () => {
    db = new Database(':memory:');
    migrate(db, MIGRATIONS, 9);
    db.prepare("INSERT INTO watchlists (id, name, created_at) VALUES (1, 'L', '2025-01-01T00:00:00.000Z')").run();
    for (const m of [1, 2]) map(m);
    for (const p of [1, 2, 3, 4]) player(p);
    db.prepare("INSERT INTO watchlist_players (watchlist_id, player_ref, added_at) VALUES (1, 1, '2025-01-01T00:00:00.000Z')").run();
    // 1: watched and holds the WR of map 1; 2: only a holder (map 2); 3: a removed player's record on map 1, holder of
    // map 2; 4: a removed player's record, no WR.
    const wr = db.prepare("INSERT INTO world_records (map_ref, account_id, score, secret, read_at) VALUES (?, ?, 29000, 0, '2025-01-03T00:00:00.000Z')");
    wr.run(1, uuid(1, 'p'));
    wr.run(2, uuid(2, 'p'));
    record(1, 1, 1);
    record(2, 2, 2);
    record(3, 1, 3);
    record(4, 1, 4);
    migrate(db);
    expect(db.prepare('SELECT player_ref FROM world_record_holders').pluck().all()).toEqual([2]);
    expect(db.prepare('SELECT id, change FROM records ORDER BY id').all()).toEqual([
      { id: 1, change: 'first' }, { id: 2, change: null }, { id: 3, change: 'first' }, { id: 4, change: 'first' },
    ]);
    db.pragma('foreign_keys = ON');
    db.prepare('DELETE FROM players WHERE id = 2').run();
    expect(db.prepare('SELECT count(*) FROM world_record_holders').pluck().get()).toBe(0);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

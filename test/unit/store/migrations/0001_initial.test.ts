import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate, schemaVersion } from '../../../../src-main/core/store/migrate.ts';
import { describeSchema } from '../fixtures.ts';

let db: Database.Database;
afterEach(() => db?.close());

function atVersion(version: number): Database.Database {
  db = new Database(':memory:');
  db.pragma('foreign_keys = ON');
  migrate(db, MIGRATIONS, version);
  return db;
}

describe('migration 0001_initial', () => {
  it('takes an empty database (version 0) to schema 1 with every table the store uses', () => {
    atVersion(0);
    expect(schemaVersion(db)).toBe(0);
    expect(describeSchema(db).tables).toEqual({});

    expect(migrate(db, MIGRATIONS, 1)).toEqual({ from: 0, to: 1 });
    expect(schemaVersion(db)).toBe(1);
    const { tables, indexes } = describeSchema(db);
    expect(Object.keys(tables)).toEqual([
      'maps', 'players', 'record_history', 'records', 'replays', 'settings', 'sync_errors', 'sync_runs',
      'watchlist_maps', 'watchlist_players', 'watchlists',
    ]);
    // Every field of the seed's map info object, plus when we fetched it.
    expect(tables.maps).toEqual([
      'id', 'map_id', 'map_uid', 'name', 'author', 'submitter', 'author_score', 'gold_score', 'silver_score',
      'bronze_score', 'map_type', 'map_style', 'collection_name', 'filename', 'has_clones', 'is_playable',
      'created_with_gamepad_editor', 'created_with_simple_editor', 'timestamp', 'file_url', 'thumbnail_url', 'fetched_at',
    ]);
    expect(tables.records).toEqual(expect.arrayContaining([
      'map_ref', 'scope', 'player_ref', 'map_record_id', 'time', 'hidden', 'score', 'respawn_count', 'medal',
      'game_mode', 'game_mode_custom_data', 'removed', 'timestamp', 'url', 'filename',
    ]));
    expect(tables.record_history).toEqual(expect.arrayContaining([
      'old_time', 'new_time', 'old_score', 'new_score', 'record_timestamp', 'seen_at', 'sync_run_id',
    ]));
    expect(tables.replays).toEqual(expect.arrayContaining(['record_id', 'path', 'size', 'sha256', 'state', 'error', 'attempts']));
    expect(indexes).toEqual(expect.arrayContaining([
      'records_by_player', 'history_by_player', 'history_by_map', 'history_by_time', 'watchlist_maps_resolved',
    ]));
  });

  it('enforces its constraints: strict types, states, cascades', () => {
    atVersion(1);
    const insertList = db.prepare("INSERT INTO watchlists (name, created_at) VALUES (?, '2025-01-01')");
    insertList.run('Weekly');
    expect(() => insertList.run('WEEKLY')).toThrow(/UNIQUE/); // names are unique regardless of case
    expect(() =>
      db.prepare("INSERT INTO sync_runs (started_at, maps) VALUES ('x', 'many')").run(),
    ).toThrow(/cannot store TEXT value in INTEGER column/i);
    expect(() =>
      db.prepare("INSERT INTO replays (record_id, state, updated_at) VALUES ('r', 'lost', 'x')").run(),
    ).toThrow(/CHECK/);
    // A downloaded replay must say where it is and what it holds.
    expect(() =>
      db.prepare("INSERT INTO replays (record_id, state, updated_at) VALUES ('r', 'downloaded', 'x')").run(),
    ).toThrow(/CHECK/);
    // A membership is either resolved or pending, never both, never neither.
    expect(() =>
      db.prepare("INSERT INTO watchlist_maps (watchlist_id, added_at) VALUES (1, 'x')").run(),
    ).toThrow(/CHECK/);
    db.prepare("INSERT INTO watchlist_maps (watchlist_id, pending_uid, added_at) VALUES (1, 'abc', 'x')").run();
    db.prepare('DELETE FROM watchlists WHERE id = 1').run();
    expect(db.prepare('SELECT count(*) AS n FROM watchlist_maps').get()).toEqual({ n: 0 });
  });
});

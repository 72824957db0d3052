import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../../../../src-main/core/store/migrate.ts';

let db: Database.Database;
afterEach(() => db?.close());

describe('migration 0005_replay_policy', () => {
  it("gives every existing list the policy 'all' (what syncs did before) with best 3, and checks new values", () => {
    db = new Database(':memory:');
    migrate(db, MIGRATIONS, 4);
    db.prepare("INSERT INTO watchlists (name, created_at) VALUES ('Old', '2025-01-01T00:00:00.000Z')").run();
    migrate(db, MIGRATIONS, 5);
    expect(db.prepare('SELECT name, replay_policy, replay_best FROM watchlists').all()).toEqual([
      { name: 'Old', replay_policy: 'all', replay_best: 3 },
    ]);
    expect(() => db.prepare("UPDATE watchlists SET replay_policy = 'some'").run()).toThrow(/CHECK/);
    expect(() => db.prepare('UPDATE watchlists SET replay_best = 0').run()).toThrow(/CHECK/);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });
});

// Schema 5: each watchlist says which replays its syncs download (issue 9: replays scoped and planned). 'all' every
// watched player's (what every list did before), 'best' only "me" and the best `replay_best` of the list per map,
// 'none' none (fetched one at a time on demand). A list's first sync of a large list costs hours at 1 request/s.
import type { Database } from 'better-sqlite3';

export const version = 5;
export const name = 'replay_policy';

export function up(db: Database): void {
  db.exec(`
    ALTER TABLE watchlists ADD COLUMN replay_policy TEXT NOT NULL DEFAULT 'all'
      CHECK (replay_policy IN ('all', 'best', 'none'));
    ALTER TABLE watchlists ADD COLUMN replay_best INTEGER NOT NULL DEFAULT 3
      CHECK (replay_best BETWEEN 1 AND 100);
  `);
}

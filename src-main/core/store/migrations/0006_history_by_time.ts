// Schema 7: the history's time index holds the time itself, after the year and the row ID: keyed (year, row ID), a
// commit still appends to one page per year it touches (writes as cheap as schema 4's records_by_year), and the
// time beside each entry lets "the newest 50" and "one month" filter and sort the index's entries alone, then read
// only the rows they return (history.ts). A record version also keeps the respawn count it replaced, as it keeps
// the time and score: a Platform improvement is told by its respawns (docs/game-rules.md).
import type { Database } from 'better-sqlite3';

export const version = 6;
export const name = 'history_by_time';

export function up(db: Database): void {
  db.exec(`
    DROP INDEX records_by_year;
    CREATE INDEX records_history_by_time ON records(substr(timestamp, 1, 4), id, timestamp) WHERE change IS NOT NULL;
    ALTER TABLE records ADD COLUMN old_respawn_count INTEGER;
  `);
}

// Schema 9: each map's world record as the Live services' top route last gave it (issue 15 part 4), and a per-list
// setting "world record" (NULL: the default, on for lists of at most 100 maps, off above; docs/nadeo-api.md
// "Beyond the seed" for the route, "Top Secret" for the hidden WR).
import type { Database } from 'better-sqlite3';

export const version = 9;
export const name = 'world_records';

export function up(db: Database): void {
  db.exec(`
    ALTER TABLE watchlists ADD COLUMN world_record INTEGER CHECK (world_record IN (0, 1));

    CREATE TABLE world_records (
      map_ref INTEGER PRIMARY KEY REFERENCES maps(id) ON DELETE CASCADE,
      -- The holder, as the service named it (a UUID, lower case).
      account_id TEXT NOT NULL,
      -- The Live score (milliseconds, or Stunt points); NULL when a secret threshold hides it (the service's -1).
      score INTEGER CHECK (score >= 0),
      secret INTEGER NOT NULL CHECK (secret IN (0, 1)),
      -- When the holder set it (UTC ISO), when the service said.
      set_at TEXT,
      -- When the service was asked.
      read_at TEXT NOT NULL,
      -- The holder's Core record, when a sync's records request brought it (its replay is the WR's ghost).
      map_record_id TEXT,
      CHECK ((secret = 1) = (score IS NULL))
    ) STRICT;
    CREATE INDEX world_records_by_record ON world_records(map_record_id) WHERE map_record_id IS NOT NULL;
  `);
}

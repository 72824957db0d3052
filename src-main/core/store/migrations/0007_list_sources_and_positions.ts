// Schema 7: a list made from what players play (a seasonal campaign, a Track of the Day month, a club campaign, a
// Trackmania Exchange pack) remembers its source and the maps that source brought, and every watched personal best
// gets its world position (Live services, docs/nadeo-api.md "Beyond the seed").
import type { Database } from 'better-sqlite3';

export const version = 7;
export const name = 'list_sources_and_positions';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE list_sources (
      watchlist_id INTEGER PRIMARY KEY REFERENCES watchlists(id) ON DELETE CASCADE,
      -- The source as the player gave it, in its text form ('campaign:current', 'totd:2026-11', 'club:4242/1701').
      source TEXT NOT NULL,
      -- The same source pinned down ('campaign:Fall 2026'): what a later sync resolves again.
      pinned TEXT NOT NULL,
      -- What the list is, in the player's words ('Fall 2026', 'Track of the Day 2026-11').
      title TEXT NOT NULL,
      created_at TEXT NOT NULL,
      -- When the source was last resolved (at creation, then by each sync that read it).
      resolved_at TEXT NOT NULL
    ) STRICT;

    -- Every map UID the source brought into its list. A later resolve adds only UIDs not here, so a map the player
    -- removed from the list (here, and no longer in the list) stays removed.
    CREATE TABLE list_source_maps (
      watchlist_id INTEGER NOT NULL REFERENCES list_sources(watchlist_id) ON DELETE CASCADE,
      map_uid TEXT NOT NULL,
      added_at TEXT NOT NULL,
      PRIMARY KEY (watchlist_id, map_uid)
    ) STRICT, WITHOUT ROWID;

    -- The world position the service gave for a watched record's score, per map x player x scope.
    CREATE TABLE positions (
      map_ref INTEGER NOT NULL REFERENCES maps(id) ON DELETE CASCADE,
      player_ref INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
      -- 'PersonalBest' or a season ID, as in records.scope.
      scope TEXT NOT NULL,
      -- The score asked about (milliseconds, or Stunt points): a record with another score is asked about again.
      score INTEGER NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('ranked', 'limitedByOwnRecord', 'unavailable')),
      -- The world position, and every zone's as JSON [{zoneId, zoneName, position}], world first; when ranked only.
      position INTEGER,
      zones TEXT,
      -- The last ranked world position before this answer, for the change a sync reports.
      previous_position INTEGER,
      -- When the service was asked: its positions can lag hours behind.
      as_of TEXT NOT NULL,
      PRIMARY KEY (map_ref, player_ref, scope),
      CHECK ((state = 'ranked') = (position IS NOT NULL AND zones IS NOT NULL))
    ) STRICT, WITHOUT ROWID;
    CREATE INDEX positions_by_player ON positions(player_ref, scope);
  `);
}

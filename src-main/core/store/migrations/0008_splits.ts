// Schema 8: the checkpoint times read from each archived replay's ghost (issue 15 part 2, docs/gbx.md). Keyed by the
// record ID a replay is keyed by (replays.record_id = records.map_record_id): an improved PB is a new record ID with
// its own row here, and the old record rows history keeps find their own splits by theirs.
import type { Database } from 'better-sqlite3';

export const version = 8;
export const name = 'splits';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE splits (
      record_id TEXT PRIMARY KEY,
      -- 'read': the ghost's results below; 'unreadable': the file could not be read or held no run of the record.
      state TEXT NOT NULL CHECK (state IN ('read', 'unreadable')),
      -- The reader that read it (core/splits/read.ts SPLITS_READER_VERSION): a newer one retries what an older could not.
      reader_version INTEGER NOT NULL,
      -- The file read: another file under the same record ID (downloaded again) is read again.
      sha256 TEXT NOT NULL,
      -- Which ghost of the file is the record's (a replay holds several), as the reader picked it.
      ghost_index INTEGER,
      ghost_name TEXT,
      race_time INTEGER,
      respawns INTEGER,
      stunt_score INTEGER,
      -- JSON arrays, one entry per checkpoint (the finish last): cumulative ms and stunt scores, null where -1.
      checkpoints TEXT,
      stunt_scores TEXT,
      -- Lap count as the file's map says it (a replay holding the map); NULL when the file does not say.
      laps INTEGER,
      error_code TEXT,
      error TEXT,
      read_at TEXT NOT NULL,
      CHECK ((state = 'read') = (checkpoints IS NOT NULL AND stunt_scores IS NOT NULL)),
      CHECK ((state = 'unreadable') = (error IS NOT NULL))
    ) STRICT, WITHOUT ROWID;

    -- The first-start reading of replays archived before this schema: where it got to (record IDs in order), so a
    -- kill mid-way redoes at most one slice.
    CREATE TABLE splits_backfill (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      cursor TEXT NOT NULL,
      updated_at TEXT NOT NULL
    ) STRICT;
  `);
}

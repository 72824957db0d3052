// One better-sqlite3 connection with the settings every Trackwatch database runs under.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** How long a writer waits for another process (the CLI next to the app) before giving up with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;
/** WAL pages (4 KiB) between automatic checkpoints. */
export const WAL_CHECKPOINT_PAGES = 10_000;
export const CACHE_KIB = 64 * 1024;

export function openConnection(location: string, options: { readonly?: boolean; cacheKib?: number } = {}): Database.Database {
  const memory = location === ':memory:';
  if (!memory && !options.readonly) mkdirSync(dirname(location), { recursive: true });
  const db = new Database(location, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
    // Up to 64 MiB of page cache (allocated as used): the index pages a sync touches stay in memory.
    db.pragma(`cache_size = -${options.cacheKib ?? CACHE_KIB}`);
    if (!memory && !options.readonly) {
      // WAL: readers (the export, the CLI) never block the sync's writes; NORMAL is durable enough under WAL.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      // A sync commits once per map: checkpoint (two fsyncs) every ~40 MB of WAL, not every 4 MB; trim it after.
      db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
      db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

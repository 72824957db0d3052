// One better-sqlite3 connection with the settings every Trackwatch database runs under.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';

// better-sqlite3 reads this once, when its native part loads at the first open: file: URIs let a data folder on
// read-only media (a backup, a mounted image) be opened `immutable`, without the -shm file WAL needs.
process.env.SQLITE_USE_URI ??= '1';

/** How long a writer waits for another process (the CLI next to the app) before giving up with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;
/** WAL pages (4 KiB) between automatic checkpoints. */
export const WAL_CHECKPOINT_PAGES = 10_000;
export const CACHE_KIB = 64 * 1024;

export interface ConnectionOptions {
  readonly?: boolean;
  /**
   * The file cannot change while open and its folder cannot be written (read-only media): opened without locks or
   * a -shm file. Read-only.
   */
  immutable?: boolean;
  cacheKib?: number;
}

export function openConnection(location: string, options: ConnectionOptions = {}): Database.Database {
  const memory = location === ':memory:';
  const readonly = (options.readonly ?? false) || (options.immutable ?? false);
  if (!memory && !readonly) mkdirSync(dirname(location), { recursive: true });
  const target = options.immutable && !memory ? `${pathToFileURL(location).href}?immutable=1` : location;
  const db = new Database(target, { readonly, fileMustExist: readonly });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
    // Up to 64 MiB of page cache (allocated as used): the index pages a sync touches stay in memory.
    db.pragma(`cache_size = -${options.cacheKib ?? CACHE_KIB}`);
    if (!memory && !readonly) {
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

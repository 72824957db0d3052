// One better-sqlite3 connection with the settings every Trackwatch database runs under.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** How long a writer waits for another process (the CLI next to the app) before giving up with SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

export function openConnection(location: string, options: { readonly?: boolean } = {}): Database.Database {
  const memory = location === ':memory:';
  if (!memory && !options.readonly) mkdirSync(dirname(location), { recursive: true });
  const db = new Database(location, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('foreign_keys = ON');
    if (!memory && !options.readonly) {
      // WAL: readers (the export, the CLI) never block the sync's writes; NORMAL is durable enough under WAL.
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

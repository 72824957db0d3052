// A database whose tables are not the ones its schema version promises (a table dropped by hand, a version number
// changed by a database browser) would fail deep inside a query with "no such table": found at open instead, and
// told as a damaged database, left as it is.
import type { Database } from 'better-sqlite3';
import { openConnection } from './db.ts';
import { LocalFaultCode, LocalFaultError } from './errors.ts';
import { LATEST_SCHEMA_VERSION, migrate } from './migrate.ts';

interface SchemaObject {
  type: string;
  name: string;
}

const OBJECTS = "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index', 'trigger', 'view') AND name NOT LIKE 'sqlite_%'";

let latest: readonly SchemaObject[] | undefined;

/** The tables, indexes, triggers and views of the latest schema, as the migrations make them (once per process). */
function latestObjects(): readonly SchemaObject[] {
  if (!latest) {
    const db = openConnection(':memory:');
    try {
      migrate(db);
      latest = db.prepare(OBJECTS).all() as SchemaObject[];
    } finally {
      db.close();
    }
  }
  return latest;
}

function damaged(where: string, why: string, cause?: unknown): LocalFaultError {
  return new LocalFaultError(
    LocalFaultCode.DATABASE_DAMAGED,
    'SCHEMA',
    `the database in ${where} is damaged (${why}); it was left as it is. Restore it from a backup, or move it away and Trackwatch starts a new one.`,
    cause === undefined ? undefined : { cause },
  );
}

/** Throws DATABASE_DAMAGED when a database at the latest schema version lacks an object that version has. */
export function requireLatestObjects(db: Database, where: string): void {
  const found = new Set((db.prepare(OBJECTS).all() as SchemaObject[]).map((o) => `${o.type} ${o.name}`));
  const missing = latestObjects().map((o) => `${o.type} ${o.name}`).filter((o) => !found.has(o));
  if (missing.length > 0) {
    const shown = missing.slice(0, 3).join(', ') + (missing.length > 3 ? ` and ${missing.length - 3} more` : '');
    throw damaged(where, `schema ${LATEST_SCHEMA_VERSION} without its ${shown}`);
  }
}

/**
 * A migration that fails on SQL (a table or index its version number promises is not there) means the file is not
 * what its version says: a damaged database. Other errors (a full disk, a lock) are left to the caller.
 */
export function migrationFault(error: unknown, where: string, from: number): LocalFaultError | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (error instanceof Error && error.name === 'SqliteError' && code === 'SQLITE_ERROR') {
    return damaged(where, `its tables do not match schema ${from}: ${error.message}`, error);
  }
  return undefined;
}

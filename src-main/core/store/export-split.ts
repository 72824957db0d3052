// An export split across threads (export/csv-parallel.ts): what each thread needs to read its part of the same rows,
// and how their readers are made to see one snapshot.
import type { Database } from 'better-sqlite3';
import { openExportConnection, type ExportSource } from './export-cursor.ts';
import { IN_LIST } from './record-sql.ts';

/** An export's source for readers in other threads, and a watch on commits, read on a connection of the plan's own. */
export interface ExportPlan {
  /** What a worker thread opens its own reader with (structured-cloneable). */
  readonly source: ExportSource;
  /**
   * The export's current records, counted up to `limit` at most (an index walk that stops there): whether an export is
   * large enough to split, without counting a million rows before any is written.
   */
  rowsUpTo(limit: number): number;
  /** PRAGMA data_version on the plan's connection: changes whenever another connection commits (docs/sqlite-facts.md). */
  version(): number;
  close(): void;
}

export function planExport(source: ExportSource): ExportPlan {
  const watch: Database = openExportConnection(source);
  try {
    const sql = `SELECT count(*) FROM (SELECT 1 FROM records r WHERE r.current = 1 ${source.listId === undefined ? '' : `AND ${IN_LIST}`}
      LIMIT @limit)`;
    const count = watch.prepare<{ limit: number; list?: number }, number>(sql).pluck();
    return {
      source,
      rowsUpTo: (limit) => count.get(source.listId === undefined ? { limit } : { limit, list: source.listId })!,
      version: () => watch.pragma('data_version', { simple: true }) as number,
      close: () => watch.close(),
    };
  } catch (error) {
    watch.close();
    throw error;
  }
}

/** How often readers begin again when a commit fell between their snapshots, before the caller gives up splitting. */
export const SNAPSHOT_TRIES = 5;

/**
 * Starts read transactions on other connections (`begin`: each reads, which fixes a WAL reader's snapshot) so that
 * they all see one snapshot. `version` (ExportPlan.version) unchanged from before the first began to after the last
 * did means no commit fell between their snapshots: they are one. Otherwise `end` closes them and they begin again,
 * at most `tries` times; false when writes kept coming (the caller then reads through one connection).
 */
export async function beginOnOneSnapshot(version: () => number, begin: () => Promise<void>, end: () => Promise<void>, tries = SNAPSHOT_TRIES): Promise<boolean> {
  for (let attempt = 0; attempt < tries; attempt += 1) {
    const before = version();
    await begin();
    if (version() === before) return true;
    await end();
  }
  return false;
}

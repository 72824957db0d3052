// Schema versions live in SQLite's user_version; each migration is one numbered file (Signal Desktop's ts/sql).
import type { Database } from 'better-sqlite3';
import { DatabaseFromTheFutureError } from './errors.ts';
import * as m0001 from './migrations/0001_initial.ts';
import * as m0002 from './migrations/0002_record_versions.ts';
import * as m0003 from './migrations/0003_drop_record_id_index.ts';
import * as m0004 from './migrations/0004_history_by_year.ts';
import * as m0005 from './migrations/0005_replay_policy.ts';
import * as m0006 from './migrations/0006_history_by_time.ts';
import * as m0007 from './migrations/0007_list_sources_and_positions.ts';
import * as m0008 from './migrations/0008_splits.ts';
import * as m0009 from './migrations/0009_world_records.ts';
import * as m0010 from './migrations/0010_world_record_holders.ts';

export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database): void;
}

/** In order, numbered 1..N with no gaps. */
export const MIGRATIONS: readonly Migration[] = [m0001, m0002, m0003, m0004, m0005, m0006, m0007, m0008, m0009, m0010];

export const LATEST_SCHEMA_VERSION: number = MIGRATIONS.at(-1)?.version ?? 0;

export function schemaVersion(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export interface MigrateResult {
  from: number;
  to: number;
}

/**
 * Brings the database up to `target` (the latest by default): every pending step in one IMMEDIATE transaction, so a
 * failure leaves the old schema untouched and two processes opening the same folder cannot both migrate it.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS, target?: number): MigrateResult {
  checkNumbering(migrations);
  const known = migrations.at(-1)?.version ?? 0;
  const goal = target ?? known;
  if (goal > known || goal < 0) throw new RangeError(`no migration to schema ${goal} (known: 0..${known})`);

  const before = schemaVersion(db);
  if (before > known) throw new DatabaseFromTheFutureError(before, known);
  if (before >= goal) return { from: before, to: before };

  return db
    .transaction((): MigrateResult => {
      // Read again under the write lock: another process may have migrated while we waited for it.
      const from = schemaVersion(db);
      if (from > known) throw new DatabaseFromTheFutureError(from, known);
      for (const m of migrations) if (m.version > from && m.version <= goal) m.up(db);
      if (goal > from) db.pragma(`user_version = ${goal}`);
      return { from, to: Math.max(from, goal) };
    })
    .immediate();
}

function checkNumbering(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} is numbered ${m.version}, expected ${i + 1}`);
  });
}

// The store: one SQLite database in the data folder (better-sqlite3, WAL) behind repositories in the player's words.
import type { Database } from 'better-sqlite3';
import { dirname, resolve } from 'node:path';
import type { RepoContext } from './context.ts';
import { openConnection } from './db.ts';
import { sweepTempFiles } from '../atomic-file.ts';
import { LATEST_SCHEMA_VERSION, migrate, schemaVersion } from './migrate.ts';
import { migrationFault, requireLatestObjects } from './schema-check.ts';
import { DatabaseFromTheFutureError, LocalFaultCode, LocalFaultError } from './errors.ts';
import { MapsRepo } from './maps.ts';
import { PlayersRepo } from './players.ts';
import { PositionsRepo } from './positions.ts';
import { RecordsRepo } from './records.ts';
import { ReplaysRepo } from './replays.ts';
import { SettingsRepo } from './settings.ts';
import { SourcesRepo } from './sources.ts';
import { SplitsRepo } from './splits.ts';
import { SyncRunsRepo } from './sync-runs.ts';
import { WatchlistsRepo } from './watchlists.ts';
import { WorldRecordsRepo } from './world-records.ts';

export * from './types.ts';
export { StoreError, StoreErrorCode, DatabaseFromTheFutureError, LocalFaultError, LocalFaultCode, localFault } from './errors.ts';
export { LATEST_SCHEMA_VERSION, MIGRATIONS, migrate, schemaVersion } from './migrate.ts';
export { PERSONAL_BEST } from './ids.ts';
export { DEFAULT_REPLAY_POLICY, REPLAY_BEST_MAX, REPLAY_POLICY_MODES, WATCHLIST_NAME_MAX, replayPolicy, watchlistName, type ReplayPolicy } from './watchlists.ts';
export { NICKNAME_MAX, playerName } from './players.ts';
export { MAX_REPLAY_ATTEMPTS, isGivenUp, replayPath, type ReplayRecordRef } from './replays.ts';
export type { ExportCursor, ExportMap, ExportSource, ExportTuple, MapRange } from './export-cursor.ts';
export { beginOnOneSnapshot, SNAPSHOT_TRIES, type ExportPlan } from './export-split.ts';
export { assertSafeRelativePath, resolveInDataDir } from './files.ts';
export type { SettingValue } from './settings.ts';
export type { SplitsEntry, SplitsExportRow, SplitsWrite, UnreadReplay } from './splits.ts';
export { SOURCE_TEXT_MAX, type ListSourceInput, type StoredListSource } from './sources.ts';
export type { DuePosition, PositionAnswer, PositionChange, PositionState, StoredPosition, ZoneRank } from './positions.ts';
export { WORLD_RECORD_DEFAULT_MAX_MAPS, type StoredWorldRecord, type WorldRecordAnswer, type WorldRecordSetting } from './world-records.ts';
export type { MapsRepo, PlayersRepo, PositionsRepo, RecordsRepo, ReplaysRepo, SettingsRepo, SourcesRepo, SplitsRepo, SyncRunsRepo, WatchlistsRepo, WorldRecordsRepo };

interface CommonOptions {
  /** The clock, for tests; defaults to the system's. */
  now?: () => Date;
}

export type OpenStoreOptions =
  | ({
      file: string;
      /** Defaults to the database file's folder. */
      dataDir?: string;
      /**
       * A data folder on read-only media: the database is read as it is (no migration, no clean-up), and every
       * write fails with a READ_ONLY local fault saying why.
       */
      readOnlyMedia?: boolean;
    } & CommonOptions)
  | ({ memory: true } & CommonOptions);

export interface Store {
  /** The database file, or null for an in-memory store. */
  readonly file: string | null;
  /** The data folder replays are relative to, or null for an in-memory store. */
  readonly dataDir: string | null;
  readonly schemaVersion: number;
  readonly watchlists: WatchlistsRepo;
  readonly maps: MapsRepo;
  readonly players: PlayersRepo;
  readonly records: RecordsRepo;
  readonly replays: ReplaysRepo;
  readonly syncRuns: SyncRunsRepo;
  readonly settings: SettingsRepo;
  /** Lists made from a campaign, a Track of the Day month, a club campaign or an Exchange pack. */
  readonly sources: SourcesRepo;
  /** World positions of watched records. */
  readonly positions: PositionsRepo;
  /** Each map's world record (Live top route) and the per-list setting that asks for it. */
  readonly worldRecords: WorldRecordsRepo;
  /** Checkpoint times read from the downloaded replays (schema 8). */
  readonly splits: SplitsRepo;
  /**
   * Runs `work` in one IMMEDIATE transaction; repository writes inside it join it (as savepoints). For writing
   * several maps' records at once: fetch first, then write. `work` must not await.
   */
  transaction<T>(work: () => T): T;
  /** The raw connection, for tests and benchmarks; the repositories are the API. */
  readonly db: Database;
  close(): void;
}

/**
 * Opens (creating if needed) and migrates the database; on a file, also clears temp files a crash left behind.
 * Throws DatabaseFromTheFutureError when a newer Trackwatch wrote the folder.
 */
export function openStore(options: OpenStoreOptions): Store {
  const file = 'file' in options ? resolve(options.file) : null;
  const dataDir = 'file' in options ? resolve(options.dataDir ?? dirname(options.file)) : null;
  const readOnlyMedia = 'file' in options && options.readOnlyMedia === true;
  const db = openConnection(file ?? ':memory:', { immutable: readOnlyMedia });
  const where = dataDir === null ? 'memory' : `the data folder ${dataDir}`;
  try {
    if (readOnlyMedia) requireCurrentSchema(db, dataDir!);
    else {
      const from = schemaVersion(db);
      try {
        migrate(db);
      } catch (error) {
        throw migrationFault(error, where, from) ?? error;
      }
    }
    requireLatestObjects(db, where);
  } catch (error) {
    db.close();
    throw error;
  }
  if (dataDir && !readOnlyMedia) sweepTempFiles(dataDir);

  const clock = options.now ?? (() => new Date());
  const ctx: RepoContext = { db, now: () => clock().toISOString() };
  const watchlists = new WatchlistsRepo(ctx);
  const syncRuns = new SyncRunsRepo(ctx, watchlists);
  const maps = new MapsRepo(ctx, watchlists);
  const players = new PlayersRepo(ctx, watchlists);
  // The export reads through connections of its own (store/export-cursor.ts openExportConnection).
  const records = new RecordsRepo(ctx, watchlists, maps, players, file ? { file, immutable: readOnlyMedia } : undefined);
  const replays = new ReplaysRepo(ctx, watchlists);
  const settings = new SettingsRepo(ctx);
  const sources = new SourcesRepo(ctx, watchlists);
  const positions = new PositionsRepo(ctx, watchlists);
  const worldRecords = new WorldRecordsRepo(ctx, watchlists);
  const splits = new SplitsRepo(ctx, watchlists);

  return {
    file,
    dataDir,
    schemaVersion: schemaVersion(db),
    watchlists,
    maps,
    players,
    records,
    replays,
    syncRuns,
    settings,
    sources,
    positions,
    worldRecords,
    splits,
    transaction: <T>(work: () => T): T => {
      try {
        return db.transaction(work).immediate();
      } catch (error) {
        players.forgetCachedRefs();
        throw error;
      }
    },
    db,
    close: () => {
      if (db.open) db.close();
    },
  };
}


/** A database that cannot be migrated (read-only media) is used only when it needs no migration. */
function requireCurrentSchema(db: Database, dataDir: string): void {
  const found = schemaVersion(db);
  if (found > LATEST_SCHEMA_VERSION) throw new DatabaseFromTheFutureError(found, LATEST_SCHEMA_VERSION);
  if (found < LATEST_SCHEMA_VERSION) {
    throw new LocalFaultError(
      LocalFaultCode.READ_ONLY,
      'EROFS',
      `the data folder ${dataDir} is read-only and was written by an older Trackwatch (schema ${found}, this one reads ${LATEST_SCHEMA_VERSION}); ` +
        'copy it to a writable place and open it there once to upgrade it.',
    );
  }
}

// The IPC contract, declared once: the shell, the bridge, the service and the renderer all derive from it.
export * from './names.ts';
export * from './commands.ts';
export * from './events.ts';
export * from './result.ts';
export * as schemas from './schemas.ts';
// The game's shapes are declared once, by the shared rules; the schemas are held to them.
export type { Delta, MapKind, MedalScores, RecordResult } from '../shared/leaderboard.ts';

import type { z } from 'zod';
import type * as s from './schemas.ts';
import type { CommandName, EventName } from './names.ts';
import type { CommandInput, CommandOutput } from './commands.ts';
import type { EventPayload } from './events.ts';

/** What the renderer holds: one interface, two transports (the preload's IPC, the HTTP bridge). */
export interface Api {
  /** Resolves with the command's output; rejects with an ApiError carrying the error value. */
  invoke<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>>;
  /** Returns the function that stops listening. */
  on<E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/** What the preload exposes as `window.trackwatch`: results as values, nothing of Electron. */
export interface PreloadBridge {
  invoke(name: string, input: unknown): Promise<unknown>;
  on(name: string, listener: (payload: unknown) => void): () => void;
}

export type AppInfo = z.output<typeof s.AppInfo>;
export type Capabilities = z.output<typeof s.Capabilities>;
export type AccountInfo = z.output<typeof s.AccountInfo>;
export type Credentials = z.output<typeof s.Credentials>;
export type LoginTest = z.output<typeof s.LoginTest>;
export type Settings = z.output<typeof s.Settings>;
export type SettingsUpdate = z.input<typeof s.SettingsUpdate>;
export type Theme = z.output<typeof s.Theme>;
export type WatchlistSummary = z.output<typeof s.WatchlistSummary>;
export type WatchlistDetail = z.output<typeof s.WatchlistDetail>;
export type MapSummary = z.output<typeof s.MapSummary>;
export type MedalProgress = z.output<typeof s.MedalProgress>;
export type PlayerSummary = z.output<typeof s.PlayerSummary>;
export type AddMapsResult = z.output<typeof s.AddMapsResult>;
export type AddPlayersResult = z.output<typeof s.AddPlayersResult>;
export type RankedEntry = z.output<typeof s.RankedEntry>;
export type WorldPosition = z.output<typeof s.WorldPosition>;
export type ListFromSourceResult = z.output<typeof s.ListFromSourceResult>;
export type MapDetail = z.output<typeof s.MapDetail>;
export type CompareCell = z.output<typeof s.CompareCell>;
export type CompareRow = z.output<typeof s.CompareRow>;
export type CompareTable = z.output<typeof s.CompareTable>;
export type PlayerPb = z.output<typeof s.PlayerPb>;
export type ReplayPolicy = z.output<typeof s.ReplayPolicy>;
export type WorldRecordSetting = z.output<typeof s.WorldRecordSetting>;
export type SyncPlan = z.output<typeof s.SyncPlan>;
export type Improvement = z.output<typeof s.Improvement>;
export type PlayerDetail = z.output<typeof s.PlayerDetail>;
export type ReplayInfo = z.output<typeof s.ReplayInfo>;
export type ReplayList = z.output<typeof s.ReplayList>;
export type SyncProgress = z.output<typeof s.SyncProgress>;
export type SyncFinished = z.output<typeof s.SyncFinished>;
export type LastSync = z.output<typeof s.LastSync>;
export type SyncStatus = z.output<typeof s.SyncStatus>;
export type NewPersonalBest = z.output<typeof s.NewPersonalBest>;
export type ConnectionStatus = z.output<typeof s.ConnectionStatus>;
export type ExportResult = z.output<typeof s.ExportResult>;
export type SplitsQuery = z.input<typeof s.SplitsQuery>;
export type SplitsRun = z.output<typeof s.SplitsRun>;
export type SplitsWorldRecord = z.output<typeof s.SplitsWorldRecord>;
export type SplitsView = z.output<typeof s.SplitsView>;
export type SplitsList = z.output<typeof s.SplitsList>;
export type SplitsListRow = z.output<typeof s.SplitsListRow>;
export type SplitsHistory = z.output<typeof s.SplitsHistory>;
export type SplitsBackfillProgress = z.output<typeof s.SplitsBackfillProgress>;
export type LoseMostAt = z.output<typeof s.LoseMostAt>;

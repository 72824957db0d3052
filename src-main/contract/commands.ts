// Every command the renderer may send: its input (parsed in main, the renderer is untrusted) and its output.
import { z } from 'zod';
import type { CommandName } from './names.ts';
import * as s from './schemas.ts';

const ok = z.object({ done: z.literal(true) });

export const commands = {
  'app.info': { input: s.Empty, output: s.AppInfo },
  'setup.startDemo': { input: s.Empty, output: s.AppInfo },
  'setup.connect': { input: s.Credentials, output: s.AppInfo },
  /** Back to the real data folder and the saved account (the demo's data goes). */
  'setup.leaveDemo': { input: s.Empty, output: s.AppInfo },
  /** In the demo: syncs the demo list, lets time pass (some players improve), syncs again, as `trackwatch demo` does. */
  'demo.tour': { input: s.Empty, output: z.object({ runId: z.string() }) },
  'account.get': { input: s.Empty, output: s.AccountInfo },
  'account.save': { input: s.AccountSave, output: s.AccountInfo },
  'account.forget': { input: s.Empty, output: s.AccountInfo },
  /** Without credentials: tests the stored ones. */
  'account.testLogin': { input: z.object({ credentials: s.Credentials.optional() }).strict(), output: s.LoginTest },
  'settings.get': { input: s.Empty, output: s.Settings },
  'settings.update': { input: s.SettingsUpdate, output: s.Settings },
  'watchlists.list': { input: s.Empty, output: z.array(s.WatchlistSummary) },
  'watchlists.get': { input: z.object({ list: s.WatchlistName }), output: s.WatchlistDetail },
  'watchlists.create': { input: z.object({ name: s.WatchlistName }), output: s.WatchlistSummary },
  /** A new list from a campaign, a Track of the Day month, a club campaign or an Exchange pack; later syncs add what appears. */
  'watchlists.createFromSource': { input: s.CreateListFromSource, output: s.ListFromSourceResult },
  /** The seasonal campaigns the Live services list, newest first (one request), for "New list from…". */
  'sources.campaigns': { input: s.Empty, output: s.SeasonalCampaigns },
  'watchlists.rename': { input: z.object({ list: s.WatchlistName, name: s.WatchlistName }), output: s.WatchlistSummary },
  'watchlists.delete': { input: z.object({ list: s.WatchlistName }), output: ok },
  'watchlists.addMaps': { input: s.AddMaps, output: s.AddMapsResult },
  'watchlists.removeMaps': { input: z.object({ list: s.WatchlistName, mapUids: z.array(s.MapUid).min(1).max(5000) }), output: ok },
  'watchlists.addPlayers': { input: s.AddPlayers, output: s.AddPlayersResult },
  'watchlists.removePlayers': {
    input: z.object({ list: s.WatchlistName, accountIds: z.array(s.AccountIdInput).min(1).max(1000) }),
    output: ok,
  },
  /** Account IDs of display names (the OAuth app of Settings); one request per 50 names. */
  'players.findByName': { input: s.FindPlayers, output: s.FoundPlayers },
  'players.setNickname': { input: z.object({ accountId: s.AccountIdInput, nickname: s.Nickname.nullable() }), output: ok },
  'maps.get': { input: z.object({ list: s.WatchlistName, mapUid: s.MapUid }), output: s.MapDetail },
  'maps.thumbnail': { input: z.object({ mapUid: s.MapUid }), output: s.Thumbnail },
  'compare.get': { input: s.CompareQuery, output: s.CompareTable },
  'players.get': { input: z.object({ list: s.WatchlistName, accountId: s.AccountIdInput }), output: s.PlayerDetail },
  'replays.list': { input: z.object({ list: s.WatchlistName.optional() }), output: s.ReplayList },
  'replays.showInFolder': { input: s.ReplayRef, output: ok },
  'replays.copyToGame': { input: s.ReplayRef, output: z.object({ file: z.string() }) },
  'replays.openFolder': { input: s.Empty, output: ok },
  /** Gives the replays syncs stopped asking for (failed too often) their tries back; the next sync downloads them. */
  'replays.retryFailed': { input: s.Empty, output: z.object({ retried: z.number().int() }) },
  /** Downloads one replay now (a list whose policy leaves it out). */
  'replays.fetch': { input: s.ReplayRef, output: s.FetchedReplay },
  'replays.policy': { input: z.object({ list: s.WatchlistName }), output: s.ReplayPolicy },
  'replays.setPolicy': { input: z.object({ list: s.WatchlistName, policy: s.ReplayPolicy.partial() }), output: s.ReplayPolicy },
  /** What a sync would ask of the service, before it starts. */
  'sync.plan': { input: s.SyncStart, output: s.SyncPlan },
  'sync.start': { input: s.SyncStart, output: z.object({ runId: z.string() }) },
  'sync.cancel': { input: s.Empty, output: z.object({ cancelled: z.boolean() }) },
  'sync.status': { input: s.Empty, output: s.SyncStatus },
  /** The map page's splits: every watched player's checkpoint times read from their replays (as `splits --json`). */
  'splits.forMap': { input: s.SplitsQuery, output: s.SplitsView },
  /** Per map of a list: where I lose most and the ideal run's gain; the list's totals. */
  'splits.forList': { input: s.SplitsListQuery, output: s.SplitsList },
  /** A player's PB improvements on a map with each one's splits. */
  'splits.history': { input: s.SplitsHistoryQuery, output: s.SplitsHistory },
  'export.csv': { input: s.ExportCsv, output: s.ExportResult },
  'app.openDataFolder': { input: s.Empty, output: ok },
} as const satisfies Record<CommandName, { input: z.ZodType; output: z.ZodType }>;

export type Commands = typeof commands;
export type CommandInput<N extends CommandName> = z.input<Commands[N]['input']>;
export type ParsedInput<N extends CommandName> = z.output<Commands[N]['input']>;
export type CommandOutput<N extends CommandName> = z.output<Commands[N]['output']>;

/** One function per command: a missing handler does not compile. */
export type Handlers = { [N in CommandName]: (input: ParsedInput<N>) => Promise<CommandOutput<N>> };

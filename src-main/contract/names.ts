// The contract's names with no zod attached: the sandboxed preload imports only this file, so it stays tiny.
// commands.ts and events.ts are checked against these lists at compile time (a missing or extra name fails).

export const COMMAND_NAMES = [
  'app.info',
  'setup.startDemo',
  'setup.connect',
  'setup.leaveDemo',
  'demo.tour',
  'account.get',
  'account.save',
  'account.forget',
  'account.testLogin',
  'settings.get',
  'settings.update',
  'watchlists.list',
  'watchlists.get',
  'watchlists.create',
  'watchlists.createFromSource',
  'sources.campaigns',
  'watchlists.rename',
  'watchlists.delete',
  'watchlists.addMaps',
  'watchlists.removeMaps',
  'watchlists.addPlayers',
  'watchlists.removePlayers',
  'players.findByName',
  'players.setNickname',
  'maps.get',
  'maps.thumbnail',
  'compare.get',
  'players.get',
  'replays.list',
  'replays.showInFolder',
  'replays.copyToGame',
  'replays.openFolder',
  'replays.retryFailed',
  'replays.fetch',
  'replays.policy',
  'replays.setPolicy',
  'sync.plan',
  'sync.start',
  'sync.cancel',
  'sync.status',
  'splits.forMap',
  'splits.forList',
  'splits.history',
  'export.csv',
  'app.openDataFolder',
] as const;

export const EVENT_NAMES = ['sync.progress', 'sync.finished', 'pb.new', 'status.changed', 'splits.backfill'] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

const commandSet: ReadonlySet<string> = new Set(COMMAND_NAMES);
const eventSet: ReadonlySet<string> = new Set(EVENT_NAMES);

export function isCommandName(name: unknown): name is CommandName {
  return typeof name === 'string' && commandSet.has(name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && eventSet.has(name);
}

/** The IPC channels the preload and main agree on; nothing else crosses. */
export const IPC_INVOKE_CHANNEL = 'trackwatch:invoke';
export const IPC_EVENT_CHANNEL = 'trackwatch:event';

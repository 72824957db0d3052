// Watchlists: lists of maps and players, and the nicknames players give each other.
import { parseSourceLink } from '../../core/nadeo/index.ts';
import { isUuid } from '../../shared/ids.ts';
import { NamesUnavailableError } from '../../core/player-refs.ts';
import type { WatchlistSummary } from '../../core/store/index.ts';
import { ServiceError, toErrorValue } from '../errors.ts';
import * as views from '../views.ts';
import { done, writes, type HandlerContext, type SomeHandlers } from './context.ts';

type ListCommands = 'watchlists.list' | 'watchlists.get' | 'watchlists.create' | 'watchlists.createFromSource' | 'sources.campaigns'
  | 'watchlists.rename' | 'watchlists.delete'
  | 'watchlists.addMaps' | 'watchlists.removeMaps' | 'watchlists.addPlayers' | 'watchlists.removePlayers' | 'players.findByName'
  | 'players.setNickname' | 'watchlists.worldRecord' | 'watchlists.setWorldRecord';

/**
 * A pasted link that is not a map, said in the window's words: the core's reason names the command line's
 * ("lists create --from", "players add"), which the window has buttons for instead.
 */
export function inWindowWords(invalid: readonly { input: string; reason: string }[]): { input: string; reason: string }[] {
  return invalid.map((item) => {
    const link = parseSourceLink(item.input);
    if (link?.kind === 'club-campaign') {
      return { input: item.input, reason: 'this club campaign link is a whole list of maps: make a list from it with “New list from…” on the home page' };
    }
    if (link?.kind === 'player') return { input: item.input, reason: 'this is a player link, not a map: add the player with “Add players”' };
    return item;
  });
}

export function listHandlers({ service, tw, store, me, requireList }: HandlerContext): SomeHandlers<ListCommands> {
  const summaryOf = (list: WatchlistSummary) => views.watchlistSummary(list, store().syncRuns.stateOf(list.id));

  return {
    'watchlists.list': async () => store().watchlists.list().map(summaryOf),

    'watchlists.worldRecord': async ({ list }) => store().worldRecords.setting(requireList(list).name),

    'watchlists.setWorldRecord': writes(service, async ({ list, on }) => store().worldRecords.setSetting(requireList(list).name, on)),

    'watchlists.get': async ({ list }) => {
      const summary = store().watchlists.get(list);
      if (!summary) throw new ServiceError('not_found', `There is no list named "${list}".`);
      const players = store().players;
      const authorName = (id: string) => players.get(id)?.displayName ?? null;
      const checked = store().syncRuns.mapsCheckedAt(summary.id);
      return {
        summary: summaryOf(summary),
        maps: store().maps.list(list).map((m) => ({ ...views.mapSummary(m, authorName(m.author)), lastCheckedAt: checked.get(m.mapId) ?? null })),
        players: players.list(list).map((p) => views.playerSummary(p, me())),
      };
    },

    'watchlists.create': writes(service, async ({ name }) => {
      const created = store().watchlists.create(name);
      return summaryOf(store().watchlists.get(created.id)!);
    }),

    'watchlists.createFromSource': writes(service, async ({ source, name }, call) => {
      const made = await tw().createListFromSource(source, { name, signal: call?.signal });
      return {
        list: summaryOf(store().watchlists.get(made.list)!),
        title: made.title,
        source: made.source,
        pinned: made.pinned,
        added: made.added.length,
        notFound: made.notFound.length,
        notes: made.notes,
      };
    }),

    'sources.campaigns': async () => ({ names: (await tw().live.getSeasonalCampaigns({ offset: 0, length: 12 })).campaigns.map((c) => c.name) }),

    'watchlists.rename': writes(service, async ({ list, name }) => {
      const renamed = store().watchlists.rename(list, name);
      return summaryOf(store().watchlists.get(renamed.id)!);
    }),

    'watchlists.delete': writes(service, async ({ list }) => {
      store().watchlists.delete(list);
      return done;
    }),

    'watchlists.addMaps': writes(service, async ({ list, refs }) => {
      requireList(list);
      try {
        const outcome = await tw().addMaps(list, refs);
        return { added: outcome.added, alreadyListed: outcome.alreadyListed, pending: [], notFound: outcome.notFound, invalid: inWindowWords(outcome.invalid) };
      } catch (error) {
        const value = toErrorValue(error);
        if (value.code !== 'offline' && value.code !== 'not_configured' && value.code !== 'auth_failed') throw error;
        // Offline (or no account yet): keep them as pending refs; the next sync looks them up.
        if (value.code === 'offline') service.connection.markOffline(value.message);
        const outcome = await tw().addMaps(list, refs, { lookUp: false });
        return { added: [], alreadyListed: outcome.alreadyListed, pending: outcome.added, notFound: [], invalid: inWindowWords(outcome.invalid) };
      }
    }),

    'watchlists.removeMaps': writes(service, async ({ list, mapUids }) => {
      store().maps.removeFromList(list, mapUids.map((ref) => (isUuid(ref) ? { mapId: ref } : { mapUid: ref })));
      return done;
    }),

    'watchlists.addPlayers': writes(service, async ({ list, players }) => {
      requireList(list);
      const outcome = store().players.add(list, players);
      return { added: outcome.added, alreadyListed: outcome.alreadyListed, invalid: outcome.invalid, nicknamesKept: outcome.nicknamesKept };
    }),

    'watchlists.removePlayers': writes(service, async ({ list, accountIds }) => {
      store().players.remove(list, accountIds);
      return done;
    }),

    'players.findByName': async ({ names }) => {
      // Names only: an ID or a link typed here is the dialog's to read, and is not sent.
      const resolved = await tw().resolvePlayers(names.filter((n) => !isUuid(n) && parseSourceLink(n) === null)).catch((error: unknown) => {
        if (error instanceof NamesUnavailableError) {
          throw new ServiceError('not_configured', 'Finding players by display name needs a Trackmania OAuth app (the one for display names): set it up in Settings (Display names), or paste account IDs or trackmania.io player links.');
        }
        throw error;
      });
      return {
        found: resolved.players.flatMap((p) => (p.foundByName ? [{ name: p.foundByName, accountId: p.accountId }] : [])),
        unknown: resolved.unknown,
        ambiguous: resolved.ambiguous,
        invalid: resolved.invalid.map((i) => ({ name: i.input, reason: i.reason })),
      };
    },

    'players.setNickname': writes(service, async ({ accountId, nickname }) => {
      store().players.setNickname(accountId, nickname);
      return done;
    }),
  };
}

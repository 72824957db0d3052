// `maps`, `players` and `lists`: what a player watches.
import type { Command } from 'commander';
import { formatMedalScore, kindLabel, mapKind } from '../../shared/leaderboard.ts';
import { LIST_SOURCE_FORMS } from '../../core/nadeo/index.ts';
import { NamesUnavailableError } from '../../core/player-refs.ts';
import { parseMapRefs } from '../../core/refs.ts';
import type { StoredMap } from '../../core/store/index.ts';
import { lastSyncWords } from '../../shared/sync-words.ts';
import { syncErrorFor } from '../../service/sync-outcome.ts';
import { DEFAULT_LIST, withTrackwatch } from '../context.ts';
import { UserError } from '../errors.ts';
import { colours, line, plainName, printJson, table } from '../output.ts';
import { resolvePlayer } from '../players.ts';
import { localDateTime, plural } from '../words.ts';

interface ListFlag {
  list?: string;
  json?: boolean;
}

/** A map's kind as players name it (the shared rule). */
function kindOf(map: StoredMap): string {
  return kindLabel(mapKind(map), map.mapType);
}

/** A medal's score in the map's unit: a time on Race maps, points on Stunt, at most so many respawns on Platform. */
function medalScore(map: StoredMap, score: number): string {
  return formatMedalScore(mapKind(map), score);
}

export function registerWatchlistCommands(program: Command): void {
  const maps = program.command('maps').description('the maps you watch');
  maps
    .command('add')
    .description('add maps by UID, map ID, trackmania.io link, or Trackmania Exchange map or map pack link (many at once)')
    .argument('<ref...>', 'map UIDs, map IDs or links (an Exchange pack link adds the whole pack)')
    .option('--list <name>', 'watchlist to add to', DEFAULT_LIST)
    .option('--offline', 'do not look the maps up now; the next sync will')
    .action(async (refs: string[], flags: ListFlag & { offline?: boolean }, command: Command) => {
      await withTrackwatch(command, async (tw, signal) => {
        const list = flags.list ?? DEFAULT_LIST;
        const result = await tw.addMaps(list, refs, { signal, lookUp: !flags.offline });
        if (result.added.length) line(`added ${plural(result.added.length, 'map')} to "${list}"`);
        if (result.alreadyListed.length) line(`already in "${list}": ${result.alreadyListed.join(', ')}`);
        for (const ref of result.notFound) line(colours.yellow(`not found on the service: ${ref}`));
        for (const bad of result.invalid) line(colours.yellow(`not a map: "${bad.input}": ${bad.reason}`));
        if (result.added.length === 0 && result.alreadyListed.length === 0) {
          throw new UserError('no map was added; check the refs above.');
        }
      });
    });
  maps
    .command('remove')
    .description('take maps out of a watchlist (their records stay stored)')
    .argument('<ref...>', 'map UIDs, map IDs or links')
    .option('--list <name>', 'watchlist', DEFAULT_LIST)
    .action(async (refs: string[], flags: ListFlag, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const parsed = parseMapRefs(refs);
        const bad = parsed.find((r) => r.kind === 'invalid');
        if (bad && bad.kind === 'invalid') throw new UserError(`"${bad.input}" is not a map: ${bad.reason}`);
        const removed = tw.store.maps.removeFromList(
          flags.list ?? DEFAULT_LIST,
          parsed.map((r) => (r.kind === 'uid' ? { mapUid: r.uid } : r.kind === 'id' ? { mapId: r.id } : {})),
        );
        line(`removed ${plural(removed, 'map')} from "${flags.list ?? DEFAULT_LIST}"`);
      });
    });
  maps
    .command('list')
    .description('the maps of a watchlist (or every stored map)')
    .option('--list <name>', 'watchlist (default: every stored map)')
    .option('--json', 'machine-readable output')
    .action(async (flags: ListFlag, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const stored = tw.store.maps.list(flags.list);
        const pending = flags.list ? tw.store.maps.refs(flags.list).filter((r) => !r.resolved) : [];
        if (flags.json) return printJson({ maps: stored, pending });
        line(table(
          ['map', 'uid', 'kind', 'author', 'gold', 'silver', 'bronze'],
          stored.map((m) => [plainName(m.name), m.mapUid, kindOf(m), ...[m.authorScore, m.goldScore, m.silverScore, m.bronzeScore].map((score) => medalScore(m, score))]),
        ));
        for (const ref of pending) {
          line(colours.dim(`pending: ${ref.mapUid ?? ref.mapId}${ref.notFoundAt ? ' (not found on the service)' : ' (looked up at the next sync)'}`));
        }
      });
    });

  const players = program.command('players').description('the players you watch');
  players
    .command('add')
    .description('add players by account ID, trackmania.io player link or display name; a player already watched keeps the nickname you gave them')
    .argument('<player...>', 'account IDs, trackmania.io player links (trackmania.io/#/player/<accountId>) or display names (needs the OAuth app)')
    .option('--name <nickname>', 'your name for them (with several players, the same for all)')
    .option('--list <name>', 'watchlist to add to', DEFAULT_LIST)
    .option('--me', 'this account is you: comparisons show deltas to it')
    .action(async (given: string[], flags: ListFlag & { name?: string; me?: boolean }, command: Command) => {
      await withTrackwatch(command, async (tw, signal) => {
        const list = flags.list ?? DEFAULT_LIST;
        if (flags.me && given.length !== 1) throw new UserError('--me takes exactly one player.');
        const resolved = await tw.resolvePlayers(given, { signal }).catch((error: unknown) => {
          if (error instanceof NamesUnavailableError) {
            throw new UserError(`${error.message} For the command line: set TRACKWATCH_OAUTH_CLIENT_ID and TRACKWATCH_OAUTH_CLIENT_SECRET (an app registered on api.trackmania.com).`);
          }
          throw error;
        });
        for (const name of resolved.unknown) line(colours.yellow(`no player named "${plainName(name)}" on Trackmania (check the spelling; display names are matched whole)`));
        for (const a of resolved.ambiguous) {
          line(colours.yellow(`"${plainName(a.name)}" is the display name of ${a.accountIds.length} accounts (${a.accountIds.join(', ')}); add the one you mean by its account ID`));
        }
        for (const bad of resolved.invalid) line(colours.yellow(`not added: "${plainName(bad.input)}": ${bad.reason}`));
        for (const p of resolved.players) if (p.foundByName) line(colours.dim(`${plainName(p.foundByName)} is ${p.accountId}`));
        if (!tw.store.watchlists.get(list)) tw.store.watchlists.create(list);
        const result = tw.store.players.add(list, resolved.players.map((p) => ({ accountId: p.accountId, nickname: flags.name })));
        if (result.added.length) line(`added ${plural(result.added.length, 'player')} to "${list}"`);
        if (result.alreadyListed.length) line(`already in "${list}": ${result.alreadyListed.join(', ')}`);
        for (const kept of result.nicknamesKept) {
          line(colours.yellow(`${kept.accountId} keeps the nickname "${kept.kept}" (not "${kept.given}"); to change it: trackwatch players rename ${kept.accountId} "${kept.given}"`));
        }
        for (const bad of result.invalid) line(colours.yellow(`not added: ${bad.accountId}: ${bad.reason}`));
        if (flags.me && resolved.players.length === 1 && result.invalid.length === 0) {
          tw.setMe(resolved.players[0]!.accountId);
          line('marked as you');
        }
        if (result.added.length === 0 && result.alreadyListed.length === 0) throw new UserError('no player was added.');
      });
    });
  players
    .command('rename')
    .description('change (or with "" clear) your nickname for a player')
    .argument('<player>', 'account ID, nickname or display name')
    .argument('<nickname>')
    .action(async (who: string, nickname: string, _flags: unknown, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const accountId = resolvePlayer(tw, who, '<player>');
        tw.store.players.setNickname(accountId, nickname);
        line(nickname.trim() ? `${accountId} is now "${nickname.trim()}"` : `${accountId} has no nickname now`);
      });
    });
  players
    .command('remove')
    .description('take players out of a watchlist (their records stay stored)')
    .argument('<player...>', 'account IDs, nicknames or display names')
    .option('--list <name>', 'watchlist', DEFAULT_LIST)
    .action(async (who: string[], flags: ListFlag, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const removed = tw.store.players.remove(flags.list ?? DEFAULT_LIST, who.map((w) => resolvePlayer(tw, w, '<player>')));
        line(`removed ${plural(removed, 'player')} from "${flags.list ?? DEFAULT_LIST}"`);
      });
    });
  players
    .command('list')
    .description('the players of a watchlist (or every watched player)')
    .option('--list <name>', 'watchlist')
    .option('--json', 'machine-readable output')
    .action(async (flags: ListFlag, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const all = tw.store.players.list(flags.list);
        if (flags.json) return printJson(all);
        const me = tw.me;
        line(table(['name', 'nickname', 'account ID', ''], all.map((p) => [plainName(p.name), plainName(p.nickname), p.accountId, p.accountId === me ? 'you' : ''])));
      });
    });

  const lists = program.command('lists').description('create, rename and delete watchlists; without a subcommand, show them');
  lists.option('--json', 'machine-readable output').action(async (flags: ListFlag, command: Command) => {
    await withTrackwatch(command, async (tw) => {
      const all = tw.store.watchlists.list();
      if (flags.json) return printJson(all);
      if (all.length === 0) return line('no watchlists yet: `trackwatch maps add <uid>` makes "Default", or `trackwatch lists create NAME`.');
      line(table(['list', 'maps', 'players', 'last sync'], all.map((l) => {
        const { last } = tw.store.syncRuns.stateOf(l.id);
        const end = last && { outcome: last.outcome, failedMaps: last.failedMaps, error: syncErrorFor(last.outcome, last.firstError) };
        const maps = plural(l.maps, 'map') + (l.unresolvedMaps ? ` (+${l.unresolvedMaps} waiting for a sync)` : '');
        return [l.name, maps, plural(l.players, 'player'), lastSyncWords(end, last ? localDateTime(last.finishedAt) : '')];
      })));
    });
  });
  lists
    .command('create')
    .description('create a watchlist: empty, or made from what you play with --from (later syncs add what appears in it)')
    .argument('[name]', 'its name; with --from, the source\'s by default (e.g. "Fall 2026")')
    .option('--from <source>', `its maps from ${LIST_SOURCE_FORMS}`)
    .action(async (name: string | undefined, flags: { from?: string }, command: Command) => {
      await withTrackwatch(command, async (tw, signal) => {
        if (flags.from === undefined) {
          if (name === undefined) throw new UserError('lists create needs a name, or --from SOURCE to make the list from a campaign, a Track of the Day month, a club campaign or an Exchange pack.');
          const created = tw.store.watchlists.create(name);
          line(`created "${created.name}"`);
          return;
        }
        const made = await tw.createListFromSource(flags.from, { name, signal });
        line(`created "${made.list}" from ${plainName(made.title)} (${made.pinned}): ${plural(made.added.length, 'map')}`);
        for (const note of made.notes) line(colours.dim(note));
        if (tw.store.players.list(made.list).length === 0) {
          line(colours.dim(`next: trackwatch players add <display name or account ID> --list "${made.list}", then trackwatch sync --list "${made.list}"`));
        }
      });
    });
  lists
    .command('rename')
    .argument('<name>')
    .argument('<newName>')
    .action(async (name: string, newName: string, _flags: unknown, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const renamed = tw.store.watchlists.rename(name, newName);
        line(`renamed "${name}" to "${renamed.name}"`);
      });
    });
  lists
    .command('delete')
    .description('delete a watchlist (its maps, players, records and history stay stored)')
    .argument('<name>')
    .action(async (name: string, _flags: unknown, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        tw.store.watchlists.delete(name);
        line(`deleted "${name}"`);
      });
    });
}

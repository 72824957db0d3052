// `maps`, `players` and `lists`: what a player watches.
import type { Command } from 'commander';
import { formatMedalScore, kindLabel, mapKind } from '../../shared/leaderboard.ts';
import { LIST_SOURCE_FORMS } from '../../core/nadeo/index.ts';
import { NamesUnavailableError } from '../../core/player-refs.ts';
import { parseMapRefs, type MapRef } from '../../core/refs.ts';
import { WORLD_RECORD_DEFAULT_MAX_MAPS, type StoredMap, type WorldRecordSetting } from '../../core/store/index.ts';
import type { Trackwatch } from '../../core/trackwatch.ts';
import { lastSyncWords } from '../../shared/sync-words.ts';
import { syncErrorFor } from '../../service/sync-outcome.ts';
import { withTrackwatch } from '../context.ts';
import { DEFAULT_LIST, existingList, listToAddTo, type ListToAddTo } from '../lists.ts';
import { UserError } from '../errors.ts';
import { plainName, type Output } from '../output.ts';
import { resolvePlayer } from '../players.ts';
import { plural } from '../words.ts';

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

/** The refs given, parsed; none at all (only blanks) is refused, as an empty ref would otherwise do nothing silently. */
function requireMapRefs(refs: readonly string[], command: string): MapRef[] {
  const parsed = parseMapRefs([...refs]);
  if (parsed.length === 0) throw new UserError(`${command} needs a map: a UID, a map ID or a link.`);
  return parsed;
}

/** The list `maps add` or `players add` adds to (lists.ts says which). */
function chooseListToAddTo(out: Output, tw: Trackwatch, flags: { list?: string | undefined; create?: boolean | undefined }, command: string): ListToAddTo {
  const lists = tw.store.watchlists.list().map((l) => l.name);
  return listToAddTo(lists, flags.list, { create: flags.create, interactive: out.interactive(), command });
}

/** A list made by an add is said, so a slip in its name shows at once. */
function sayCreated(out: Output, tw: Trackwatch, target: ListToAddTo): void {
  if (target.create && tw.store.watchlists.get(target.name)) out.line(`created list "${target.name}"`);
}

/** `maps`, `players` and `lists`, each in its own function. */
export function registerWatchlistCommands(program: Command, out: Output): void {
  registerMapCommands(program, out);
  registerPlayerCommands(program, out);
  registerListCommands(program, out);
}

function registerMapCommands(program: Command, out: Output): void {
  const maps = program.command('maps').description('the maps you watch');
  maps
    .command('add')
    .description('add maps by UID, map ID, trackmania.io link, or Trackmania Exchange map or map pack link (many at once)')
    .argument('<ref...>', 'map UIDs, map IDs or links (an Exchange pack link adds the whole pack)')
    .option('--list <name>', `watchlist to add to (default: "${DEFAULT_LIST}", else the only one)`)
    .option('--create', 'make the list if it does not exist (needed in scripts, and when its name is near an existing one)')
    .option('--offline', 'do not look the maps up now; the next sync will')
    .action(async (refs: string[], flags: ListFlag & { offline?: boolean; create?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw, signal) => {
        requireMapRefs(refs, 'maps add');
        const target = chooseListToAddTo(out, tw, flags, 'maps add');
        const list = target.name;
        const result = await tw.addMaps(list, refs, { signal, lookUp: !flags.offline });
        sayCreated(out, tw, target);
        if (result.added.length) out.line(`added ${plural(result.added.length, 'map')} to "${list}"`);
        if (result.alreadyListed.length) out.line(`already in "${list}": ${result.alreadyListed.join(', ')}`);
        for (const ref of result.notFound) out.line(out.colours.yellow(`not found on the service: ${ref}`));
        for (const bad of result.invalid) out.line(out.colours.yellow(`not a map: "${bad.input}": ${bad.reason}`));
        if (result.added.length === 0 && result.alreadyListed.length === 0) {
          throw new UserError('no map was added; check the refs above.');
        }
      });
    });
  maps
    .command('remove')
    .description('take maps out of a watchlist (their records stay stored)')
    .argument('<ref...>', 'map UIDs, map IDs or links')
    .option('--list <name>', `watchlist (default: "${DEFAULT_LIST}", else the only one)`)
    .action(async (refs: string[], flags: ListFlag, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const list = existingList(tw, flags.list);
        const parsed = requireMapRefs(refs, 'maps remove');
        const bad = parsed.find((r) => r.kind === 'invalid');
        if (bad && bad.kind === 'invalid') throw new UserError(`"${bad.input}" is not a map: ${bad.reason}`);
        // A ref is in the list by the UID or ID it was added with, or by the stored map's other one.
        const listed = tw.store.maps.refs(list);
        const inList = (ref: MapRef): boolean => {
          const stored = tw.store.maps.get(ref.kind === 'uid' ? ref.uid : ref.kind === 'id' ? ref.id : '');
          const uid = stored?.mapUid ?? (ref.kind === 'uid' ? ref.uid : undefined);
          const id = stored?.mapId ?? (ref.kind === 'id' ? ref.id : undefined);
          return listed.some((m) => (uid !== undefined && m.mapUid === uid) || (id !== undefined && m.mapId === id));
        };
        const absent = parsed.filter((r) => !inList(r)).map((r) => r.input);
        const present = parsed.filter(inList);
        const removed = present.length === 0 ? 0 : tw.store.maps.removeFromList(
          list,
          present.map((r) => (r.kind === 'uid' ? { mapUid: r.uid } : r.kind === 'id' ? { mapId: r.id } : {})),
        );
        if (removed > 0) out.line(`removed ${plural(removed, 'map')} from "${list}"`);
        if (absent.length > 0) {
          const notIn = `not in "${list}": ${absent.join(', ')}`;
          if (removed === 0) throw new UserError(`${notIn}; nothing was removed (\`trackwatch maps list --list "${list}"\` shows its maps).`);
          out.line(out.colours.yellow(notIn));
        }
      });
    });
  maps
    .command('list')
    .description('the maps of a watchlist (or every stored map)')
    .option('--list <name>', 'watchlist (default: every stored map)')
    .option('--json', 'machine-readable output')
    .action(async (flags: ListFlag, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const stored = tw.store.maps.list(flags.list);
        const pending = flags.list ? tw.store.maps.refs(flags.list).filter((r) => !r.resolved) : [];
        if (flags.json) return out.json({ maps: stored, pending });
        if (stored.length === 0 && pending.length === 0) {
          return out.line(flags.list ? `"${flags.list}" has no maps: add some with \`trackwatch maps add <ref> --list "${flags.list}"\`.` : 'no maps stored yet: add some with `trackwatch maps add <ref>`.');
        }
        out.line(out.table(
          ['map', 'uid', 'kind', 'author', 'gold', 'silver', 'bronze'],
          stored.map((m) => [plainName(m.name), m.mapUid, kindOf(m), ...[m.authorScore, m.goldScore, m.silverScore, m.bronzeScore].map((score) => medalScore(m, score))]),
        ));
        for (const ref of pending) {
          out.line(out.colours.dim(`pending: ${ref.mapUid ?? ref.mapId}${ref.notFoundAt ? ' (not found on the service)' : ' (looked up at the next sync)'}`));
        }
      });
    });
}

function registerPlayerCommands(program: Command, out: Output): void {
  const players = program.command('players').description('the players you watch');
  players
    .command('add')
    .description('add players by account ID, trackmania.io player link or display name; a player already watched keeps the nickname you gave them')
    .argument('<player...>', 'account IDs, trackmania.io player links (trackmania.io/#/player/<accountId>) or display names (needs the OAuth app)')
    .option('--name <nickname>', 'your name for them (with several players, the same for all)')
    .option('--list <name>', `watchlist to add to (default: "${DEFAULT_LIST}", else the only one)`)
    .option('--create', 'make the list if it does not exist (needed in scripts, and when its name is near an existing one)')
    .option('--me', 'this account is you: comparisons show deltas to it')
    .action(async (given: string[], flags: ListFlag & { name?: string; me?: boolean; create?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw, signal) => {
        const target = chooseListToAddTo(out, tw, flags, 'players add');
        const list = target.name;
        if (flags.me && given.length !== 1) throw new UserError('--me takes exactly one player.');
        // One nickname for several players would make the name mean all of them (`compare --me NAME` refused as ambiguous).
        if (flags.name !== undefined && given.length !== 1) {
          throw new UserError(`--name gives one player a nickname, and ${given.length} were given; add them one by one to name each.`);
        }
        const resolved = await tw.resolvePlayers(given, { signal }).catch((error: unknown) => {
          if (error instanceof NamesUnavailableError) {
            throw new UserError(`${error.message} For the command line: set TRACKWATCH_OAUTH_CLIENT_ID and TRACKWATCH_OAUTH_CLIENT_SECRET (an app registered on api.trackmania.com).`);
          }
          throw error;
        });
        for (const name of resolved.unknown) out.line(out.colours.yellow(`no player named "${plainName(name)}" on Trackmania (check the spelling; display names are matched whole)`));
        for (const a of resolved.ambiguous) {
          out.line(out.colours.yellow(`"${plainName(a.name)}" is the display name of ${a.accountIds.length} accounts (${a.accountIds.join(', ')}); add the one you mean by its account ID`));
        }
        for (const bad of resolved.invalid) out.line(out.colours.yellow(`not added: "${plainName(bad.input)}": ${bad.reason}`));
        for (const p of resolved.players) if (p.foundByName) out.line(out.colours.dim(`${plainName(p.foundByName)} is ${p.accountId}`));
        if (target.create && !tw.store.watchlists.get(list)) tw.store.watchlists.create(list);
        sayCreated(out, tw, target);
        const before = new Map(resolved.players.map((p) => [p.accountId, tw.store.players.get(p.accountId)]));
        const result = tw.store.players.add(list, resolved.players.map((p) => ({ accountId: p.accountId, nickname: flags.name })));
        // Found by a name just now: shown by it at once, not by an ID prefix until a sync fetches the service's spelling.
        for (const p of resolved.players) if (p.foundByName && tw.store.players.get(p.accountId)) tw.store.players.nameFoundBy(p.accountId, p.foundByName);
        if (result.added.length) out.line(`added ${plural(result.added.length, 'player')} to "${list}"`);
        if (result.alreadyListed.length) out.line(`already in "${list}": ${result.alreadyListed.join(', ')}`);
        for (const kept of result.nicknamesKept) {
          out.line(out.colours.yellow(`${kept.accountId} keeps the nickname "${kept.kept}" (not "${kept.given}"); to change it: trackwatch players rename ${kept.accountId} "${kept.given}"`));
        }
        // What --name did to a player known before, said every time: set, or already so (one kept is said above).
        for (const accountId of flags.name === undefined ? [] : [...result.added, ...result.alreadyListed]) {
          const was = before.get(accountId);
          const now = tw.store.players.get(accountId)?.nickname ?? null;
          if (!was || now === null || result.nicknamesKept.some((k) => k.accountId === accountId)) continue;
          out.line(was.nickname === now ? `${accountId} already had the nickname "${now}"` : `${accountId} had no nickname and is now "${now}"`);
        }
        for (const bad of result.invalid) out.line(out.colours.yellow(`not added: ${bad.accountId}: ${bad.reason}`));
        if (flags.me && resolved.players.length === 1 && result.invalid.length === 0) {
          tw.store.settings.setMe(resolved.players[0]!.accountId);
          out.line('marked as you');
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
      await withTrackwatch(out, command, async (tw) => {
        const accountId = resolvePlayer(tw, who, 'players rename');
        tw.store.players.setNickname(accountId, nickname);
        out.line(nickname.trim() ? `${accountId} is now "${nickname.trim()}"` : `${accountId} has no nickname now`);
      });
    });
  players
    .command('remove')
    .description('take players out of a watchlist (their records stay stored)')
    .argument('<player...>', 'account IDs, nicknames or display names')
    .option('--list <name>', `watchlist (default: "${DEFAULT_LIST}", else the only one)`)
    .action(async (who: string[], flags: ListFlag, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const list = existingList(tw, flags.list);
        const accountIds = [...new Set(who.map((w) => resolvePlayer(tw, w, 'players remove')))];
        const listed = new Set(tw.store.players.list(list).map((p) => p.accountId));
        const absent = accountIds.filter((id) => !listed.has(id)).map((id) => plainName(tw.store.players.nameOf(id)));
        const removed = tw.store.players.remove(list, accountIds.filter((id) => listed.has(id)));
        if (removed > 0) out.line(`removed ${plural(removed, 'player')} from "${list}"`);
        if (absent.length > 0) {
          const notIn = `not in "${list}": ${absent.join(', ')}`;
          if (removed === 0) throw new UserError(`${notIn}; nothing was removed (\`trackwatch players list --list "${list}"\` shows its players).`);
          out.line(out.colours.yellow(notIn));
        }
      });
    });
  players
    .command('list')
    .description('the players of a watchlist (or every watched player)')
    .option('--list <name>', 'watchlist')
    .option('--json', 'machine-readable output')
    .action(async (flags: ListFlag, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const all = tw.store.players.list(flags.list);
        if (flags.json) return out.json(all);
        if (all.length === 0) {
          return out.line(flags.list ? `"${flags.list}" has no players: add some with \`trackwatch players add <player> --list "${flags.list}"\`.` : 'no players watched yet: add some with `trackwatch players add <player>`.');
        }
        const me = tw.store.settings.me();
        // "you" heads the column that marks your own account (`players add --me`); shown only when one is marked.
        const marked = all.some((p) => p.accountId === me);
        out.line(out.table(['name', 'nickname', 'account ID', ...(marked ? ['you'] : [])], all.map((p) => [plainName(p.name), plainName(p.nickname), p.accountId, ...(marked ? [p.accountId === me ? 'you' : ''] : [])])));
      });
    });
}

function registerListCommands(program: Command, out: Output): void {
  const lists = program.command('lists').description('create, rename and delete watchlists; without a subcommand, show them');
  lists.option('--json', 'machine-readable output').action(async (flags: ListFlag, command: Command) => {
    await withTrackwatch(out, command, async (tw) => {
      const all = tw.store.watchlists.list();
      if (flags.json) return out.json(all);
      if (all.length === 0) return out.line('no watchlists yet: `trackwatch maps add <uid>` makes "Default", or `trackwatch lists create NAME`.');
      out.line(out.table(['list', 'maps', 'players', 'last sync'], all.map((l) => {
        const { last } = tw.store.syncRuns.stateOf(l.id);
        const end = last && { outcome: last.outcome, failedMaps: last.failedMaps, error: syncErrorFor(last.outcome, last.firstError) };
        const maps = plural(l.maps, 'map') + (l.unresolvedMaps ? ` (+${l.unresolvedMaps} waiting for a sync)` : '');
        return [l.name, maps, plural(l.players, 'player'), lastSyncWords(end, last ? out.dateTime(last.finishedAt) : '')];
      })));
    });
  });
  lists
    .command('create')
    .description('create a watchlist: empty, or made from what you play with --from (later syncs add what appears in it)')
    .argument('[name]', 'its name; with --from, the source\'s by default (e.g. "Fall 2026")')
    .option('--from <source>', `its maps from ${LIST_SOURCE_FORMS}`)
    .action(async (name: string | undefined, flags: { from?: string }, command: Command) => {
      await withTrackwatch(out, command, async (tw, signal) => {
        if (flags.from === undefined) {
          if (name === undefined) throw new UserError('lists create needs a name, or --from SOURCE to make the list from a campaign, a Track of the Day month, a club campaign or an Exchange pack.');
          const created = tw.store.watchlists.create(name);
          out.line(`created "${created.name}"`);
          return;
        }
        const made = await tw.createListFromSource(flags.from, { name, signal });
        out.line(`created "${made.list}" from ${plainName(made.title)} (${made.pinned}): ${plural(made.added.length, 'map')}`);
        for (const note of made.notes) out.line(out.colours.dim(note));
        if (tw.store.players.list(made.list).length === 0) {
          out.line(out.colours.dim(`next: trackwatch players add <display name or account ID> --list "${made.list}", then trackwatch sync --list "${made.list}"`));
        }
      });
    });
  lists
    .command('rename')
    .argument('<name>')
    .argument('<newName>')
    .action(async (name: string, newName: string, _flags: unknown, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const renamed = tw.store.watchlists.rename(name, newName);
        out.line(`renamed "${name}" to "${renamed.name}"`);
      });
    });
  lists
    .command('world-record')
    .description(`show or set whether a list's syncs read each map's world record (a request per map): on, off, or default (on up to ${WORLD_RECORD_DEFAULT_MAX_MAPS} maps)`)
    .argument('[setting]', 'on, off or default')
    .option('--list <name>', 'watchlist', DEFAULT_LIST)
    .option('--json', 'machine-readable output')
    .action(async (setting: string | undefined, flags: { list: string; json?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const list = tw.store.watchlists.require(flags.list).name;
        const worldRecord = setting === undefined ? tw.store.worldRecords.setting(list) : tw.store.worldRecords.setSetting(list, parseWorldRecordSetting(setting));
        // `lists` has a --json of its own, which commander may give the parent.
        if (flags.json || (command.parent?.opts() as ListFlag | undefined)?.json) return out.json({ list, worldRecord });
        out.line(describeWorldRecordSetting(list, worldRecord));
      });
    });
  lists
    .command('delete')
    .description('delete a watchlist (its maps, players, records and history stay stored)')
    .argument('<name>')
    .action(async (name: string, _flags: unknown, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        tw.store.watchlists.delete(name);
        out.line(`deleted "${name}"`);
      });
    });
}

/** `on`, `off` or `default` (null), else one line saying what is accepted. */
export function parseWorldRecordSetting(text: string): boolean | null {
  const word = text.trim().toLowerCase();
  if (word === 'on') return true;
  if (word === 'off') return false;
  if (word === 'default') return null;
  throw new UserError(`the world-record setting is "on", "off" or "default", got "${text}".`);
}

/** 'syncs of "Fall" read each map's world record (the default for lists of up to 100 maps)'. */
export function describeWorldRecordSetting(list: string, s: WorldRecordSetting): string {
  const what = s.on ? "read each map's world record (a request per map)" : 'do not read world records';
  const why = s.set === null ? ` (the default for lists of ${s.on ? 'up to' : 'more than'} ${WORLD_RECORD_DEFAULT_MAX_MAPS} maps)` : '';
  return `syncs of "${list}" ${what}${why}`;
}

// `maps`, `players` and `lists`: what a player watches.
import type { Command } from 'commander';
import { parseMapRefs } from '../../core/refs.ts';
import { DEFAULT_LIST, withTrackwatch } from '../context.ts';
import { UserError } from '../errors.ts';
import { colours, line, plainName, printJson, table } from '../output.ts';

interface ListFlag {
  list?: string;
  json?: boolean;
}

export function registerWatchlistCommands(program: Command): void {
  const maps = program.command('maps').description('the maps you watch');
  maps
    .command('add')
    .description('add maps by UID, map ID, or trackmania.io / Trackmania Exchange link (many at once)')
    .argument('<ref...>', 'map UIDs, map IDs or links')
    .option('--list <name>', 'watchlist to add to', DEFAULT_LIST)
    .option('--offline', 'do not look the maps up now; the next sync will')
    .action(async (refs: string[], flags: ListFlag & { offline?: boolean }, command: Command) => {
      await withTrackwatch(command, async (tw, signal) => {
        const list = flags.list ?? DEFAULT_LIST;
        const result = await tw.addMaps(list, refs, { signal, lookUp: !flags.offline });
        if (result.added.length) line(`added ${result.added.length} map(s) to "${list}"`);
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
        line(`removed ${removed} map(s) from "${flags.list ?? DEFAULT_LIST}"`);
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
        line(table(['map', 'uid', 'type', 'author time'], stored.map((m) => [plainName(m.name), m.mapUid, m.mapType.split('\\').pop() ?? '', m.authorScore])));
        for (const ref of pending) {
          line(colours.dim(`pending: ${ref.mapUid ?? ref.mapId}${ref.notFoundAt ? ' (not found on the service)' : ' (looked up at the next sync)'}`));
        }
      });
    });

  const players = program.command('players').description('the players you watch');
  players
    .command('add')
    .description('add players by account ID')
    .argument('<accountId...>', 'account IDs (UUIDs)')
    .option('--name <nickname>', 'your name for them (with several IDs, the same for all)')
    .option('--list <name>', 'watchlist to add to', DEFAULT_LIST)
    .option('--me', 'this account is you: comparisons show deltas to it')
    .action(async (ids: string[], flags: ListFlag & { name?: string; me?: boolean }, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const list = flags.list ?? DEFAULT_LIST;
        if (flags.me && ids.length !== 1) throw new UserError('--me takes exactly one account ID.');
        const result = tw.addPlayers(list, ids.map((accountId) => ({ accountId, nickname: flags.name })));
        if (result.added.length) line(`added ${result.added.length} player(s) to "${list}"`);
        if (result.alreadyListed.length) line(`already in "${list}" (nickname updated if given): ${result.alreadyListed.join(', ')}`);
        for (const bad of result.invalid) line(colours.yellow(`not added: ${bad.accountId}: ${bad.reason}`));
        if (flags.me && result.invalid.length === 0) {
          tw.setMe(ids[0]);
          line('marked as you');
        }
        if (result.added.length === 0 && result.alreadyListed.length === 0) throw new UserError('no player was added.');
      });
    });
  players
    .command('remove')
    .description('take players out of a watchlist (their records stay stored)')
    .argument('<accountId...>')
    .option('--list <name>', 'watchlist', DEFAULT_LIST)
    .action(async (ids: string[], flags: ListFlag, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const removed = tw.store.players.remove(flags.list ?? DEFAULT_LIST, ids.map((id) => id.trim().toLowerCase()));
        line(`removed ${removed} player(s) from "${flags.list ?? DEFAULT_LIST}"`);
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
      line(table(['list', 'maps', 'pending', 'players', 'last sync'], all.map((l) => [l.name, l.maps, l.unresolvedMaps, l.players, l.lastSyncAt ? `${l.lastSyncAt} (${l.lastSyncOutcome})` : 'never'])));
    });
  });
  lists
    .command('create')
    .argument('<name>')
    .action(async (name: string, _flags: unknown, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        const created = tw.store.watchlists.create(name);
        line(`created "${created.name}"`);
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

// `demo`: the whole product against the built-in emulator, no account and no network.
import type { Command } from 'commander';
import { join } from 'node:path';
import { formatDelta, formatPosition, formatPositionChange } from '../../shared/format.ts';
import type { Trackwatch } from '../../core/trackwatch.ts';
import { databaseFile, replaysDir, resolveDataDir } from '../../core/paths.ts';
import { stoppable, type GlobalFlags } from '../context.ts';
import { CancelledError, UserError } from '../errors.ts';
import { plainName, type Output } from '../output.ts';
import { plural } from '../words.ts';
import { selfCommand, shellQuoted } from '../invocation.ts';
import { historyTable, printCompare } from './read.ts';
import { positionLine, summaryLine, syncWithProgress } from './sync.ts';

/**
 * What the splits say after the second sync: the map where I lose most at one checkpoint, and a rival's improvement
 * as the sector where they found the most time (service/splits-view.ts, computed, never written in).
 */
async function splitsLines(tw: Trackwatch, list: string, me: string): Promise<string[]> {
  const { splitsForList, splitsHistory } = await import('../../service/splits-view.ts');
  const said: string[] = [];
  const rows = splitsForList(tw.store, list, me).maps.filter((m) => m.loseMostAt !== null);
  const worst = rows.sort((a, b) => b.loseMostAt!.ms - a.loseMostAt!.ms)[0];
  if (worst) said.push(`you lose most at CP ${worst.loseMostAt!.checkpoint} on ${plainName(worst.mapName)} (${formatDelta(worst.loseMostAt!.ms)} on the best sector there)`);
  else said.push('no map has both your splits and another player\'s yet.');
  const improved = tw.store.records.history({ list, limit: 200 }).filter((h) => h.kind === 'improved' && h.accountId !== me);
  for (const h of improved) {
    const history = splitsHistory(tw.store, { player: h.accountId, map: h.mapId });
    const last = history.improvements.at(-1);
    const gains = last?.sectorGains;
    if (!gains) continue;
    let best = -1;
    gains.forEach((g, i) => {
      if (g !== null && g < 0 && (best === -1 || g < gains[best]!)) best = i;
    });
    if (best === -1) continue;
    said.push(`${plainName(history.name)} improved on ${plainName(history.map.name)}: ${formatDelta(gains[best]!)} found in the sector to CP ${best + 1}`);
    break;
  }
  return said;
}

export function registerDemoCommand(program: Command, out: Output, argv: readonly string[]): void {
  program
    .command('demo')
    .description('try Trackwatch against the built-in emulator: no account, no network')
    .option('--maps <n>', 'maps in the generated dataset', '24')
    .option('--players <n>', 'players in the generated dataset', '12')
    .action(async (flags: { maps: string; players: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalFlags>();
      const dataDir = join(resolveDataDir({ flag: globals.dataDir, env: out.io.env }), 'demo');
      const maps = Number(flags.maps);
      const players = Number(flags.players);
      if (!Number.isInteger(maps) || maps < 6 || maps > 5000) throw new UserError(`--maps must be a whole number from 6 to 5000, got "${flags.maps}".`);
      if (!Number.isInteger(players) || players < 2 || players > 1000) throw new UserError(`--players must be a whole number from 2 to 1000, got "${flags.players}".`);

      // The emulator and the service load with the demo, not with every command (a command starts faster).
      const { DEMO_SEED, startDemo, tourDemo } = await import('../../service/demo.ts');
      let demo: Awaited<ReturnType<typeof startDemo>>;
      try {
        demo = await startDemo({ dataDir, maps, players });
      } catch (error) {
        throw new UserError(error instanceof Error ? error.message : String(error));
      }
      try {
        await stoppable(out.io, 'the demo', async (signal) => {
          const { trackwatch: tw, emulator, list } = demo;
          out.line(out.colours.bold('Trackwatch demo'));
          out.line(`emulator:    ${emulator.url} (generated dataset, seed ${DEMO_SEED}: ${maps} maps, ${players} players)`);
          out.line(`data folder: ${dataDir}`);
          out.line('');

          const source = tw.store.sources.get(list);
          if (source) out.line(`The "${list}" list follows the current campaign, ${plainName(source.title)}, read from the Live services; the other maps were added by link, UID and map ID.`);
          out.line('');
          out.line(out.colours.bold('1. First sync of the "Demo" watchlist'));
          let timePassed = false;
          const last = await tourDemo(demo, {
            sync: () => syncWithProgress(out, tw, { list, signal }),
            afterFirst: (first, changed) => {
              timePassed = true;
              out.line(summaryLine(first));
              out.line('');
              out.line(out.colours.bold(`2. Time passes: ${plural(changed.improved, 'PB improves', 'PBs improve')}, ${plural(changed.added, 'first record is', 'first records are')} set. Second sync:`));
            },
          });
          out.line(summaryLine(last));
          const best = positionLine(last);
          if (best) out.line(best);
          out.line('');
          if (last.outcome === 'cancelled') throw new CancelledError('the demo was cancelled.');
          // The first sync failed: nothing more to show.
          if (!timePassed) return;

          out.line(out.colours.bold('3. The comparison (first maps; `compare` shows all)'));
          const self = selfCommand(argv[1], out.io.env.PATH ?? '');
          const browse = `${self} --data-dir ${shellQuoted(dataDir)} compare --list ${shellQuoted(list)} --limit ${tw.store.maps.list(list).length}`;
          printCompare(out, tw, list, { me: demo.me, limit: 5, rest: browse });
          out.line('');

          const mine = tw.store.positions.forList(list).filter((p) => p.accountId === demo.me && p.state === 'ranked');
          const asOf = mine.reduce((latest, p) => (p.asOf > latest ? p.asOf : latest), '');
          out.line(out.colours.bold(`4. Your world positions${asOf ? ` (as of ${out.dateTime(asOf)}; the service can lag behind)` : ''}`));
          const shown = mine.slice(0, 8);
          // The change and the zones are shown when the service gave some: a first position has no change.
          const changes = shown.map((p) => formatPositionChange(p.previousPosition, p.position));
          const zones = shown.map((p) => p.zones.slice(1).map((z) => `${plainName(z.zoneName)} ${formatPosition(z.position)}`).join(', '));
          const columns = [
            { head: 'map', cells: shown.map((p) => plainName(tw.store.maps.get(p.mapId)?.name ?? p.mapUid)), align: 'left' as const },
            { head: 'world', cells: shown.map((p) => formatPosition(p.position)), align: 'right' as const },
            { head: 'change', cells: changes, align: 'right' as const },
            { head: 'your zones', cells: zones, align: 'left' as const },
          ].filter((c) => c.head === 'map' || c.head === 'world' || c.cells.some((cell) => cell !== ''));
          out.line(out.table(columns.map((c) => c.head), shown.map((_, i) => columns.map((c) => c.cells[i]!)), { compact: true, align: columns.map((c) => c.align) }));
          const limited = tw.store.positions.forList(list).filter((p) => p.state === 'limitedByOwnRecord').length;
          if (limited > 0) out.line(out.colours.dim(`${plural(limited, 'PB')} of other players beat yours: the service gives no position better than the asking account's own record.`));
          out.line('');

          out.line(out.colours.bold('5. Latest PB improvements seen'));
          out.line(historyTable(out, tw, tw.store.records.history({ list, limit: 60 }).filter((h) => h.kind !== 'first').slice(0, 8)));
          out.line('');

          out.line(out.colours.bold('6. Where the time goes (checkpoint splits from the replays)'));
          for (const said of await splitsLines(tw, list, demo.me)) out.line(said);
          out.line(`Each map's splits: npm run trackwatch -- --data-dir "${dataDir}" splits --list ${list} --map <uid>`);
          out.line('');

          const exported = await tw.exportCsv(undefined, { list });
          const replays = tw.store.replays.list({ list });
          const downloaded = replays.filter((r) => r.state === 'downloaded');
          const hidden = replays.filter((r) => r.state === 'hidden').length;
          out.line(out.colours.bold('7. Where things went'));
          out.line(`CSV export:  ${exported.file} (${exported.rows} rows)`);
          out.line(`replays:     ${replaysDir(dataDir)} (${downloaded.length} files, ${hidden} hidden by a secret threshold)`);
          out.line(`database:    ${databaseFile(dataDir)}`);
          out.line('');
          out.line(`Browse it again offline: ${browse}`);
          // The app's demo lives in the demo folder of the data folder it opens (it reads TRACKWATCH_DATA_DIR too, not
          // this command's --data-dir): the same folder only when it is told the same one.
          const serve = `${self}${globals.dataDir ? ` --data-dir ${shellQuoted(join(dataDir, '..'))}` : ''} serve`;
          out.line(`Or try the app: ${serve} (browser mode), then "Try the demo" (a fresh demo, in this same folder).`);
        });
      } finally {
        await demo.close();
      }
    });
}

// `replays`: which replays a list's syncs download (its policy), one replay fetched on demand, and what a replay or
// ghost file on disk holds (`inspect`, no data folder and no network).
import { CommanderError, type Command } from 'commander';
import { parseMapRef } from '../../core/refs.ts';
import { REPLAY_BEST_MAX, type ReplayPolicy } from '../../core/store/index.ts';
import { withTrackwatch } from '../context.ts';
import { existingList } from '../lists.ts';
import { ExitCode, UserError } from '../errors.ts';
import type { Output } from '../output.ts';

/** What a policy means, in one line. */
export function describePolicy(policy: ReplayPolicy): string {
  if (policy.mode === 'all') return "every watched player's replays";
  if (policy.mode === 'none') return 'no replays (fetch one with `trackwatch replays fetch`)';
  return `your replays ("me") and the list's best ${policy.best} of each map`;
}

function parsePolicy(mode: string, n: string | undefined): Partial<ReplayPolicy> {
  if (mode === 'all' || mode === 'none') {
    if (n !== undefined) throw new UserError(`"${mode}" takes no number; only "best N" does.`);
    return { mode };
  }
  if (mode === 'best') {
    if (n === undefined) return { mode };
    const best = /^\d{1,3}$/.test(n) ? Number(n) : Number.NaN;
    if (!(best >= 1 && best <= REPLAY_BEST_MAX)) throw new UserError(`best N takes a whole number from 1 to ${REPLAY_BEST_MAX}, got "${n}".`);
    return { mode, best };
  }
  throw new UserError(`a replay policy is "all", "best N" or "none", got "${mode}".`);
}

export function registerReplayCommands(program: Command, out: Output): void {
  const replays = program.command('replays').description('which replays syncs download, and one replay on demand');
  replays
    .command('policy')
    .description('show or set which replays a list\'s syncs download: all (default), best N (you and the best N per map), none')
    .argument('[mode]', 'all, best or none')
    .argument('[n]', 'for best: how many of the best per map (default 3)')
    .option('--list <name>', 'watchlist (default: "Default", else the only one)')
    .option('--json', 'machine-readable output')
    .action(async (mode: string | undefined, n: string | undefined, flags: { list?: string; json?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw) => {
        const list = existingList(tw, flags.list);
        const policy = mode === undefined
          ? tw.store.watchlists.replayPolicy(list)
          : tw.store.watchlists.setReplayPolicy(list, parsePolicy(mode, n));
        if (flags.json) return out.json({ list, policy });
        out.line(`syncs of "${list}" download ${describePolicy(policy)}`);
      });
    });
  replays
    .command('fetch')
    .description("download one player's replay of a map now (for a list whose policy leaves it out)")
    .argument('<map>', 'a map UID, ID or link')
    .argument('<accountId>', "the player's account ID")
    .action(async (map: string, accountId: string, _flags: unknown, command: Command) => {
      await withTrackwatch(out, command, async (tw, signal) => {
        const ref = parseMapRef(map);
        if (ref.kind === 'invalid') throw new UserError(`"${ref.input}" is not a map: ${ref.reason}`);
        const { entry, alreadyStored } = await tw.fetchReplay(ref.kind === 'uid' ? ref.uid : ref.id, accountId, { signal });
        if (entry.state !== 'downloaded' || !entry.path) {
          throw new UserError(`the service refused this replay (${entry.error ?? entry.state}); a later sync asks again.`);
        }
        if (alreadyStored) out.line(`already stored at ${tw.dataDir}/${entry.path} (${entry.size ?? 0} bytes); nothing was downloaded`);
        else out.line(`downloaded ${entry.size ?? 0} bytes to ${tw.dataDir}/${entry.path}`);
      });
    });
  replays
    .command('inspect')
    .description('what ghost and replay files (.Ghost.Gbx, .Replay.Gbx) hold: the map, each run\'s time, respawns, stunt score and checkpoint times (no data folder, no network)')
    .argument('<file...>', 'Gbx files: a ghost or a replay, the game\'s own Replays folder too')
    .option('--json', 'machine-readable output')
    .action(async (files: string[], flags: { json?: boolean }) => {
      // Loaded here: every other command starts without the Gbx reader.
      const { inspectFiles, printInspection } = await import('./replays-inspect.ts');
      const { read, failed } = await inspectFiles(out, files);
      printInspection(out, read, flags.json === true);
      // Each unreadable file was said on stderr as it came; the exit code says some were (no further line).
      if (failed > 0) throw new CommanderError(ExitCode.DATA_ERROR, 'trackwatch.unreadableFiles', `${failed} file(s) could not be read`);
    });
}

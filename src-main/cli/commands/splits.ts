// `splits --map REF`: every watched player's checkpoint times on a map, read from their archived replays (service/
// splits-view.ts builds the same view the window shows; `--json` prints it as it is, README "splits --json").
import type { Command } from 'commander';
import type { Trackwatch } from '../../core/trackwatch.ts';
import type { SplitsView } from '../../service/splits-view.ts';
import { formatDelta, formatScore, formatTime } from '../../shared/format.ts';
import { withTrackwatch } from '../context.ts';
import { UserError } from '../errors.ts';
import { plainName, type Colours, type Output } from '../output.ts';
import { parseMapRef } from '../../core/refs.ts';
import { resolveMap } from '../maps.ts';

/** Replays archived before splits existed are read first, once, with progress on stderr. */
export async function readArchivedSplits(out: Output, tw: Trackwatch, signal: AbortSignal, quiet: boolean): Promise<void> {
  // Loaded when a command needs it, as the reader is: every other command starts without it.
  const { backfillNeeded, backfillSplits } = await import('../../core/splits/backfill.ts');
  const waiting = backfillNeeded(tw.store);
  if (waiting === 0) return;
  if (!quiet) out.note(`reading the splits of ${waiting.toLocaleString('en-US')} archived replays (once)...`);
  let shown = 0;
  const done = await backfillSplits(tw.store, tw.dataDir, {
    signal,
    onProgress: (p) => {
      if (quiet || p.done - shown < 1000) return;
      shown = p.done;
      out.note(`  ${p.done.toLocaleString('en-US')} of ${p.total.toLocaleString('en-US')}`);
    },
  });
  if (!quiet && done.unreadable > 0) out.note(`  ${done.unreadable} could not be read (each says why in the splits view)`);
}

function cell(value: number | null, text: (v: number) => string): string {
  return value === null ? '' : text(value);
}

function coloured(colours: Colours, ms: number | null): string {
  if (ms === null) return '';
  const text = formatDelta(ms);
  return ms < 0 ? colours.blue(text) : ms > 0 ? colours.red(text) : text;
}

const MISSING_WORDS: Record<SplitsView['missing'][number]['reason'], string> = {
  noRecord: 'no record on this map',
  hidden: 'behind the secret threshold',
  noReplay: 'no replay downloaded (a sync with replays brings it)',
  unread: 'replay not read yet',
  unreadable: 'the replay could not be read',
};

/** "CP 3", "finish", and "lap 2 · CP 4" at each lap's first checkpoint after the first lap. */
function checkpointLabel(view: SplitsView, index: number): string {
  const label = index + 1 === view.checkpoints ? 'finish' : `CP ${index + 1}`;
  const lapStarts = view.laps?.ends.indexOf(index) ?? -1;
  return lapStarts >= 0 ? `lap ${lapStarts + 2} · ${label}` : label;
}

export function printSplits(out: Output, view: SplitsView): void {
  const name = plainName(view.map.name);
  out.line(`${out.colours.bold(name)}: ${view.checkpoints} checkpoints${view.laps ? `, ${view.laps.count} laps (ends at CP ${view.laps.ends.join(', ')})` : ''}`);
  if (view.players.length === 0) {
    out.line('no splits yet: the replays of this map are not downloaded (a sync with replays brings them).');
  }
  const stunt = view.map.kind === 'stunt';
  const platform = view.map.kind === 'platform';
  for (const p of view.players) {
    out.line();
    out.line(`${out.colours.bold(plainName(p.name))}${p.isMe ? ' (me)' : ''}  ${formatTime(p.time)}${platform && p.respawns !== null ? `  ${p.respawns} respawns` : ''}`);
    if (p.note) out.line(out.colours.dim(p.note));
    const rows = p.checkpoints.map((t, i) => [
      checkpointLabel(view, i),
      cell(t, formatTime),
      cell(p.sectors[i] ?? null, formatTime),
      coloured(out.colours, p.deltaToBest[i] ?? null),
      coloured(out.colours, p.deltaToMe[i] ?? null),
      ...(p.deltaToVs ? [coloured(out.colours, p.deltaToVs[i] ?? null)] : []),
      ...(p.deltaToWorldRecord ? [coloured(out.colours, p.deltaToWorldRecord[i] ?? null)] : []),
      ...(stunt ? [cell(p.stuntScores[i] ?? null, formatScore)] : []),
    ]);
    const head = ['', 'time', 'sector', 'to best', 'to me', ...(p.deltaToVs ? ['to vs'] : []), ...(p.deltaToWorldRecord ? ['to WR'] : []), ...(stunt ? ['stunt'] : [])];
    out.line(out.table(head, rows, { compact: true, align: head.map((_, i) => (i === 0 ? 'left' : 'right')) }));
    if (p.lapTimes) out.line(`laps: ${p.lapTimes.map((t, i) => `${i + 1} ${cell(t, formatTime)}`).join(' · ')}`);
  }
  out.line();
  if (view.ideal.time !== null) {
    out.line(`ideal run (best sectors): ${formatTime(view.ideal.time)}${view.ideal.gain !== null ? `, ${formatDelta(-view.ideal.gain)} for me` : ''}`);
  }
  if (view.loseMostAt) out.line(`you lose most at CP ${view.loseMostAt.checkpoint} (${formatDelta(view.loseMostAt.ms)})${view.vs ? ' against them' : ''}`);
  const wr = view.worldRecord;
  if (wr) {
    const what = `world record: ${plainName(wr.name)}${wr.secret ? '' : ` ${stunt ? `${formatScore(wr.score ?? 0)} pts` : formatTime(wr.time)}`}`;
    const toMe = view.players.find((p) => p.isMe)?.deltaToWorldRecord?.at(-1) ?? null;
    if (wr.run?.comparable) out.line(`${what}${toMe === null ? '' : `, you ${formatDelta(toMe)} at the finish`} (its ghost is the "to WR" column)`);
    else out.line(out.colours.dim(`${what}: ${wr.missing?.note ?? wr.run?.note ?? ''}`));
  }
  for (const m of view.missing) out.line(out.colours.dim(`${plainName(m.name)}: ${MISSING_WORDS[m.reason]}${m.detail ? ` (${m.detail})` : ''}`));
}

export function registerSplitsCommand(program: Command, out: Output): void {
  program
    .command('splits')
    .description('checkpoint times of the watched players on a map, from their archived replays: sectors, deltas, the ideal run')
    .requiredOption('--map <ref>', 'the map: its name, UID, map ID or link')
    .option('--list <name>', 'only this list\'s players (default: every list holding the map)')
    .option('--vs <player>', 'compare against this player (account ID or name) instead of the best')
    .option('--json', 'print the view as JSON (README, "splits --json")')
    .action(async (flags: { map: string; list?: string; vs?: string; json?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw, signal) => {
        await readArchivedSplits(out, tw, signal, flags.json === true);
        const { ServiceError } = await import('../../service/errors.ts');
        const { splitsForMap } = await import('../../service/splits-view.ts');
        let view: SplitsView;
        try {
          // A UID, ID or link as the view takes it (it says when the map is not stored); else a stored map's name.
          const map = parseMapRef(flags.map.trim()).kind === 'invalid' ? resolveMap(tw, flags.map, '--map') : flags.map;
          view = splitsForMap(tw.store, { map, list: flags.list, vs: flags.vs }, tw.store.settings.me());
        } catch (error) {
          if (error instanceof ServiceError) throw new UserError(error.message);
          throw error;
        }
        if (flags.json) out.json(view);
        else printSplits(out, view);
      });
    });
}

// `export csv`: every stored record, one row each, streamed; never replacing a file unless told to.
import type { Command } from 'commander';
import { withTrackwatch } from '../context.ts';
import { ExitCode, UserError } from '../errors.ts';
import type { Output } from '../output.ts';
import { plural } from '../words.ts';
import { readArchivedSplits } from './splits.ts';

export function registerExportCommand(program: Command, out: Output): void {
  const exportCommand = program.command('export').description('export stored data');
  exportCommand
    .command('csv')
    .description('one row per stored record (RFC 4180; cells that spreadsheets would run as formulas are neutralised)')
    .option('--out <file>', 'where to write (default: a dated file under the data folder\'s exports/)')
    .option('--force', 'replace the file at --out if there is one')
    .option('--list <name>', 'only this watchlist')
    .option('--bom', 'start with a UTF-8 byte order mark (for Excel)')
    .option('--splits', 'one row per record and checkpoint, from the archived replays (README, "export csv --splits")')
    .action(async (flags: { out?: string; force?: boolean; list?: string; bom?: boolean; splits?: boolean }, command: Command) => {
      await withTrackwatch(out, command, async (tw, signal) => {
        if (flags.splits) await readArchivedSplits(out, tw, signal, false);
        if (flags.list) tw.store.watchlists.require(flags.list);
        if (flags.out !== undefined && flags.out.trim() === '') throw new UserError('--out is empty; give a file name.');
        try {
          const result = await tw.exportCsv(flags.out, { list: flags.list, bom: flags.bom, force: flags.force, signal, splits: flags.splits });
          out.line(`wrote ${plural(result.rows, 'row')} to ${result.file}`);
        } catch (error) {
          if (signal.aborted) throw new UserError('the export was cancelled; nothing was written.', ExitCode.CANCELLED);
          throw error;
        }
      });
    });
}

// `export csv`: every stored record, one row each, streamed.
import type { Command } from 'commander';
import { withTrackwatch } from '../context.ts';
import { line } from '../output.ts';

export function registerExportCommand(program: Command): void {
  const exportCommand = program.command('export').description('export stored data');
  exportCommand
    .command('csv')
    .description('one row per stored record (RFC 4180; cells that spreadsheets would run as formulas are neutralised)')
    .option('--out <file>', 'where to write (default: a dated file under the data folder\'s exports/)')
    .option('--list <name>', 'only this watchlist')
    .option('--bom', 'start with a UTF-8 byte order mark (for Excel)')
    .action(async (flags: { out?: string; list?: string; bom?: boolean }, command: Command) => {
      await withTrackwatch(command, async (tw) => {
        if (flags.list) tw.store.watchlists.require(flags.list);
        const result = await tw.exportCsv(flags.out, { list: flags.list, bom: flags.bom });
        line(`wrote ${result.rows} row(s) to ${result.file}`);
      });
    });
}

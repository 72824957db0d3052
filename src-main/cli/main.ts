import { Command, CommanderError } from 'commander';
import { NadeoError } from '../core/nadeo/index.ts';
import { StoreError } from '../core/store/index.ts';
import { addGlobalOptions } from './context.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerEmulatorCommand } from './commands/emulator.ts';
import { registerExportCommand } from './commands/export.ts';
import { registerReadCommands } from './commands/read.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerSyncCommand } from './commands/sync.ts';
import { registerWatchlistCommands } from './commands/watchlists.ts';
import { UserError } from './errors.ts';

/** Builds the `trackwatch` program. Each command lives in its own module under ./commands. */
export function buildProgram(): Command {
  const program = addGlobalOptions(
    new Command('trackwatch')
      .description('Leaderboard tracker for Trackmania: watchlists, personal bests, replays, PB history.')
      .showHelpAfterError()
      .exitOverride(),
  );
  registerDemoCommand(program);
  registerWatchlistCommands(program);
  registerSyncCommand(program);
  registerReadCommands(program);
  registerExportCommand(program);
  registerServeCommand(program);
  registerEmulatorCommand(program);
  // Subcommands inherit the root's exit override, so a usage error returns here instead of exiting.
  for (const command of program.commands) command.exitOverride();
  return program;
}

/** Runs the command line; resolves to the process exit code. Errors become one clear line on stderr. */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (error instanceof UserError) {
      process.stderr.write(`trackwatch: ${error.message}\n`);
      return error.exitCode;
    }
    // The core's own errors already say what was wrong and what to do; nothing stored is lost by them.
    if (error instanceof NadeoError || error instanceof StoreError) {
      process.stderr.write(`trackwatch: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`trackwatch: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 70;
  }
}

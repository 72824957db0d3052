import { Command, CommanderError } from 'commander';
import { addGlobalOptions } from './context.ts';
import { checkDateFlags } from './dates.ts';
import { registerDemoCommand } from './commands/demo.ts';
import { registerEmulatorCommand } from './commands/emulator.ts';
import { registerExportCommand } from './commands/export.ts';
import { registerReadCommands } from './commands/read.ts';
import { registerReplayCommands } from './commands/replays.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerSplitsCommand } from './commands/splits.ts';
import { registerSyncCommand } from './commands/sync.ts';
import { registerWatchlistCommands } from './commands/watchlists.ts';
import { ExitCode, describeFailure, terminalSafe } from './errors.ts';

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
  registerReplayCommands(program);
  registerSplitsCommand(program);
  registerExportCommand(program);
  registerServeCommand(program);
  registerEmulatorCommand(program);
  // Subcommands inherit the root's exit override, so a usage error returns here instead of exiting.
  for (const command of program.commands) command.exitOverride();
  // Dates are checked before any command reads them: an impossible one is refused, not shifted (2024-02-30 is not March 1st).
  program.hook('preAction', (_program, action) => checkDateFlags(action.opts()));
  return program;
}

let outputFailure: NodeJS.ErrnoException | undefined;

/**
 * A reader that went away (`trackwatch compare | head`) is not an error: what is left to print is dropped, the
 * command finishes what it was doing (a sync keeps its data), and the process ends quietly. Another write failure
 * (stdout redirected to a full disk) is said once the command is done.
 */
export function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') outputFailure ??= error;
    stream.write = (() => true) as typeof stream.write;
  });
}

/** Waits until what was written to `stream` went out (or failed: its error handler has then run). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    stream.write('', () => setImmediate(resolve));
  });
}

/** Runs the command line; resolves to the process exit code. Errors become one clear line on stderr. */
export async function main(argv: string[]): Promise<number> {
  quietOnClosedPipe(process.stdout);
  quietOnClosedPipe(process.stderr);
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    await flushed(process.stdout);
    if (outputFailure) {
      process.stderr.write(`trackwatch: the output could not be written (${outputFailure.code ?? outputFailure.message}); what the command stored is kept.\n`);
      return ExitCode.IO_ERROR;
    }
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const failure = describeFailure(error);
    if (failure) {
      process.stderr.write(`trackwatch: ${terminalSafe(failure.message)}\n`);
      return failure.exitCode;
    }
    process.stderr.write(`trackwatch: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return ExitCode.SOFTWARE;
  }
}

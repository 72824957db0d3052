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
import type { CliIo } from './io.ts';
import { Output } from './output.ts';
import { forgetIdleWriteNotes } from '../core/atomic-file.ts';

/**
 * Builds the `trackwatch` program for one run, writing through `out`. Each command lives in its own module under
 * ./commands. `argv` is the run's command line (its script path names the copy to run again, invocation.ts).
 */
export function buildProgram(out: Output, argv: readonly string[]): Command {
  const { io } = out;
  const program = addGlobalOptions(
    new Command('trackwatch')
      .description('Leaderboard tracker for Trackmania: watchlists, personal bests, replays, PB history.')
      // Usage errors and help go to this run's streams, with the width and colours of those (commander's own
      // defaults read process.stdout and process.env); set before the commands, which inherit it.
      .configureOutput({
        writeOut: (text) => void io.stdout.write(text),
        writeErr: (text) => void io.stderr.write(text),
        getOutHelpWidth: () => (io.stdout.isTTY ? io.stdout.columns : undefined) ?? HELP_WIDTH,
        getErrHelpWidth: () => (io.stderr.isTTY ? io.stderr.columns : undefined) ?? HELP_WIDTH,
        getOutHasColors: () => helpColours(io.env) ?? Boolean(io.stdout.isTTY && io.stdout.hasColors?.()),
        getErrHasColors: () => helpColours(io.env) ?? Boolean(io.stderr.isTTY && io.stderr.hasColors?.()),
      })
      .showHelpAfterError()
      .exitOverride(),
  );
  registerDemoCommand(program, out, argv);
  registerWatchlistCommands(program, out);
  registerSyncCommand(program, out);
  registerReadCommands(program, out);
  registerReplayCommands(program, out);
  registerSplitsCommand(program, out);
  registerExportCommand(program, out);
  registerServeCommand(program, out);
  registerEmulatorCommand(program, out);
  // Subcommands inherit the root's exit override, so a usage error returns here instead of exiting.
  for (const command of program.commands) command.exitOverride();
  // Dates are checked before any command reads them: an impossible one is refused, not shifted (2024-02-30 is not March 1st).
  program.hook('preAction', (_program, action) => checkDateFlags(action.opts()));
  return program;
}

/** Commander's help width when its stream is no terminal (help.js). */
const HELP_WIDTH = 80;

/** Commander's reading of NO_COLOR and FORCE_COLOR (its useColor), over this run's environment. */
function helpColours(env: NodeJS.ProcessEnv): boolean | undefined {
  if (env.NO_COLOR || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return false;
  if (env.FORCE_COLOR || env.CLICOLOR_FORCE !== undefined) return true;
  return undefined;
}

/**
 * Runs the command line with `io` (the real process's from bin/trackwatch.js, a test's buffers in the tests);
 * resolves to the exit code. Errors become one clear line on stderr. Whatever the run opened (the data folder, an emulator, signal
 * listeners) is closed or removed when it resolves: the tests run many in one process.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const out = new Output(io);
  out.quietOnClosedPipes();
  try {
    return await run(argv, out);
  } finally {
    // What a process leaves at its exit (atomic-file.ts), left when the run ends, as a process of its own would.
    forgetIdleWriteNotes();
  }
}

async function run(argv: string[], out: Output): Promise<number> {
  const program = buildProgram(out, argv);
  try {
    await program.parseAsync(argv);
    await out.flushed();
    if (out.failure) {
      out.io.stderr.write(`trackwatch: the output could not be written (${out.failure.code ?? out.failure.message}); what the command stored is kept.\n`);
      return ExitCode.IO_ERROR;
    }
    return ExitCode.OK;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const failure = describeFailure(error);
    if (failure) {
      out.io.stderr.write(`trackwatch: ${terminalSafe(failure.message)}\n`);
      return failure.exitCode;
    }
    out.io.stderr.write(`trackwatch: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return ExitCode.SOFTWARE;
  }
}

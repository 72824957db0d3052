import { Command, CommanderError } from 'commander';
import { registerEmulatorCommand } from './commands/emulator.ts';
import { UserError } from './errors.ts';

/** Builds the `trackwatch` program. Each command lives in its own module under ./commands. */
export function buildProgram(): Command {
  const program = new Command('trackwatch')
    .description('Leaderboard tracker for Trackmania: watchlists, personal bests, replays, PB history.')
    .showHelpAfterError()
    .exitOverride();
  registerEmulatorCommand(program);
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
    process.stderr.write(`trackwatch: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 70;
  }
}

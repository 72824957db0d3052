// The trackwatch command as a user runs it, in a child process: no colours, only PATH and HOME from the environment
// (plus what a test gives), and its exit code, stdout and stderr whatever the outcome.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const BIN = join(import.meta.dirname, '../../bin/trackwatch.js');
const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `trackwatch args...` to its end. */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as CliResult;
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

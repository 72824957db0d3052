// The trackwatch command as a user runs it, in a child process: no colours, only PATH and HOME from the environment
// (plus what a test gives), and its exit code, stdout and stderr whatever the outcome.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startEmulator, type Dataset, type RunningEmulator } from '../../src-main/emulator/index.ts';
import { tempDataDir } from './sync.ts';

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

/**
 * For a describe block that runs the command against the emulator: the emulator serving `dataset` for the block, a
 * fresh data folder for each test (its stats reset), and `at(...)` giving the command both, after `flags`.
 */
export function useEmulatorAndDataDir(dataset: Dataset, flags: readonly string[] = []): {
  emulator: () => RunningEmulator;
  dir: () => string;
  at: (...args: string[]) => string[];
} {
  let emulator: RunningEmulator | undefined;
  let data: { dir: string; remove: () => Promise<void> } | undefined;
  beforeAll(async () => {
    emulator = await startEmulator({ dataset });
  });
  afterAll(async () => emulator?.close());
  beforeEach(async () => {
    data = await tempDataDir();
    emulator!.resetStats();
  });
  afterEach(async () => data?.remove());
  return {
    emulator: () => emulator!,
    dir: () => data!.dir,
    at: (...args) => ['--data-dir', data!.dir, '--api-url', emulator!.url, ...flags, ...args],
  };
}

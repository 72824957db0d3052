// The trackwatch command as a user runs it: no colours, only PATH and HOME from the environment (plus what a test
// gives), and its exit code, stdout and stderr whatever the outcome.
//
// `cli` runs the command in this process: `main()` with buffers for stdout and stderr, a stdin that is no terminal,
// and the environment it is given (src-main/cli/io.ts). It costs a run's work, not a process start (about 0.5 s of
// CPU each: Node, 550 modules, type stripping). What a run opens (the data folder, signal listeners, an emulator),
// it closes: test/integration/cli/in-process.test.ts holds that.
//
// `cliProcess` runs the real `bin/trackwatch.js` in a child process. It is kept, deliberately, where the process is
// what is tested, or where a user's way of running it is:
// - bin/trackwatch.js's guard against a Node older than 24 (cli.test.ts);
// - smoke tests as a user runs it: `maps add`, `sync --json`, `compare` and `export csv` (cli.test.ts), and the
//   command the demo prints, run as printed from another folder (cli.test.ts);
// - a real Ctrl-C (SIGINT) at a request the test holds (sync-cli.test.ts, through test/faults/local/helpers.ts);
// - a terminal, made with `script`, for the question before a large sync (sync-plan.test.ts);
// - local faults that need a process of their own (test/faults/local/helpers.ts says which): a fault injected with
//   `node --import` (inject.ts patches fs and SQLite process-wide, Ctrl-C mid-export among them), a read-only mount
//   namespace, a closed stdout pipe, stdout on /dev/full, a HOME that Node reads, and `serve` on a read-only folder.
// Outside these folders, test/integration/emulator, test/integration/bridge (serve) and test/integration/sync
// (kill.test.ts: SIGKILL at a chosen moment) start the command as a process too.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { main } from '../../src-main/cli/main.ts';
import type { CliIo, StopSignal } from '../../src-main/cli/io.ts';
import { startEmulator, type Dataset, type RunningEmulator } from '../../src-main/emulator/index.ts';
import { Collected } from './collected.ts';
import { tempDataDir } from './sync.ts';

export const BIN = join(import.meta.dirname, '../../bin/trackwatch.js');
const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment a run gets: what a user's shell would pass of ours, plus what the test gives. */
function environment(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...env };
}

/** Runs `trackwatch args...` to its end, in this process. */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const stdout = new Collected();
  const stderr = new Collected();
  // A pipe nobody writes to, as execFile gives a child: no terminal, so nothing asks a question.
  const stdin = new PassThrough();
  const given = environment(env);
  const listening = new Set<unknown>();
  const io: CliIo = {
    stdin,
    stdout,
    stderr,
    env: given,
    // A process's TZ, read as the command reads its time zone (this process's own is the whole worker's).
    timeZone: given.TZ,
    // No signal reaches a run in this process (a test that sends one runs `cliProcess`); what listens is counted.
    onceSignal: (signal: StopSignal) => {
      const registration = { signal };
      listening.add(registration);
      return () => void listening.delete(registration);
    },
  };
  try {
    const code = await main([process.execPath, BIN, ...args], io);
    if (listening.size > 0) throw new Error(`\`trackwatch ${args.join(' ')}\` ended with ${listening.size} stop-signal listener(s) still registered`);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    stdin.destroy();
    stdout.destroy();
    stderr.destroy();
  }
}

/** Runs `trackwatch args...` to its end, as a child process: `node bin/trackwatch.js` (see the list above). */
export async function cliProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: environment(env) });
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

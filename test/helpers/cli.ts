// The trackwatch command as a user runs it: no colours, only PATH and HOME from the environment (plus what a test
// gives), and its exit code, stdout and stderr whatever the outcome.
//
// `cli` runs the command in this process: `main()` with buffers for stdout and stderr, a stdin that is no terminal,
// and the environment it is given (src-main/cli/io.ts). It costs a run's work, not a process start (about 0.5 s of
// CPU each: Node, 550 modules, type stripping). What a run opens (the data folder, signal listeners, an emulator),
// it closes: test/integration/cli/in-process.test.ts holds that.
//
// `cliProcess` runs the real `bin/trackwatch.js` in a child process. It is kept, deliberately, where the process is
// what is tested:
// - bin/trackwatch.js itself: the Node-version guard and the compile cache (cli.test.ts);
// - signals and kills: Ctrl-C mid-sync, SIGTERM, a kill at a chosen moment (sync-cli.test.ts, test/integration/sync
//   kill.test.ts, test/faults/local);
// - a closed pipe (`| head`) and stdout on a full device (sync-plan.test.ts, test/faults/local);
// - local faults injected with `node --import` (test/faults/local/inject.ts patches fs and SQLite process-wide) or on
//   a read-only mount namespace (test/faults/local/helpers.ts);
// - one smoke test per main command family as a user runs it: maps/players/sync/compare/export (cli.test.ts), the
//   emulator and serve (test/integration/emulator, test/integration/bridge), the demo (cli.test.ts).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { main } from '../../src-main/cli/main.ts';
import type { CliIo, StopSignal } from '../../src-main/cli/io.ts';
import { startEmulator, type Dataset, type RunningEmulator } from '../../src-main/emulator/index.ts';
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

/** A stream that keeps every byte written to it, as a pipe to a reader would deliver them. */
class Collected extends Writable {
  readonly #chunks: Buffer[] = [];
  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.#chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, encoding));
    done();
  }
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}

/** Runs `trackwatch args...` to its end, in this process. */
export async function cli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const stdout = new Collected();
  const stderr = new Collected();
  // A pipe nobody writes to, as execFile gives a child: no terminal, so nothing asks a question.
  const stdin = new PassThrough();
  const given = environment(env);
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
  const listening = new Set<unknown>();
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

// Where one run of the trackwatch command reads, writes and hears its stop signals: the real process for
// bin/trackwatch.js, buffers and a plain environment for a test that runs the command in its own process. Nothing
// else in src-main/cli touches process.stdin, .stdout, .stderr, .env or process signal handlers.
import type { Readable, Writable } from 'node:stream';

/** The signals a command stops on (each command says which). */
export type StopSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** What a terminal stream may tell: whether it is one, and its width. */
export interface TerminalFacts {
  isTTY?: boolean | undefined;
  columns?: number | undefined;
  hasColors?: (() => boolean) | undefined;
}

export type CliInput = Readable & TerminalFacts;
export type CliOutput = Writable & TerminalFacts;

export interface CliIo {
  readonly stdin: CliInput;
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  /** The environment the command reads its settings and secrets from. */
  readonly env: NodeJS.ProcessEnv;
  /** The time zone dates are shown in, an IANA name; the process's own (TZ) when absent. */
  readonly timeZone?: string | undefined;
  /** Calls `handler` the first time `signal` comes; the returned function stops listening (idempotent). */
  onceSignal(signal: StopSignal, handler: (signal: StopSignal) => void): () => void;
}

/** The real process's streams, environment and signals: what `bin/trackwatch.js` runs the command with. */
export function processIo(): CliIo {
  return {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    onceSignal(signal, handler) {
      const listener = (): void => handler(signal);
      process.once(signal, listener);
      return () => void process.off(signal, listener);
    },
  };
}

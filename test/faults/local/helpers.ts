// The local-fault suite's tools: the trackwatch command in a child process (optionally with a fault injected, or on
// a read-only view of its data folder), and what "intact" means for a data folder.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE_NAME } from '../../../src-main/core/paths.ts';
import { cli } from '../../helpers/cli.ts';

export const BIN = join(import.meta.dirname, '../../../bin/trackwatch.js');
const INJECT = join(import.meta.dirname, 'inject.ts');

export interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  /** Faults for inject.ts (see there). */
  inject?: Record<string, unknown>;
  /** Runs on a read-only view of this folder (a read-only bind mount as root, write permission removed otherwise). */
  readOnly?: string;
  /** Called with the child once it runs (to close its stdout, to signal it). */
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
  /** Where stdout goes: a pipe (default) or a file descriptor (e.g. /dev/full). */
  stdoutFd?: number;
}

const isRoot = process.getuid?.() === 0;

/**
 * Runs `trackwatch args...`; resolves when it ends. In a child process when the fault needs one (an injected fault
 * patches the process, a read-only mount is the process's namespace, a signal or a file descriptor is the process's,
 * HOME is read by Node itself); in this process otherwise (test/helpers/cli.ts), which is the same command for a
 * fraction of the time.
 */
export async function trackwatch(args: string[], options: RunOptions = {}): Promise<Result> {
  if (!options.inject && !options.readOnly && !options.onSpawn && options.stdoutFd === undefined && options.env?.HOME === undefined) {
    return { ...(await cli(args, options.env)), signal: null };
  }
  return trackwatchProcess(args, options);
}

/** Runs `trackwatch args...` in a child process; resolves when it exits. */
export function trackwatchProcess(args: string[], options: RunOptions = {}): Promise<Result> {
  const node = [...(options.inject ? ['--import', INJECT] : []), BIN, ...args];
  const env = {
    PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1', ...options.env,
    ...(options.inject ? { TRACKWATCH_TEST_INJECT: JSON.stringify(options.inject) } : {}),
  };
  let command = process.execPath;
  let argv = node;
  if (options.readOnly && isRoot) {
    // Root writes through permission bits: a read-only bind mount in a private mount namespace is the real thing.
    command = 'unshare';
    argv = ['-m', 'sh', '-c', 'mount --bind -o ro "$0" "$0" && exec "$@"', options.readOnly, process.execPath, ...node];
  } else if (options.readOnly) {
    setWritable(options.readOnly, false);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { env, stdio: ['ignore', options.stdoutFd ?? 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdout?.on('error', () => {});
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (options.readOnly && !isRoot) setWritable(options.readOnly, true);
      resolve({ code, signal, stdout, stderr });
    });
    options.onSpawn?.(child);
  });
}

/** Whether a read-only view of a folder can be made here (a bind mount as root, permissions otherwise). */
export function canMakeReadOnly(): boolean {
  if (!isRoot) return true;
  return spawnSync('unshare', ['-m', 'true']).status === 0;
}

function setWritable(dir: string, writable: boolean): void {
  const walk = (path: string): void => {
    const stat = statSync(path);
    chmodSync(path, writable ? stat.mode | 0o200 : stat.mode & ~0o222);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
}

/** One line on stderr, as the command line promises for every fault: `trackwatch: …`, no stack trace. */
export function oneLine(result: Result): string {
  const lines = result.stderr.trimEnd().split('\n');
  if (lines.length !== 1 || !lines[0]!.startsWith('trackwatch: ') || /\bat .+:\d+:\d+\)?$/m.test(result.stderr)) {
    throw new Error(`expected one line on stderr, got:\n${result.stderr}`);
  }
  return lines[0]!.slice('trackwatch: '.length);
}

export function databaseOf(dir: string): string {
  return join(dir, DATABASE_FILE_NAME);
}

export function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * PRAGMA integrity_check, the rows of the tables that hold the player's data (what must stay intact), and the sync
 * runs (how each ended). Read-only.
 */
export function inspect(dir: string): { integrity: string; rows: Record<string, unknown[]>; runs: { id: number; outcome: string }[] } {
  const db = new Database(databaseOf(dir), { readonly: true, fileMustExist: true });
  try {
    const integrity = db.pragma('integrity_check', { simple: true }) as string;
    const rows: Record<string, unknown[]> = {};
    for (const table of ['watchlists', 'maps', 'players', 'records', 'replays', 'settings', 'world_record_holders']) rows[table] = db.prepare(`SELECT * FROM ${table} ORDER BY 1`).all();
    const runs = db.prepare('SELECT id, outcome FROM sync_runs ORDER BY id').all() as { id: number; outcome: string }[];
    return { integrity, rows, runs };
  } finally {
    db.close();
  }
}

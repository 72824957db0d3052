// Global options of the trackwatch command, read once: flags beat environment variables beat defaults.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { RATE_LIMITS, REAL_BASE_URL, REAL_SERVICE_MAX_RPS, isRealServiceHost } from '../core/nadeo/index.ts';
import { resolveDataDir } from '../core/paths.ts';
import { openTrackwatch, type Trackwatch, type TrackwatchOptions } from '../core/trackwatch.ts';
import { UserError } from './errors.ts';

export interface GlobalFlags {
  dataDir?: string;
  apiUrl?: string;
  contact?: string;
  maxRps?: string;
}

export const DEFAULT_LIST = 'Default';

/** Adds the global options to the root program; every command reads them through `openFromCommand`. */
export function addGlobalOptions(program: Command): Command {
  return program
    .option('--data-dir <dir>', 'data folder (default: the per-OS app-data folder "Trackwatch"; env TRACKWATCH_DATA_DIR)')
    .option('--api-url <url>', `Nadeo Core service (default ${REAL_BASE_URL}; env TRACKWATCH_API_URL)`)
    .option('--contact <text>', 'who runs this copy, sent in the User-Agent; required by the real service (env TRACKWATCH_CONTACT)')
    .option('--max-rps <n>', 'requests per second (default 1 for the real service; env TRACKWATCH_MAX_RPS)');
}

function parseMaxRps(raw: string | undefined, real: boolean, warn: (line: string) => void): number | undefined {
  if (raw === undefined || raw === '') return real ? 1 : undefined;
  const value = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(raw) ? Number(raw) : Number.NaN;
  // The client's own sane range (core/nadeo), said here in the flag's words before anything starts.
  const { min } = RATE_LIMITS.maxRps;
  const max = real ? REAL_SERVICE_MAX_RPS : RATE_LIMITS.maxRps.max;
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new UserError(
      `--max-rps must be a number of requests per second from ${min} to ${max}${real ? " against Nadeo's service (1 is polite, 2 the ceiling Nadeo staff gave)" : ''}, got "${raw}".`,
    );
  }
  if (real && value > 2) {
    warn(`warning: --max-rps ${value} is above the 2 requests/second Nadeo staff gave as a ceiling; your account or IP may be banned.`);
  }
  return value;
}

/** Turns the root's flags and the environment into the options of a Trackwatch. Secrets come only from the environment. */
export function resolveOptions(
  flags: GlobalFlags,
  env: NodeJS.ProcessEnv = process.env,
  warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): TrackwatchOptions {
  const apiUrl = flags.apiUrl ?? env.TRACKWATCH_API_URL ?? REAL_BASE_URL;
  let real: boolean;
  try {
    real = isRealServiceHost(new URL(apiUrl).hostname);
  } catch {
    throw new UserError(`--api-url "${apiUrl}" is not a URL; use e.g. ${REAL_BASE_URL} or the emulator's http://127.0.0.1:PORT.`);
  }
  const login = env.TRACKWATCH_LOGIN;
  const password = env.TRACKWATCH_PASSWORD;
  if ((login && !password) || (!login && password)) {
    throw new UserError('set both TRACKWATCH_LOGIN and TRACKWATCH_PASSWORD (a service account from trackmania.com), or neither.');
  }
  const clientId = env.TRACKWATCH_OAUTH_CLIENT_ID;
  const clientSecret = env.TRACKWATCH_OAUTH_CLIENT_SECRET;
  // An empty --data-dir is a slip (an unset shell variable), not a wish for the default folder.
  if (flags.dataDir !== undefined && flags.dataDir.trim() === '') {
    throw new UserError('--data-dir is empty; give a folder, or leave the flag out for the default one.');
  }
  return {
    dataDir: resolveDataDir({ flag: flags.dataDir, env }),
    apiUrl,
    contact: flags.contact ?? env.TRACKWATCH_CONTACT,
    maxRps: parseMaxRps(flags.maxRps ?? env.TRACKWATCH_MAX_RPS, real, warn),
    credentials: login && password ? { login, password } : undefined,
    oauth: clientId && clientSecret ? { clientId, clientSecret, baseUrl: env.TRACKWATCH_OAUTH_URL } : undefined,
  };
}

/** Commands that only read the data folder: they never create it, and work on read-only media. */
const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set(['records', 'compare', 'history', 'lists', 'maps list', 'players list', 'export csv']);

/** The command's path under the root, e.g. "maps list". */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** Opens the data folder for a command, with the root program's global options. */
export async function openFromCommand(command: Command): Promise<Trackwatch> {
  const flags = command.optsWithGlobals<GlobalFlags>();
  const options = resolveOptions(flags);
  const readOnly = READ_ONLY_COMMANDS.has(commandPath(command));
  if (readOnly && !existsSync(options.dataDir)) {
    throw new UserError(
      `there is no Trackwatch data in ${options.dataDir} (the folder does not exist); nothing was created. ` +
        'Name your data folder with --data-dir, or add maps first (`trackwatch maps add`).',
    );
  }
  return openTrackwatch(options, { readOnly });
}

/** What ends a command early, as a cancel: Ctrl-C, and the polite kill of a service manager or a closed terminal. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs `work` with an open Trackwatch and always closes it. Ctrl-C (or SIGTERM, SIGHUP) aborts the signal instead of
 * killing the process, so what is under way ends cleanly: a sync keeps what it fetched, an export leaves no file.
 */
export async function withTrackwatch<T>(command: Command, work: (tw: Trackwatch, signal: AbortSignal) => Promise<T>): Promise<T> {
  const tw = await openFromCommand(command);
  const controller = new AbortController();
  const onStop = (): void => controller.abort();
  for (const name of STOP_SIGNALS) process.once(name, onStop);
  try {
    return await work(tw, controller.signal);
  } finally {
    for (const name of STOP_SIGNALS) process.off(name, onStop);
    await tw.close();
  }
}

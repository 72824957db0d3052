// Global options of the trackwatch command, read once: flags beat environment variables beat defaults.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { ConfigError, REAL_BASE_URL, isRealServiceHost, parseNadeoBase, serviceUrls } from '../core/nadeo/index.ts';
import { resolveDataDir } from '../core/paths.ts';
import { DEFAULT_MAX_RPS, isAllowedRate, rateRangeWords, REAL_SERVICE_MAX_RPS } from '../shared/rate-policy.ts';
import { openTrackwatch, type Trackwatch, type TrackwatchOptions } from '../core/trackwatch.ts';
import { CancelledError, UserError, isCancel } from './errors.ts';
import type { CliIo } from './io.ts';
import type { Output } from './output.ts';

export interface GlobalFlags {
  dataDir?: string;
  apiUrl?: string;
  contact?: string;
  maxRps?: string;
  liveUrl?: string;
  oauthUrl?: string;
  exchangeUrl?: string;
}

/** Adds the global options to the root program; every command reads them through `openFromCommand`. */
export function addGlobalOptions(program: Command): Command {
  return program
    .option('--data-dir <dir>', 'data folder (default: the per-OS app-data folder "Trackwatch"; env TRACKWATCH_DATA_DIR)')
    .option('--api-url <url>', `Nadeo Core service (default ${REAL_BASE_URL}; env TRACKWATCH_API_URL)`)
    .option('--contact <text>', 'who runs this copy, sent in the User-Agent; required by the real service (env TRACKWATCH_CONTACT)')
    .option('--max-rps <n>', `requests per second (default ${DEFAULT_MAX_RPS}, at most ${REAL_SERVICE_MAX_RPS} against the real services; env TRACKWATCH_MAX_RPS)`)
    .option('--live-url <url>', 'Nadeo Live services (default: the real ones beside the real Core service, else the --api-url; env TRACKWATCH_LIVE_URL)')
    .option('--oauth-url <url>', 'Trackmania OAuth API for player names (default: the real one beside the real Core service, else the --api-url; env TRACKWATCH_OAUTH_URL)')
    .option('--exchange-url <url>', 'Trackmania Exchange (default: the real one beside the real Core service, else the --api-url + /tmx; env TRACKWATCH_EXCHANGE_URL)');
}

/** Where a global setting came from, named as the player gave it: the flag, else its environment variable. */
interface Given {
  value: string;
  from: string;
}

/**
 * The flag's value, else the environment variable's; undefined when neither is given. An empty flag is a slip (an
 * unset shell variable) and is refused; an empty variable counts as unset, as for TRACKWATCH_DATA_DIR.
 */
function given(flag: string | undefined, flagName: string, env: string | undefined, envName: string): Given | undefined {
  if (flag !== undefined) {
    if (flag.trim() === '') throw new UserError(`${flagName} is empty; give a value, or leave the flag out for the default.`);
    return { value: flag, from: flagName };
  }
  return env !== undefined && env.trim() !== '' ? { value: env, from: envName } : undefined;
}

/**
 * The service's URL, checked here in the words of the flag or variable it came from, before anything starts (the
 * client's own checks, parseNadeoBase, would name its option and only once a request is due).
 */
function checkApiUrl(api: Given): { url: string; real: boolean } {
  const example = `use e.g. ${REAL_BASE_URL} or the emulator's http://127.0.0.1:PORT`;
  let url: URL;
  try {
    url = new URL(api.value);
  } catch {
    throw new UserError(`${api.from} "${api.value}" is not a URL; ${example}.`);
  }
  // Said before the client's rule, which points to an option the command line does not have.
  if (url.username || url.password) {
    throw new UserError(`${api.from} must not carry a user name or password; the login comes from TRACKWATCH_LOGIN and TRACKWATCH_PASSWORD.`);
  }
  try {
    parseNadeoBase(api.value, api.from);
  } catch (error) {
    if (error instanceof ConfigError) throw new UserError(`${error.message.replace(/\.$/, '')}; ${example}.`);
    throw error;
  }
  return { url: api.value, real: isRealServiceHost(url.hostname) };
}

/** The rate given, in the rate policy's range (shared/rate-policy.ts); undefined when none is (the client's default). */
function parseMaxRps(rate: Given | undefined, real: boolean): number | undefined {
  if (rate === undefined) return undefined;
  // Any notation of a finite number: 20, 0.5, .5, 1e4.
  const value = Number(rate.value);
  // Said here in the flag's words before anything starts, on every command: a rate the client would refuse.
  if (!isAllowedRate(value, real)) {
    throw new UserError(`${rate.from} must be a number of requests per second ${rateRangeWords(real)}, got "${rate.value}".`);
  }
  return value;
}

/**
 * The Live, OAuth and Exchange URLs given by flag or environment, checked against the Core URL: beside anything but
 * Nadeo's real Core service, a real Nadeo, Ubisoft or Exchange host is refused (core/nadeo/clients.ts serviceUrls).
 */
export function resolveServiceUrls(flags: GlobalFlags, env: NodeJS.ProcessEnv, apiUrl: string): { liveUrl?: string; oauthUrl?: string; exchangeUrl?: string } {
  const urls = {
    liveUrl: given(flags.liveUrl, '--live-url', env.TRACKWATCH_LIVE_URL, 'TRACKWATCH_LIVE_URL')?.value,
    oauthUrl: given(flags.oauthUrl, '--oauth-url', env.TRACKWATCH_OAUTH_URL, 'TRACKWATCH_OAUTH_URL')?.value,
    exchangeUrl: given(flags.exchangeUrl, '--exchange-url', env.TRACKWATCH_EXCHANGE_URL, 'TRACKWATCH_EXCHANGE_URL')?.value,
  };
  try {
    serviceUrls(apiUrl, urls);
  } catch (error) {
    if (error instanceof ConfigError) throw new UserError(error.message.replace(/\.$/, ''));
    throw error;
  }
  return Object.fromEntries(Object.entries(urls).filter(([, v]) => v !== undefined));
}

/** Turns the root's flags and the environment into the options of a Trackwatch. Secrets come only from the environment. */
export function resolveOptions(flags: GlobalFlags, env: NodeJS.ProcessEnv): TrackwatchOptions {
  const api = checkApiUrl(given(flags.apiUrl, '--api-url', env.TRACKWATCH_API_URL, 'TRACKWATCH_API_URL') ?? { value: REAL_BASE_URL, from: '--api-url' });
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
  const urls = resolveServiceUrls(flags, env, api.url);
  return {
    dataDir: resolveDataDir({ flag: flags.dataDir, env }),
    apiUrl: api.url,
    liveUrl: urls.liveUrl,
    exchangeUrl: urls.exchangeUrl,
    contact: flags.contact ?? env.TRACKWATCH_CONTACT,
    maxRps: parseMaxRps(given(flags.maxRps, '--max-rps', env.TRACKWATCH_MAX_RPS, 'TRACKWATCH_MAX_RPS'), api.real),
    credentials: login && password ? { login, password } : undefined,
    oauth: clientId && clientSecret ? { clientId, clientSecret, baseUrl: urls.oauthUrl } : undefined,
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
export async function openFromCommand(command: Command, env: NodeJS.ProcessEnv): Promise<Trackwatch> {
  const path = commandPath(command);
  const options = resolveOptions(command.optsWithGlobals<GlobalFlags>(), env);
  const readOnly = READ_ONLY_COMMANDS.has(path);
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
 * The one way a command is cancelled: Ctrl-C (or SIGTERM, SIGHUP) aborts the signal `work` gets instead of killing
 * the process, so what is under way ends cleanly (a sync keeps what it fetched, an export leaves no file), and
 * whatever `work` then throws ends the command as cancelled: exit 130, one line. A command that says more about its
 * cancel throws its own CancelledError.
 */
export async function stoppable<T>(io: CliIo, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onStop = (): void => controller.abort();
  const listening = STOP_SIGNALS.map((name) => io.onceSignal(name, onStop));
  try {
    return await work(controller.signal);
  } catch (error) {
    if (controller.signal.aborted && !isCancel(error)) throw new CancelledError(`${what} was cancelled.`);
    throw error;
  } finally {
    for (const stopListening of listening) stopListening();
  }
}

/** Runs `work` with an open Trackwatch and always closes it; Ctrl-C cancels it (stoppable). */
export async function withTrackwatch<T>(out: Output, command: Command, work: (tw: Trackwatch, signal: AbortSignal) => Promise<T>): Promise<T> {
  const tw = await openFromCommand(command, out.io.env);
  try {
    return await stoppable(out.io, `\`trackwatch ${commandPath(command)}\``, (signal) => work(tw, signal));
  } finally {
    await tw.close();
  }
}

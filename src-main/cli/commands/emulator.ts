// `trackwatch emulator`: serves the emulator of Nadeo's service until SIGINT/SIGTERM, for the demo and manual tests.
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { Dataset, EmulatorOptions, GenerateOptions } from '../../emulator/index.ts';

/** The emulator loads with the commands that serve or generate, not with every command (a command starts faster). */
const emulatorModule = (): Promise<typeof import('../../emulator/index.ts')> => import('../../emulator/index.ts');
import { isUuid } from '../../shared/ids.ts';
import { UserError } from '../errors.ts';
import type { Output } from '../output.ts';

interface EmulatorCliOptions {
  dataset?: string;
  generate?: boolean;
  seed: string;
  maps: string;
  players: string;
  secretHeavyMaps?: string;
  hostileNames?: boolean;
  writeDataset?: string;
  host: string;
  port: string;
  auth?: string;
  authAccount?: string;
  oauth?: string;
  latency?: string;
  failRate?: string;
  faultSeed?: string;
  rateLimit?: string;
  withoutDeprecatedRoutes?: boolean;
  byIdDropsInvalid?: boolean;
}

function numberOption(flag: string, value: string, check: { min: number; max?: number; whole?: boolean; above?: boolean }): number {
  const n = Number(value);
  const ok =
    value.trim() !== '' &&
    Number.isFinite(n) &&
    (check.above ? n > check.min : n >= check.min) &&
    (check.max === undefined || n <= check.max) &&
    (!check.whole || Number.isInteger(n));
  if (ok) return n;
  const range = `${check.above ? 'above' : 'at least'} ${check.min}${check.max !== undefined ? ` and at most ${check.max}` : ''}`;
  throw new UserError(`${flag} must be ${check.whole ? 'a whole number' : 'a number'} ${range}; got "${value}".`);
}

/** LOGIN:PASSWORD -> both parts; the secret may itself contain colons. */
function pairOption(flag: string, value: string, names: [string, string]): [string, string] {
  const colon = value.indexOf(':');
  const first = value.slice(0, colon);
  const second = value.slice(colon + 1);
  if (colon <= 0 || second === '') throw new UserError(`${flag} must be ${names[0]}:${names[1]}, both non-empty; got "${value}".`);
  return [first, second];
}

async function readDataset(file: string): Promise<Dataset> {
  const { DatasetError, loadDataset } = await emulatorModule();
  try {
    return await loadDataset(file);
  } catch (error) {
    if (error instanceof DatasetError)
      throw new UserError(`${error.message}. Fix the named fields, or write a valid dataset with: trackwatch emulator --generate --write-dataset FILE`);
    const reason = error instanceof Error ? error.message : String(error);
    throw new UserError(`cannot read the dataset file "${file}" (${reason}). Check the path, or leave out --dataset to generate one.`);
  }
}

/**
 * Turns the command line into emulator options; every mistake becomes a UserError saying what to do. A generated
 * dataset is as of `now` (the real clock; a test gives a fixed one).
 */
export async function emulatorOptionsFrom(opts: EmulatorCliOptions, explicit: (name: string) => boolean, now: () => number = Date.now): Promise<{ options: EmulatorOptions; summary: string }> {
  if (opts.dataset !== undefined && opts.generate) throw new UserError('--dataset and --generate exclude each other: serve a file, or generate one.');
  if (opts.dataset !== undefined && (explicit('seed') || explicit('maps') || explicit('players') || opts.secretHeavyMaps !== undefined || opts.hostileNames))
    throw new UserError('--seed, --maps, --players, --secret-heavy-maps and --hostile-names only apply when generating; leave them out with --dataset.');
  let dataset: Dataset;
  let summary: string;
  if (opts.dataset !== undefined) {
    dataset = await readDataset(opts.dataset);
    summary = `dataset ${opts.dataset}`;
  } else {
    const seed = numberOption('--seed', opts.seed, { min: 0, max: 4294967295, whole: true });
    const maps = numberOption('--maps', opts.maps, { min: 0, max: 100000, whole: true });
    const players = numberOption('--players', opts.players, { min: 0, max: 100000, whole: true });
    const generate: GenerateOptions = { seed, maps, players, style: opts.hostileNames ? 'hostile' : 'season', now: now() };
    if (opts.secretHeavyMaps !== undefined)
      generate.secretHeavyMaps = numberOption('--secret-heavy-maps', opts.secretHeavyMaps, { min: 0, max: maps, whole: true });
    try {
      dataset = (await emulatorModule()).generateDataset(generate);
    } catch (error) {
      if (error instanceof RangeError) throw new UserError(`${error.message.replace(/^generateDataset: secretHeavyMaps/, '--secret-heavy-maps')}.`);
      throw error;
    }
    summary = `generated dataset (seed ${seed}, ${generate.style === 'season' ? 'a season of the game' : 'hostile names'})`;
  }
  summary += `: ${dataset.maps.length} maps, ${dataset.records.length} records, ${Object.keys(dataset.displayNames ?? {}).length} display names`;

  const options: EmulatorOptions = {
    dataset,
    host: opts.host,
    port: numberOption('--port', opts.port, { min: 0, max: 65535, whole: true }),
  };
  if (opts.auth !== undefined) {
    const [login, password] = pairOption('--auth', opts.auth, ['LOGIN', 'PASSWORD']);
    options.auth = { login, password };
    if (opts.authAccount !== undefined) {
      if (!isUuid(opts.authAccount)) throw new UserError(`--auth-account must be an account ID (a UUID), got "${opts.authAccount}".`);
      options.auth.accountId = opts.authAccount;
    }
  } else if (opts.authAccount !== undefined) {
    throw new UserError('--auth-account names the account of the --auth login: give --auth too.');
  }
  if (opts.oauth !== undefined) {
    const [clientId, clientSecret] = pairOption('--oauth', opts.oauth, ['CLIENT_ID', 'SECRET']);
    options.oauth = { clientId, clientSecret };
  }
  if (opts.latency !== undefined) options.latencyMs = numberOption('--latency', opts.latency, { min: 0, max: 600000 });
  if (opts.failRate !== undefined) options.failRate = numberOption('--fail-rate', opts.failRate, { min: 0, max: 1 });
  if (opts.faultSeed !== undefined) options.faultSeed = numberOption('--fault-seed', opts.faultSeed, { min: 0, max: 4294967295, whole: true });
  if (opts.rateLimit !== undefined) options.rateLimitRps = numberOption('--rate-limit', opts.rateLimit, { min: 0, above: true });
  if (opts.withoutDeprecatedRoutes) options.withoutDeprecatedRoutes = true;
  if (opts.byIdDropsInvalid) options.byIdDropsInvalid = true;

  if (opts.writeDataset !== undefined) {
    try {
      await writeFile(opts.writeDataset, `${JSON.stringify(dataset, null, 2)}\n`);
    } catch (error) {
      throw new UserError(`cannot write the dataset to "${opts.writeDataset}" (${error instanceof Error ? error.message : String(error)}). Choose a writable path.`);
    }
  }
  return { options, summary };
}

async function runEmulator(out: Output, opts: EmulatorCliOptions, command: Command): Promise<void> {
  const { options, summary } = await emulatorOptionsFrom(opts, (name) => command.getOptionValueSource(name) === 'cli');
  let emulator;
  try {
    emulator = await (await emulatorModule()).startEmulator(options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UserError(`port ${options.port} on ${options.host} is in use: choose another --port (0 picks a free one).`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UserError(`cannot listen on host "${options.host}": give an address of this machine, e.g. 127.0.0.1.`);
    throw error;
  }
  // Listening for the stop signals before saying where it listens: a signal the OS delivers while no listener is
  // registered kills the process outright, and whoever read the line may send one at once.
  const signal = new Promise<NodeJS.Signals>((done) => {
    const stop = (name: NodeJS.Signals): void => {
      for (const stopListening of listening) stopListening();
      done(name);
    };
    const listening = (['SIGINT', 'SIGTERM'] as const).map((name) => out.io.onceSignal(name, stop));
  });
  // Tests and scripts read this first line to find the emulator.
  // A wildcard host listens on every address: said so, the URL first (what this machine reaches it by).
  const everywhere = options.host === '0.0.0.0' || options.host === '::' || options.host === '[::]';
  out.io.stdout.write(`listening on ${emulator.url}${everywhere ? ` and every other address of this machine (--host ${options.host}: other machines can reach it)` : ''}\n`);
  out.io.stdout.write(`${summary}\n`);
  if (options.auth) out.io.stdout.write(`auth: login required (${options.auth.login}${options.auth.accountId ? `, account ${options.auth.accountId}` : ''})\n`);
  if (options.oauth) out.io.stdout.write(`oauth: display names need a token (client ${options.oauth.clientId})\n`);

  const stoppedBy = await signal;
  await emulator.close();
  out.io.stderr.write(`emulator stopped (${stoppedBy})\n`);
}

export function registerEmulatorCommand(program: Command, out: Output): void {
  program
    .command('emulator')
    .description("Serve an emulator of Nadeo's API (the seed's routes, their successors, auth, files, display names) until Ctrl+C.")
    .option('--dataset <file>', 'serve this dataset JSON file')
    .option('--generate', 'serve a generated dataset (the default without --dataset)')
    .option('--seed <n>', 'seed of the generated dataset', '1')
    .option('--maps <n>', 'maps in the generated dataset', '24')
    .option('--players <n>', 'players in the generated dataset', '12')
    .option('--hostile-names', 'generate formula-injection, markup and path-like names for tests instead of a believable season')
    .option('--secret-heavy-maps <n>', 'maps of the generated dataset whose secret threshold hides most entries (default 0)')
    .option('--write-dataset <file>', 'also write the served dataset to this file')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0: any free port)', '0')
    .option('--auth <login:password>', 'require a Nadeo login with these credentials')
    .option('--auth-account <accountId>', "the --auth login's account: its records are never hidden from it by a secret threshold")
    .option('--oauth <clientId:secret>', 'require an OAuth client for the display-names API')
    .option('--latency <ms>', 'delay every answer by this many milliseconds')
    .option('--fail-rate <p>', 'share of API and file requests that fail (0..1)')
    .option('--fault-seed <n>', 'seed of the fault choice (default 1)')
    .option('--rate-limit <rps>', 'requests per second allowed (token bucket); beyond it 429 with Retry-After')
    .option('--without-deprecated-routes', "the seed's deprecated routes answer 404, as after their removal")
    .option('--by-id-drops-invalid', '/maps/by-id/ drops invalid IDs instead of answering a validation error')
    .action((opts: EmulatorCliOptions, command: Command) => runEmulator(out, opts, command));
}

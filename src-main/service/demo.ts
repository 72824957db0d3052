// Demo mode: the built-in emulator serves a generated dataset, and a demo watchlist is filled from it.
// No account and no network: everything talks to 127.0.0.1.
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { databaseFile } from '../core/paths.ts';
import { generateDataset, startEmulator, type EmulatorOptions, type RunningEmulator } from '../emulator/index.ts';
import { acquirePidLock, type PidLock } from '../core/pid-lock.ts';
import type { SyncSummary } from '../core/sync/engine.ts';
import { openTrackwatch, type Trackwatch } from '../core/trackwatch.ts';
import { isHiddenByThreshold } from '../shared/leaderboard.ts';
import { DEMO_MAX_RPS } from '../shared/rate-policy.ts';
import { DemoInUseError } from './errors.ts';

export { DemoInUseError };

export const DEMO_LIST = 'Demo';
export const DEMO_SEED = 2026;
const MARKER = '.trackwatch-demo';
/** The demo logs in to its emulator as "me", so a secret threshold never hides the player's own records from them. */
const DEMO_LOGIN = { login: 'demo', password: 'demo' };
/** Between the demo's two syncs, a few rivals move on: about this share of their personal bests improve. */
const RIVALS = 3;
const IMPROVING = 0.35;


/**
 * One demo per folder at a time: the next demo empties the folder, which would pull the data from under a demo that
 * is still open (the app's, say). The lock sits next to the folder, since the folder itself is emptied.
 */
async function lockDemoFolder(dataDir: string): Promise<PidLock> {
  const folder = resolve(dataDir);
  await mkdir(dirname(folder), { recursive: true });
  return acquirePidLock(`${folder}.lock`, (pid) => new DemoInUseError(dataDir, pid));
}

export interface Demo {
  trackwatch: Trackwatch;
  emulator: RunningEmulator;
  list: string;
  /** The account the demo plays as ("me" in comparisons), logged in as on the service. */
  me: string;
  /** Time passes in the demo's world: some players improve their personal bests, some set first records. */
  passTime(): { improved: number; added: number };
  close(): Promise<void>;
}

/**
 * The demo's world reads like a season of the game: an official campaign ("Fall 2026 - 01"...), community maps with
 * their formatting codes, believable nicknames and club tags, every kind of map. Hostile names stay in the tests.
 */
export function demoDatasetOptions(maps: number, players: number, asOf?: number): Parameters<typeof generateDataset>[0] {
  return { seed: DEMO_SEED, maps, players, style: 'season', now: asOf ?? Date.now() };
}

/**
 * Who the demo plays as: the first player (by account ID) with a personal best better than a map's secret threshold,
 * so the demo shows what logging in as yourself means (your own record is never hidden from you); else the first.
 */
function demoPlayer(dataset: ReturnType<typeof generateDataset>, accounts: readonly string[]): string {
  const secret = new Map(dataset.maps.filter((m) => m.secretThreshold !== undefined).map((m) => [m.mapId, m]));
  const behind = new Set(
    dataset.records
      .filter((r) => {
        const map = r.scopeType === 'PersonalBest' ? secret.get(r.mapId) : undefined;
        if (!map) return false;
        return isHiddenByThreshold(r.recordScore, map.secretThreshold!);
      })
      .map((r) => r.accountId),
  );
  return accounts.find((a) => behind.has(a)) ?? accounts[0] ?? '';
}

/**
 * The demo as a player meets it, the same in the window and on the command line: a first sync, time passes (some
 * players improve), a second sync. Stops after the first sync if it did not go through (cancelled, failed).
 */
export async function tourDemo(
  demo: Pick<Demo, 'passTime'>,
  steps: { sync(): Promise<SyncSummary>; afterFirst?(first: SyncSummary, changed: { improved: number; added: number }): void },
): Promise<SyncSummary> {
  const first = await steps.sync();
  if (first.outcome !== 'ok' && first.outcome !== 'partial') return first;
  const changed = demo.passTime();
  steps.afterFirst?.(first, changed);
  return steps.sync();
}

export interface DemoOptions {
  /** The demo's own data folder; it is emptied first if an earlier demo made it. */
  dataDir: string;
  maps?: number;
  players?: number;
  /** Requests per second against the emulator (it is local, so the demo can go fast). */
  maxRps?: number;
  /** Holds the demo's emulator on the requests it names (EmulatorOptions.hold): for tests of the window mid-sync. */
  hold?: EmulatorOptions['hold'];
  /**
   * The moment the demo's world is as of (its campaign, its Track of the Day months, its records), in ms; default the
   * real clock, so the demo shows the season running today. Tests that name its campaign or months fix it.
   */
  asOf?: number;
}

/** Wipes a folder only if an earlier demo made it, so a user's real data folder can never be emptied by the demo. */
async function prepareDemoFolder(dataDir: string): Promise<void> {
  const marker = join(dataDir, MARKER);
  const made = await access(marker).then(() => true, () => false);
  if (made) await rm(dataDir, { recursive: true, force: true });
  else {
    const empty = await access(databaseFile(dataDir)).then(() => false, () => true);
    if (!empty) throw new Error(`${dataDir} holds a Trackwatch database that the demo did not make; choose another folder for the demo.`);
  }
  await mkdir(dataDir, { recursive: true });
  await writeFile(marker, 'This folder was made by `trackwatch demo` and is emptied by the next demo.\n');
}

/**
 * Starts the emulator on a generated dataset, opens a fresh demo data folder and fills a demo watchlist: the current
 * campaign through the Live services, then every other map (by links, UIDs and a map ID), and a dozen players, one
 * of them "me", whom the demo logs in as.
 */
export async function startDemo(options: DemoOptions): Promise<Demo> {
  const lock = await lockDemoFolder(options.dataDir);
  let emulator: RunningEmulator | undefined;
  let trackwatch: Trackwatch | undefined;
  try {
    await prepareDemoFolder(options.dataDir);
    const dataset = generateDataset(demoDatasetOptions(options.maps ?? 24, options.players ?? 12, options.asOf));
    const accounts = [...new Set(dataset.records.map((r) => r.accountId))].sort();
    const me = demoPlayer(dataset, accounts);
    // Demo credentials for the emulator's display-name API, so the demo shows names the way a configured app would.
    const oauth = { clientId: 'trackwatch-demo', clientSecret: 'demo-secret' };
    const running = (emulator = await startEmulator({ dataset, oauth, auth: { ...DEMO_LOGIN, accountId: me }, hold: options.hold }));
    const tw = (trackwatch = await openTrackwatch({
      dataDir: options.dataDir,
      apiUrl: running.url,
      maxRps: options.maxRps ?? DEMO_MAX_RPS,
      credentials: DEMO_LOGIN,
      oauth: { ...oauth, baseUrl: running.url },
    }));
    // The season's current campaign comes from the Live services, as a player makes such a list; the other maps are
    // added by hand, every way a map is named: a trackmania.io link, a Trackmania Exchange link, UIDs, and (last, so
    // the list keeps the season's order: a map ID waits for the first sync to be looked up) a map ID.
    const campaign = await tw.createListFromSource('campaign:current', { name: DEMO_LIST });
    const inCampaign = new Set(campaign.added);
    const [first, second, ...rest] = dataset.maps.filter((m) => !inCampaign.has(m.mapUid));
    const last = rest.pop();
    const refs = [
      ...(first ? [`https://trackmania.io/#/leaderboard/${first.mapUid}`] : []),
      ...(second?.exchangeId !== undefined ? [`https://trackmania.exchange/mapshow/${second.exchangeId}`] : second ? [second.mapUid] : []),
      ...rest.map((m) => m.mapUid),
      ...(last ? [last.mapId] : []),
    ];
    if (refs.length > 0) await tw.addMaps(DEMO_LIST, refs);
    // "Me" shows by their own display name (the window marks them as me); one other player has a nickname.
    const rival = accounts.find((a) => a !== me);
    tw.store.players.add(DEMO_LIST, accounts.map((accountId) => ({ accountId, nickname: accountId === rival ? 'Rival' : undefined })));
    tw.store.settings.setMe(me);
    return {
      trackwatch: tw,
      emulator: running,
      list: DEMO_LIST,
      me,
      // A few rivals improve (never "me": the player's own records change only when they play).
      passTime: () => running.evolve({ seed: DEMO_SEED + 1, fraction: IMPROVING, rivals: RIVALS, except: [me] }),
      close: async () => {
        try {
          await tw.close();
          await running.close();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    await trackwatch?.close();
    await emulator?.close();
    await lock.release();
    throw error;
  }
}

// The window's side of Trackwatch: which data is showing (the real folder or the demo), the account, the settings,
// the sync runner and its schedule, the connection status. The desktop app and the browser bridge both build one.
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { EventPayload } from '../contract/events.ts';
import { stripFormatting } from '../shared/format.ts';
import { formatImprovement, playerLabel } from '../shared/leaderboard.ts';
import type { z } from 'zod';
import type * as s from '../contract/schemas.ts';
import { SYNC_EVERY_MINUTES_MIN } from '../contract/schemas.ts';
import { DemoInUseError, startDemo, tourDemo, type Demo } from './demo.ts';
import { REAL_BASE_URL, type RequestEvent } from '../core/nadeo/index.ts';
import { isUuid } from '../shared/ids.ts';
import type { SettingValue } from '../core/store/index.ts';
import type { NewPersonalBest as EngineNewPersonalBest } from '../core/sync/engine.ts';
import { LocalFaultCode, LocalFaultError } from '../core/store/errors.ts';
import { APP_VERSION, openTrackwatch, type Trackwatch, type TrackwatchOptions } from '../core/trackwatch.ts';
import { ServiceError } from './errors.ts';
import { createEventHub, type EventHub } from './events.ts';
import { defaultGameReplayFolder } from './game-folder.ts';
import type { SecretStore } from './secrets.ts';
import { failedMapsOf, syncErrorFor } from './sync-outcome.ts';
import { SyncRunner } from './sync-runner.ts';

type Out<T extends z.ZodType> = z.output<T>;

/** What differs between the desktop app and browser mode. */
export interface ServiceHost {
  readonly shell: 'electron' | 'browser';
  readonly platform: NodeJS.Platform;
  readonly secrets: SecretStore;
  /** Reveals a file in the OS file manager (desktop app). */
  showItemInFolder?(file: string): void;
  /** Opens a folder in the OS file manager (desktop app). */
  openFolder?(dir: string): Promise<void>;
  /** Asks where to save; null when the player cancels (desktop app). */
  chooseSaveFile?(suggestedName: string): Promise<string | null>;
  /** A desktop notification (desktop app). */
  notify?(title: string, body: string): void;
  /** Where the data folder moves at the next start (desktop app). */
  nextDataDir?: { get(): string | null; set(dir: string): void };
}

export interface ServiceOptions {
  host: ServiceHost;
  dataDir: string;
  /** Nadeo's Core service (default: the real one); tests point it at the emulator. */
  apiUrl?: string | undefined;
  /** Trackmania's OAuth API for display names (default: the real one). */
  oauthUrl?: string | undefined;
  appVersion?: string | undefined;
  /** Size and pace of the demo's generated world. */
  demo?: { maps?: number; players?: number; maxRps?: number } | undefined;
  home?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  now?: () => Date;
}

/** Keys in the store's settings table (never secrets: the store refuses those). */
const KEY = {
  setup: 'app.setup',
  contact: 'contact',
  login: 'login',
  maxRps: 'maxRps',
  theme: 'ui.theme',
  schedule: 'sync.schedule',
  notify: 'notify.newPb',
  positions: 'sync.worldPositions',
  gameFolder: 'replays.gameFolder',
  oauthClientId: 'oauth.clientId',
} as const;

const DEFAULT_MAX_RPS = 1;
/** More new PBs than this in one sync become one summary notification instead of many. */
const NOTIFY_EACH_UP_TO = 3;

type Setup = Out<typeof s.SetupState>;
type Connection = Out<typeof s.ConnectionStatus>;

export class TrackwatchService {
  readonly events: EventHub;
  readonly host: ServiceHost;
  readonly runner: SyncRunner;
  readonly #o: ServiceOptions;
  readonly #main: Trackwatch;
  /** Why the data folder cannot be written (read-only media), or null: then everything shows and nothing changes. */
  readonly #readOnly: string | null;
  #demo: Demo | undefined;
  /** The demo whose tour the next sync runs (startDemoTour). */
  #tour: Demo | undefined;
  #setup: Setup;
  #connection: Connection = { state: 'unknown', message: null, checkedAt: null };
  #schedule: ReturnType<typeof setInterval> | undefined;
  #nextScheduledAt: string | null = null;
  #pending: EngineNewPersonalBest[] = [];
  #closed = false;
  /** Bumped by every write (a sync, an edit): cached views older than it are not served. */
  #dataVersion = 0;
  readonly #compareCache = new Map<string, { version: string; table: Out<typeof s.CompareTable> }>();

  private constructor(options: ServiceOptions, main: Trackwatch, events: EventHub, readOnly: string | null) {
    this.#o = options;
    this.host = options.host;
    this.#main = main;
    this.#readOnly = readOnly;
    this.events = events;
    const stored = main.store.settings.get(KEY.setup);
    // Someone who used the command line before already has lists: they land in them, not on the welcome screen.
    this.#setup = stored === 'demo' || stored === 'account' ? stored : main.store.watchlists.list().length > 0 ? 'account' : 'none';
    this.runner = new SyncRunner({
      events,
      now: this.now,
      run: (job) => {
        const sync = () =>
          this.active.sync({
            ...(job.list === undefined ? {} : { list: job.list }),
            ...(job.replays === undefined ? {} : { replays: job.replays }),
            positions: this.worldPositions,
            signal: job.signal,
            onProgress: job.onProgress,
            onNewPersonalBest: job.onNewPersonalBest,
            onRunStarted: job.onRunStarted,
          });
        const tour = this.#tour;
        this.#tour = undefined;
        return tour && tour === this.#demo ? tourDemo(tour, { sync }) : sync();
      },
      onNewPersonalBest: (e, list) => this.#onNewPersonalBest(e, list),
      onStarted: () => this.touch(),
      onFinished: (finished) => {
        this.touch();
        this.#onSyncFinished(finished);
      },
    });
    const last = this.active.store.syncRuns.last();
    if (last && last.finishedAt && last.outcome !== 'running') {
      const firstError = last.errors.find((e) => e.mapId === null) ?? last.errors[0];
      this.runner.last = {
        runId: String(last.id), list: last.list, outcome: last.outcome, maps: last.counts.maps, newRecords: last.counts.newPbs,
        replays: last.counts.replays, durationMs: Date.parse(last.finishedAt) - Date.parse(last.startedAt), finishedAt: last.finishedAt,
        failedMaps: failedMapsOf(last.errors), error: syncErrorFor(last.outcome, firstError?.message),
      };
    }
  }

  static async open(options: ServiceOptions): Promise<TrackwatchService> {
    const events = createEventHub((name, problem) => process.emitWarning(`Trackwatch dropped a malformed ${name} event: ${problem}`));
    const trackwatchOptions = { dataDir: options.dataDir, apiUrl: options.apiUrl ?? REAL_BASE_URL, appVersion: options.appVersion ?? APP_VERSION };
    let main: Trackwatch;
    let readOnly: string | null = null;
    try {
      main = await openTrackwatch(trackwatchOptions);
    } catch (error) {
      if (!(error instanceof LocalFaultError && error.code === LocalFaultCode.READ_ONLY)) throw error;
      // Read-only media (a backup, a mounted image): open what is stored as it is, to show it; every write says why.
      main = await openTrackwatch(trackwatchOptions, { readOnly: true });
      readOnly = readOnlyMessage(options.dataDir);
    }
    const service = new TrackwatchService(options, main, events, readOnly);
    await service.#configureMain();
    // The demo keeps its data inside the folder: on read-only media the real data shows instead.
    if (service.#setup === 'demo' && readOnly !== null) service.#setup = main.store.watchlists.list().length > 0 ? 'account' : 'none';
    if (service.#setup === 'demo') {
      try {
        await service.#startDemo();
      } catch (error) {
        if (!(error instanceof DemoInUseError)) throw error;
        // A `trackwatch demo` has the folder: open on the real data (or the welcome screen), not saved, so the next
        // start tries the demo again; "Try the demo" meanwhile says why it cannot.
        process.emitWarning(error.message);
        service.#setup = main.store.watchlists.list().length > 0 ? 'account' : 'none';
      }
    }
    service.reschedule();
    return service;
  }

  readonly now = (): Date => (this.#o.now ?? (() => new Date()))();

  get setup(): Setup {
    return this.#setup;
  }

  get dataDir(): string {
    return this.#o.dataDir;
  }

  /** Why the data folder cannot be written (read-only media), or null when it can. */
  get readOnly(): string | null {
    return this.#readOnly;
  }

  /** Before anything that would change the data folder: on read-only media, the error value that says why not. */
  requireWritable(): void {
    if (this.#readOnly !== null) throw new ServiceError('read_only', this.#readOnly);
  }

  /** The Trackwatch whose data shows: the demo's while in the demo, the real folder's otherwise. */
  get active(): Trackwatch {
    return this.#demo?.trackwatch ?? this.#main;
  }

  get main(): Trackwatch {
    return this.#main;
  }

  /** The running demo (its emulator included), while in the demo. */
  get demo(): Demo | undefined {
    return this.#demo;
  }

  get connection(): Connection {
    return this.#connection;
  }

  get nextScheduledAt(): string | null {
    return this.#nextScheduledAt;
  }

  get apiUrl(): string {
    return this.#o.apiUrl ?? REAL_BASE_URL;
  }

  get appVersion(): string {
    return this.#o.appVersion ?? APP_VERSION;
  }

  // ---- settings ----------------------------------------------------------------------------------------------

  setting(key: keyof typeof KEY): SettingValue | undefined {
    return this.#main.store.settings.get(KEY[key]);
  }

  #string(key: keyof typeof KEY): string | undefined {
    const value = this.setting(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  get contact(): string {
    return this.#string('contact') ?? '';
  }
  get login(): string | undefined {
    return this.#string('login');
  }
  get maxRps(): number {
    const value = this.setting('maxRps');
    return typeof value === 'number' && value > 0 ? Math.min(2, value) : DEFAULT_MAX_RPS;
  }
  get theme(): Out<typeof s.Theme> {
    const value = this.setting('theme');
    return value === 'light' || value === 'system' ? value : 'dark';
  }
  get scheduledSync(): Out<typeof s.ScheduledSync> {
    const value = this.setting('schedule');
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const every = typeof value.everyMinutes === 'number' ? value.everyMinutes : 60;
      return { enabled: value.enabled === true, everyMinutes: Math.max(SYNC_EVERY_MINUTES_MIN, every) };
    }
    return { enabled: false, everyMinutes: 60 };
  }
  get notifications(): boolean {
    return this.setting('notify') !== false;
  }
  /** Whether the window's syncs (by hand or scheduled) ask the world positions of changed PBs. */
  get worldPositions(): boolean {
    return this.setting('positions') !== false;
  }
  get gameReplayFolderDefault(): string {
    return defaultGameReplayFolder(this.host.platform, this.#o.home ?? homedir(), this.#o.env ?? process.env);
  }
  get gameReplayFolder(): string {
    return this.#string('gameFolder') ?? this.gameReplayFolderDefault;
  }
  get oauthClientId(): string | undefined {
    return this.#string('oauthClientId');
  }

  set(key: keyof typeof KEY, value: SettingValue | undefined): void {
    this.requireWritable();
    this.#main.store.settings.set(KEY[key], value);
  }

  /** The real folder's client settings, from what the player saved: contact, pace, password, OAuth app. */
  async #configureMain(): Promise<void> {
    const login = this.login;
    const password = this.host.secrets.get('nadeo.password');
    const clientId = this.oauthClientId;
    const clientSecret = this.host.secrets.get('oauth.clientSecret');
    const changes: Partial<Omit<TrackwatchOptions, 'dataDir'>> = {
      contact: this.contact || undefined,
      maxRps: this.maxRps,
      credentials: login && password ? { login, password } : undefined,
      oauth: clientId && clientSecret ? { clientId, clientSecret, baseUrl: this.#o.oauthUrl } : undefined,
      tuning: { onRequest: (e) => this.#observe(e) },
    };
    await this.#main.reconfigure(changes);
  }

  async reconfigureMain(): Promise<void> {
    await this.#configureMain();
  }

  // ---- setup -------------------------------------------------------------------------------------------------

  async #startDemo(): Promise<void> {
    const demo = await startDemo({ dataDir: join(this.#o.dataDir, 'demo'), ...this.#o.demo });
    await demo.trackwatch.reconfigure({ tuning: { onRequest: (e) => this.#observe(e) } });
    this.#demo = demo;
  }

  async enterDemo(): Promise<void> {
    // The demo's data lives in the data folder too.
    this.requireWritable();
    // As leaving the demo does: a sync of the real folder would otherwise go on, announcing into the demo.
    if (!this.#demo) await this.runner.stop();
    this.touch();
    if (!this.#demo) await this.#startDemo();
    this.#setup = 'demo';
    this.set('setup', 'demo');
    this.reschedule();
  }

  /**
   * The demo as `trackwatch demo` tells it, in the background with its progress: a sync of the demo list, time
   * passes, a second sync. Returns the run's ID.
   */
  startDemoTour(): Promise<string> {
    const demo = this.#demo;
    if (!demo) throw new ServiceError('not_configured', 'The demo is not running: choose "Try the demo" first.');
    if (this.runner.running) throw new ServiceError('busy', 'A sync is already running; wait for it or cancel it.', true);
    // The run takes it (see the runner's run above): the next sync started is this one.
    this.#tour = demo;
    return this.runner.start({ list: demo.list });
  }

  /** Leaves the demo (if in it) for the real data folder and the saved account. */
  async enterAccount(): Promise<void> {
    await this.runner.stop();
    const demo = this.#demo;
    this.#demo = undefined;
    await demo?.close();
    this.touch();
    this.#setup = 'account';
    this.set('setup', 'account');
    await this.#configureMain();
    this.#setConnection({ state: 'unknown', message: null, checkedAt: null });
    this.reschedule();
  }

  /** Whether the active data has an account behind it (the demo always does). */
  get canSync(): boolean {
    if (this.#demo) return true;
    return Boolean(this.login && this.host.secrets.get('nadeo.password'));
  }

  // ---- connection ---------------------------------------------------------------------------------------------

  /** Every request the client makes says whether the service answered: the banner follows that. */
  #observe(event: RequestEvent): void {
    // A cancel cuts the sync's requests short: they got no answer because we stopped asking, not because of the service.
    if (event.status === 'error' && this.runner.stopping) return;
    if (event.status === 'error') this.markOffline('The last request got no answer.');
    else this.#setConnection({ state: 'online', message: null, checkedAt: this.now().toISOString() });
  }

  markOffline(message: string): void {
    this.#setConnection({ state: 'offline', message, checkedAt: this.now().toISOString() });
  }

  #setConnection(next: Connection): void {
    const changed = next.state !== this.#connection.state || next.message !== this.#connection.message;
    this.#connection = next;
    if (changed) this.events.emit('status.changed', next);
  }

  // ---- schedule and notifications ----------------------------------------------------------------------------

  /** Applies the scheduled-sync setting: off by default, never more often than every 15 minutes. */
  reschedule(): void {
    if (this.#schedule) clearInterval(this.#schedule);
    this.#schedule = undefined;
    this.#nextScheduledAt = null;
    const { enabled, everyMinutes } = this.scheduledSync;
    if (!enabled || this.#closed || this.#setup === 'none' || this.#readOnly !== null) return;
    const everyMs = Math.max(SYNC_EVERY_MINUTES_MIN, everyMinutes) * 60_000;
    const plan = (): void => {
      this.#nextScheduledAt = new Date(this.now().getTime() + everyMs).toISOString();
    };
    plan();
    this.#schedule = setInterval(() => {
      plan();
      if (this.runner.running || !this.canSync) return;
      try {
        // A scheduled sync that cannot start (another process syncing the folder) waits for the next round.
        this.runner.start({}).catch(() => {});
      } catch {
        // A sync started by hand in the meantime: this round is skipped.
      }
    }, everyMs);
    this.#schedule.unref?.();
  }

  #onNewPersonalBest(e: EngineNewPersonalBest, list: string | null): void {
    // First sightings are not news (a first sync would announce every record); improvements and unhidings are.
    if (e.kind !== 'improved' && e.kind !== 'unhidden') return;
    const payload: EventPayload<'pb.new'> = {
      list,
      mapUid: e.mapUid,
      mapName: e.mapName,
      accountId: e.accountId,
      playerName: this.#playerLabel(e.accountId, e.playerName),
      kind: e.mapKind,
      result: e.result,
      previous: e.previous,
      setAt: e.recordTimestamp,
    };
    this.events.emit('pb.new', payload);
    this.#pending.push(e);
    if (this.notifications && this.host.notify && this.#pending.length <= NOTIFY_EACH_UP_TO) {
      this.host.notify(`New PB: ${payload.playerName}`, describePb(payload));
    }
  }

  #onSyncFinished(_finished: EventPayload<'sync.finished'>): void {
    const count = this.#pending.length;
    this.#pending = [];
    if (count > NOTIFY_EACH_UP_TO && this.notifications && this.host.notify) {
      this.host.notify('New personal bests', `${count} new PBs by watched players. Open Trackwatch to see them.`);
    }
  }

  /** The name a notification shows: plain text (no formatting codes), the start of the account ID at worst. */
  #playerLabel(accountId: string, fallback: string): string {
    const player = this.active.store.players.get(accountId);
    // A display name may carry formatting codes; a nickname is the player's own plain text.
    return player
      ? playerLabel({ ...player, displayName: player.displayName && stripFormatting(player.displayName) })
      : stripFormatting(fallback);
  }

  // ---- cached views -------------------------------------------------------------------------------------------

  /** Stored data changed: what was computed from it is dropped. */
  touch(): void {
    this.#dataVersion++;
    this.#compareCache.clear();
  }

  /**
   * Our own writes (touch), and SQLite's count of commits by other connections: the command line writing to the same
   * folder while the app is open.
   */
  #version(): string {
    return `${this.#dataVersion}.${String(this.active.store.db.pragma('data_version', { simple: true }))}`;
  }

  cachedCompare(list: string): Out<typeof s.CompareTable> | undefined {
    const entry = this.#compareCache.get(list);
    return entry && entry.version === this.#version() ? entry.table : undefined;
  }

  /** A compare table is read again and again between syncs (sorting, coming back): keep the last few. */
  cacheCompare(list: string, table: Out<typeof s.CompareTable>): void {
    if (this.#compareCache.size >= 4) this.#compareCache.delete(this.#compareCache.keys().next().value!);
    this.#compareCache.set(list, { version: this.#version(), table });
  }

  // ---- helpers for handlers ----------------------------------------------------------------------------------

  requireMe(accountId: string): string {
    const id = accountId.trim().toLowerCase();
    if (!isUuid(id)) throw new ServiceError('invalid_input', `"${accountId.slice(0, 60)}" is not an account ID.`);
    return id;
  }

  async ensureDir(dir: string): Promise<string> {
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#schedule) clearInterval(this.#schedule);
    await this.runner.stop();
    await this.#demo?.close();
    await this.#main.close();
  }
}

/** What every write answers on read-only media, and what the window's banner says. */
function readOnlyMessage(dataDir: string): string {
  return `The data folder ${dataDir} is read-only: Trackwatch can show what is stored but cannot change it. ` +
    'Copy the folder somewhere writable and open that copy (Settings, data folder; `trackwatch serve --data-dir` in browser mode), ' +
    'or make this one writable, then start Trackwatch again.';
}

function describePb(pb: EventPayload<'pb.new'>): string {
  return `${stripFormatting(pb.mapName)}: ${formatImprovement(pb.kind, pb.result, pb.previous)}`;
}

// The window's side of Trackwatch, composed of named parts (parts/): which data shows (folder), the settings, the
// clients' configuration, the connection status, the sync runner and its schedule, the notifications of new PBs and
// the compare cache. This root wires them and moves between the demo and the account. The desktop app and the
// browser bridge both build one; handlers/ turn the contract's commands into calls on it.
import { DemoInUseError, tourDemo, type Demo, type DemoOptions } from './demo.ts';
import { REAL_BASE_URL, serviceUrls } from '../core/nadeo/index.ts';
import { APP_VERSION, type Trackwatch } from '../core/trackwatch.ts';
import { ServiceError } from './errors.ts';
import { createEventHub, type EventHub } from './events.ts';
import { SplitsBackfill } from './parts/splits-backfill.ts';
import { ClientConfig } from './parts/client.ts';
import { CompareCache } from './parts/compare-cache.ts';
import { Connection } from './parts/connection.ts';
import { DataFolder } from './parts/folder.ts';
import { PbNotifications } from './parts/notifications.ts';
import { SyncSchedule } from './parts/schedule.ts';
import { ServiceSettings } from './parts/settings.ts';
import type { SecretStore } from './secrets.ts';
import { failedMapsOf, syncErrorFor } from './sync-outcome.ts';
import { SyncRunner } from './sync-runner.ts';

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
  /** Trackmania's OAuth API for display names (default: the real one beside the real Core service, else the Core URL). */
  oauthUrl?: string | undefined;
  /** Nadeo's Live services (default: the real ones beside the real Core service, else the Core URL). */
  liveUrl?: string | undefined;
  /** Trackmania Exchange (default: the real one beside the real Core service, else the Core URL + /tmx). */
  exchangeUrl?: string | undefined;
  appVersion?: string | undefined;
  /** Size and pace of the demo's generated world, the moment it is as of, and a test's hold on it (DemoOptions). */
  demo?: Omit<DemoOptions, 'dataDir'> | undefined;
  home?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
  now?: () => Date;
}

export class TrackwatchService {
  readonly host: ServiceHost;
  readonly events: EventHub;
  readonly folder: DataFolder;
  readonly settings: ServiceSettings;
  readonly client: ClientConfig;
  readonly connection: Connection;
  readonly runner: SyncRunner;
  readonly schedule: SyncSchedule;
  readonly compareCache: CompareCache;
  /** Reads the splits of replays archived before schema 8, in the background (parts/splits-backfill.ts). */
  readonly splitsBackfill: SplitsBackfill;
  readonly #notifications: PbNotifications;
  readonly #o: ServiceOptions;
  #closed = false;

  private constructor(options: ServiceOptions, folder: DataFolder, events: EventHub) {
    this.#o = options;
    this.host = options.host;
    this.events = events;
    this.folder = folder;
    this.settings = new ServiceSettings({
      store: folder.main.store, requireWritable: () => folder.requireWritable(), platform: options.host.platform, realService: folder.main.isRealService, home: options.home, env: options.env,
    });
    this.connection = new Connection({ events, now: this.now, cancelling: () => this.runner.stopping });
    this.client = new ClientConfig({ settings: this.settings, secrets: options.host.secrets, oauthUrl: options.oauthUrl, liveUrl: options.liveUrl, exchangeUrl: options.exchangeUrl, onRequest: this.connection.observe });
    this.compareCache = new CompareCache(() => this.active.store);
    this.splitsBackfill = new SplitsBackfill(events);
    this.#notifications = new PbNotifications({
      events, host: options.host, enabled: () => this.settings.notifications, store: () => this.active.store,
    });
    this.runner = this.#syncRunner();
    this.schedule = new SyncSchedule({
      runner: this.runner,
      now: this.now,
      setting: () => this.settings.scheduledSync,
      allowed: () => !this.#closed && folder.setup !== 'none' && folder.readOnly === null,
      canSync: () => this.canSync,
    });
  }

  static async open(options: ServiceOptions): Promise<TrackwatchService> {
    // A real Nadeo, Ubisoft or Exchange host beside an emulator is refused before anything opens, naming the setting.
    serviceUrls(options.apiUrl ?? REAL_BASE_URL, { liveUrl: options.liveUrl, oauthUrl: options.oauthUrl, exchangeUrl: options.exchangeUrl });
    const events = createEventHub((name, problem) => process.emitWarning(`Trackwatch dropped a malformed ${name} event: ${problem}`));
    const folder = await DataFolder.open({ dataDir: options.dataDir, apiUrl: options.apiUrl ?? REAL_BASE_URL, appVersion: options.appVersion ?? APP_VERSION });
    const service = new TrackwatchService(options, folder, events);
    folder.setup = service.settings.setup ?? folder.setupOfRealData;
    await service.client.configureMain(folder.main);
    // The demo keeps its data inside the folder: on read-only media the real data shows instead.
    if (folder.setup === 'demo' && folder.readOnly !== null) folder.setup = folder.setupOfRealData;
    if (folder.setup === 'demo') {
      try {
        await service.#startDemo();
      } catch (error) {
        if (!(error instanceof DemoInUseError)) throw error;
        // A `trackwatch demo` has the folder: open on the real data (or the welcome screen), not saved, so the next
        // start tries the demo again; "Try the demo" meanwhile says why it cannot.
        process.emitWarning(error.message);
        folder.setup = folder.setupOfRealData;
      }
    }
    service.schedule.reschedule();
    service.#readSplits();
    return service;
  }

  /** The runner of the window's syncs: the active folder's, or the demo's tour when one was asked for. */
  #syncRunner(): SyncRunner {
    const runner = new SyncRunner({
      events: this.events,
      now: this.now,
      run: (job) => {
        const sync = () =>
          this.active.sync({
            ...(job.list === undefined ? {} : { list: job.list }),
            ...(job.replays === undefined ? {} : { replays: job.replays }),
            positions: this.settings.worldPositions,
            signal: job.signal,
            onProgress: job.onProgress,
            onNewPersonalBest: job.onNewPersonalBest,
            onRunStarted: job.onRunStarted,
          });
        const tour = this.folder.takeTour();
        return tour ? tourDemo(tour, { sync }) : sync();
      },
      onNewPersonalBest: this.#notifications.newPersonalBest,
      onStarted: () => this.touch(),
      onFinished: () => {
        this.touch();
        this.#notifications.syncFinished();
      },
    });
    const last = this.active.store.syncRuns.last();
    if (last && last.finishedAt && last.outcome !== 'running') {
      const firstError = last.errors.find((e) => e.mapId === null) ?? last.errors[0];
      runner.last = {
        runId: String(last.id), list: last.list, outcome: last.outcome, maps: last.counts.maps, newRecords: last.counts.newPbs,
        replays: last.counts.replays, durationMs: Date.parse(last.finishedAt) - Date.parse(last.startedAt), finishedAt: last.finishedAt,
        failedMaps: failedMapsOf(last.errors), error: syncErrorFor(last.outcome, firstError?.message),
      };
    }
    return runner;
  }

  readonly now = (): Date => (this.#o.now ?? (() => new Date()))();

  /** The Trackwatch whose data shows (folder.active): the demo's while in the demo, the real folder's otherwise. */
  get active(): Trackwatch {
    return this.folder.active;
  }

  /** The running demo (folder.demo), its emulator included, while in the demo. */
  get demo(): Demo | undefined {
    return this.folder.demo;
  }

  get apiUrl(): string {
    return this.#o.apiUrl ?? REAL_BASE_URL;
  }

  get appVersion(): string {
    return this.#o.appVersion ?? APP_VERSION;
  }

  /** Whether the active data has an account behind it (the demo always does). */
  get canSync(): boolean {
    return this.folder.demo !== undefined || this.client.hasAccount;
  }

  /** The saved account or settings changed: the real folder's next request uses them. */
  async reconfigureMain(): Promise<void> {
    await this.client.configureMain(this.folder.main);
  }

  /** Stored data changed: what was computed from it is dropped. */
  touch(): void {
    this.compareCache.touch();
  }

  /** Replays archived before splits existed (or left unread by a kill) are read in the background. */
  #readSplits(): void {
    if (this.#closed || this.folder.readOnly !== null || this.folder.setup === 'none') return;
    this.splitsBackfill.start(this.active, () => this.touch());
  }

  // ---- setup -------------------------------------------------------------------------------------------------

  #startDemo(): Promise<void> {
    return this.folder.startDemo(this.#o.demo, (tw) => this.client.configureDemo(tw));
  }

  async enterDemo(): Promise<void> {
    // The demo's data lives in the data folder too.
    this.folder.requireWritable();
    // As leaving the demo does: a sync of the real folder would otherwise go on, announcing into the demo.
    if (!this.folder.demo) await this.runner.stop();
    await this.splitsBackfill.stop();
    this.touch();
    await this.#startDemo();
    this.folder.setup = 'demo';
    this.settings.set('setup', 'demo');
    this.schedule.reschedule();
    this.#readSplits();
  }

  /**
   * The demo as `trackwatch demo` tells it, in the background with its progress: a sync of the demo list, time
   * passes, a second sync. Returns the run's ID.
   */
  startDemoTour(): Promise<string> {
    const demo = this.folder.demo;
    if (!demo) throw new ServiceError('not_configured', 'The demo is not running: choose "Try the demo" first.');
    if (this.runner.running) throw new ServiceError('busy', 'A sync is already running; wait for it or cancel it.', true);
    // The run takes it (see the runner's run): the next sync started is this one.
    this.folder.planTour(demo);
    return this.runner.start({ list: demo.list });
  }

  /** Leaves the demo (if in it) for the real data folder and the saved account. */
  async enterAccount(): Promise<void> {
    await this.runner.stop();
    await this.splitsBackfill.stop();
    await this.folder.closeDemo();
    this.touch();
    this.folder.setup = 'account';
    this.settings.set('setup', 'account');
    await this.reconfigureMain();
    this.connection.reset();
    this.schedule.reschedule();
    this.#readSplits();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.schedule.stop();
    await this.runner.stop();
    await this.splitsBackfill.stop();
    await this.folder.close();
  }
}

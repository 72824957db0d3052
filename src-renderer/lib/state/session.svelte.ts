// Everything the whole window shares: what main told us at start, the lists, the sync, the connection, toasts.
import type { AppInfo, ConnectionStatus, NewPersonalBest, Settings, SettingsUpdate, Theme, WatchlistSummary } from '../../../src-main/contract/index.ts';
import { messageOf } from '../api/errors.ts';
import type { Transport } from '../api/transport.ts';
import { syncEndWords, troubleWords } from '../../../src-main/shared/sync-words.ts';
import { stripFormatting } from '../format.ts';
import { formatImprovement } from '../../../src-main/shared/leaderboard.ts';
import { Router } from './router.svelte.ts';
import { SyncState } from './sync.svelte.ts';
import { Toasts } from './toasts.svelte.ts';
import { clock } from './clock.svelte.ts';

/** New PBs shown a toast each per sync: the first, as it comes; the rest are counted in the sync's own toast. */
const PB_TOASTS_EACH = 1;

export class Session {
  readonly api: Transport;
  readonly router = new Router();
  readonly toasts = new Toasts();
  readonly sync: SyncState;

  #info = $state.raw<AppInfo | undefined>();
  #settings = $state.raw<Settings | undefined>();
  #lists = $state.raw<WatchlistSummary[]>([]);
  #connection = $state.raw<ConnectionStatus>({ state: 'unknown', message: null, checkedAt: null });
  #serverReachable = $state(true);
  #startError = $state<string | null>(null);
  #systemDark = $state(true);
  /** New PBs announced by the sync under way. */
  #pbsThisSync = 0;
  /** Bumped whenever stored data changed (a sync ended, lists were edited): views reload on it. */
  #dataVersion = $state(0);

  constructor(api: Transport) {
    this.api = api;
    this.sync = new SyncState(api, (finished) => {
      this.#dataVersion++;
      clock.touch();
      void this.refreshLists();
      // The PBs after the first are told in the sync's own toast, so the end of a sync is one toast or two.
      const more = this.#pbsThisSync - PB_TOASTS_EACH;
      this.#pbsThisSync = 0;
      const pbs = more > 0 ? ` ${more} more new PB${more === 1 ? '' : 's'}: each player’s page lists them.` : '';
      if (finished.outcome === 'failed') {
        this.toasts.push({ kind: 'error', title: `Sync failed: ${troubleWords(finished.error)}`, body: `${finished.error?.message ?? 'The sync stopped before it read any map.'}${pbs}` });
      } else if (finished.outcome === 'cancelled') {
        this.toasts.push({ kind: 'info', title: 'Sync cancelled', body: `What it had fetched is kept; the next sync picks up the rest.${pbs}` });
      } else {
        const news = finished.newRecords === 1 ? '1 new record' : `${finished.newRecords} new records`;
        const checked = `${finished.maps} map${finished.maps === 1 ? '' : 's'} checked, ${news}.${pbs}`;
        if (finished.outcome === 'partial') {
          this.toasts.push({ kind: 'error', title: `Sync ${syncEndWords(finished)}`, body: `${checked} ${finished.error?.message ?? ''}`.trim() });
        } else this.toasts.push({ kind: 'success', title: 'Sync finished', body: checked });
      }
    });
    api.on('status.changed', (status) => (this.#connection = status));
    api.on('pb.new', (pb) => this.#onNewPersonalBest(pb));
    api.onConnection((reachable) => (this.#serverReachable = reachable));
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    if (media) {
      this.#systemDark = media.matches;
      media.addEventListener('change', (e) => (this.#systemDark = e.matches));
    }
  }

  get info(): AppInfo | undefined {
    return this.#info;
  }
  get settings(): Settings | undefined {
    return this.#settings;
  }
  get lists(): WatchlistSummary[] {
    return this.#lists;
  }
  get connection(): ConnectionStatus {
    return this.#connection;
  }
  get serverReachable(): boolean {
    return this.#serverReachable;
  }
  get startError(): string | null {
    return this.#startError;
  }
  get dataVersion(): number {
    return this.#dataVersion;
  }
  get theme(): Exclude<Theme, 'system'> {
    const chosen = this.#settings?.theme ?? 'dark';
    if (chosen === 'system') return this.#systemDark ? 'dark' : 'light';
    return chosen;
  }
  get isDemo(): boolean {
    return this.#info?.setup === 'demo';
  }

  async start(): Promise<void> {
    try {
      const info = await this.api.invoke('app.info', {});
      this.#info = info;
      this.#connection = info.connection;
      if (info.setup === 'none') {
        this.router.go({ name: 'welcome' }, { replace: true });
        return;
      }
      await this.#loadAll();
    } catch (error) {
      this.#startError = messageOf(error);
      return;
    }
    await this.#tourIfNeverSynced();
  }

  async #loadAll(): Promise<void> {
    const [settings, lists] = await Promise.all([this.api.invoke('settings.get', {}), this.api.invoke('watchlists.list', {}), this.sync.load()]);
    this.#settings = settings;
    this.#lists = lists;
  }

  /** After the first-run choice: everything is there now. */
  async enter(info: AppInfo): Promise<void> {
    this.#info = info;
    this.#connection = info.connection;
    await this.#loadAll();
    this.#dataVersion++;
    const first = this.#lists[0];
    this.router.go(first ? { name: 'list', list: first.name, tab: 'maps' } : { name: 'home' }, { replace: true });
  }

  /**
   * Into the demo as `trackwatch demo` shows it: onto the demo list's comparison, which fills in as the demo syncs by
   * itself (a sync, time passing, a second sync), its progress in the top bar.
   */
  async enterDemo(info: AppInfo): Promise<void> {
    this.#info = info;
    this.#connection = info.connection;
    await this.#loadAll();
    this.#dataVersion++;
    const demo = this.#lists[0];
    this.router.go(demo ? { name: 'compare', list: demo.name } : { name: 'home' }, { replace: true });
    await this.#tourIfNeverSynced();
  }

  /** A demo starts afresh with each start of Trackwatch: one never synced runs its tour instead of waiting for Sync. */
  async #tourIfNeverSynced(): Promise<void> {
    if (!this.isDemo || this.sync.running || this.#lists.some((l) => l.lastSync !== null)) return;
    try {
      await this.sync.startDemoTour();
    } catch (error) {
      this.toasts.push({ kind: 'error', title: 'The demo could not sync', body: messageOf(error) });
    }
  }

  async refreshLists(): Promise<void> {
    try {
      this.#lists = await this.api.invoke('watchlists.list', {});
    } catch (error) {
      this.toasts.push({ kind: 'error', title: 'Could not read the lists', body: messageOf(error) });
    }
  }

  async refreshInfo(): Promise<void> {
    const info = await this.api.invoke('app.info', {});
    this.#info = info;
    this.#connection = info.connection;
  }

  /** Stored data changed by a command (maps or players added...): reload what shows it. */
  touched(): void {
    this.#dataVersion++;
    void this.refreshLists();
  }

  async updateSettings(update: SettingsUpdate): Promise<Settings> {
    const settings = await this.api.invoke('settings.update', update);
    this.#settings = settings;
    return settings;
  }

  setSettings(settings: Settings): void {
    this.#settings = settings;
  }

  #onNewPersonalBest(pb: NewPersonalBest): void {
    // The first PB of a sync gets a toast; the rest are told at its end, so toasts never bury the view.
    this.#pbsThisSync += 1;
    if (this.#pbsThisSync > PB_TOASTS_EACH) return;
    // The player's name comes as plain text (a nickname may hold a `$` that is not a code): shown as it is.
    const title = `New PB: ${pb.playerName}`;
    const body = `${stripFormatting(pb.mapName)} — ${formatImprovement(pb.kind, pb.result, pb.previous)}`;
    this.toasts.push({ kind: 'pb', title, body });
    // The desktop app notifies from main; a browser tab does it itself, if the player allowed it.
    if (this.api.kind === 'http' && this.#settings?.notifications && 'Notification' in window && Notification.permission === 'granted') {
      new Notification(title, { body });
    }
  }
}

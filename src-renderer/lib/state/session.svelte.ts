// Everything the whole window shares: what main told us at start, the lists, the sync, the connection, toasts.
import type { AppInfo, ConnectionStatus, NewPersonalBest, Settings, SettingsUpdate, Theme, WatchlistSummary } from '../../../src-main/contract/index.ts';
import { messageOf } from '../api/errors.ts';
import type { Transport } from '../api/api.ts';
import { formatDeltaValue, formatValue, stripFormatting } from '../format.ts';
import { Router } from './router.svelte.ts';
import { SyncState } from './sync.svelte.ts';
import { Toasts } from './toasts.svelte.ts';

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
  /** Bumped whenever stored data changed (a sync ended, lists were edited): views reload on it. */
  #dataVersion = $state(0);

  constructor(api: Transport) {
    this.api = api;
    this.sync = new SyncState(api, (finished) => {
      this.#dataVersion++;
      void this.refreshLists();
      if (finished.outcome === 'failed' && finished.error) {
        this.toasts.push({ kind: 'error', title: 'Sync failed', body: finished.error.message });
      } else if (finished.outcome === 'ok' || finished.outcome === 'partial') {
        const news = finished.newRecords === 1 ? '1 new record' : `${finished.newRecords} new records`;
        this.toasts.push({ kind: 'success', title: 'Sync finished', body: `${finished.maps} maps checked, ${news}.` });
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
    }
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
    const value = formatValue(pb.value, pb.isStunt);
    const gain = pb.previous !== null && pb.value !== null ? ` (${formatDeltaValue(pb.value - pb.previous, pb.isStunt)})` : '';
    const title = `New PB: ${pb.playerName}`;
    const body = `${stripFormatting(pb.mapName)} — ${value}${gain}`;
    this.toasts.push({ kind: 'pb', title, body });
    // The desktop app notifies from main; a browser tab does it itself, if the player allowed it.
    if (this.api.kind === 'http' && this.#settings?.notifications && 'Notification' in window && Notification.permission === 'granted') {
      new Notification(title, { body });
    }
  }
}

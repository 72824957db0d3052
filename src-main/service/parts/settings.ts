// The window's settings, kept in the real folder's store (never secrets: the store refuses those), each read with
// its default: what the player saved is trusted only as far as its type and range.
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import type { z } from 'zod';
import type * as s from '../../contract/schemas.ts';
import { SYNC_EVERY_MINUTES_MIN } from '../../contract/schemas.ts';
import type { SettingValue, Store } from '../../core/store/index.ts';
import { keptRate } from '../../shared/rate-policy.ts';
import { findGameReplayFolder, gameReplayFolderCandidates } from '../game-folder.ts';

/** A folder that is there (a file of that name is not one). */
function isFolder(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isDirectory();
  } catch {
    return false;
  }
}

type Out<T extends z.ZodType> = z.output<T>;

/** Keys in the store's settings table. */
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

export type SettingName = keyof typeof KEY;

export interface SettingsOptions {
  /** The real folder's store: the demo keeps no settings of its own. */
  store: Store;
  /** Throws the read_only error value when the data folder cannot be written. */
  requireWritable: () => void;
  platform: NodeJS.Platform;
  /** The real folder talks to Nadeo's real services: its rate stays under their ceiling (shared/rate-policy.ts). */
  realService: boolean;
  home?: string | undefined;
  env?: NodeJS.ProcessEnv | undefined;
}

export class ServiceSettings {
  readonly #o: SettingsOptions;

  constructor(options: SettingsOptions) {
    this.#o = options;
  }

  get(key: SettingName): SettingValue | undefined {
    return this.#o.store.settings.get(KEY[key]);
  }

  set(key: SettingName, value: SettingValue | undefined): void {
    this.#o.requireWritable();
    this.#o.store.settings.set(KEY[key], value);
  }

  #string(key: SettingName): string | undefined {
    const value = this.get(key);
    return typeof value === 'string' && value !== '' ? value : undefined;
  }

  /** The first-run choice saved by an earlier start, if any. */
  get setup(): 'demo' | 'account' | undefined {
    const value = this.get('setup');
    return value === 'demo' || value === 'account' ? value : undefined;
  }
  get contact(): string {
    return this.#string('contact') ?? '';
  }
  get login(): string | undefined {
    return this.#string('login');
  }
  get maxRps(): number {
    return keptRate(this.get('maxRps'), this.#o.realService);
  }
  get theme(): Out<typeof s.Theme> {
    const value = this.get('theme');
    return value === 'light' || value === 'system' ? value : 'dark';
  }
  get scheduledSync(): Out<typeof s.ScheduledSync> {
    const value = this.get('schedule');
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const every = typeof value.everyMinutes === 'number' ? value.everyMinutes : 60;
      return { enabled: value.enabled === true, everyMinutes: Math.max(SYNC_EVERY_MINUTES_MIN, every) };
    }
    return { enabled: false, everyMinutes: 60 };
  }
  get notifications(): boolean {
    return this.get('notify') !== false;
  }
  /** Whether the window's syncs (by hand or scheduled) ask the world positions of changed PBs. */
  get worldPositions(): boolean {
    return this.get('positions') !== false;
  }
  /** Where the game's replay folder may be on this OS, most likely first. */
  get gameReplayFolderCandidates(): string[] {
    return gameReplayFolderCandidates(this.#o.platform, this.#o.home ?? homedir(), this.#o.env ?? process.env);
  }
  /** The game's replay folder found on this computer (its game folder exists); undefined when the game is not found. */
  get gameReplayFolderFound(): string | undefined {
    return findGameReplayFolder(this.gameReplayFolderCandidates, isFolder);
  }
  get gameReplayFolderDefault(): string {
    return this.gameReplayFolderFound ?? this.gameReplayFolderCandidates[0]!;
  }
  /** The folder the player chose in Settings; undefined when they kept the default. */
  get gameReplayFolderChosen(): string | undefined {
    return this.#string('gameFolder');
  }
  get gameReplayFolder(): string {
    return this.gameReplayFolderChosen ?? this.gameReplayFolderDefault;
  }
  get oauthClientId(): string | undefined {
    return this.#string('oauthClientId');
  }
}

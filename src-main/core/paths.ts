// Where Trackwatch keeps its data: the same folder Electron's app.getPath('userData') gives an app named Trackwatch,
// so the command line and the desktop app share one data folder.
import { homedir } from 'node:os';
import path from 'node:path';

export const APP_FOLDER_NAME = 'Trackwatch';
export const DATABASE_FILE_NAME = 'trackwatch.sqlite';
export const DATA_DIR_ENV = 'TRACKWATCH_DATA_DIR';

/**
 * The per-OS application-data folder: Windows `%APPDATA%\Trackwatch`, macOS `~/Library/Application Support/Trackwatch`,
 * elsewhere `$XDG_CONFIG_HOME/Trackwatch` or `~/.config/Trackwatch` (Chromium's rule: a non-empty variable wins).
 */
export function defaultDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') {
    const appData = env.APPDATA || path.win32.join(home, 'AppData', 'Roaming');
    return path.win32.join(appData, APP_FOLDER_NAME);
  }
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  const config = env.XDG_CONFIG_HOME || path.posix.join(home, '.config');
  return path.posix.join(config, APP_FOLDER_NAME);
}

export interface ResolveDataDirOptions {
  /** The --data-dir flag. */
  flag?: string | undefined;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

/** `--data-dir` beats TRACKWATCH_DATA_DIR beats the per-OS default; a relative folder is taken from the working directory. */
export function resolveDataDir(options: ResolveDataDirOptions = {}): string {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const chosen = nonEmpty(options.flag) ?? nonEmpty(env[DATA_DIR_ENV]);
  if (chosen === undefined) return defaultDataDir(platform, env, options.home);
  const p = platform === 'win32' ? path.win32 : path.posix;
  return p.isAbsolute(chosen) ? p.normalize(chosen) : path.resolve(chosen);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE_NAME);
}

export function replaysDir(dataDir: string): string {
  return path.join(dataDir, 'replays');
}

export function exportsDir(dataDir: string): string {
  return path.join(dataDir, 'exports');
}

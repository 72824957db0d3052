// src-main/core/paths.ts: where the data folder is (tested here, with the store that lives in it).
import { describe, expect, it } from 'vitest';
import { databaseFile, defaultDataDir, exportsDir, replaysDir, resolveDataDir } from '../../../src-main/core/paths.ts';
import { resolve } from 'node:path';

describe('defaultDataDir: where Electron puts userData for an app named Trackwatch', () => {
  it('Windows: %APPDATA%\\Trackwatch, else the roaming folder under the profile', () => {
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\AppData\\Roaming\\Trackwatch');
    expect(defaultDataDir('win32', {}, 'C:\\Users\\ana')).toBe('C:\\Users\\ana\\AppData\\Roaming\\Trackwatch');
  });

  it('macOS: ~/Library/Application Support/Trackwatch, whatever XDG says', () => {
    expect(defaultDataDir('darwin', { XDG_CONFIG_HOME: '/x' }, '/Users/ana')).toBe('/Users/ana/Library/Application Support/Trackwatch');
  });

  it('Linux: $XDG_CONFIG_HOME/Trackwatch when set and not empty, else ~/.config/Trackwatch', () => {
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/home/ana/.cfg' }, '/home/ana')).toBe('/home/ana/.cfg/Trackwatch');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '' }, '/home/ana')).toBe('/home/ana/.config/Trackwatch');
    expect(defaultDataDir('linux', {}, '/home/ana')).toBe('/home/ana/.config/Trackwatch');
    expect(defaultDataDir('freebsd', {}, '/home/ana')).toBe('/home/ana/.config/Trackwatch');
  });
});

describe('resolveDataDir', () => {
  const env = { TRACKWATCH_DATA_DIR: '/from/env', XDG_CONFIG_HOME: '/xdg' };
  it('--data-dir beats TRACKWATCH_DATA_DIR beats the default', () => {
    expect(resolveDataDir({ flag: '/from/flag', env, platform: 'linux' })).toBe('/from/flag');
    expect(resolveDataDir({ env, platform: 'linux' })).toBe('/from/env');
    expect(resolveDataDir({ flag: '', env: { XDG_CONFIG_HOME: '/xdg', TRACKWATCH_DATA_DIR: ' ' }, platform: 'linux' })).toBe('/xdg/Trackwatch');
  });

  it('takes a relative folder from the working directory', () => {
    expect(resolveDataDir({ flag: 'data', env: {}, platform: 'linux' })).toBe(resolve('data'));
  });

  it('names the database, replays and exports inside the folder', () => {
    expect(databaseFile('/d')).toBe('/d/trackwatch.sqlite');
    expect(replaysDir('/d')).toBe('/d/replays');
    expect(exportsDir('/d')).toBe('/d/exports');
  });
});

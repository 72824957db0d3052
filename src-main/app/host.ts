// What only the desktop app can do for the service: the file manager, the save dialog, notifications, the keychain.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { Notification, dialog, shell } from 'electron';
import type { BrowserWindow, SafeStorage } from 'electron';
import type { ServiceHost } from '../service/service.ts';
import { keychainSecretStore } from './secrets.ts';

/** Where the app remembers a data folder chosen in Settings (outside the data folder, which it names). */
export interface Bootstrap {
  file: string;
}

export function readNextDataDir(bootstrap: Bootstrap): string | null {
  try {
    const parsed = JSON.parse(readFileSync(bootstrap.file, 'utf8')) as { dataDir?: unknown };
    return typeof parsed.dataDir === 'string' && path.isAbsolute(parsed.dataDir) ? parsed.dataDir : null;
  } catch {
    return null;
  }
}

export interface ElectronHostOptions {
  safeStorage: SafeStorage;
  dataDir: string;
  /** Where the sealed secrets live: the app's own folder, so moving the data folder (or sharing it) never moves them. */
  secretsFile: string;
  bootstrap: Bootstrap;
  window: () => BrowserWindow | undefined;
}

export function electronHost(o: ElectronHostOptions): ServiceHost {
  return {
    shell: 'electron',
    platform: process.platform,
    secrets: keychainSecretStore(o.safeStorage, o.secretsFile),
    showItemInFolder: (file) => shell.showItemInFolder(file),
    openFolder: async (dir) => {
      const problem = await shell.openPath(dir);
      if (problem) throw new Error(problem);
    },
    chooseSaveFile: async (suggestedName) => {
      const window = o.window();
      const options = { defaultPath: suggestedName, filters: [{ name: 'CSV', extensions: ['csv'] }] };
      const result = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    notify: (title, body) => {
      if (!Notification.isSupported()) return;
      const notification = new Notification({ title, body, silent: false });
      notification.on('click', () => {
        const window = o.window();
        if (window) {
          if (window.isMinimized()) window.restore();
          window.focus();
        }
      });
      notification.show();
    },
    nextDataDir: {
      get: () => {
        const next = readNextDataDir(o.bootstrap);
        return next && path.resolve(next) !== path.resolve(o.dataDir) ? next : null;
      },
      set: (dir) => {
        if (!path.isAbsolute(dir)) throw new Error('Choose an absolute folder path.');
        mkdirSync(path.dirname(o.bootstrap.file), { recursive: true });
        writeFileSync(o.bootstrap.file, JSON.stringify({ dataDir: dir }));
      },
    },
  };
}

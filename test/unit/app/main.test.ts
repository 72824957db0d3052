// The entry wired with Electron mocked: order of the privileged scheme, sandbox, single instance; then the hardened
// session, the app:// handler, the IPC door and the window with the preload; and a clean quit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

const seen = vi.hoisted(() => ({
  calls: [] as string[],
  appHandlers: new Map<string, (...args: unknown[]) => void>(),
  windows: [] as { options: { webPreferences: Record<string, unknown> }; url?: string }[],
  ipc: new Map<string, unknown>(),
  schemes: [] as unknown[],
  protocolHandlers: new Map<string, unknown>(),
  session: { permissionRequest: undefined as unknown },
  quit: 0,
}));

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const dir = process.env.TRACKWATCH_TEST_APP_DIR!;
  class BrowserWindow extends EventEmitter {
    webContents = Object.assign(new EventEmitter(), { setWindowOpenHandler: () => {}, send: () => {}, getURL: () => 'app://trackwatch/index.html', isDestroyed: () => false });
    record: { options: { webPreferences: Record<string, unknown> }; url?: string };
    constructor(options: { webPreferences: Record<string, unknown> }) {
      super();
      this.record = { options };
      seen.windows.push(this.record);
      seen.calls.push('window');
    }
    loadURL(url: string) {
      this.record.url = url;
      return Promise.resolve();
    }
    show() {}
  }
  const app = {
    isPackaged: false,
    enableSandbox: () => seen.calls.push('enableSandbox'),
    requestSingleInstanceLock: () => (seen.calls.push('singleInstance'), true),
    on: (name: string, handler: (...args: unknown[]) => void) => seen.appHandlers.set(name, handler),
    whenReady: () => (seen.calls.push('whenReady'), Promise.resolve()),
    getPath: () => dir,
    getVersion: () => '0.1.0',
    quit: () => void seen.quit++,
    exit: () => {},
  };
  const webRequest = { onBeforeRequest: () => {}, onHeadersReceived: () => {} };
  const defaultSession = Object.assign(new EventEmitter(), {
    setPermissionRequestHandler: (h: unknown) => (seen.session.permissionRequest = h, seen.calls.push('hardenSession')),
    setPermissionCheckHandler: () => {},
    setDevicePermissionHandler: () => {},
    webRequest,
  });
  return {
    app,
    BrowserWindow,
    dialog: { showErrorBox: () => {}, showSaveDialog: async () => ({ canceled: true }) },
    ipcMain: { handle: (channel: string, fn: unknown) => (seen.ipc.set(channel, fn), seen.calls.push('ipc')), removeHandler: () => {} },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => (seen.schemes.push(...schemes), seen.calls.push('registerScheme')),
      handle: (scheme: string, fn: unknown) => (seen.protocolHandlers.set(scheme, fn), seen.calls.push('protocol')),
    },
    safeStorage: { isEncryptionAvailable: () => false, getSelectedStorageBackend: () => 'basic_text', encryptString: () => Buffer.alloc(0), decryptString: () => '' },
    session: { defaultSession },
    shell: { openExternal: async () => {}, showItemInFolder: () => {}, openPath: async () => '' },
    Notification: Object.assign(class {}, { isSupported: () => false }),
  };
});

const dir = mkdtempSync(path.join(tmpdir(), 'tw-main-'));
process.env.TRACKWATCH_TEST_APP_DIR = dir;
process.env.TRACKWATCH_DATA_DIR = path.join(dir, 'data');

await import('../../../src-main/app/main.ts');
// Until the window is made, however long a loaded machine takes to start the service.
await vi.waitFor(() => expect(seen.calls).toContain('window'), { timeout: 30_000, interval: 10 });

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the entry', () => {
  it('registers the privileged scheme, the sandbox and the single-instance lock before the app is ready', () => {
    const ready = seen.calls.indexOf('whenReady');
    expect(ready).toBeGreaterThan(0);
    for (const step of ['registerScheme', 'enableSandbox', 'singleInstance']) {
      expect(seen.calls, step).toContain(step);
      expect(seen.calls.indexOf(step), step).toBeLessThan(ready);
    }
    expect(seen.schemes).toEqual([expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) })]);
  });

  it('hardens the session and serves app:// before the window exists, then opens one sandboxed window on it', () => {
    const window = seen.calls.indexOf('window');
    for (const step of ['hardenSession', 'protocol', 'ipc']) {
      expect(seen.calls, step).toContain(step);
      expect(seen.calls.indexOf(step), step).toBeLessThan(window);
    }
    expect(seen.windows).toHaveLength(1);
    expect(seen.windows[0]!.url).toBe('app://trackwatch/index.html');
    expect(seen.windows[0]!.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(String(seen.windows[0]!.options.webPreferences.preload)).toMatch(/[\\/]preload[\\/]preload\.cjs$/);
    expect([...seen.ipc.keys()]).toEqual(['trackwatch:invoke']);
  });

  it('answers our page over IPC and refuses a foreign frame', async () => {
    const invoke = seen.ipc.get('trackwatch:invoke') as (event: unknown, name: string, input: unknown) => Promise<unknown>;
    expect(await invoke({ senderFrame: { url: 'app://trackwatch/index.html', parent: null } }, 'app.info', {})).toMatchObject({
      ok: true,
      value: { shell: 'electron', setup: 'none', capabilities: { showInFolder: true, saveDialog: true, keychain: false, nativeNotifications: true } },
    });
    expect(await invoke({ senderFrame: { url: 'https://evil.example/', parent: null } }, 'app.info', {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('quits cleanly: closes the data before letting the app go', async () => {
    const willQuit = seen.appHandlers.get('will-quit')!;
    const event = { preventDefault: vi.fn() };
    willQuit(event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(seen.quit).toBeGreaterThan(0), { timeout: 20_000, interval: 10 });
    expect(seen.quit).toBe(1);
  });
});

// The desktop app's entry: one hardened window over the same service the browser bridge serves.
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session } from 'electron';
import { resolveDataDir } from '../core/paths.ts';
import { createHandlers } from '../service/handlers/index.ts';
import { keepRunningOnUnexpectedErrors } from '../service/errors.ts';
import { TrackwatchService } from '../service/service.ts';
import { electronHost, readNextDataDir } from './host.ts';
import { forwardEvents, registerIpc } from './ipc.ts';
import { registerAppScheme, serveApp } from './protocol.ts';
import { appOrigin, createMainWindow, hardenSession } from './window.ts';

const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined;
const origin = appOrigin(devServerUrl);
const outDir = path.join(import.meta.dirname, '..');

registerAppScheme(protocol);
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let window: BrowserWindow | undefined;
  let service: TrackwatchService | undefined;

  // A bug in one command or one sync is reported, and the app keeps running: the window, the data, the schedule.
  let lastShown = 0;
  keepRunningOnUnexpectedErrors((line, stack) => {
    console.error(`Trackwatch: ${line}`, stack ?? '');
    // Said in the window at most every 10 s, without blocking it (a burst of the same failure is one message).
    if (!window || Date.now() - lastShown < 10_000) return;
    lastShown = Date.now();
    void dialog.showMessageBox(window, { type: 'error', title: 'Trackwatch', message: 'Something went wrong', detail: `${line}\nTrackwatch keeps running.` });
  });

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  app.on('web-contents-created', (_event, contents) => {
    // Belt and braces: no webview, no pop-up, no navigation, whichever contents it is.
    contents.on('will-attach-webview', (e) => e.preventDefault());
    contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  });

  app.whenReady().then(async () => {
    // Electron's userData is the per-OS "Trackwatch" folder the command line uses too; Settings may have moved it.
    const appFolder = app.getPath('userData');
    const bootstrap = { file: path.join(appFolder, 'data-folder.json') };
    const dataDir = readNextDataDir(bootstrap) ?? resolveDataDir();
    hardenSession(session.defaultSession, origin, devServerUrl);
    serveApp(protocol, path.join(outDir, 'renderer'));
    service = await TrackwatchService.open({
      dataDir,
      host: electronHost({ safeStorage, dataDir, secretsFile: path.join(appFolder, 'secrets.bin'), bootstrap, window: () => window }),
      apiUrl: process.env.TRACKWATCH_API_URL,
      // The other services as the command line takes them; beside an emulator a real host is refused (serviceUrls).
      liveUrl: process.env.TRACKWATCH_LIVE_URL || undefined,
      oauthUrl: process.env.TRACKWATCH_OAUTH_URL || undefined,
      exchangeUrl: process.env.TRACKWATCH_EXCHANGE_URL || undefined,
      appVersion: app.getVersion(),
    });
    registerIpc(ipcMain, createHandlers(service), origin);
    window = createMainWindow({ preload: path.join(outDir, 'preload', 'preload.cjs'), origin, devTools: !app.isPackaged });
    forwardEvents(service.events, () => window?.webContents, origin);
    window.on('closed', () => (window = undefined));
  }).catch((error: unknown) => {
    // Say why before going (a data folder from a newer Trackwatch, a folder that cannot be written...).
    const message = error instanceof Error ? error.message : String(error);
    console.error('Trackwatch could not start:', error);
    dialog.showErrorBox('Trackwatch could not start', message);
    app.exit(1);
  });

  app.on('window-all-closed', () => app.quit());

  let quitting = false;
  app.on('will-quit', (event) => {
    if (quitting || !service) return;
    // Let a running sync stop cleanly and the database close before the process goes.
    event.preventDefault();
    quitting = true;
    void service.close().finally(() => app.quit());
  });
}

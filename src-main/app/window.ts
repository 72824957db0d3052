// Window hardening in one module: web preferences, navigation, pop-ups, permissions, and which frames we trust.
import { BrowserWindow, shell } from 'electron';
import type { BrowserWindowConstructorOptions, Session, WebContents, WebFrameMain, WebPreferences } from 'electron';
import { RENDERER_CSP } from '../service/security.ts';

/** The renderer is served from this privileged scheme, never from file:// (whose 'self' is the whole disk). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'trackwatch';
export const APP_START_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** Hosts players follow from the app; anything else stays unopened. */
export const EXTERNAL_HOSTS: ReadonlySet<string> = new Set([
  'trackmania.io',
  'trackmania.exchange',
  'api.trackmania.com',
  'www.trackmania.com',
  'trackmania.com',
  'openplanet.dev',
  'github.com',
]);

/** Where our own page lives: the app scheme, or electron-vite's dev server while developing. */
export interface Origin {
  readonly startUrl: string;
  isOwn(url: string): boolean;
}

export function appOrigin(devServerUrl?: string): Origin {
  if (devServerUrl) {
    const dev = new URL(devServerUrl);
    return {
      startUrl: dev.href,
      isOwn: (url) => {
        try {
          const u = new URL(url);
          return u.protocol === dev.protocol && u.host === dev.host;
        } catch {
          return false;
        }
      },
    };
  }
  return {
    startUrl: APP_START_URL,
    isOwn: (url) => {
      try {
        const u = new URL(url);
        // A custom scheme's URL.origin is 'null' in Node, so compare its parts.
        return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
      } catch {
        return false;
      }
    },
  };
}

export function webPreferences(preload: string, devTools: boolean): WebPreferences {
  return {
    preload,
    sandbox: true,
    contextIsolation: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    devTools,
  };
}

export function windowOptions(preload: string, devTools: boolean): BrowserWindowConstructorOptions {
  return {
    width: 1320,
    height: 840,
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'Trackwatch',
    // Dark from the first frame, so the window never flashes white before the page paints.
    backgroundColor: '#0e1014',
    autoHideMenuBar: true,
    webPreferences: webPreferences(preload, devTools),
  };
}

/** True for links we hand to the OS browser: https, to a host players expect. */
export function isExternalLink(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && u.username === '' && u.password === '' && EXTERNAL_HOSTS.has(u.hostname);
  } catch {
    return false;
  }
}

/** The page never navigates away, never opens windows, never embeds webviews; known links go to the OS browser. */
export function hardenWebContents(contents: WebContents, openExternal: (url: string) => Promise<void> = (url) => shell.openExternal(url)): void {
  // In-page (hash) navigation does not come here; a real navigation, even to our own origin, is refused.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) void openExternal(url).catch(() => {});
    return { action: 'deny' };
  });
}

/** No permission is ever granted (camera, notifications, clipboard...); the page cannot reach the network. */
export function hardenSession(ses: Session, origin: Origin, devServerUrl?: string): void {
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.on('will-download', (event) => event.preventDefault());
  ses.webRequest.onBeforeRequest({ urls: ['<all_urls>'] }, (details, callback) => {
    const allowed = origin.isOwn(details.url) || details.url.startsWith('devtools://') || details.url.startsWith('data:');
    callback({ cancel: !allowed });
  });
  if (devServerUrl) {
    // The app scheme sets the CSP itself; the dev server does not, so add it here (inline styles: Vite injects them).
    ses.webRequest.onHeadersReceived((details, callback) => {
      const headers = { ...details.responseHeaders };
      if (origin.isOwn(details.url)) headers['Content-Security-Policy'] = [devCsp()];
      callback({ responseHeaders: headers });
    });
  }
}

function devCsp(): string {
  return RENDERER_CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'").replace("connect-src 'self'", "connect-src 'self' ws:");
}

/** Only the top frame of our own page may talk to main: not an iframe, not a page we navigated to by mistake. */
export function isTrustedSender(frame: WebFrameMain | null | undefined, origin: Origin): boolean {
  if (!frame) return false;
  if (frame.parent !== null) return false;
  return origin.isOwn(frame.url);
}

export interface MainWindowOptions {
  preload: string;
  origin: Origin;
  devTools: boolean;
}

export function createMainWindow(o: MainWindowOptions): BrowserWindow {
  const window = new BrowserWindow(windowOptions(o.preload, o.devTools));
  hardenWebContents(window.webContents);
  window.once('ready-to-show', () => window.show());
  void window.loadURL(o.origin.startUrl);
  return window;
}

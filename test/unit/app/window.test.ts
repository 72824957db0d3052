import { EventEmitter } from 'node:events';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => ({
  windows: [] as { options: unknown; loaded: string[] }[],
  opened: [] as string[],
}));

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  class BrowserWindow extends EventEmitter {
    readonly webContents: unknown;
    readonly record: { options: unknown; loaded: string[] };
    constructor(options: unknown) {
      super();
      this.record = { options, loaded: [] };
      electron.windows.push(this.record);
      this.webContents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() });
    }
    loadURL(url: string) {
      this.record.loaded.push(url);
      return Promise.resolve();
    }
    show() {}
  }
  return { BrowserWindow, shell: { openExternal: async (url: string) => void electron.opened.push(url) } };
});

const { APP_START_URL, appOrigin, createMainWindow, hardenSession, hardenWebContents, isExternalLink, isTrustedSender, windowOptions } = await import('../../../src-main/app/window.ts');
const { RENDERER_CSP, RENDERER_HEADERS } = await import('../../../src-main/service/security.ts');

function fakeContents() {
  const contents = new EventEmitter() as EventEmitter & { openHandler?: (d: { url: string }) => { action: string } };
  Object.assign(contents, { setWindowOpenHandler: (h: (d: { url: string }) => { action: string }) => (contents.openHandler = h) });
  return contents;
}

function csp(): Map<string, string[]> {
  return new Map(RENDERER_CSP.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
}

const openExternal = async (url: string): Promise<void> => void electron.opened.push(url);

beforeEach(() => {
  electron.windows.length = 0;
  electron.opened.length = 0;
});

describe('the window', () => {
  it('is sandboxed, isolated, without Node, webviews or insecure content, and dark from the first frame', () => {
    const options = windowOptions('/app/out/preload/preload.cjs', false);
    expect(options.webPreferences).toMatchObject({
      preload: '/app/out/preload/preload.cjs',
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: false,
    });
    expect(options.show).toBe(false);
    expect(options.backgroundColor).toMatch(/^#0/);
  });

  it('loads our own app:// page with those options and hardens its contents', () => {
    const origin = appOrigin();
    createMainWindow({ preload: '/p.cjs', origin, devTools: false });
    expect(electron.windows).toHaveLength(1);
    expect(electron.windows[0]!.loaded).toEqual([APP_START_URL]);
    expect((electron.windows[0]!.options as { webPreferences: { sandbox: boolean } }).webPreferences.sandbox).toBe(true);
  });
});

describe('the Content-Security-Policy', () => {
  it('allows scripts and styles only from the app, no inline code, no eval, nothing embedded, no framing', () => {
    const d = csp();
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('img-src')).toEqual(["'self'", 'data:']);
    expect(d.get('connect-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'none'"]);
    expect(RENDERER_CSP).not.toMatch(/unsafe-(inline|eval)|\*/);
    expect(RENDERER_HEADERS['Content-Security-Policy']).toBe(RENDERER_CSP);
    expect(RENDERER_HEADERS['X-Content-Type-Options']).toBe('nosniff');
  });
});

describe('navigation and pop-ups', () => {
  it('refuses every navigation, redirect, frame navigation and webview', () => {
    const contents = fakeContents();
    hardenWebContents(contents as never, openExternal);
    for (const [name, args] of [
      ['will-navigate', ['https://evil.example/']],
      ['will-navigate', [APP_START_URL]],
      ['will-redirect', ['https://evil.example/']],
      ['will-attach-webview', [{}, {}]],
    ] as const) {
      const event = { preventDefault: vi.fn() };
      contents.emit(name, event, ...args);
      expect(event.preventDefault, name).toHaveBeenCalled();
    }
    const subframe = { preventDefault: vi.fn(), isMainFrame: false };
    contents.emit('will-frame-navigate', subframe);
    expect(subframe.preventDefault).toHaveBeenCalled();
  });

  it('denies every window.open and hands only https links to known hosts to the OS browser', () => {
    const contents = fakeContents();
    hardenWebContents(contents as never, openExternal);
    const open = (url: string) => contents.openHandler!({ url });
    expect(open('https://trackmania.io/#/leaderboard/abc')).toEqual({ action: 'deny' });
    expect(open('https://evil.example/')).toEqual({ action: 'deny' });
    expect(open('http://trackmania.io/')).toEqual({ action: 'deny' });
    expect(open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(open('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(open('https://user:pw@trackmania.io/')).toEqual({ action: 'deny' });
    expect(electron.opened).toEqual(['https://trackmania.io/#/leaderboard/abc']);
  });

  it('knows which links are external ones', () => {
    expect(isExternalLink('https://api.trackmania.com/manager')).toBe(true);
    expect(isExternalLink('https://trackmania.io.evil.example/')).toBe(false);
    expect(isExternalLink('not a url')).toBe(false);
  });
});

describe('the session', () => {
  function fakeSession() {
    const handlers: Record<string, (...args: never[]) => unknown> = {};
    const session = Object.assign(new EventEmitter(), {
      setPermissionRequestHandler: (h: never) => (handlers.request = h),
      setPermissionCheckHandler: (h: never) => (handlers.check = h),
      setDevicePermissionHandler: (h: never) => (handlers.device = h),
      webRequest: {
        onBeforeRequest: (_filter: unknown, h: never) => (handlers.beforeRequest = h),
        onHeadersReceived: (h: never) => (handlers.headers = h),
      },
    });
    return { session, handlers };
  }

  it('grants no permission, asked or checked', () => {
    const { session, handlers } = fakeSession();
    hardenSession(session as never, appOrigin());
    for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-sanitized-write', 'openExternal']) {
      const callback = vi.fn();
      (handlers.request as (...a: unknown[]) => void)({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect((handlers.check as (...a: unknown[]) => boolean)({}, permission)).toBe(false);
    }
    expect((handlers.device as () => boolean)()).toBe(false);
  });

  it('lets the page load only from its own origin: no request reaches the network', () => {
    const { session, handlers } = fakeSession();
    hardenSession(session as never, appOrigin());
    const cancel = (url: string) => {
      let result: { cancel: boolean } | undefined;
      (handlers.beforeRequest as (...a: unknown[]) => void)({ url }, (r: { cancel: boolean }) => (result = r));
      return result!.cancel;
    };
    expect(cancel('app://trackwatch/assets/index.js')).toBe(false);
    expect(cancel('https://core.trackmania.nadeo.live/storageObjects/x.jpg')).toBe(true);
    expect(cancel('http://127.0.0.1:1234/')).toBe(true);
    expect(cancel('app://other/index.html')).toBe(true);
  });

  it('refuses downloads', () => {
    const { session } = fakeSession();
    hardenSession(session as never, appOrigin());
    const event = { preventDefault: vi.fn() };
    session.emit('will-download', event);
    expect(event.preventDefault).toHaveBeenCalled();
  });
});

describe('trusted senders', () => {
  const origin = appOrigin();
  const frame = (url: string, parent: unknown = null) => ({ url, parent }) as never;

  it('trusts only the top frame of our own page', () => {
    expect(isTrustedSender(frame('app://trackwatch/index.html#/lists/x'), origin)).toBe(true);
    expect(isTrustedSender(frame('app://trackwatch/index.html', {}), origin)).toBe(false);
    expect(isTrustedSender(frame('https://evil.example/'), origin)).toBe(false);
    expect(isTrustedSender(frame('app://evil/index.html'), origin)).toBe(false);
    expect(isTrustedSender(frame('file:///app/out/renderer/index.html'), origin)).toBe(false);
    expect(isTrustedSender(null, origin)).toBe(false);
  });

  it('trusts the dev server only when one is given', () => {
    const dev = appOrigin('http://localhost:5173/');
    expect(isTrustedSender(frame('http://localhost:5173/#/'), dev)).toBe(true);
    expect(isTrustedSender(frame('app://trackwatch/index.html'), dev)).toBe(false);
    expect(isTrustedSender(frame('http://localhost:5174/'), dev)).toBe(false);
  });
});

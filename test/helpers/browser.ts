// End-to-end helpers: a fresh build of the window when needed, Debian's Chromium, and the app in browser mode.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { startBrowserMode } from '../../src-main/bridge/browser-mode.ts';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';
import type { BrowserMode, BrowserModeOptions } from '../../src-main/bridge/browser-mode.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const RENDERER_DIR = path.join(ROOT, 'out', 'renderer');
export const SCREENSHOTS = path.join(ROOT, 'test-artifacts', 'screenshots');
export { CHROMIUM } from './chromium.ts';

function newestIn(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestIn(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const LOCK = path.join(ROOT, 'out', '.build-lock');

/** Test files run in parallel: one builds while the others wait, then each checks again whether it still must. */
function buildUnless(fresh: () => boolean): void {
  if (fresh()) return;
  mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock older than two minutes belongs to a build that died.
      if (existsSync(LOCK) && Date.now() - statSync(LOCK).mtimeMs > 120_000) rmSync(LOCK, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!fresh()) execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js'), 'build'], { cwd: ROOT, stdio: 'pipe' });
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}

function olderThan(file: string, sources: number): boolean {
  return !existsSync(file) || statSync(file).mtimeMs < sources;
}

/** Builds the window with electron-vite when out/renderer is missing or older than its sources. */
export function ensureRendererBuilt(): void {
  const sources = Math.max(newestIn(path.join(ROOT, 'src-renderer')), newestIn(path.join(ROOT, 'src-main', 'contract')));
  buildUnless(() => !olderThan(path.join(RENDERER_DIR, 'index.html'), sources));
}

/** Builds main, preload and renderer when any output is missing or older than the sources. */
export function ensureAppBuilt(): void {
  const sources = Math.max(newestIn(path.join(ROOT, 'src-renderer')), newestIn(path.join(ROOT, 'src-main')));
  const outputs = ['out/main/index.js', 'out/preload/preload.cjs', 'out/renderer/index.html'].map((f) => path.join(ROOT, f));
  buildUnless(() => !outputs.some((f) => olderThan(f, sources)));
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export interface TestApp extends BrowserMode {
  dataDir: string;
  dispose(): Promise<void>;
}

/** The app in browser mode over a fresh temporary data folder. */
export async function startTestApp(options: Partial<BrowserModeOptions> = {}): Promise<TestApp> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'trackwatch-e2e-'));
  const mode = await startBrowserMode({ rendererDir: RENDERER_DIR, ...options, dataDir });
  return {
    ...mode,
    dataDir,
    dispose: async () => {
      await mode.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Collects what a page must never do: CSP violations, uncaught errors, console errors. */
export function watchPage(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  return { problems };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

export interface AppInBrowser {
  app: TestApp;
  browser: Browser;
  /** One page, not yet navigated, watched for problems. */
  page: Page;
  /** What the page did that it never should (see watchPage). */
  problems: string[];
  /** Closes the browser, then the app (and removes its data folder). */
  close(): Promise<void>;
}

/**
 * The e2e files' harness: the window built if it must be, the app in browser mode with `app`'s options, Chromium (the
 * run's shared one, else one of its own), and one page of `page`'s options (its viewport) watched for problems. What
 * was opened is closed if a later step fails.
 */
export async function openAppInBrowser(options: { app?: Partial<BrowserModeOptions>; page?: BrowserContextOptions } = {}): Promise<AppInBrowser> {
  ensureRendererBuilt();
  const app = await startTestApp(options.app);
  let browser: Browser | undefined;
  try {
    // The run's shared Chromium when the e2e project started one (chromium-server.ts): closing a connected browser
    // closes this file's pages and leaves the others'.
    const { inject } = await import('vitest');
    const shared = inject('chromiumEndpoint');
    browser = shared ? await chromium.connect(shared) : await launchChromium();
    const page = await browser.newPage(options.page);
    const opened = browser;
    return {
      app,
      browser,
      page,
      problems: watchPage(page).problems,
      close: async () => {
        await opened.close();
        await app.dispose();
      },
    };
  } catch (error) {
    await browser?.close();
    await app.dispose();
    throw error;
  }
}

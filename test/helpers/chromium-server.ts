// The e2e project's global setup: one Chromium for the whole run, which every e2e file connects to for pages of its
// own (openAppInBrowser), instead of starting a browser per file (about 2 s of CPU each on a 2-core machine).
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's address, set by this setup; absent outside the e2e project. */
    chromiumEndpoint?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}

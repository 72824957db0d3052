// Browser mode in one call: the service over a data folder, its handlers behind the loopback bridge.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createHandlers } from '../service/handlers/index.ts';
import { memorySecretStore } from '../service/secrets.ts';
import type { SecretStore } from '../service/secrets.ts';
import { TrackwatchService } from '../service/service.ts';
import type { ServiceOptions } from '../service/service.ts';
import { startBridge } from './server.ts';
import type { RunningBridge } from './server.ts';

/** out/renderer next to the sources, where `npm run build` puts it. */
export const DEFAULT_RENDERER_DIR = path.resolve(import.meta.dirname, '..', '..', 'out', 'renderer');

export interface BrowserModeOptions extends Omit<ServiceOptions, 'host'> {
  port?: number;
  token?: string;
  rendererDir?: string;
  /** Browser mode has no keychain: secrets live in memory (prefilled from the environment by `serve`). */
  secrets?: SecretStore;
}

export interface BrowserMode {
  bridge: RunningBridge;
  service: TrackwatchService;
  close(): Promise<void>;
}

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const rendererDir = options.rendererDir ?? DEFAULT_RENDERER_DIR;
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`The window is not built (no ${path.join(rendererDir, 'index.html')}): run \`npm run build\` first.`);
  }
  const { port, token, rendererDir: _dir, secrets, ...serviceOptions } = options;
  const service = await TrackwatchService.open({
    ...serviceOptions,
    host: { shell: 'browser', platform: process.platform, secrets: secrets ?? memorySecretStore() },
  });
  try {
    const bridge = await startBridge({
      handlers: createHandlers(service),
      events: service.events,
      rendererDir,
      ...(port === undefined ? {} : { port }),
      ...(token === undefined ? {} : { token }),
    });
    return {
      bridge,
      service,
      close: async () => {
        await bridge.close();
        await service.close();
      },
    };
  } catch (error) {
    await service.close();
    throw error;
  }
}

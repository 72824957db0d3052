// The emulator and a fast client for the phase tests that talk to a service.
import { createNadeoClient, type NadeoClient, type NadeoClientOptions } from '../../../../src-main/core/nadeo/index.ts';
import { DATA_NOW } from '../../../helpers/clock.ts';
import { generateDataset, startEmulator, type Dataset, type RunningEmulator } from '../../../../src-main/emulator/index.ts';

export interface EmulatedService {
  dataset: Dataset;
  emulator: RunningEmulator;
  client: NadeoClient;
  /** Requests the emulator answered on `route` ('GET /maps/...') since the last reset. */
  asked(route: string): number;
  close(): Promise<void>;
}

export async function emulatedService(o: { seed: number; maps: number; players: number }, client: Partial<NadeoClientOptions> = {}): Promise<EmulatedService> {
  const dataset = generateDataset({ ...o, now: DATA_NOW });
  const emulator = await startEmulator({ dataset });
  const made = createNadeoClient({
    baseUrl: emulator.url, appVersion: '0.1.0', maxRps: 2000, burst: 50, concurrency: 6,
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 5 }, ...client,
  });
  return {
    dataset,
    emulator,
    client: made,
    asked: (route) => Object.entries(emulator.stats().byRoute).filter(([r]) => r.startsWith(route)).reduce((n, [, c]) => n + c, 0),
    async close() {
      await made.close();
      await emulator.close();
    },
  };
}

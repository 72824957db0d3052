// Starts and stops an emulator for any test: a small generated dataset unless the test brings its own.
import { afterAll, beforeAll } from 'vitest';
import { generateDataset, startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator/index.ts';
import { DATA_NOW } from './clock.ts';

export interface TestEmulatorOptions extends Partial<EmulatorOptions> {
  /** Generated dataset's seed, maps and players when no dataset is given (defaults 1, 12, 8). */
  seed?: number;
  maps?: number;
  players?: number;
}

/** An emulator on 127.0.0.1 and a free port; close it when done. */
export function startTestEmulator(options: TestEmulatorOptions = {}): Promise<RunningEmulator> {
  const { seed = 1, maps = 12, players = 8, dataset, ...rest } = options;
  return startEmulator({ ...rest, dataset: dataset ?? generateDataset({ now: DATA_NOW, seed, maps, players }) });
}

/** One emulator for the whole test file (started in beforeAll, closed in afterAll); call the getter inside tests. */
export function useEmulator(options: TestEmulatorOptions = {}): () => RunningEmulator {
  let emulator: RunningEmulator | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator(options);
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return () => {
    if (!emulator) throw new Error('useEmulator: the emulator is not running (call the getter inside a test)');
    return emulator;
  };
}

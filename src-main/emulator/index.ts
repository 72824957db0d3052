// The emulator of Nadeo's service (seed contract + docs/nadeo-api.md), for demo mode and tests: the public surface.
export { startEmulator, MAX_URI_LENGTH } from './server.ts';
export type { EmulatorOptions, EmulatorStats, RunningEmulator } from './server.ts';
export { generateDataset, evolveDataset } from './generator.ts';
export type { DatasetStyle, EvolveOptions, GenerateOptions } from './generator.ts';
export { parseDataset, loadDataset, DatasetError } from './dataset.ts';
export { replayBytesFor, replayDamageOf, replayKindOf } from './files.ts';
export { WorldBoard } from './world.ts';
export { mapLayout, type MapLayout } from './gbx/index.ts';
export type { Dataset, DatasetMap, DatasetRecord } from './dataset.ts';

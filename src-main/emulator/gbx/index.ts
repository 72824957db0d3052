// The emulator's Gbx writer: ghosts and replays in the game's format, for its records (docs/gbx.md).
export { compressLzo1x } from './lzo.ts';
export { ByteWriter, writeGbxFile, type GbxFileSpec } from './writer.ts';
export { writeGhostFile, writeReplayFile, GHOST_CLASS, REPLAY_CLASS, type GhostSpec, type ReplaySpec, type ReplayMapSpec } from './ghost.ts';
export { mapLayout, replayMapOf, ghostOfRecord, authorGhostOf, loginOf, type MapLayout } from './runs.ts';
export { damage, type Damage } from './damage.ts';

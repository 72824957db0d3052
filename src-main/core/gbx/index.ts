// Gbx ghosts and replays: the reader's public face (docs/gbx.md).
export { GbxError, type GbxErrorCode } from './errors.ts';
export { GBX_LIMITS } from './limits.ts';
export { decompressLzo1x } from './lzo.ts';
export { readHeader, GHOST_CLASS, REPLAY_CLASS, type GbxHeader } from './header.ts';
export { readGbx, readBody, locateBody, type GbxContent, type GbxKind, type BodyLocation } from './read.ts';
export type { GhostRun } from './ghost.ts';
export type { ReplayXml } from './replay-xml.ts';

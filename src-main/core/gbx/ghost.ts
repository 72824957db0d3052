// The chunks of a ghost (CGameCtnGhost 0x03092000, on CGameGhost 0x0303F000) that hold a run's results, and the
// ones to understand to get past them (docs/gbx.md, "Ghost chunks").
import { GbxError } from './errors.ts';
import { GBX_LIMITS } from './limits.ts';
import { ChunkTable, readNodeRef, type BodyWalk, type ChunkReader, type NodeClass } from './nodes.ts';
import type { ByteReader } from './reader.ts';

/** One run, as the file stores it: times in ms; null where the file stores -1 or nothing. */
export interface GhostRun {
  /** The nickname, else the login, else null. */
  name: string | null;
  nickname: string | null;
  login: string | null;
  /** The map the run was driven on (chunk 0x03092010). */
  mapUid: string | null;
  raceTime: number | null;
  respawns: number | null;
  stuntScore: number | null;
  /** Cumulative time at each checkpoint, every lap, the finish last. */
  checkpoints: (number | null)[];
  /** The stunt score at each checkpoint. */
  checkpointStuntScores: (number | null)[];
}

/** A ghost being read: its run, whose `name` is set once every chunk is read (ghostRun). */
export type GhostState = GhostRun;

function orNull(value: number): number | null {
  return value === -1 ? null : value;
}

function asText(value: string | number | null): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** CPlugEntRecordData (0x0911F000): the run's samples, zlib-compressed; stepped over by its size. */
export const RECORD_DATA: NodeClass<null> = {
  id: 0x0911f000,
  name: 'record data',
  create: () => null,
  chunks: new ChunkTable([[0x0911f000, (r: ByteReader) => {
    r.u32(); // version
    r.u32(); // uncompressed size
    r.skip(r.u32());
  }]]),
  skippable: new ChunkTable([]),
};

/** Chunk 0x03092000 (versions 2-9): appearance, then the nickname; a version beyond what is known is stepped over. */
function readAppearance(r: ByteReader, ghost: GhostState, walk: BodyWalk): void {
  const version = r.u32();
  if (version < 2 || version > 9) {
    r.skip(r.remaining);
    r.ids.stepped = true;
    return;
  }
  const appearanceVersion = version >= 9 ? r.u32() : 0;
  r.skipId();
  r.skipId();
  r.skipId(); // player model: id, collection, author
  r.skip(12); // light trail colour
  const packs = r.count('skin packs', 5);
  for (let i = 0; i < packs; i++) {
    const packVersion = r.u8();
    if (packVersion >= 3) r.skip(32); // checksum
    const pathLength = r.peekU32() ?? 0;
    r.skipString();
    if ((pathLength > 0 && packVersion >= 1) || packVersion >= 3) r.skipString(); // locator URL
  }
  if (r.u32() !== 0) readBadge(r);
  if (appearanceVersion >= 1) r.skipString();
  ghost.nickname = asText(r.string());
  r.skipString(); // avatar name
  r.skipString(); // recording context
  if (version >= 4) r.u32();
  if (version >= 5) {
    readNodeRef(r, walk, RECORD_DATA);
    r.skip(4 * r.count('values', 4));
  }
  if (version >= 6) r.skipString(); // trigram
  if (version >= 7) r.skipString(); // zone
  if (version >= 8) r.skipString(); // club tag
}

function readBadge(r: ByteReader): void {
  const version = r.u32();
  r.skip(12); // colour
  if (version === 0) {
    r.u32();
    r.skipString();
  }
  const stickers = r.count('stickers', 8);
  for (let i = 0; i < stickers; i++) {
    r.skipString();
    r.skipString();
  }
  const layers = r.count('layers', 4);
  for (let i = 0; i < layers; i++) r.skipString();
}

/** The nickname is a nicety: a chunk 0x03092000 this reader cannot follow leaves it null, not the whole file unread. */
const readNickname: ChunkReader<GhostState> = (r, ghost, walk) => {
  const depth = walk.depth;
  const top = walk.top;
  try {
    readAppearance(r, ghost, walk);
  } catch (error) {
    if (!(error instanceof GbxError)) throw error;
    ghost.nickname = null;
    r.ids.stepped = true;
    walk.depth = depth;
    walk.top = top;
    r.skip(r.remaining);
  }
};

const readCheckpoints: ChunkReader<GhostState> = (r, ghost) => {
  const count = r.count('checkpoints', 8, GBX_LIMITS.checkpoints);
  // The count fits the bytes left (count()): the pairs are read straight from them, without a check per word.
  const b = r.bytes;
  let at = r.offset;
  const times: (number | null)[] = new Array(count);
  const scores: (number | null)[] = new Array(count);
  for (let i = 0; i < count; i++, at += 8) {
    times[i] = orNull(b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24));
    scores[i] = orNull(b[at + 4]! | (b[at + 5]! << 8) | (b[at + 6]! << 16) | (b[at + 7]! << 24));
  }
  r.offset = at;
  ghost.checkpoints = times;
  ghost.checkpointStuntScores = scores;
};

/** CGameGhost 0x0303F005/6: the samples of older ghosts, zlib-compressed; stepped over by their size. */
const readGhostData = (replaying: boolean): ChunkReader<GhostState> => (r) => {
  if (replaying) r.u32();
  r.u32(); // uncompressed size
  r.skip(r.u32());
};

export const GHOST_NODE: NodeClass<GhostState> = {
  id: 0x03092000,
  name: 'ghost',
  create: () => ({ name: null, nickname: null, login: null, mapUid: null, raceTime: null, respawns: null, stuntScore: null, checkpoints: [], checkpointStuntScores: [] }),
  chunks: new ChunkTable<GhostState>([
    [0x0303f005, readGhostData(false)],
    [0x0303f006, readGhostData(true)],
    [0x0309200c, (r) => void r.u32()],
    [0x0309200e, (r) => r.skipId()], // ghost UID
    [0x0309200f, (r, ghost) => void (ghost.login = asText(r.string()))],
    [0x03092010, (r, ghost) => void (ghost.mapUid = asText(r.id()))],
    [0x03092012, (r) => r.skip(4 + 16)],
    [0x03092015, (r, ghost) => void (ghost.nickname = asText(r.id()))],
    [0x03092018, (r) => (r.skipId(), r.skipId(), r.skipId())], // player model
    [0x0309201c, (r) => r.skip(32)], // security key
  ]),
  skippable: new ChunkTable<GhostState>([
    [0x03092000, readNickname],
    [0x03092005, (r, ghost) => void (ghost.raceTime = orNull(r.i32()))],
    [0x03092008, (r, ghost) => void (ghost.respawns = orNull(r.i32()))],
    [0x0309200a, (r, ghost) => void (ghost.stuntScore = orNull(r.i32()))],
    [0x0309200b, readCheckpoints],
  ]),
};

/** The run of a ghost read whole: named by its nickname, else its login (the state itself: no copy). */
export function ghostRun(g: GhostState): GhostRun {
  g.name = g.nickname ?? g.login;
  return g;
}

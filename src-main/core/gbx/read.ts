// Reads a ghost or a replay file into plain data: its map, and each ghost's race time, respawns, stunt score and
// checkpoint times. Pure: bytes in, data or a GbxError out (docs/gbx.md).
import { GbxError } from './errors.ts';
import { GHOST_NODE, ghostRun, type GhostRun } from './ghost.ts';
import { GHOST_CLASS, readHeader, type GbxHeader } from './header.ts';
import { GBX_LIMITS } from './limits.ts';
import { decompressLzo1x } from './lzo.ts';
import type { MapLaps } from './map.ts';
import { newBodyWalk, walkNode } from './nodes.ts';
import { ByteReader } from './reader.ts';
import { REPLAY_NODE } from './replay.ts';
import { parseReplayXml, type ReplayXml } from './replay-xml.ts';

export type GbxKind = 'ghost' | 'replay';

export interface GbxContent {
  kind: GbxKind;
  classId: number;
  /** The map: a replay's XML header says it, else the (first) ghost's own chunk 0x03092010. */
  mapUid: string | null;
  /** A replay's XML header; null for a ghost, or a replay without one. */
  replay: ReplayXml | null;
  ghosts: GhostRun[];
  /**
   * The laps of the map, from the map a replay embeds: 1 for a map that is not a lap race; null when the file does not
   * say (a ghost file holds no map), with `lapsUnknown` saying why.
   */
  laps: number | null;
  lapsUnknown: string | null;
}

/** Where the body's bytes are: the compressed stream and its declared size, or the plain body. */
export interface BodyLocation {
  compressed: boolean;
  start: number;
  end: number;
  size: number;
}

export function locateBody(bytes: Uint8Array, header: GbxHeader): BodyLocation {
  const r = new ByteReader(bytes, 'the body', header.bodyOffset);
  if (!header.bodyCompressed) {
    if (r.remaining > GBX_LIMITS.bodyBytes) throw new GbxError('too-large', `the body is ${r.remaining} bytes (at most ${GBX_LIMITS.bodyBytes} taken)`);
    return { compressed: false, start: r.offset, end: r.end, size: r.remaining };
  }
  const size = r.u32();
  const compressedSize = r.u32();
  if (size > GBX_LIMITS.bodyBytes) throw new GbxError('too-large', `the body declares ${size} bytes once decompressed (at most ${GBX_LIMITS.bodyBytes} taken)`);
  if (compressedSize > r.remaining) throw new GbxError('truncated', `the file ends early: the body declares ${compressedSize} compressed bytes and ${r.remaining} are there`);
  if (compressedSize < r.remaining) throw new GbxError('corrupt', `${r.remaining - compressedSize} bytes follow the compressed body`);
  if (size > compressedSize * GBX_LIMITS.lzoExpansion + 64) {
    throw new GbxError('corrupt', `the body declares ${size} bytes from ${compressedSize} compressed, more than LZO1X can expand to`);
  }
  return { compressed: true, start: r.offset, end: r.end, size };
}

export function readBody(bytes: Uint8Array, header: GbxHeader): Uint8Array {
  const at = locateBody(bytes, header);
  const stream = bytes.subarray(at.start, at.end);
  return at.compressed ? decompressLzo1x(stream, at.size) : stream;
}

function replayXml(bytes: Uint8Array, header: GbxHeader): ReplayXml | null {
  const chunk = header.headerChunks.find((c) => c.id === 0x03093001);
  if (chunk === undefined) return null;
  const r = new ByteReader(bytes, 'the XML header chunk', chunk.start, chunk.end, undefined, 'corrupt');
  return parseReplayXml(r.string(GBX_LIMITS.xmlBytes));
}

function firstMapUid(ghosts: GhostRun[]): string | null {
  for (const ghost of ghosts) if (ghost.mapUid !== null) return ghost.mapUid;
  return null;
}

/** A ghost file holds the run, not the map it was driven on. */
const NO_MAP: MapLaps = { laps: null, unknown: 'a ghost file does not hold its map' };

export function readGbx(bytes: Uint8Array): GbxContent {
  const header = readHeader(bytes);
  const replay = header.classId === GHOST_CLASS ? null : replayXml(bytes, header);
  const body = new ByteReader(readBody(bytes, header), 'the body');
  const walk = newBodyWalk(header.nodeCount, header.externalNodes);
  let ghosts: GhostRun[];
  let map: MapLaps = NO_MAP;
  if (header.classId === GHOST_CLASS) ghosts = [ghostRun(walkNode(body, walk, GHOST_NODE))];
  else {
    const state = walkNode(body, walk, REPLAY_NODE);
    if (!state.ghostsRead) throw new GbxError('corrupt', 'the replay holds no ghost list (chunk 0x03093014)');
    ghosts = state.ghosts;
    map = state.map ?? { laps: null, unknown: 'the replay holds no map (chunk 0x03093002)' };
  }
  if (!walk.stopped && body.remaining !== 0) throw new GbxError('corrupt', `the body goes on for ${body.remaining} bytes after its end marker`);
  return {
    kind: header.classId === GHOST_CLASS ? 'ghost' : 'replay',
    classId: header.classId,
    mapUid: replay?.mapUid ?? firstMapUid(ghosts),
    replay,
    ghosts,
    laps: map.laps,
    lapsUnknown: map.unknown,
  };
}

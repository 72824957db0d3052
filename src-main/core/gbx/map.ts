// The lap count of the map a replay embeds (body chunk 0x03093002): its header chunk 0x03043002 says whether it is a
// lap race and, from version 13, how many laps (docs/gbx.md, "Laps"). Only the map's header is read, never its body.
import { GbxError, hex32 } from './errors.ts';
import { readUserData } from './header.ts';
import { GBX_LIMITS } from './limits.ts';
import { ByteReader } from './reader.ts';

export const MAP_CLASS = 0x03043000;
/** CGameCtnChallenge's header chunk "description" (SHeaderTMDesc): times, cost, lap race, and from v13 the laps. */
export const MAP_DESC_CHUNK = 0x03043002;
/** The version that holds NbCheckpoints and NbLaps (TM2020 and ManiaPlanet 4 write it); later ones are not known. */
const DESC_VERSION_WITH_LAPS = 13;

/** What the embedded map says of its laps. */
export interface MapLaps {
  /** 1 for a map that is not a lap race, its lap count when it is one; null when the map does not say. */
  laps: number | null;
  /** Why `laps` is null, in one line (null when known). */
  unknown: string | null;
}

function unknown(why: string): MapLaps {
  return { laps: null, unknown: why };
}

/** A Gbx bool: a u32 of 0 or 1; anything else means the bytes are not laid out as this reader thinks. */
function bool(r: ByteReader, what: string): boolean {
  const value = r.u32();
  if (value > 1) throw new GbxError('corrupt', `${what} is ${value}, not a boolean`);
  return value === 1;
}

/** Chunk 0x03043002's data: version byte, need-unlock, four medal times, cost, is-lap-race, …, and from v13 the laps. */
function lapsOfDesc(bytes: Uint8Array, start: number, end: number): MapLaps {
  const r = new ByteReader(bytes, "the map's description chunk", start, end, undefined, 'corrupt');
  const version = r.u8();
  // Before version 5 there is no lap flag; a version after 13 may have moved fields this reader does not know of.
  if (version < 5 || version > DESC_VERSION_WITH_LAPS) return unknown(`the map's description is of version ${version}; this reader knows versions 5 to ${DESC_VERSION_WITH_LAPS}`);
  bool(r, "the map's need-unlock flag");
  r.skip(4 * 4); // bronze, silver, gold, author times
  r.skip(4); // cost
  const lapRace = bool(r, "the map's lap-race flag");
  if (!lapRace) return { laps: 1, unknown: null };
  if (version < DESC_VERSION_WITH_LAPS) return unknown(`a lap race whose header (version ${version}) does not hold its lap count`);
  r.skip(5 * 4); // play mode, an unknown int, author score, editor mode, an unknown int
  r.u32(); // checkpoints (not relied on: the ghost's own count over the laps gives each lap's)
  const laps = r.u32();
  if (r.remaining !== 0) throw new GbxError('corrupt', `the map's description chunk holds ${r.remaining} bytes more than version ${version} does`);
  if (laps < 1 || laps > GBX_LIMITS.laps) return unknown(`the map claims ${laps} laps (1 to ${GBX_LIMITS.laps} taken)`);
  return { laps, unknown: null };
}

/**
 * The laps of a map file embedded in a replay (`bytes` from `start` to `end`: no view made). Never throws: whatever is wrong with the map's bytes leaves the lap count
 * unknown, with one line saying why, and the replay's ghosts are read all the same.
 */
export function embeddedMapLaps(bytes: Uint8Array, start = 0, end = bytes.length): MapLaps {
  try {
    const r = new ByteReader(bytes, 'its header', start, end);
    if (end - start < 3 || bytes[start] !== 0x47 || bytes[start + 1] !== 0x42 || bytes[start + 2] !== 0x58) return unknown('the map inside the replay is not a Gbx file');
    r.skip(3);
    const version = r.u16();
    if (version !== 6) return unknown(`the map inside the replay is of Gbx version ${version} (6 is read)`);
    if (r.u8() !== 0x42) return unknown('the map inside the replay is not a binary Gbx');
    r.skip(3); // the rest of the format: the header chunks come before anything compressed
    const classId = r.u32();
    if (classId !== MAP_CLASS) return unknown(`the file inside the replay is of class ${hex32(classId)}, not a map (${hex32(MAP_CLASS)})`);
    const chunks = readUserData(r, MAP_DESC_CHUNK);
    if (chunks.length === 0) return unknown(`the map's header holds no description chunk (${hex32(MAP_DESC_CHUNK)})`);
    if (chunks.length > 1) return unknown(`the map's header holds its description chunk (${hex32(MAP_DESC_CHUNK)}) twice`);
    return lapsOfDesc(bytes, chunks[0]!.start, chunks[0]!.end);
  } catch (error) {
    if (error instanceof GbxError) return unknown(`the map inside the replay: ${error.message}`);
    throw error;
  }
}

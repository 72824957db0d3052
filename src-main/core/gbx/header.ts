// The part of a Gbx file before its body: magic, version, format bytes, class, header chunks (the "user data"),
// node count and reference table (docs/gbx.md, "Header").
import { GbxError, hex32 } from './errors.ts';
import { GBX_LIMITS } from './limits.ts';
import { ByteReader } from './reader.ts';

export const GHOST_CLASS = 0x03092000;
export const REPLAY_CLASS = 0x03093000;

export interface HeaderChunk {
  id: number;
  /** Bit 31 of the size word: the game loads it only on demand. */
  heavy: boolean;
  /** Where its data is in the bytes the header was read from (no view made per chunk). */
  start: number;
  end: number;
}

export interface GbxHeader {
  version: number;
  classId: number;
  bodyCompressed: boolean;
  headerChunks: HeaderChunk[];
  /** The size of the node table the body's references index into. */
  nodeCount: number;
  /** Node indices the reference table points outside the file. */
  externalNodes: ReadonlySet<number>;
  /** Where the body (its size words when compressed) starts. */
  bodyOffset: number;
}

/** Classes a renamed file is likely to be, to say what it is instead. */
const CLASS_NAMES: Record<number, string> = {
  0x03043000: 'a map (CGameCtnChallenge)',
  0x24003000: 'a map (CGameCtnChallenge, old ID)',
  0x03079000: 'a MediaTracker clip (CGameCtnMediaClip)',
  0x2e002000: 'an item (CGameItemModel)',
  0x2e026000: 'a material (CPlugMaterialUserInst)',
  0x03078000: 'a MediaTracker track',
};

const [B, U, C, R, E] = [0x42, 0x55, 0x43, 0x52, 0x45];

export function readHeader(bytes: Uint8Array): GbxHeader {
  if (bytes.length === 0) throw new GbxError('empty', 'the file is empty (0 bytes)');
  if (bytes.length > GBX_LIMITS.fileBytes) {
    throw new GbxError('too-large', `the file is ${bytes.length} bytes, over the ${GBX_LIMITS.fileBytes} a ghost or replay may be`);
  }
  if (bytes.length < 3 || bytes[0] !== 0x47 || bytes[1] !== 0x42 || bytes[2] !== 0x58) {
    throw new GbxError('not-gbx', 'not a Gbx file (it does not start with "GBX")');
  }
  // The fixed part read from the bytes directly, each field checked as soon as it is whole.
  if (bytes.length < 5) throw headerEnds();
  const version = bytes[3]! | (bytes[4]! << 8);
  if (version !== 6) throw new GbxError('unsupported', `Gbx version ${version}; this reader reads version 6 (ManiaPlanet and Trackmania 2020)`);
  if (bytes.length < 9) throw headerEnds();
  const body = bytes[7]!;
  checkFormat(bytes[5]!, bytes[6]!, body, bytes[8]!);
  if (bytes.length < 13) throw headerEnds();
  const classId = (bytes[9]! | (bytes[10]! << 8) | (bytes[11]! << 16) | (bytes[12]! << 24)) >>> 0;
  if (classId !== GHOST_CLASS && classId !== REPLAY_CLASS) {
    const what = CLASS_NAMES[classId] ?? `of class ${hex32(classId)}`;
    throw new GbxError('unsupported', `a Gbx file ${what}, not a ghost (.Ghost.Gbx) or a replay (.Replay.Gbx)`);
  }
  const r = new ByteReader(bytes, 'the header', 13);
  const headerChunks = readUserData(r);
  const nodeCount = r.u32();
  if (nodeCount > GBX_LIMITS.declaredNodes) throw new GbxError('too-large', `the header declares ${nodeCount} nodes (at most ${GBX_LIMITS.declaredNodes} taken)`);
  const externalNodes = readReferenceTable(r);
  return { version, classId, bodyCompressed: body === C, headerChunks, nodeCount, externalNodes, bodyOffset: r.offset };
}

function headerEnds(): GbxError {
  return new GbxError('truncated', 'the file ends early (in the header)');
}

/** The four format bytes: binary, an uncompressed reference table, a compressed body or not, and R or E. */
function checkFormat(byteOrder: number, references: number, body: number, fourth: number): void {
  const format = () => String.fromCharCode(byteOrder, references, body, fourth);
  if (byteOrder !== B) throw new GbxError('unsupported', `a text-format Gbx ("${format()}"); the game writes binary ("B")`);
  if (references !== U) throw new GbxError('unsupported', `a compressed reference table ("${format()}"); the game writes it uncompressed ("U")`);
  if (body !== C && body !== U) throw new GbxError('corrupt', `format bytes "${format()}": the body is neither compressed ("C") nor not ("U")`);
  if (fourth !== R && fourth !== E) throw new GbxError('corrupt', `format bytes "${format()}": the fourth is neither "R" nor "E"`);
}

/**
 * The header chunks ("user data"), or only those of ID `only`: also read from the map a replay embeds (map.ts), which
 * wants one of them.
 */
export function readUserData(r: ByteReader, only?: number): HeaderChunk[] {
  const size = r.u32();
  if (size === 0) return [];
  const data = r.sub(size, 'the header chunks');
  const count = data.count('header chunks', 8, GBX_LIMITS.headerChunks);
  const table = data.offset;
  let total = 4 + 8 * count;
  for (let i = 0; i < count; i++) {
    data.skip(4);
    total += data.u32() & 0x7fffffff;
  }
  if (total !== size) throw new GbxError('corrupt', `the header chunks' sizes add up to ${total} bytes, not the ${size} the header declares`);
  // The sizes add up to the bytes there: every chunk's data is whole.
  const chunks: HeaderChunk[] = [];
  let at = data.offset;
  data.offset = table;
  for (let i = 0; i < count; i++) {
    const id = data.u32();
    const word = data.u32();
    const length = word & 0x7fffffff;
    if (only === undefined || id === only) chunks.push({ id, heavy: (word & 0x80000000) !== 0, start: at, end: at + length });
    at += length;
  }
  return chunks;
}

/** The reference table: files this one points to. Ghosts and replays the game writes have none; read it anyway. */
const NO_EXTERNAL_NODES: ReadonlySet<number> = new Set();

function readReferenceTable(r: ByteReader): ReadonlySet<number> {
  const count = r.count('external references', 12);
  if (count === 0) return NO_EXTERNAL_NODES;
  const external = new Set<number>();
  r.u32(); // ancestor level
  let folders = 0;
  const readFolders = (depth: number): void => {
    if (depth > GBX_LIMITS.depth) throw new GbxError('corrupt', 'the reference table nests folders too deep');
    const n = r.count('folders', 8);
    for (let i = 0; i < n; i++) {
      r.string();
      folders++;
      readFolders(depth + 1);
    }
  };
  readFolders(0);
  for (let i = 0; i < count; i++) {
    const flags = r.u32();
    if ((flags & 4) === 0) r.string();
    else r.u32(); // resource index
    external.add(r.u32());
    r.u32(); // use file (version 5+)
    if ((flags & 4) === 0) {
      const folder = r.u32();
      if (folder < 1 || folder > folders) throw new GbxError('corrupt', `the reference table points to folder ${folder} of ${folders}`);
    }
  }
  return external;
}

// Walks a node's chunk list (docs/gbx.md, "Body"): skippable chunks are read when a reader wants them and stepped
// over otherwise; an unskippable chunk must be understood to be passed; 0xFACADE01 ends the node.
import { GbxError, hex32 } from './errors.ts';
import { GBX_LIMITS } from './limits.ts';
import type { ByteReader } from './reader.ts';

/** Read as signed 32-bit words: values above 2^30 then stay unboxed. */
export const END_OF_NODE = 0xfacade01 | 0;
/** "SKIP" in little-endian: marks a chunk a reader may step over, followed by its size. */
export const SKIPPABLE = 0x534b4950;

/** What the walk of one body shares across its nodes. */
export interface BodyWalk {
  /** The header's node count: references index below it. */
  readonly nodeCount: number;
  readonly externalNodes: ReadonlySet<number>;
  /** Node indices already read (0 is the body's own node): a short list, a set once it grows (seenNode). */
  seen: number[] | Set<number>;
  depth: number;
  /** How many chunk IDs of the nodes being walked are on the shared chunk stack. */
  top: number;
  /** Set by a chunk reader when nothing after it needs reading and the rest cannot be stepped over. */
  stopped: boolean;
}

export type ChunkReader<S> = (r: ByteReader, state: S, walk: BodyWalk) => void;

/**
 * Chunk readers by ID: a node class understands a dozen chunks at most, so a scan of their IDs (as signed words, the
 * way the walk reads them) is cheaper than a map or a table per class.
 */
export class ChunkTable<S> {
  readonly #ids: number[] = [];
  readonly #readers: ChunkReader<S>[] = [];
  constructor(entries: Iterable<readonly [number, ChunkReader<S>]>) {
    for (const [id, read] of entries) {
      this.#ids.push(id | 0);
      this.#readers.push(read);
    }
  }
  get(id: number): ChunkReader<S> | undefined {
    const ids = this.#ids;
    for (let at = 0; at < ids.length; at++) if (ids[at] === id) return this.#readers[at];
    return undefined;
  }
}

export interface NodeClass<S> {
  id: number;
  /** In the player's words, for messages: "ghost", "replay". */
  name: string;
  create: () => S;
  /** Unskippable chunks this reader understands (and must, to pass them). */
  chunks: ChunkTable<S>;
  /** Skippable chunks worth reading; any other skippable chunk is stepped over. */
  skippable: ChunkTable<S>;
  /** When an unknown unskippable chunk may end the walk instead of failing it (what mattered is read). */
  mayStopAt?: (state: S) => boolean;
}

export function newBodyWalk(nodeCount: number, externalNodes: ReadonlySet<number>): BodyWalk {
  return { nodeCount, externalNodes, seen: [0], depth: 0, top: 0, stopped: false };
}

/**
 * The chunk IDs of the nodes being walked, innermost last, up to `walk.top`: one array for every walk (a walk is
 * synchronous and starts at 0), no allocation per node. Sized for the deepest nesting of the fullest nodes.
 */
const chunkStack = new Int32Array(GBX_LIMITS.depth * (GBX_LIMITS.chunksPerNode + 1));

/** Whether `id` is among the chunks of the current node (stack entries `from` to `to`). */
function seenInNode(id: number, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (chunkStack[i] === id) return true;
  return false;
}

/** Reads one node's chunks up to and including its end marker, into a fresh state of its class. */
export function walkNode<S>(r: ByteReader, walk: BodyWalk, cls: NodeClass<S>): S {
  if (++walk.depth > GBX_LIMITS.depth) throw new GbxError('corrupt', `nodes nest more than ${GBX_LIMITS.depth} deep`);
  const state = cls.create();
  const from = walk.top;
  // The game writes a node's chunks in rising ID order: while they rise, none can repeat and no search is needed.
  let last = -1;
  let rising = true;
  for (;;) {
    const id = r.i32();
    if (id === END_OF_NODE) break;
    const unsigned = id >>> 0;
    if (rising && (last < 0 || unsigned > last)) last = unsigned;
    else {
      rising = false;
      if (seenInNode(id, from, walk.top)) throw new GbxError('corrupt', `chunk ${hex32(id)} appears twice in one ${cls.name} (a chunk loop)`);
    }
    if (walk.top - from >= GBX_LIMITS.chunksPerNode) throw new GbxError('too-large', `a ${cls.name} holds more than ${GBX_LIMITS.chunksPerNode} chunks`);
    chunkStack[walk.top++] = id;
    if (walkChunk(r, walk, cls, state, id)) break;
  }
  walk.top = from;
  walk.depth--;
  return state;
}

/** One chunk of a node, its ID read; true when the walk ends here (walk.stopped). */
function walkChunk<S>(r: ByteReader, walk: BodyWalk, cls: NodeClass<S>, state: S, id: number): boolean {
  if (r.peekI32() === SKIPPABLE) {
    r.skip(4);
    const size = r.u32();
    const read = cls.skippable.get(id);
    if (read === undefined) {
      r.skip(size);
      r.ids.stepped = true;
      return false;
    }
    const left = r.within(size, id, read, state, walk);
    if (left !== 0) throw new GbxError('corrupt', `chunk ${hex32(id)} declares ${left} bytes more than it holds`);
    return false;
  }
  const read = cls.chunks.get(id);
  if (read === undefined) {
    if (cls.mayStopAt?.(state)) {
      walk.stopped = true;
      return true;
    }
    throw new GbxError('unsupported', `chunk ${hex32(id)} of a ${cls.name} is not one this reader knows, and it cannot be stepped over (a damaged file, or a newer game version)`);
  }
  read(r, state, walk);
  return walk.stopped;
}

export type NodeRef<S> = { kind: 'node'; index: number; state: S } | { kind: 'none' } | { kind: 'existing'; index: number } | { kind: 'external'; index: number };

/** A body holds a handful of nodes: a list searches them faster than a set is made; past this many, a set. */
const SEEN_LIST = 32;

/** Marks node `index` as read; false when it already was. */
function markSeen(walk: BodyWalk, index: number): boolean {
  let seen = walk.seen;
  if (Array.isArray(seen)) {
    if (seen.includes(index)) return false;
    if (seen.length < SEEN_LIST) {
      seen.push(index);
      return true;
    }
    seen = walk.seen = new Set(seen);
  }
  if (seen.has(index)) return false;
  seen.add(index);
  if (seen.size > GBX_LIMITS.nodes) throw new GbxError('too-large', `the body holds more than ${GBX_LIMITS.nodes} nodes`);
  return true;
}

/** A reference to a node: -1 for none, an index already read, an external file, or a new node of `cls` read here. */
export function readNodeRef<S>(r: ByteReader, walk: BodyWalk, cls: NodeClass<S>): NodeRef<S> {
  const index = r.i32();
  if (index === -1) return { kind: 'none' };
  if (index < 0 || index >= walk.nodeCount) throw new GbxError('corrupt', `a reference to node ${index}, outside the ${walk.nodeCount} the header declares`);
  if (walk.externalNodes.size !== 0 && walk.externalNodes.has(index)) return { kind: 'external', index };
  if (!markSeen(walk, index)) return { kind: 'existing', index };
  const classId = r.u32();
  if (classId !== cls.id) throw new GbxError('unsupported', `node ${index} is of class ${hex32(classId)} where a ${cls.name} (${hex32(cls.id)}) was expected`);
  return { kind: 'node', index, state: walkNode(r, walk, cls) };
}

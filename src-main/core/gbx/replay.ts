// The chunks of a replay (CGameCtnReplayRecord 0x03093000) on the way to its ghosts (docs/gbx.md, "Replays").
import { GbxError } from './errors.ts';
import { GHOST_NODE, ghostRun, RECORD_DATA, type GhostRun } from './ghost.ts';
import { GBX_LIMITS } from './limits.ts';
import { embeddedMapLaps, type MapLaps } from './map.ts';
import { ChunkTable, readNodeRef, type ChunkReader, type NodeClass } from './nodes.ts';

export interface ReplayState {
  ghosts: GhostRun[];
  /** Chunk 0x03093014 was read: every ghost is in `ghosts`. */
  ghostsRead: boolean;
  /** What the embedded map (chunk 0x03093002) says of its laps; null when the replay holds no map. */
  map: MapLaps | null;
}

const readGhosts: ChunkReader<ReplayState> = (r, replay, walk) => {
  r.u32(); // list version
  const count = r.count('ghosts', 4, GBX_LIMITS.ghosts);
  for (let i = 0; i < count; i++) {
    const ref = readNodeRef(r, walk, GHOST_NODE);
    if (ref.kind === 'existing') throw new GbxError('corrupt', `the replay lists node ${ref.index} as a ghost twice (a node loop)`);
    if (ref.kind === 'node') replay.ghosts.push(ghostRun(ref.state));
  }
  r.u32();
  r.skip(8 * r.count('extras', 8));
  replay.ghostsRead = true;
};

export const REPLAY_NODE: NodeClass<ReplayState> = {
  id: 0x03093000,
  name: 'replay',
  create: () => ({ ghosts: [], ghostsRead: false, map: null }),
  chunks: new ChunkTable<ReplayState>([
    // The map the replay was driven on, a whole Gbx file with its author's validation ghost: only its header is read
    // (the laps), its body with that ghost is stepped over.
    [0x03093002, (r, replay) => {
      const size = r.u32();
      const start = r.offset;
      r.skip(size);
      replay.map = embeddedMapLaps(r.bytes, start, r.offset);
    }],
    [0x03093014, readGhosts],
    // A MediaTracker clip cannot be stepped over; it comes after the ghosts, so the walk ends there.
    [0x03093015, (r, replay, walk) => {
      if (r.i32() === -1) return;
      if (!replay.ghostsRead) throw new GbxError('unsupported', 'the replay holds a MediaTracker clip before its ghosts');
      walk.stopped = true;
    }],
    [0x03093024, (r, _replay, walk) => {
      r.u32(); // version
      r.u32();
      readNodeRef(r, walk, RECORD_DATA);
    }],
  ]),
  skippable: new ChunkTable<ReplayState>([]),
  mayStopAt: (replay) => replay.ghostsRead,
};

// A ghost node and the files around it, the way TM2020 writes them (docs/gbx.md: "Ghost chunks", "Replays"),
// for the emulator's records: a .Ghost.Gbx, or a .Replay.Gbx holding the map and one or more ghosts.
import { ByteWriter, writeGbxFile } from './writer.ts';
import { zlibStored, zlibStoredInto, zlibStoredLength } from './zlib.ts';

export const GHOST_CLASS = 0x03092000;
export const REPLAY_CLASS = 0x03093000;
const RECORD_DATA_CLASS = 0x0911f000;
const MAP_CLASS = 0x03043000;
/** Stands for the chunk of a map that holds its author's ghost (only a reader that searches bytes would look). */
const MAP_AUTHOR_GHOST_CHUNK = 0x03043017;

export interface GhostSpec {
  nickname: string;
  /** The account ID in base64url, as TM2020 logins are. */
  login: string;
  mapUid: string;
  /** ms; -1 for none. */
  raceTime: number;
  /** -1 (or 2^32-1) for not tracked. */
  respawns: number;
  stuntScore: number;
  checkpoints: { time: number; stuntScore: number }[];
  /** The run's samples (opaque here), stored zlib-compressed as the game stores them. */
  samples: Uint8Array;
  /** A number naming the ghost (chunk 0x0309200E). */
  ghostUid: number;
  zone: string;
  trigram: string;
}

/** Hands out node indices: 0 is the body's own node. */
class NodeNumbers {
  next = 1;
  take(): number {
    return this.next++;
  }
}

function recordDataNode(w: ByteWriter, nodes: NodeNumbers, samples: Uint8Array): void {
  // Stored blocks: the samples stand for data that is already dense, and this keeps serving cheap.
  const length = zlibStoredLength(samples.length);
  w.i32(nodes.take()).u32(RECORD_DATA_CLASS);
  w.chunk(0x0911f000, (c) => c.u32(10).u32(samples.length).u32(length).fill(length, (buffer, at) => zlibStoredInto(buffer, at, samples)));
  w.endNode();
}

/** One ghost node's chunks, end marker included (the node reference before them is the caller's). */
export function writeGhostChunks(w: ByteWriter, ghost: GhostSpec, nodes: NodeNumbers): void {
  const firstFrame = zlibStored(new Uint8Array([0xff, 0xff, 0xff, 0xff]));
  w.chunk(0x0303f006, (c) => c.u32(1).u32(4).u32(firstFrame.length).bytes(firstFrame));
  w.skippable(0x0303f007, (c) => c.u32(0));
  w.skippable(0x03092000, (c) => {
    c.u32(7); // chunk version: appearance, nickname, record data, trigram, zone
    c.id('CarSport').id(10003).id('Nadeo'); // player model
    c.f32(0.647).f32(0).f32(0.999); // light trail colour
    c.u32(0); // skin packs
    c.u32(0); // badges
    c.string(ghost.nickname).string('').string('PersonalBest_TimeAttack');
    c.u32(0);
    recordDataNode(c, nodes, ghost.samples);
    c.u32(0);
    c.string(ghost.trigram).string(ghost.zone);
  });
  w.skippable(0x03092005, (c) => c.i32(ghost.raceTime));
  w.skippable(0x03092008, (c) => c.i32(ghost.respawns));
  w.skippable(0x0309200a, (c) => c.i32(ghost.stuntScore));
  w.skippable(0x0309200b, (c) => {
    c.u32(ghost.checkpoints.length);
    for (const cp of ghost.checkpoints) c.i32(cp.time).i32(cp.stuntScore);
  });
  w.chunk(0x0309200c, (c) => c.u32(0));
  w.chunk(0x0309200e, (c) => c.id(ghost.ghostUid & 0x3fffffff));
  w.chunk(0x0309200f, (c) => c.string(ghost.login));
  w.chunk(0x03092010, (c) => c.id(ghost.mapUid));
  w.skippable(0x03092013, (c) => c.u32(0).u32(0));
  w.skippable(0x03092014, (c) => c.u32(8));
  w.skippable(0x0309201a, (c) => c.u32(ghost.checkpoints.length));
  w.chunk(0x0309201c, (c) => c.bytes(securityKey(ghost)));
  w.skippable(0x03092028, () => undefined);
  w.endNode();
}

/** 32 bytes that stand for the game's signature: derived from the run, so they change with it. */
function securityKey(ghost: GhostSpec): Uint8Array {
  const key = new Uint8Array(32);
  let state = (ghost.ghostUid ^ ghost.raceTime) >>> 0;
  for (let i = 0; i < 32; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    key[i] = state >>> 24;
  }
  return key;
}

export function writeGhostFile(ghost: GhostSpec, options: { compressBody?: boolean } = {}): Uint8Array {
  const w = new ByteWriter(ghost.samples.length + 1024);
  const nodes = new NodeNumbers();
  writeGhostChunks(w, ghost, nodes);
  return writeGbxFile({ classId: GHOST_CLASS, headerChunks: [], nodeCount: nodes.next, body: w.finish(), compressBody: options.compressBody ?? true });
}

/** The map a replay embeds: what its XML header and its description header chunk (0x03043002) say. */
export interface ReplayMapSpec {
  uid: string;
  name: string;
  author: string;
  mapType: string;
  /** Bronze, silver, gold, author: ms (points on Stunt). */
  medals: [number, number, number, number];
  hasClones: boolean;
  /** Bits: 1 made in the simple editor, 4 with a gamepad (gbx-net's EditorMode). */
  editorMode: number;
  /** 1: not a lap race. */
  laps: number;
  /** The checkpoints a ghost crosses each lap, the lap's finish line included. */
  checkpointsPerLap: number;
}

export interface ReplaySpec {
  map: ReplayMapSpec;
  ghosts: GhostSpec[];
  /** The map's author validation run, carried inside the embedded map as the game does; not a player's ghost. */
  authorGhost: GhostSpec;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The XML header chunk (0x03093001): the map, and the best run's time, respawns, stunt score and checkpoints. */
function replayXml(spec: ReplaySpec, best: GhostSpec): string {
  const m = spec.map;
  return `<header type="replay" exever="3.3.0" exebuild="2026-10-14_12_00" title="TMStadium">`
    + `<map uid="${xmlEscape(m.uid)}" name="${xmlEscape(m.name)}" author="${xmlEscape(m.author)}" authorzone="World"/>`
    + `<desc envir="Stadium" mood="Day" maptype="${xmlEscape(m.mapType)}" mapstyle="" displaycost="1200" mod=""/>`
    + '<playermodel id="CarSport"/>'
    + `<times best="${best.raceTime}" respawns="${best.respawns | 0}" stuntscore="${best.stuntScore}" validable="1"/>`
    + `<checkpoints cur="${best.checkpoints.length}"/></header>`;
}

/**
 * The map as a replay embeds it: a Gbx of the map class whose body holds the author's validation ghost, as a real
 * map does. A reader that searches bytes for checkpoint chunks instead of walking chunks finds this ghost too.
 */
/**
 * The map's description header chunk (0x03043002) as TM2020 writes it, version 13 (docs/gbx.md "Laps"): version
 * byte, need-unlock, medal times, cost, lap race, play mode, has clones, author score, editor mode, an int, checkpoints,
 * laps.
 */
function mapDescription(map: ReplayMapSpec): Uint8Array {
  const w = new ByteWriter(64);
  w.u8(13).u32(0);
  for (const medal of map.medals) w.i32(medal);
  w.u32(1200); // cost: the XML's displaycost
  w.u32(map.laps > 1 ? 1 : 0);
  w.u32(6); // play mode: Script (the map type names the script)
  w.u32(map.hasClones ? 1 : 0).i32(map.medals[3]).u32(map.editorMode).u32(0);
  // The map's own checkpoints, its finish line not counted (the emulator's reading; the product's reader never uses it).
  w.u32(map.checkpointsPerLap - 1);
  w.u32(map.laps);
  return w.finish();
}

/** The map's header chunks: its description, the header version, and its author (0x03043008). */
function mapHeaderChunks(spec: ReplaySpec): { id: number; data: Uint8Array }[] {
  const author = new ByteWriter().u32(0).u32(0).string(spec.authorGhost.login).string('Author').string('World').string('');
  return [
    { id: 0x03043002, data: mapDescription(spec.map) },
    { id: 0x03043004, data: new ByteWriter().u32(6).finish() },
    { id: 0x03043008, data: author.finish() },
  ];
}

function embeddedMap(spec: ReplaySpec): Uint8Array {
  const w = new ByteWriter();
  const nodes = new NodeNumbers();
  // The map's own chunks are left out: what stays is its author's validation ghost, a ghost node like any other.
  w.chunk(MAP_AUTHOR_GHOST_CHUNK, (c) => {
    c.i32(nodes.take()).u32(GHOST_CLASS);
    writeGhostChunks(c, spec.authorGhost, nodes);
  });
  w.endNode();
  return writeGbxFile({ classId: MAP_CLASS, headerChunks: mapHeaderChunks(spec), nodeCount: nodes.next, body: w.finish(), compressBody: false });
}

export function writeReplayFile(spec: ReplaySpec, options: { compressBody?: boolean } = {}): Uint8Array {
  const best = spec.ghosts.reduce((a, b) => (b.raceTime >= 0 && (a.raceTime < 0 || b.raceTime < a.raceTime) ? b : a));
  const basic = new ByteWriter();
  basic.u32(8).id(spec.map.uid).id(26).id(spec.map.author).u32(best.raceTime).string(best.nickname).string(best.login).u8(0).id('TMStadium');
  const xml = new ByteWriter().string(replayXml(spec, best));
  const author = new ByteWriter().u32(1).u32(0).string(best.login).string(best.nickname).string(best.zone).string('');

  const w = new ByteWriter(spec.ghosts.reduce((sum, g) => sum + g.samples.length + 1024, 4096));
  const nodes = new NodeNumbers();
  const map = embeddedMap(spec);
  w.chunk(0x03093002, (c) => c.u32(map.length).bytes(map));
  w.chunk(0x03093014, (c) => {
    c.u32(10).u32(spec.ghosts.length);
    for (const ghost of spec.ghosts) {
      c.i32(nodes.take()).u32(GHOST_CLASS);
      writeGhostChunks(c, ghost, nodes);
    }
    c.u32(0).u32(0); // always zero; no extras
  });
  w.chunk(0x03093015, (c) => c.i32(-1)); // no MediaTracker clip
  w.skippable(0x03093018, (c) => c.id('TMStadium').u32(1).string(best.login).string(best.nickname).string(best.zone).string(''));
  w.chunk(0x03093024, (c) => {
    c.u32(1).u32(0);
    recordDataNode(c, nodes, best.samples.subarray(0, 256));
  });
  w.endNode();
  return writeGbxFile({
    classId: REPLAY_CLASS,
    headerChunks: [{ id: 0x03093000, data: basic.finish() }, { id: 0x03093001, data: xml.finish() }, { id: 0x03093002, data: author.finish() }],
    nodeCount: nodes.next,
    body: w.finish(),
    compressBody: options.compressBody ?? true,
  });
}

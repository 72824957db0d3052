// The laps of the map a replay embeds (body chunk 0x03093002, the map's header chunk 0x03043002; docs/gbx.md "Laps"):
// maps assembled byte by byte here, independent of the emulator's writer. Whatever is wrong with the embedded map
// leaves the laps unknown with one line, and the replay's ghosts are read all the same.
import { describe, expect, it } from 'vitest';
import { GBX_LIMITS, readGbx } from '../../../src-main/core/gbx/index.ts';
import { Bytes, END, GHOST, REPLAY, gbxFile, ghostChunks } from './assemble.ts';

const MAP = 0x03043000;
const DESC = 0x03043002;

interface Desc {
  version?: number;
  lapRace?: number;
  laps?: number;
  checkpoints?: number;
  /** Bytes after the last field. */
  extra?: number[];
}

/**
 * Chunk 0x03043002 as gbx-net and gbx-ts lay it out: u8 version, u32 need-unlock, 4 × i32 medal times, from v4 i32
 * cost, from v5 u32 is-lap-race, from v6 (v7 in gbx-ts) the play mode, from v9 an int, v10 author score, v11 editor
 * mode, v12 an int, v13 u32 checkpoints and u32 laps. Written here for versions 5, 11, 13 and 14 (as 13 plus 4 bytes).
 */
function desc({ version = 13, lapRace = 0, laps = 3, checkpoints = 4, extra = [] }: Desc): Uint8Array {
  const b = new Bytes().u8(version).u32(0).u32(45_000).u32(40_000).u32(36_000).u32(33_000).u32(1200).u32(lapRace);
  if (version >= 11) b.u32(6).u32(0).u32(33_000).u32(0);
  if (version >= 12) b.u32(0);
  if (version >= 13) b.u32(checkpoints).u32(laps);
  if (version >= 14) b.u32(0);
  return b.raw(extra).build();
}

/** A map file's head: "GBX", version 6, "BUCR", its class, then its header chunks (an empty body after them). */
function mapFile(chunks: { id: number; data: Uint8Array }[], classId = MAP): Uint8Array {
  const b = new Bytes().ascii('GBX').u16(6).ascii('BUCR').u32(classId);
  b.u32(4 + 8 * chunks.length + chunks.reduce((s, c) => s + c.data.length, 0)).u32(chunks.length);
  for (const c of chunks) b.u32(c.id).u32(c.data.length);
  for (const c of chunks) b.raw(c.data);
  return b.u32(1).u32(0).u32(0).u32(0).build();
}

const withDesc = (d: Desc) => mapFile([{ id: 0x03043003, data: new Bytes().u8(0).build() }, { id: DESC, data: desc(d) }, { id: 0x03043004, data: new Bytes().u32(6).build() }]);

/** A replay holding `map` (as chunk 0x03093002 with its size) and one ghost of 3 checkpoints. */
function replayWith(map: Uint8Array, declaredSize = map.length): Uint8Array {
  const b = new Bytes().u32(0x03093002).u32(declaredSize).raw(map);
  b.u32(0x03093014).u32(10).u32(1).u32(1).u32(GHOST);
  ghostChunks(b, { time: 30_000, respawns: 0, stunt: 0, checkpoints: [[10_000, 0], [20_000, 0], [30_000, 0]], login: 'lapper', mapUid: 'LapMap' });
  b.u32(0).u32(0).u32(END);
  return gbxFile({ classId: REPLAY, body: b.build(), nodeCount: 2 });
}

function lapsOf(map: Uint8Array): { laps: number | null; lapsUnknown: string | null } {
  const read = readGbx(replayWith(map));
  expect(read.ghosts.map((g) => g.checkpoints)).toEqual([[10_000, 20_000, 30_000]]);
  if (read.lapsUnknown !== null) {
    expect(read.laps).toBeNull();
    expect(read.lapsUnknown).not.toMatch(/[\n\r]/);
    expect(read.lapsUnknown.length).toBeLessThan(200);
  }
  return { laps: read.laps, lapsUnknown: read.lapsUnknown };
}

describe("a replay's embedded map says its laps", () => {
  it('a lap race of version 13 (TM2020): its lap count', () => {
    expect(lapsOf(withDesc({ lapRace: 1, laps: 3 }))).toEqual({ laps: 3, lapsUnknown: null });
    expect(lapsOf(withDesc({ lapRace: 1, laps: 1 }))).toEqual({ laps: 1, lapsUnknown: null });
  });

  it('a map that is not a lap race: 1, whatever lap count it stores', () => {
    expect(lapsOf(withDesc({ lapRace: 0, laps: 3 }))).toEqual({ laps: 1, lapsUnknown: null });
    expect(lapsOf(withDesc({ version: 11, lapRace: 0 }))).toEqual({ laps: 1, lapsUnknown: null });
    expect(lapsOf(withDesc({ version: 5, lapRace: 0 }))).toEqual({ laps: 1, lapsUnknown: null });
  });

  it('unknown: a lap race of an older version (no lap count in the header), a version it does not know', () => {
    expect(lapsOf(withDesc({ version: 11, lapRace: 1 })).lapsUnknown).toMatch(/version 11.*lap count/);
    expect(lapsOf(withDesc({ version: 14, lapRace: 1 })).lapsUnknown).toMatch(/version 14/);
    expect(lapsOf(withDesc({ version: 4 })).lapsUnknown).toMatch(/version 4/);
  });

  it('unknown: no description chunk, or a ghost file (which holds no map)', () => {
    expect(lapsOf(mapFile([{ id: 0x03043004, data: new Bytes().u32(6).build() }])).lapsUnknown).toMatch(/no description chunk \(0x03043002\)/);
    expect(lapsOf(mapFile([])).lapsUnknown).toMatch(/no description chunk/);
    const ghost = readGbx(gbxFile({ classId: GHOST, body: ghostChunks(new Bytes(), { time: 1, respawns: 0, stunt: 0, checkpoints: [[1, 0]] }).build() }));
    expect([ghost.laps, ghost.lapsUnknown]).toEqual([null, 'a ghost file does not hold its map']);
  });
});

describe('a hostile embedded map: laps unknown with one line, the ghosts read', () => {
  const cases: [string, Uint8Array, RegExp][] = [
    ['0 bytes', new Uint8Array(0), /not a Gbx/],
    ['not a Gbx file', new Bytes().ascii('PK\u0003\u0004 a zip').build(), /not a Gbx/],
    ['another Gbx version', new Bytes().ascii('GBX').u16(3).ascii('BUCR').build(), /Gbx version 3/],
    ['a text Gbx', new Bytes().ascii('GBX').u16(6).ascii('TUCR').build(), /not a binary/],
    ['a ghost where the map should be', mapFile([{ id: DESC, data: desc({ lapRace: 1 }) }], GHOST), /class 0x03092000, not a map/],
    ['a header cut short', withDesc({ lapRace: 1 }).subarray(0, 40), /ends early/],
    ['a header chunk count of 2^32-1', new Bytes().ascii('GBX').u16(6).ascii('BUCR').u32(MAP).u32(12).u32(0xffffffff).u32(0).u32(0).build(), /claims 4294967295 header chunks/],
    ['chunk sizes that do not add up', (() => {
      const map = withDesc({ lapRace: 1 });
      new DataView(map.buffer).setUint32(13, 9999, true); // the user-data size
      return map;
    })(), /ends early|add up/],
    ['the description chunk twice', mapFile([{ id: DESC, data: desc({ lapRace: 1 }) }, { id: DESC, data: desc({ lapRace: 1 }) }]), /twice/],
    ['a lap-race flag that is not a boolean', withDesc({ lapRace: 7 }), /lap-race flag is 7, not a boolean/],
    ['0 laps', withDesc({ lapRace: 1, laps: 0 }), /claims 0 laps/],
    ['2^32-1 laps', withDesc({ lapRace: 1, laps: 0xffffffff }), /claims 4294967295 laps/],
    [`${GBX_LIMITS.laps + 1} laps`, withDesc({ lapRace: 1, laps: GBX_LIMITS.laps + 1 }), /laps \(1 to 1000 taken\)/],
    ['a description longer than its version', withDesc({ lapRace: 1, extra: [1, 2, 3, 4] }), /4 bytes more than version 13/],
    ['a description cut short', mapFile([{ id: DESC, data: desc({ lapRace: 1 }).subarray(0, 30) }]), /description chunk is longer than its declared size/],
  ];
  for (const [name, map, words] of cases) {
    it(name, () => {
      const { laps, lapsUnknown } = lapsOf(map);
      expect(laps).toBeNull();
      expect(lapsUnknown).toMatch(words);
    });
  }

  it('a map chunk claiming more bytes than the replay holds is the whole file cut short', () => {
    expect(() => readGbx(replayWith(withDesc({ lapRace: 1 }), 0x7fffffff))).toThrow(/ends early/);
  });
});

// Files assembled byte by byte in the test (assemble.ts), read by the reader: a ghost with a plain and with an
// LZO1X body, a replay with its XML header, an embedded map that carries a ghost of its own, and two ghosts.
import { describe, expect, it } from 'vitest';
import { readGbx } from '../../../src-main/core/gbx/index.ts';
import { Bytes, END, GHOST, REPLAY, gbxFile, ghostChunks, literalLzo } from './assemble.ts';

const run = { time: 61_234, respawns: 2, stunt: 0, checkpoints: [[20_000, 0], [40_000, 0], [61_234, 0]] as [number, number][], login: 'bG9naW4', mapUid: 'HandMadeMapUid_0000000000001' };

describe('a ghost assembled by hand', () => {
  const body = ghostChunks(new Bytes(), run).build();

  it('reads from a plain body (BUUR)', () => {
    const file = gbxFile({ classId: GHOST, body });
    expect([...file.subarray(0, 13)]).toEqual([0x47, 0x42, 0x58, 6, 0, 0x42, 0x55, 0x55, 0x52, 0x00, 0x20, 0x09, 0x03]);
    expect(readGbx(file)).toEqual({
      kind: 'ghost',
      classId: GHOST,
      mapUid: run.mapUid,
      replay: null,
      laps: null,
      lapsUnknown: 'a ghost file does not hold its map',
      ghosts: [{ name: 'bG9naW4', nickname: null, login: 'bG9naW4', mapUid: run.mapUid, raceTime: 61_234, respawns: 2, stuntScore: 0, checkpoints: [20_000, 40_000, 61_234], checkpointStuntScores: [0, 0, 0] }],
    });
  });

  it('reads the same from an LZO1X body of literals only (BUCR), short and long', () => {
    const plain = readGbx(gbxFile({ classId: GHOST, body }));
    expect(body.length).toBeLessThanOrEqual(238);
    expect(readGbx(gbxFile({ classId: GHOST, body, bodyFormat: 'C' }))).toEqual(plain);
    // Past 238 literals the run length continues in zero bytes: a 600-byte body.
    const long = ghostChunks(new Bytes(), { ...run, checkpoints: Array.from({ length: 60 }, (_, i) => [1000 * (i + 1), 0] as [number, number]) }).build();
    expect(long.length).toBeGreaterThan(500);
    const stream = literalLzo(long);
    expect(stream[0]).toBe(0);
    let zeros = 0;
    while (stream[1 + zeros] === 0) zeros++;
    expect(18 + 255 * zeros + stream[1 + zeros]!).toBe(long.length);
    expect(readGbx(gbxFile({ classId: GHOST, body: long, bodyFormat: 'C' })).ghosts[0]?.checkpoints).toHaveLength(60);
  });

  it('keeps -1 as none: no race time, no respawn count, a checkpoint not crossed', () => {
    const none = ghostChunks(new Bytes(), { time: 0xffffffff, respawns: 0xffffffff, stunt: 0xffffffff, checkpoints: [[0xffffffff, 0xffffffff], [5000, 12]] }).build();
    const ghost = readGbx(gbxFile({ classId: GHOST, body: none })).ghosts[0];
    expect(ghost).toMatchObject({ name: null, raceTime: null, respawns: null, stuntScore: null, checkpoints: [null, 5000], checkpointStuntScores: [null, 12] });
  });

  it('steps over skippable chunks it does not know, and finds an id whose version word a stepped-over chunk held', () => {
    const b = new Bytes();
    b.u32(0x0303f006).u32(1).u32(0).u32(0);
    // An unknown skippable chunk that holds the body's first id: the version word 3 and the string "CarSport".
    b.skippable(0x03092099, (c) => c.u32(3).u32(0x40000000).str('CarSport'));
    b.skippable(0x03092005, (c) => c.u32(9_999));
    b.u32(0x03092010).u32(0x40000000).str('AfterSteppedChunk'); // no version word: it came in the stepped-over chunk
    b.u32(END);
    expect(readGbx(gbxFile({ classId: GHOST, body: b.build() })).ghosts[0]).toMatchObject({ raceTime: 9_999, mapUid: 'AfterSteppedChunk' });
  });
});

describe('a replay assembled by hand', () => {
  const xml = '<header type="replay" exever="3.3.0" exebuild="2026-01-01_00_00" title="TMStadium"><map uid="HandReplayMap" name="Hand &amp; Made" author="a" authorzone="World"/>'
    + '<desc envir="Stadium" mood="Day" maptype="TrackMania\\TM_Race" mapstyle="" displaycost="1" mod=""/><playermodel id="CarSport"/>'
    + '<times best="24793" respawns="-1" stuntscore="0" validable="1"/><checkpoints cur="3"/></header>';

  function replayBody(): Uint8Array {
    const b = new Bytes();
    // The embedded map: 28 bytes whose middle looks like a checkpoint chunk (a byte-searching reader would find it).
    const map = new Bytes().ascii('GBX').u16(6).ascii('BUUR').u32(0x03043000).skippable(0x0309200b, (c) => c.u32(1).u32(11_111).u32(0)).build();
    b.u32(0x03093002).u32(map.length).raw(map);
    b.u32(0x03093014).u32(10).u32(2);
    b.u32(1).u32(GHOST);
    ghostChunks(b, { time: 24_793, respawns: 0xffffffff, stunt: 0, checkpoints: [[8_000, 0], [16_500, 0], [24_793, 0]], login: 'first', mapUid: 'HandReplayMap' });
    b.u32(2).u32(GHOST);
    ghostChunks(b, { time: 25_001, respawns: 0xffffffff, stunt: 0, checkpoints: [[8_100, 0], [16_400, 0], [25_001, 0]], login: 'second', mapUidRef: 1 });
    b.u32(0).u32(0); // always zero; no extras
    b.u32(0x03093015).u32(0xffffffff); // no MediaTracker clip
    b.u32(END);
    return b.build();
  }

  it('reads the map and best time from the XML header and both ghosts from chunk 0x03093014, not the map\'s', () => {
    const file = gbxFile({ classId: REPLAY, body: replayBody(), bodyFormat: 'C', nodeCount: 3, headerChunks: [{ id: 0x03093001, data: new Bytes().str(xml).build() }] });
    const read = readGbx(file);
    expect(read.kind).toBe('replay');
    expect(read.mapUid).toBe('HandReplayMap');
    expect(read.replay).toEqual({ mapUid: 'HandReplayMap', mapName: 'Hand & Made', mapType: 'TrackMania\\TM_Race', best: 24_793, respawns: null, stuntScore: 0, checkpoints: 3 });
    expect(read.ghosts.map((g) => [g.login, g.mapUid, g.raceTime, g.checkpoints])).toEqual([
      ['first', 'HandReplayMap', 24_793, [8_000, 16_500, 24_793]],
      ['second', 'HandReplayMap', 25_001, [8_100, 16_400, 25_001]],
    ]);
    expect(read.ghosts.flatMap((g) => g.checkpoints)).not.toContain(11_111);
  });

  it('ends the walk at a MediaTracker clip it cannot step over, the ghosts read', () => {
    const body = replayBody();
    // Replace "no clip" (-1) by a reference to node 3 of an unknown class, followed by bytes no reader can follow.
    const at = body.length - 8;
    const withClip = new Bytes().raw(body.subarray(0, at)).u32(3).u32(0x03079000).raw([1, 2, 3, 4, 5, 6, 7]).build();
    const read = readGbx(gbxFile({ classId: REPLAY, body: withClip, nodeCount: 4 }));
    expect(read.ghosts).toHaveLength(2);
    expect(read.replay).toBeNull();
  });
});

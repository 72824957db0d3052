// Hostile files are normal input: each one below ends in a GbxError with a stable code and one clear line, never a
// crash, a hang or an allocation the file's own size does not bound (docs/gbx.md, "Limits").
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GBX_LIMITS, GbxError, decompressLzo1x, readGbx, type GbxErrorCode } from '../../../src-main/core/gbx/index.ts';
import { Bytes, END, GHOST, REPLAY, gbxFile, ghostChunks, literalLzo } from './assemble.ts';

const fixture = readFileSync(join(import.meta.dirname, '../../fixtures/gbx/tm2020-001.Ghost.Gbx'));
const run = { time: 30_000, respawns: 0, stunt: 0, checkpoints: [[10_000, 0], [30_000, 0]] as [number, number][] };
const ghostBody = () => ghostChunks(new Bytes(), run).build();

function failure(bytes: Uint8Array): GbxError {
  try {
    readGbx(bytes);
  } catch (error) {
    if (error instanceof GbxError) return error;
    throw error;
  }
  throw new Error('the file was read');
}

function refused(bytes: Uint8Array, code: GbxErrorCode, words?: RegExp): string {
  const error = failure(bytes);
  expect(error.code, error.message).toBe(code);
  expect(error.message).not.toMatch(/[\n\r]/);
  expect(error.message.length).toBeLessThan(200);
  if (words) expect(error.message).toMatch(words);
  return error.message;
}

/** The fixture with a u32 written at `offset`. */
function withU32(bytes: Uint8Array, offset: number, value: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  new DataView(out.buffer).setUint32(offset, value, true);
  return out;
}

describe('files that are not ghosts or replays', () => {
  it('0 bytes', () => refused(new Uint8Array(0), 'empty', /empty/));
  it('a text file, a PNG, "GB" alone, all renamed .gbx', () => {
    refused(new TextEncoder().encode('hello, this is a README'), 'not-gbx', /does not start with "GBX"/);
    refused(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'not-gbx');
    refused(Uint8Array.from([0x47, 0x42]), 'not-gbx');
  });
  it('"GBX" and nothing else', () => refused(new TextEncoder().encode('GBX'), 'truncated', /ends early/));
  it('a map, an item, an unknown class', () => {
    refused(gbxFile({ classId: 0x03043000, body: ghostBody() }), 'unsupported', /a map/);
    refused(gbxFile({ classId: 0x2e002000, body: ghostBody() }), 'unsupported', /an item/);
    refused(gbxFile({ classId: 0x12345000, body: ghostBody() }), 'unsupported', /0x12345000/);
  });
  it('an older Gbx version, a text-format Gbx, nonsense format bytes', () => {
    refused(withU32(fixture, 3, 0x55420005).subarray(0, 40), 'unsupported', /version 5/);
    const text = Uint8Array.from(fixture);
    text[5] = 0x54; // 'T'
    refused(text, 'unsupported', /text-format/);
    const odd = Uint8Array.from(fixture);
    odd[7] = 0x58; // 'X' where C or U belongs
    refused(odd, 'corrupt', /format bytes/);
  });
  it('a file larger than any ghost or replay is refused before anything else is read', () => {
    const big = new Uint8Array(GBX_LIMITS.fileBytes + 1);
    big.set(fixture);
    refused(big, 'too-large', /bytes, over/);
  });
});

describe('truncated files', () => {
  it('every cut of the real ghost ends in a typed error', () => {
    for (const cut of [1, 4, 8, 9, 12, 13, 17, 20, 21, 24, 25, 29, 32, 33, 100, 5_000, 13_000, 13_523]) {
      const error = failure(fixture.subarray(0, cut));
      expect(['truncated', 'not-gbx'], `cut at ${cut}: ${error.message}`).toContain(error.code);
    }
  });
  it('a plain body that stops mid-chunk', () => {
    const body = ghostBody();
    refused(gbxFile({ classId: GHOST, body: body.subarray(0, body.length - 10) }), 'truncated', /ends early \(in the body\)/);
  });
  it('a body without its end marker', () => {
    const body = ghostBody();
    refused(gbxFile({ classId: GHOST, body: body.subarray(0, body.length - 4) }), 'truncated');
  });
});

describe('lying sizes', () => {
  // The fixture's header: the uncompressed body size at offset 25, the compressed size at 29, the stream from 33.
  it('a compressed size larger than the file', () => refused(withU32(fixture, 29, 13_600), 'truncated', /13600 compressed bytes and 13491 are there/));
  it('a compressed size smaller than the file', () => refused(withU32(fixture, 29, 13_000), 'corrupt', /follow the compressed body/));
  it('a declared body size larger than the stream gives', () => refused(withU32(fixture, 25, 14_188), 'corrupt', /gives 14187 bytes where the file declares 14188/));
  it('a body that decompresses past its declared size (a decompression bomb)', () => {
    refused(withU32(fixture, 25, 14_000), 'corrupt', /decompresses past its declared size of 14000/);
    // A 10-byte stream: 1 literal, then a match of 447 bytes 1 back, into a body declared 100 bytes: stopped there.
    const bomb = Uint8Array.from([0x12, 0x00, 0x20, 0x00, 0x9f, 0x00, 0x00, 0x11, 0x00, 0x00]);
    expect(() => decompressLzo1x(bomb, 100)).toThrow(/past its declared size of 100/);
  });
  it('a declared body size no LZO1X stream of that length can reach', () => {
    refused(gbxFile({ classId: GHOST, body: ghostBody(), bodyFormat: 'C', declaredSize: 60_000_000 }), 'corrupt', /more than LZO1X can expand to/);
  });
  it('a declared body size of 2^32-1', () => refused(withU32(fixture, 25, 0xffffffff), 'too-large', /4294967295/));
  it('header chunks whose sizes do not add up', () => {
    const file = gbxFile({ classId: REPLAY, body: new Uint8Array(0), headerChunks: [{ id: 0x03093001, data: new Bytes().str('<header/>').build() }] });
    refused(withU32(file, 25, 99), 'corrupt', /add up/); // the chunk's size entry
  });
  it('a skippable chunk that claims more bytes than the body has', () => {
    const b = new Bytes().u32(0x03092005).ascii('PIKS').u32(1_000_000).u32(1);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'truncated');
  });
  it('a skippable chunk whose data is shorter than what it holds', () => {
    const b = new Bytes().skippable(0x0309200b, (c) => c.u32(2).u32(5_000).u32(0)).u32(END);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'corrupt', /more than its bytes can hold/);
  });
  it('a skippable chunk with bytes left over', () => {
    const b = new Bytes().skippable(0x03092005, (c) => c.u32(5_000).u32(0)).u32(END);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'corrupt', /declares 4 bytes more than it holds/);
  });
  it('bytes after the end of the body', () => {
    const body = new Bytes().raw(ghostBody()).u32(END).build();
    refused(gbxFile({ classId: GHOST, body }), 'corrupt', /goes on for 4 bytes after its end marker/);
  });
});

describe('counts of 2^32-1 and other impossible counts', () => {
  it('checkpoints', () => {
    const b = new Bytes().skippable(0x0309200b, (c) => c.u32(0xffffffff).u32(1).u32(0)).u32(END);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'too-large', /4294967295 checkpoints/);
    const many = new Bytes().skippable(0x0309200b, (c) => c.u32(GBX_LIMITS.checkpoints + 1)).u32(END);
    refused(gbxFile({ classId: GHOST, body: many.build() }), 'too-large', /at most 10000/);
  });
  it('ghosts in a replay', () => {
    const b = new Bytes().u32(0x03093014).u32(10).u32(0xffffffff).u32(END);
    refused(gbxFile({ classId: REPLAY, body: b.build() }), 'too-large', /ghosts/);
  });
  it('header chunks', () => {
    const file = gbxFile({ classId: REPLAY, body: new Uint8Array(0), headerChunks: [{ id: 0x03093001, data: new Bytes().str('<header/>').build() }] });
    refused(withU32(file, 17, 0xffffffff), 'too-large', /header chunks/); // the count after the user-data size
  });
  it('external references', () => {
    const file = gbxFile({ classId: GHOST, body: ghostBody() });
    refused(withU32(file, 21, 0xffffffff), 'corrupt', /external references/); // the word after the node count
  });
  it('a string of 2^32-1 bytes', () => {
    const b = new Bytes().u32(0x0309200f).u32(0xffffffff).u32(END);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'too-large', /string of 4294967295 bytes/);
  });
  it('a node count the header cannot mean', () => refused(withU32(fixture, 17, 0xffffffff), 'too-large', /declares 4294967295 nodes/));
});

describe('loops and structure', () => {
  it('the same chunk twice in one node (a chunk loop)', () => {
    const b = new Bytes().skippable(0x03092005, (c) => c.u32(1)).skippable(0x03092005, (c) => c.u32(2)).u32(END);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'corrupt', /appears twice/);
  });
  it('a chunk repeated after the IDs stopped rising (the reader searches once they do)', () => {
    const b = new Bytes()
      .skippable(0x03092008, (c) => c.u32(0))
      .skippable(0x0309200b, (c) => c.u32(0))
      .skippable(0x03092005, (c) => c.u32(1))
      .skippable(0x0309200a, (c) => c.u32(0))
      .skippable(0x03092008, (c) => c.u32(2))
      .u32(END);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'corrupt', /chunk 0x03092008 appears twice/);
  });
  it('chunks out of rising order, none twice, are read', () => {
    const b = new Bytes()
      .skippable(0x0309200b, (c) => c.u32(1).u32(30_000).u32(0))
      .skippable(0x03092005, (c) => c.u32(30_000))
      .skippable(0x03092008, (c) => c.u32(2))
      .u32(END);
    const [ghost] = readGbx(gbxFile({ classId: GHOST, body: b.build() })).ghosts;
    expect(ghost).toMatchObject({ raceTime: 30_000, respawns: 2, checkpoints: [30_000] });
  });
  it('a replay listing one ghost node twice (a node loop)', () => {
    const b = new Bytes().u32(0x03093014).u32(10).u32(2).u32(1).u32(GHOST);
    ghostChunks(b, run);
    b.u32(1).u32(0).u32(0).u32(END);
    refused(gbxFile({ classId: REPLAY, body: b.build(), nodeCount: 2 }), 'corrupt', /twice/);
  });
  it('a replay of 40 ghosts listing one of them again (found among many nodes, not only the first few)', () => {
    const b = new Bytes().u32(0x03093014).u32(10).u32(41);
    for (let node = 1; node <= 40; node++) ghostChunks(b.u32(node).u32(GHOST), run);
    b.u32(35).u32(0).u32(0).u32(END);
    refused(gbxFile({ classId: REPLAY, body: b.build(), nodeCount: 41 }), 'corrupt', /node 35 as a ghost twice/);
    const whole = new Bytes().u32(0x03093014).u32(10).u32(40);
    for (let node = 1; node <= 40; node++) ghostChunks(whole.u32(node).u32(GHOST), run);
    whole.u32(0).u32(0).u32(END);
    expect(readGbx(gbxFile({ classId: REPLAY, body: whole.build(), nodeCount: 41 })).ghosts).toHaveLength(40);
  });
  it('a node reference outside the node table', () => {
    const b = new Bytes().u32(0x03093014).u32(10).u32(1).u32(7).u32(GHOST);
    ghostChunks(b, run);
    b.u32(0).u32(0).u32(END);
    refused(gbxFile({ classId: REPLAY, body: b.build(), nodeCount: 2 }), 'corrupt', /node 7, outside the 2/);
  });
  it('a ghost node of another class', () => {
    const b = new Bytes().u32(0x03093014).u32(10).u32(1).u32(1).u32(0x03043000).u32(END).u32(0).u32(0).u32(END);
    refused(gbxFile({ classId: REPLAY, body: b.build(), nodeCount: 2 }), 'unsupported', /class 0x03043000 where a ghost/);
  });
  it('an unknown unskippable chunk', () => {
    const b = new Bytes().u32(0x03092077).u32(0).u32(END);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'unsupported', /chunk 0x03092077 of a ghost is not one this reader knows/);
  });
  it('a replay without its ghost list', () => refused(gbxFile({ classId: REPLAY, body: new Bytes().u32(END).build() }), 'corrupt', /no ghost list/));
  it('an id that refers to a string never defined', () => {
    const b = new Bytes().u32(0x03092010).u32(3).u32(0x40000005).u32(END);
    refused(gbxFile({ classId: GHOST, body: b.build() }), 'corrupt', /never defined/);
  });
  it('an LZO1X stream that refers before the start of the body', () => {
    const stream = Uint8Array.from([0x15, 0x41, 0x42, 0x43, 0x44, 0x50, 0x20, 0x11, 0x00, 0x00]); // 4 literals, then a 3-byte match 261 back
    refused(gbxFile({ classId: GHOST, body: new Uint8Array(9), bodyFormat: 'C', stream }), 'corrupt', /before the start of the body/);
  });
  it('an LZO1X stream with bytes after its end marker', () => {
    const stream = new Bytes().raw(literalLzo(ghostBody())).u8(0x42).build();
    refused(gbxFile({ classId: GHOST, body: ghostBody(), bodyFormat: 'C', stream }), 'corrupt', /1 bytes follow the end of its LZO1X stream/);
  });
});

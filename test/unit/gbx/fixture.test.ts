// The ghost the game wrote (test/fixtures/gbx/PROVENANCE.md): the reader gets its exact values, and a hand walk over
// the file's own bytes gets the race time and the checkpoint the same way, without the reader.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decompressLzo1x, locateBody, readGbx, readHeader } from '../../../src-main/core/gbx/index.ts';

const FIXTURE = join(import.meta.dirname, '../../fixtures/gbx/tm2020-001.Ghost.Gbx');
const bytes = readFileSync(FIXTURE);

describe('the real TM2020 ghost (tm2020-001.Ghost.Gbx)', () => {
  it('has the header PROVENANCE.md describes', () => {
    expect(bytes.length).toBe(13_524);
    const header = readHeader(bytes);
    expect(header).toMatchObject({ version: 6, classId: 0x03092000, bodyCompressed: true, headerChunks: [], nodeCount: 2 });
    expect(header.externalNodes.size).toBe(0);
    const body = locateBody(bytes, header);
    expect(body).toEqual({ compressed: true, start: 33, end: 13_524, size: 14_187 });
  });

  it('decompresses to exactly the declared 14,187 bytes, a chunk list that ends with 0xFACADE01', () => {
    const body = decompressLzo1x(bytes.subarray(33), 14_187);
    expect(body.length).toBe(14_187);
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    expect(view.getUint32(0, true)).toBe(0x0303f006); // the first chunk, unskippable
    expect(view.getUint32(14_183, true)).toBe(0xfacade01);
  });

  it('reads its run: 10.782 s, one checkpoint (the finish), no respawn count, the driver and the map', () => {
    expect(readGbx(bytes)).toEqual({
      kind: 'ghost',
      classId: 0x03092000,
      mapUid: 'AJFJd6yABuSMfgJGc8UpWRwUVa0',
      replay: null,
      laps: null,
      lapsUnknown: 'a ghost file does not hold its map',
      ghosts: [{
        name: 'WinterlyTM',
        nickname: 'WinterlyTM',
        login: 'jPaHiqT6Qdi6TiEPyg_Mzg',
        mapUid: 'AJFJd6yABuSMfgJGc8UpWRwUVa0',
        raceTime: 10_782,
        respawns: null,
        stuntScore: 0,
        checkpoints: [10_782],
        checkpointStuntScores: [0],
      }],
    });
  });

  // A walk over the compressed stream by hand, with the LZO1X rules of docs/gbx.md ("LZO1X"): file offsets, then
  // what each instruction byte means. The body's chunks 0x03092005 (race time) and 0x0309200B (checkpoints) sit
  // at body offsets 12,487 and 12,535.
  it('gives the same race time and checkpoint by a hand walk over the file bytes', () => {
    const at = (offset: number, length: number) => [...bytes.subarray(offset, offset + length)];
    // 12478: 0x05, the last literal of a 41-byte run: the low byte of chunk ID 0x03092005.
    expect(bytes[12_478]).toBe(0x05);
    // 12479: 0x25 = a match (32..63) of (0x25 & 31) + 2 = 7 bytes; distance 1 + (0x68 >> 2) + (0xc2 << 6) = 12,443,
    // which lands on body offset 45: "20 09 03 50 49 4B 53", the rest of a chunk ID and "PIKS". 0x68 & 3 = 0 literals.
    expect(at(12_479, 3)).toEqual([0x25, 0x68, 0xc2]);
    expect(1 + (0x68 >> 2) + (0xc2 << 6)).toBe(12_443);
    // 12482: 0x06 = a run of 6 + 3 = 9 literals: the chunk's size (4), then its value, then 0x08 (the next chunk's ID).
    expect(bytes[12_482]).toBe(0x06);
    expect(bytes.readUInt32LE(12_483)).toBe(4);
    const raceTime = bytes.readInt32LE(12_487);
    expect(raceTime).toBe(10_782);
    expect(bytes[12_491]).toBe(0x08);
    // 12492: 0x29 0x3C 0x00 = a match of 11 bytes 16 back ("20 09 03 PIKS 04 00 00 00"); 12495: 0x02 = 5 literals:
    // FF FF FF FF (respawns: -1, none) and 0x0A. The same match, then 5 literals: 00 00 00 00 (stunt score 0) and 0x0B.
    expect(at(12_492, 9)).toEqual([0x29, 0x3c, 0x00, 0x02, 0xff, 0xff, 0xff, 0xff, 0x0a]);
    expect(at(12_501, 9)).toEqual([0x29, 0x3c, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x0b]);
    // 12510: 0xDD = a match (64..255) of (0xDD >> 5) + 1 = 7 bytes ("20 09 03 PIKS"), then 0xDD & 3 = 1 literal:
    // 0x0C, the checkpoint chunk's size: 12 bytes = a u32 count and one (time, stunt score) pair.
    expect(at(12_510, 3)).toEqual([0xdd, 0x01, 0x0c]);
    // 12513: 0x25 0x2E 0xBE = a match of 7 bytes ("00 00 00", then the count 01 00 00 00), then 0x2E & 3 = 2 literals:
    // 1E 2A, the low bytes of the checkpoint time.
    expect(at(12_513, 5)).toEqual([0x25, 0x2e, 0xbe, 0x1e, 0x2a]);
    // 12518: 0xBF = a match of (0xBF >> 5) + 1 = 6 bytes, 1 + ((0xBF >> 2) & 7) + (0x02 << 3) = 24 back: the six zero
    // bytes written just before (the stunt score chunk's value): the time's high bytes and the checkpoint's stunt score.
    expect(at(12_518, 2)).toEqual([0xbf, 0x02]);
    expect(1 + ((0xbf >> 2) & 7) + (0x02 << 3)).toBe(24);
    const checkpointTime = 0x1e | (0x2a << 8);
    expect(checkpointTime).toBe(raceTime);
    expect(readGbx(bytes).ghosts[0]?.checkpoints).toEqual([checkpointTime]);
  });
});

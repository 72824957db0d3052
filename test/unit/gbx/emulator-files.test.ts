// The emulator writes, the product reads: every replay the emulator serves is read with the product's reader and
// agrees with its record; a few bytes of each are checked by hand as well (docs/gbx.md), so the two cannot agree on
// a mistake unseen. The emulator's LZO1X compressor goes through the product's decompressor.
import { describe, expect, it } from 'vitest';
import { GbxError, decompressLzo1x, readGbx } from '../../../src-main/core/gbx/index.ts';
import { evolveDataset, generateDataset, mapLayout, replayBytesFor, replayDamageOf, replayKindOf, type Dataset, type DatasetRecord } from '../../../src-main/emulator/index.ts';
import { compressLzo1x, damage, ghostOfRecord, writeGhostFile, writeReplayFile, authorGhostOf, replayMapOf } from '../../../src-main/emulator/gbx/index.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 11, maps: 16, players: 8, style: 'season' });
const mapOf = (record: DatasetRecord, data: Dataset = dataset) => data.maps.find((m) => m.mapId === record.mapId)!;
const u32 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);
const i32 = (bytes: Uint8Array, at: number) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(at, true);
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** Offsets of a chunk ID followed by "PIKS" (a skippable chunk), found by searching bytes. */
function skippableAt(bytes: Uint8Array, chunkId: number): number[] {
  const pattern = Buffer.alloc(8);
  pattern.writeUInt32LE(chunkId, 0);
  pattern.write('PIKS', 4, 'latin1');
  const found: number[] = [];
  for (let at = Buffer.from(bytes).indexOf(pattern); at >= 0; at = Buffer.from(bytes).indexOf(pattern, at + 1)) found.push(at);
  return found;
}

describe("the emulator's LZO1X compressor, through the product's decompressor", () => {
  const cases: [string, Uint8Array][] = [
    ['empty', new Uint8Array(0)],
    ['1 byte', Uint8Array.of(7)],
    ['3 bytes', Uint8Array.of(1, 2, 3)],
    ['238 bytes (the longest first run in one byte)', Uint8Array.from({ length: 238 }, (_, i) => i * 31)],
    ['239 bytes', Uint8Array.from({ length: 239 }, (_, i) => i * 31)],
    ['100 KB of zeros (long matches, lengths in zero bytes)', new Uint8Array(100_000)],
    ['text repeating 20 KB apart (far matches)', new TextEncoder().encode(`${'x'.repeat(10)}${Array.from({ length: 3_000 }, (_, i) => `line ${i % 1700} of a ghost;`).join('')}`)],
    ['noise with repeats of 1-3 bytes between', Uint8Array.from({ length: 50_000 }, (_, i) => (i % 7 === 0 ? 0 : (Math.imul(i, 2654435761) >>> 24)))],
  ];
  for (const [name, data] of cases) {
    it(`round-trips ${name}`, () => {
      const stream = compressLzo1x(data);
      expect([...stream.subarray(stream.length - 3)]).toEqual([0x11, 0x00, 0x00]);
      expect(Buffer.from(decompressLzo1x(stream, data.length)).equals(Buffer.from(data))).toBe(true);
    });
  }
  it('compresses what repeats', () => {
    expect(compressLzo1x(new Uint8Array(100_000)).length).toBeLessThan(1_000);
  });
});

describe('the replays the emulator serves, read by the product', () => {
  const served = dataset.records.filter((r) => replayDamageOf(r) === undefined);

  it('cover ghosts and replays, every kind of map, lap races, and real sizes (10-40 KB)', () => {
    const kinds = new Set(served.map((r) => replayKindOf(r)));
    expect(kinds).toEqual(new Set(['ghost', 'replay']));
    expect(new Set(dataset.maps.map((m) => m.mapType.split('_').at(-1)))).toEqual(new Set(['Race', 'Stunt', 'Platform']));
    expect(dataset.maps.some((m) => mapLayout(m).laps > 1)).toBe(true);
    for (const record of served.slice(0, 60)) {
      const size = replayBytesFor(record, dataset).length;
      expect(size).toBeGreaterThanOrEqual(10_000);
      expect(size).toBeLessThanOrEqual(40_000);
    }
  });

  it("agree with each record: the race time, the last checkpoint, every lap's checkpoints, the map, the player", () => {
    for (const record of served) {
      const map = mapOf(record);
      const read = readGbx(replayBytesFor(record, dataset));
      const layout = mapLayout(map);
      const { time, score, respawnCount } = record.recordScore;
      expect(read.kind).toBe(replayKindOf(record));
      expect(read.mapUid).toBe(map.mapUid);
      expect(read.ghosts).toHaveLength(1);
      const ghost = read.ghosts[0]!;
      expect(ghost.name).toBe(dataset.displayNames?.[record.accountId] ?? record.accountId.slice(0, 8));
      expect(ghost.raceTime).toBe(time);
      expect(ghost.checkpoints).toHaveLength(layout.checkpointsPerLap * layout.laps);
      expect(ghost.checkpoints.at(-1)).toBe(time);
      for (let i = 1; i < ghost.checkpoints.length; i++) expect(ghost.checkpoints[i]!).toBeGreaterThan(ghost.checkpoints[i - 1]!);
      if (map.mapType.endsWith('TM_Stunt')) {
        expect(ghost.stuntScore).toBe(score);
        expect(ghost.checkpointStuntScores.at(-1)).toBe(score);
        for (let i = 1; i < ghost.checkpointStuntScores.length; i++) expect(ghost.checkpointStuntScores[i]!).toBeGreaterThanOrEqual(ghost.checkpointStuntScores[i - 1]!);
      }
      if (map.mapType.endsWith('TM_Platform')) expect(ghost.respawns).toBe(respawnCount === 0xffffffff ? null : respawnCount);
      if (read.kind === 'replay') expect(read.replay).toMatchObject({ mapUid: map.mapUid, best: time, checkpoints: ghost.checkpoints.length });
      // The laps come from the map a replay embeds; a ghost file holds no map.
      expect(read.laps).toBe(read.kind === 'replay' ? layout.laps : null);
    }
  });

  it("embed a map whose description chunk says its laps, checked by hand: a lap race's count, 1 elsewhere", () => {
    const replays = served.filter((r) => replayKindOf(r) === 'replay');
    const lapRace = replays.find((r) => mapLayout(mapOf(r)).laps > 1)!;
    const oneLap = replays.find((r) => mapLayout(mapOf(r)).laps === 1)!;
    expect(lapRace).toBeDefined();
    for (const record of [lapRace, oneLap]) {
      const map = mapOf(record);
      const plain = writeReplayFile({ map: replayMapOf(map), ghosts: [ghostOfRecord(record, map, 'Lapper')], authorGhost: authorGhostOf(map, record) }, { compressBody: false });
      // The body starts after the header chunks, the node count and the reference table: chunk 0x03093002, its size, the map.
      const body = 17 + u32(plain, 13) + 8;
      expect(u32(plain, body)).toBe(0x03093002);
      const mapAt = body + 8;
      expect(latin1(plain.subarray(mapAt, mapAt + 9))).toBe('GBX\u0006\u0000BUUR');
      expect(u32(plain, mapAt + 9)).toBe(0x03043000);
      expect(u32(plain, mapAt + 21)).toBe(0x03043002); // the first header chunk
      const descSize = u32(plain, mapAt + 25);
      expect(descSize).toBe(57); // version 13: a byte and 14 words
      const desc = mapAt + 17 + 4 + 8 * u32(plain, mapAt + 17);
      expect(plain[desc]).toBe(13);
      const { laps } = mapLayout(map);
      expect(u32(plain, desc + 25)).toBe(laps > 1 ? 1 : 0); // is a lap race: after the version, need-unlock, 4 medals and cost
      expect(u32(plain, desc + descSize - 4)).toBe(laps); // the last word: the laps
    }
  });

  it('check out by hand too: the header, the sizes, the end of the LZO1X stream, and the XML of a replay', () => {
    const ghostRecord = served.find((r) => replayKindOf(r) === 'ghost')!;
    const ghost = replayBytesFor(ghostRecord, dataset);
    expect(latin1(ghost.subarray(0, 9))).toBe('GBX\u0006\u0000BUCR');
    expect(u32(ghost, 9)).toBe(0x03092000);
    expect(u32(ghost, 13)).toBe(0); // no header chunks
    expect(u32(ghost, 21)).toBe(0); // no external references
    expect(u32(ghost, 29)).toBe(ghost.length - 33); // the compressed size is the rest of the file
    expect([...ghost.subarray(ghost.length - 3)]).toEqual([0x11, 0x00, 0x00]);

    const replayRecord = served.find((r) => replayKindOf(r) === 'replay')!;
    const replay = replayBytesFor(replayRecord, dataset);
    expect(u32(replay, 9)).toBe(0x03093000);
    expect(u32(replay, 17)).toBe(3); // header chunks
    expect([u32(replay, 21), u32(replay, 29), u32(replay, 37)]).toEqual([0x03093000, 0x03093001, 0x03093002]);
    const header = latin1(replay.subarray(0, 17 + u32(replay, 13)));
    expect(header).toContain(`<map uid="${mapOf(replayRecord).mapUid}"`);
    expect(header).toContain(`<times best="${replayRecord.recordScore.time}"`);
  });

  it('hold their checkpoint chunk where a byte search finds it in a plain body, and the compressed body decompresses to it', () => {
    const record = served.find((r) => mapLayout(mapOf(r)).laps > 1) ?? served[0]!;
    const spec = ghostOfRecord(record, mapOf(record), undefined);
    const plain = writeGhostFile(spec, { compressBody: false });
    const [at] = skippableAt(plain, 0x0309200b);
    expect(at).toBeDefined();
    const count = u32(plain, at! + 12);
    const times = Array.from({ length: count }, (_, i) => i32(plain, at! + 16 + 8 * i));
    expect(times.at(-1)).toBe(record.recordScore.time);
    expect(count).toBe(mapLayout(mapOf(record)).checkpointsPerLap * mapLayout(mapOf(record)).laps);
    const packed = writeGhostFile(spec);
    const body = decompressLzo1x(packed.subarray(33), u32(packed, 25));
    expect(Buffer.from(body).equals(Buffer.from(plain.subarray(25)))).toBe(true);
  });

  it("carry the map's author ghost inside the embedded map, which the reader does not take for a player's", () => {
    const record = served.find((r) => replayKindOf(r) === 'replay')!;
    const map = mapOf(record);
    const spec = { map: replayMapOf(map), ghosts: [ghostOfRecord(record, map, 'Rival')], authorGhost: authorGhostOf(map, record) };
    const plain = writeReplayFile(spec, { compressBody: false });
    expect(skippableAt(plain, 0x0309200b)).toHaveLength(2);
    const read = readGbx(plain);
    expect(read.ghosts.map((g) => [g.name, g.raceTime])).toEqual([['Rival', record.recordScore.time]]);
    expect(readGbx(writeReplayFile(spec))).toEqual(read);
  });
});

describe('the bytes served', () => {
  it('are the same for the same record and new for another or an improved one', () => {
    const a = dataset.records.find((r) => r.scopeType === 'PersonalBest' && mapOf(r).mapType.endsWith('TM_Race'));
    const b = dataset.records.find((r) => r !== a);
    const bytes = replayBytesFor(a!, dataset);
    expect(replayBytesFor(structuredClone(a!), dataset).equals(bytes)).toBe(true);
    expect(replayBytesFor(b!, dataset).equals(bytes)).toBe(false);
    const later = structuredClone(dataset);
    evolveDataset(later, { seed: 4, fraction: 1 });
    const improved = later.records.find((r) => r.accountId === a!.accountId && r.mapId === a!.mapId && r.scopeType === a!.scopeType && r.mapRecordId !== a!.mapRecordId);
    expect(improved).toBeDefined();
    expect(replayBytesFor(improved!, later).equals(bytes)).toBe(false);
  });

  it('are damaged for one record in 50, the same ones every time, and each damage is a typed error', () => {
    const big = generateDataset({ now: DATA_NOW, seed: 12, maps: 30, players: 30 });
    const damaged = big.records.filter((r) => replayDamageOf(r) !== undefined);
    expect(damaged.length).toBeGreaterThan(0);
    expect(damaged.length).toBeLessThan(big.records.length / 20);
    for (const record of damaged.slice(0, 6)) {
      expect(() => readGbx(replayBytesFor(record, big))).toThrow(GbxError);
    }
    const file = writeGhostFile(ghostOfRecord(big.records[0]!, mapOf(big.records[0]!, big), undefined));
    const code = (bytes: Uint8Array) => {
      try {
        readGbx(bytes);
        return 'read';
      } catch (error) {
        return (error as GbxError).code;
      }
    };
    expect(code(damage(file, 'truncated'))).toBe('truncated');
    expect(code(damage(file, 'lying-size'))).toBe('corrupt');
    expect(code(damage(file, 'broken-stream'))).toBe('corrupt');
  });

  it('are a dataset\'s replayBase64 byte for byte when it has one', () => {
    const record = { ...dataset.records[0]!, replayBase64: Buffer.from('GBX custom').toString('base64') };
    expect(replayBytesFor(record, dataset).toString('latin1')).toBe('GBX custom');
  });
});

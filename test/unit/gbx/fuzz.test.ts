// Seeded random mutations of real and generated files: thousands of cases, each of which must end in a value or a
// GbxError (never another exception, a hang or a crash). The seed is fixed, so a failure names its case exactly.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GBX_LIMITS, GbxError, decompressLzo1x, readGbx } from '../../../src-main/core/gbx/index.ts';
import { generateDataset, mapLayout } from '../../../src-main/emulator/index.ts';
import { authorGhostOf, replayMapOf, ghostOfRecord, writeGhostFile, writeReplayFile } from '../../../src-main/emulator/gbx/index.ts';
import { Bytes, END, GHOST, REPLAY, gbxFile, ghostChunks } from './assemble.ts';
import { mulberry32 } from '../../../src-main/emulator/prng.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const CASES_PER_FILE = 600;


/** Words that matter to a Gbx reader: sizes, sentinels, markers, flags. */
const INTERESTING = [0, 1, 2, 3, 4, 0xff, 0xffff, 0x7fffffff, 0x80000000, 0xffffffff, 0x40000000, 0x40000001, 0xfacade01, 0x534b4950, 0x03092000, 0x03093014, 0x0911f000];

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function mutate(source: Uint8Array, rng: () => number): Uint8Array {
  let bytes: Uint8Array = Uint8Array.from(source);
  const steps = 1 + Math.floor(rng() * 4);
  const at = () => Math.floor(rng() * Math.max(1, bytes.length));
  for (let s = 0; s < steps; s++) {
    const kind = Math.floor(rng() * 7);
    if (kind === 0 && bytes.length > 0) bytes[at()]! ^= 1 << Math.floor(rng() * 8);
    else if (kind === 1 && bytes.length > 0) bytes[at()] = Math.floor(rng() * 256);
    else if (kind === 2 && bytes.length >= 4) {
      const offset = Math.min(at(), bytes.length - 4);
      const value = rng() < 0.8 ? INTERESTING[Math.floor(rng() * INTERESTING.length)]! : Math.floor(rng() * 2 ** 32);
      new DataView(bytes.buffer).setUint32(offset, value, true);
    } else if (kind === 3) bytes = bytes.slice(0, at());
    else if (kind === 4) {
      const from = at();
      const length = Math.floor(rng() * 64);
      const into = at();
      bytes = concat(bytes.subarray(0, into), bytes.slice(from, from + length), bytes.subarray(into));
    } else if (kind === 5) {
      const from = at();
      bytes = concat(bytes.subarray(0, from), bytes.subarray(from + 1 + Math.floor(rng() * 16)));
    } else {
      // A header field: the first 40 bytes hold the version, format, class, sizes and counts.
      const offset = Math.floor(rng() * Math.min(37, Math.max(1, bytes.length - 4)));
      if (bytes.length >= offset + 4) new DataView(bytes.buffer).setUint32(offset, INTERESTING[Math.floor(rng() * INTERESTING.length)]!, true);
    }
  }
  return bytes;
}

/** The real ghost with its body stored plain ("BUUR"), so mutations land on chunks rather than on the LZO stream. */
function plainFixture(fixture: Uint8Array): Uint8Array {
  const view = new DataView(fixture.buffer, fixture.byteOffset, fixture.byteLength);
  const body = decompressLzo1x(fixture.subarray(33), view.getUint32(25, true));
  const head = Uint8Array.from(fixture.subarray(0, 25));
  head[7] = 0x55; // 'U'
  return concat(head, body);
}

function corpus(): [string, Uint8Array][] {
  const fixture = new Uint8Array(readFileSync(join(import.meta.dirname, '../../fixtures/gbx/tm2020-001.Ghost.Gbx')));
  const dataset = generateDataset({ now: DATA_NOW, seed: 5, maps: 6, players: 3, style: 'season' });
  const stunt = dataset.records.find((r) => dataset.maps.find((m) => m.mapId === r.mapId)!.mapType.endsWith('TM_Stunt'))!;
  const map = dataset.maps.find((m) => m.mapId === stunt.mapId)!;
  const ghost = ghostOfRecord(stunt, map, 'Fuzz');
  const replay = { map: replayMapOf(map), ghosts: [ghost, { ...ghost, raceTime: ghost.raceTime + 5 }], authorGhost: authorGhostOf(map, stunt) };
  const lapMap = dataset.maps.find((m) => mapLayout(m).laps > 1)!;
  const lapRecord = dataset.records.find((r) => r.mapId === lapMap.mapId)!;
  const lapReplay = { map: replayMapOf(lapMap), ghosts: [ghostOfRecord(lapRecord, lapMap, 'Lapper')], authorGhost: authorGhostOf(lapMap, lapRecord) };
  const hand = new Bytes().u32(0x03093014).u32(10).u32(1).u32(1).u32(GHOST);
  ghostChunks(hand, { time: 5_000, respawns: 1, stunt: 0, checkpoints: [[2_000, 0], [5_000, 0]], login: 'x', mapUid: 'HandMap' });
  hand.u32(0).u32(0).u32(END);
  return [
    ['the real ghost', fixture],
    ['the real ghost, plain body', plainFixture(fixture)],
    ['an emulator ghost', writeGhostFile(ghost)],
    ['an emulator ghost, plain body', writeGhostFile(ghost, { compressBody: false })],
    ['an emulator replay of two ghosts', writeReplayFile(replay)],
    ['an emulator replay, plain body', writeReplayFile(replay, { compressBody: false })],
    ['a replay assembled by hand', gbxFile({ classId: REPLAY, body: hand.build(), nodeCount: 2 })],
    ['an emulator replay of a lap race, plain body', writeReplayFile(lapReplay, { compressBody: false })],
    ['a replay by hand holding a map of 3 laps', handLapReplay()],
  ];
}

/** A small replay whose embedded map says 3 laps (chunk 0x03043002 v13), so most mutations land on the map's bytes. */
function handLapReplay(): Uint8Array {
  const desc = new Bytes().u8(13).u32(0).u32(4).u32(3).u32(2).u32(1).u32(0).u32(1).u32(6).u32(0).u32(1).u32(0).u32(0).u32(2).u32(3).build();
  const map = new Bytes().ascii('GBX').u16(6).ascii('BUCR').u32(0x03043000).u32(4 + 8 + desc.length).u32(1).u32(0x03043002).u32(desc.length).raw(desc).u32(1).u32(0).build();
  const b = new Bytes().u32(0x03093002).u32(map.length).raw(map).u32(0x03093014).u32(10).u32(1).u32(1).u32(GHOST);
  ghostChunks(b, { time: 9_000, respawns: 0, stunt: 0, checkpoints: [[1_000, 0], [2_000, 0], [3_000, 0], [4_000, 0], [5_000, 0], [9_000, 0]], login: 'x' });
  return gbxFile({ classId: REPLAY, body: b.u32(0).u32(0).u32(END).build(), nodeCount: 2 });
}

describe('fuzz: mutated ghosts and replays', () => {
  for (const [name, source] of corpus()) {
    it(`${name}: ${CASES_PER_FILE} mutations each end in a value or a GbxError`, () => {
      expect(readGbx(source).ghosts.length).toBeGreaterThan(0);
      const rng = mulberry32(0x5eed ^ source.length);
      const outcomes = new Map<string, number>();
      const laps = new Map<string, number>();
      for (let i = 0; i < CASES_PER_FILE; i++) {
        const mutated = mutate(source, rng);
        let outcome: string;
        try {
          const read = readGbx(mutated);
          outcome = 'read';
          for (const ghost of read.ghosts) expect(ghost.checkpoints.length).toBe(ghost.checkpointStuntScores.length);
          // The laps: known (1 to the cap) or unknown with one line saying why, never both.
          if (read.laps === null) expect(read.lapsUnknown).toMatch(/^[^\n\r]+$/);
          else {
            expect(read.lapsUnknown).toBeNull();
            expect(Number.isInteger(read.laps) && read.laps >= 1 && read.laps <= GBX_LIMITS.laps).toBe(true);
          }
          if (read.kind === 'replay') laps.set(read.laps === null ? 'unknown' : 'known', (laps.get(read.laps === null ? 'unknown' : 'known') ?? 0) + 1);
        } catch (error) {
          if (!(error instanceof GbxError)) throw new Error(`case ${i} of "${name}" threw ${String(error)}`, { cause: error });
          expect(error.message).not.toMatch(/[\n\r]/);
          outcome = error.code;
        }
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      }
      // The mutations reach both sides: some files still read, and several kinds of damage are told apart.
      expect(outcomes.get('read') ?? 0, JSON.stringify([...outcomes])).toBeGreaterThan(0);
      expect(outcomes.size, JSON.stringify([...outcomes])).toBeGreaterThanOrEqual(3);
      // A lap race's replay still says its laps after most mutations; on the small one, whose bytes are mostly its
      // map's, the mutations reach the map's header too and leave the laps unknown.
      if (name.includes('lap')) expect(laps.get('known') ?? 0, JSON.stringify([...laps])).toBeGreaterThan(0);
      if (name.includes('map of 3 laps')) expect(laps.get('unknown') ?? 0, JSON.stringify([...laps])).toBeGreaterThan(0);
    });
  }
});

// The run behind each emulator record, as its ghost tells it (docs/gbx.md, "What the emulator serves"): checkpoints
// every lap with the finish last at the record's time, Stunt scores rising to the record's points, Platform respawns
// as counted. Everything follows from the map's ID and type and the record, so the same record gives the same bytes.
import type { DatasetMap, DatasetRecord } from '../dataset.ts';
import { fnv1a, unitHash } from '../prng.ts';
import type { GhostSpec, ReplayMapSpec } from './ghost.ts';

export interface MapLayout {
  /** Checkpoints crossed in one lap, the lap's finish (or multilap line) included. */
  checkpointsPerLap: number;
  laps: number;
}

type RunKind = 'race' | 'stunt' | 'platform';

function runKind(mapType: string): RunKind {
  if (mapType.endsWith('TM_Stunt')) return 'stunt';
  if (mapType.endsWith('TM_Platform')) return 'platform';
  return 'race';
}

/** A map's checkpoints and laps: 3 to 12 a lap; one Race or Stunt map in five is a lap race of 2 to 5 laps. */
export function mapLayout(map: Pick<DatasetMap, 'mapId' | 'mapType'>): MapLayout {
  const hash = fnv1a(`layout|${map.mapId}`);
  const checkpointsPerLap = 3 + ((hash >>> 8) % 10);
  const lapRace = runKind(map.mapType) !== 'platform' && hash % 5 === 0;
  return { checkpointsPerLap, laps: lapRace ? 2 + ((hash >>> 3) % 4) : 1 };
}

/** Cumulative times at each checkpoint, rising strictly, the last exactly `total`. */
function checkpointTimes(map: Pick<DatasetMap, 'mapId'>, record: Pick<DatasetRecord, 'mapRecordId'>, layout: MapLayout, total: number): number[] {
  const count = layout.checkpointsPerLap * layout.laps;
  const weights: number[] = [];
  for (let i = 0; i < count; i++) {
    const sector = i % layout.checkpointsPerLap;
    // Every lap has the map's sector shape; the first lap starts standing; each run varies a few percent a sector.
    const shape = 0.6 + unitHash(`sector|${map.mapId}|${sector}`);
    const standingStart = i < layout.checkpointsPerLap ? 1.08 : 1;
    const variation = 0.97 + 0.06 * unitHash(`split|${record.mapRecordId}|${i}`);
    weights.push(shape * standingStart * variation);
  }
  const sum = weights.reduce((a, b) => a + b, 0);
  const times: number[] = [];
  let cumulative = 0;
  for (let i = 0; i < count; i++) {
    cumulative += weights[i]!;
    const floor = (times.at(-1) ?? 0) + 1;
    const ceiling = total - (count - 1 - i);
    times.push(i === count - 1 ? total : Math.min(ceiling, Math.max(floor, Math.round((total * cumulative) / sum))));
  }
  return times;
}

/** Dense bytes (xorshift32) that the runs' recorded samples are cut from: made once, never written to. */
const SAMPLE_POOL = (() => {
  const words = new Uint32Array(32 * 1024);
  let state = 0x9e3779b9;
  for (let i = 0; i < words.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[i] = state;
  }
  return new Uint8Array(words.buffer);
})();

/** A run's samples: `length` bytes of the pool from where `hash` says (they stand for the game's dense sample data). */
function sampleBytes(hash: number, length: number): Uint8Array {
  const start = hash % (SAMPLE_POOL.length - length);
  return SAMPLE_POOL.subarray(start, start + length);
}

/** A TM2020 login: the account ID's 16 bytes in base64url (the fixture's login decodes to a v4 account ID). */
export function loginOf(accountId: string): string {
  return Buffer.from(accountId.replace(/-/g, ''), 'hex').toString('base64url');
}

const ZONES = ['World|Europe|France', 'World|Europe|Germany', 'World|North America|United States', 'World|Europe|Czechia', 'World|Oceania|Australia', 'World|Asia|Japan'];

/** What a ghost of this record holds. `nickname` is the player's display name when the dataset has one. */
export function ghostOfRecord(record: DatasetRecord, map: Pick<DatasetMap, 'mapId' | 'mapUid' | 'mapType'>, nickname: string | undefined): GhostSpec {
  const kind = runKind(map.mapType);
  const layout = mapLayout(map);
  const { time, score, respawnCount } = record.recordScore;
  const times = checkpointTimes(map, record, layout, time);
  const points = kind === 'stunt' ? score : 0;
  const name = nickname ?? record.accountId.slice(0, 8);
  const hash = fnv1a(`ghost|${record.mapRecordId}|${time}|${score}|${respawnCount}`);
  // Files come out 10 to 40 KB as real ones do (docs/gbx.md), longer runs larger.
  const samples = Math.min(37_000, Math.max(9_500, 4_000 + Math.round(time * 0.2) + (hash % 1_500)));
  return {
    nickname: name,
    login: loginOf(record.accountId),
    mapUid: map.mapUid,
    raceTime: time,
    respawns: respawnCount,
    stuntScore: points,
    checkpoints: times.map((t, i) => ({ time: t, stuntScore: kind === 'stunt' ? Math.round(points * ((i + 1) / times.length) ** 1.3) : 0 })),
    samples: sampleBytes(fnv1a(`samples|${record.mapRecordId}|${time}|${score}`), samples),
    ghostUid: hash,
    zone: ZONES[hash % ZONES.length]!,
    trigram: name.replace(/\$([0-9a-fA-F]{1,3}|[a-zA-Z$<>])/g, '').replace(/[^A-Za-z]/g, '').slice(0, 3).toUpperCase().padEnd(3, 'X'),
  };
}

/** The map author's validation run, embedded with the map in a replay: the author time, or a slower run than the record. */
export function authorGhostOf(map: Pick<DatasetMap, 'mapId' | 'mapUid' | 'mapType' | 'author' | 'authorScore'>, record: DatasetRecord): GhostSpec {
  const kind = runKind(map.mapType);
  const time = kind === 'race' ? map.authorScore : Math.round(record.recordScore.time * 1.05);
  const authorRecord: DatasetRecord = { ...record, mapRecordId: `author|${map.mapId}`, recordScore: { time, score: kind === 'stunt' ? map.authorScore : 0, respawnCount: 0 } };
  return { ...ghostOfRecord(authorRecord, map, 'Author'), login: loginOf(map.author), samples: new Uint8Array(512) };
}

/** The map a replay of it embeds, as the dataset describes it (its laps from `mapLayout`). */
export function replayMapOf(map: Pick<DatasetMap, 'mapId' | 'mapUid' | 'name' | 'author' | 'mapType' | 'bronzeScore' | 'silverScore' | 'goldScore' | 'authorScore' | 'hasClones' | 'createdWithSimpleEditor' | 'createdWithGamepadEditor'>): ReplayMapSpec {
  const layout = mapLayout(map);
  return {
    uid: map.mapUid,
    name: map.name,
    author: map.author,
    mapType: map.mapType,
    medals: [map.bronzeScore, map.silverScore, map.goldScore, map.authorScore],
    hasClones: map.hasClones,
    editorMode: (map.createdWithSimpleEditor ? 1 : 0) | (map.createdWithGamepadEditor ? 4 : 0),
    laps: layout.laps,
    checkpointsPerLap: layout.checkpointsPerLap,
  };
}

// The world's leaderboard of a map, as the Live routes answer from it: the dataset's records plus, on a map that
// declares a `population`, that many players nobody here watches ("the crowd"). The crowd is made lazily and
// deterministically per map and kept as one sorted array of Live scores, so the positions route and the top route
// answer from the same board, positions are monotone in score, and they agree with Core's order of the records.
import type { Dataset, DatasetMap, DatasetRecord } from './dataset.ts';
import { fnv1a, mulberry32, uuidFromName } from './prng.ts';
import { KeyedCache } from './keyed-cache.ts';
import { isBetterLiveScore, kindOf, liveScoreOf, medalOf, personalBestGameMode, PERSONAL_BEST_GROUP, SENTINEL_U32, type MapKind } from './rules.ts';

/** The top route reads no further than a leaderboard's first 10,000 records (docs/live/leaderboards/top.md). */
export const TOP_READABLE = 10_000;

/** One entry of a world leaderboard: a dataset record, or the crowd's `crowdRank`-th best player. */
export type WorldEntry = { score: number; position: number } & ({ record: DatasetRecord } | { crowdRank: number });

// ---- the crowd ---------------------------------------------------------------------------------------------------

/** Each map's crowd: its Live scores, best first. */
const crowds = new KeyedCache<DatasetMap, Int32Array>();

/**
 * Where the crowd's results lie, best first, as fractions of the crowd: the world record a little beyond the author
 * medal, a few percent of the players at the author medal, most between gold and bronze, a tail beyond bronze.
 */
function anchors(map: DatasetMap, kind: MapKind): { at: number; value: number }[] {
  const h = (salt: string): number => fnv1a(`crowd-shape|${salt}|${map.mapId.toLowerCase()}`) / 4294967296;
  const stunt = kind === 'stunt';
  const record = stunt ? map.authorScore * (1.15 + h('wr') * 0.25) : map.authorScore * (0.93 + h('wr') * 0.025);
  const tail = stunt ? map.bronzeScore * 0.25 : map.bronzeScore * 1.8;
  return [
    { at: 0, value: record },
    { at: 0.03 + h('author') * 0.09, value: map.authorScore },
    { at: 0.25 + h('gold') * 0.2, value: map.goldScore },
    { at: 0.55 + h('silver') * 0.2, value: map.silverScore },
    { at: 0.8 + h('bronze') * 0.12, value: map.bronzeScore },
    { at: 1, value: tail },
  ];
}

/** The result at quantile `q` (0 best .. 1 worst): sparse near the world record, then piecewise linear. */
function quantile(points: readonly { at: number; value: number }[], q: number): number {
  const [first, second] = points as [{ at: number; value: number }, { at: number; value: number }];
  if (q <= second.at) return first.value + (second.value - first.value) * Math.pow(q / second.at, 0.6);
  for (let i = 2; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    if (q <= b.at) return a.value + ((b.value - a.value) * (q - a.at)) / (b.at - a.at);
  }
  return points.at(-1)!.value;
}

/**
 * The Live scores of the map's crowd, best first (empty without a population, and on Platform maps, whose medals
 * are respawn counts and give no time to shape a crowd around: the product asks no positions there).
 */
export function crowdOf(map: DatasetMap): Int32Array {
  const kind = kindOf(map);
  const size = map.population ?? 0;
  const key = `${size}|${kind}|${map.authorScore}|${map.goldScore}|${map.silverScore}|${map.bronzeScore}`;
  return crowds.get(map, key, () => {
    const scores = new Int32Array(kind === 'platform' ? 0 : size);
    const points = anchors(map, kind);
    const rng = mulberry32(fnv1a(`crowd|${map.mapId.toLowerCase()}|${key}`));
    for (let i = 0; i < scores.length; i++) scores[i] = Math.max(1, Math.round(quantile(points, rng())));
    // Best first: fastest on time kinds, most points on Stunt.
    scores.sort();
    if (kind === 'stunt') scores.reverse();
    return scores;
  });
}

/** How many of `scores` (best first) rank strictly ahead of `score`. */
function countBetter(kind: MapKind, scores: Int32Array, score: number): number {
  let low = 0;
  let high = scores.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (isBetterLiveScore(kind, scores[mid]!, score)) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The crowd player behind a crowd rank: a stable account ID, and a result set during the map's life. */
export function crowdPlayer(map: DatasetMap, crowdRank: number, nowMs: number): { accountId: string; timestampSec: number } {
  const from = Date.parse(map.timestamp);
  const share = fnv1a(`crowd-time|${map.mapId.toLowerCase()}|${crowdRank}`) / 4294967296;
  // Within the map's first month, the same at every call (a record's date does not move); on a map younger than that,
  // within its life so far.
  const settled = from + share * CROWD_MONTH_MS;
  const at = settled <= nowMs ? settled : from + share * Math.max(0, nowMs - from);
  return { accountId: uuidFromName(`crowd|${map.mapId.toLowerCase()}|${crowdRank}`), timestampSec: Math.floor(at / 1000) };
}

const CROWD_MONTH_MS = 30 * 86_400_000;

/** A crowd player's own time on a Stunt map (the Live score there is points; the secret threshold is a time). */
export function crowdStuntTime(map: DatasetMap, crowdRank: number): number {
  return 40_000 + (fnv1a(`crowd-run|${map.mapId.toLowerCase()}|${crowdRank}`) % 110_001);
}

// ---- the crowd's records on Core ----------------------------------------------------------------------------------

/**
 * How many of a crowd's best players Core's records route knows a personal best of: the top route names them (the
 * world record's holder first), and a client asks Core for their records to get the replays (docs/nadeo-api.md: a
 * record's `url` is its replay). The rest of the crowd is only scores.
 */
export const CROWD_RECORDS = 100;

/** The crowd players Core knows records of, by account (lower case) and by record ID: their crowd ranks. */
interface CrowdIndex {
  byAccount: Map<string, number>;
  byRecordId: Map<string, number>;
}

const crowdIndexes = new KeyedCache<DatasetMap, CrowdIndex>();

function crowdIndexOf(map: DatasetMap, nowMs: number): CrowdIndex {
  const scores = crowdOf(map);
  return crowdIndexes.get(map, `${scores.length}|${map.mapId.toLowerCase()}`, () => {
    const index: CrowdIndex = { byAccount: new Map(), byRecordId: new Map() };
    for (let rank = 0; rank < Math.min(CROWD_RECORDS, scores.length); rank++) {
      index.byAccount.set(crowdPlayer(map, rank, nowMs).accountId.toLowerCase(), rank);
      index.byRecordId.set(crowdRecordId(map, rank), rank);
    }
    return index;
  });
}

function crowdRecordId(map: DatasetMap, crowdRank: number): string {
  return uuidFromName(`crowd-record|${map.mapId.toLowerCase()}|${crowdRank}`);
}

/** The personal best of the crowd's `crowdRank`-th player, as Core's records route gives a dataset record. */
export function crowdRecord(map: DatasetMap, crowdRank: number, nowMs: number): DatasetRecord {
  const kind = kindOf(map);
  const score = crowdOf(map)[crowdRank]!;
  const player = crowdPlayer(map, crowdRank, nowMs);
  const stunt = kind === 'stunt';
  const result = { time: stunt ? crowdStuntTime(map, crowdRank) : score, score: stunt ? score : 0, respawnCount: stunt ? SENTINEL_U32 : 0 };
  const mapRecordId = crowdRecordId(map, crowdRank);
  return {
    accountId: player.accountId, mapId: map.mapId, mapRecordId, filename: `Replays\\Downloaded\\${map.mapId}_${player.accountId}.replay.gbx`,
    gameMode: personalBestGameMode(map), gameModeCustomData: '', medal: medalOf(map, result), recordScore: result, removed: false,
    scopeId: null, scopeType: 'PersonalBest', timestamp: new Date(player.timestampSec * 1000).toISOString(), url: `/mapRecords/${mapRecordId}/replay`,
  };
}

/** The personal best of a crowd player among the map's first CROWD_RECORDS, by account; undefined for anyone else. */
export function crowdRecordOf(map: DatasetMap, accountId: string, nowMs: number): DatasetRecord | undefined {
  const rank = crowdIndexOf(map, nowMs).byAccount.get(accountId.toLowerCase());
  return rank === undefined ? undefined : crowdRecord(map, rank, nowMs);
}

/** A crowd record by its ID, on the maps that have a crowd; undefined when it is none of theirs. */
export function crowdRecordById(maps: readonly DatasetMap[], mapRecordId: string, nowMs: number): DatasetRecord | undefined {
  const id = mapRecordId.toLowerCase();
  for (const map of maps) {
    if (!map.population) continue;
    const rank = crowdIndexOf(map, nowMs).byRecordId.get(id);
    if (rank !== undefined) return crowdRecord(map, rank, nowMs);
  }
  return undefined;
}

// ---- the board ---------------------------------------------------------------------------------------------------

/**
 * A map's world leaderboard for one Live group: the dataset's records of that leaderboard (personal bests for
 * Personal_Best, else the season's; removed ones and results without a value left out) and, for personal bests, the
 * crowd. Undefined for a season group the map has no records in (a closed or unknown leaderboard).
 */
export class WorldBoard {
  readonly map: DatasetMap;
  readonly kind: MapKind;
  /** The dataset's records with their Live scores, best first (earlier first among equals). */
  readonly records: { record: DatasetRecord; score: number }[];
  readonly crowd: Int32Array;

  private constructor(map: DatasetMap, records: { record: DatasetRecord; score: number }[], crowd: Int32Array) {
    this.map = map;
    this.kind = kindOf(map);
    this.records = records;
    this.crowd = crowd;
  }

  static of(dataset: Pick<Dataset, 'records'>, map: DatasetMap, groupUid: string): WorldBoard | undefined {
    const kind = kindOf(map);
    const id = map.mapId.toLowerCase();
    const scope = groupUid === PERSONAL_BEST_GROUP ? null : groupUid;
    const records = dataset.records
      .filter((r) => r.mapId.toLowerCase() === id && r.scopeId === scope && !r.removed)
      .map((record) => ({ record, score: liveScoreOf(kind, record.recordScore) }))
      .filter((e) => e.score !== SENTINEL_U32)
      .sort((a, b) => (isBetterLiveScore(kind, a.score, b.score) ? -1 : isBetterLiveScore(kind, b.score, a.score) ? 1 : a.record.timestamp.localeCompare(b.record.timestamp)));
    if (scope !== null && records.length === 0) return undefined;
    return new WorldBoard(map, records, scope === null ? crowdOf(map) : new Int32Array(0));
  }

  /** Players on the board. */
  get size(): number {
    return this.records.length + this.crowd.length;
  }

  /** The position a record of `score` has, or a new one would have: one more than the results strictly better. */
  position(score: number): number {
    let better = countBetter(this.kind, this.crowd, score);
    for (const { score: other } of this.records) {
      if (!isBetterLiveScore(this.kind, other, score)) break;
      better++;
    }
    return better + 1;
  }

  /** Entries `offset` .. `offset + length - 1` in board order (a record before a crowd player of the same score). */
  slice(offset: number, length: number): WorldEntry[] {
    const end = Math.min(offset + length, this.size);
    const out: WorldEntry[] = [];
    let r = 0;
    let c = 0;
    for (let at = 0; at < end; at++) {
      const record = this.records[r];
      const crowdScore = this.crowd[c];
      const takeRecord = record !== undefined && (crowdScore === undefined || !isBetterLiveScore(this.kind, crowdScore, record.score));
      if (at < offset) {
        if (takeRecord) r++;
        else c++;
        continue;
      }
      if (takeRecord) {
        out.push({ record: record.record, score: record.score, position: this.position(record.score) });
        r++;
      } else {
        out.push({ crowdRank: c, score: crowdScore!, position: this.position(crowdScore!) });
        c++;
      }
    }
    return out;
  }
}

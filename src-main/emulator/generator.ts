// Deterministic test data: every kind of map and record the seed describes, plus the hostile text real data holds.
import { SENTINEL_U32, isStuntMapType } from '../core/model.ts';
import type { Dataset, DatasetMap, DatasetRecord } from './dataset.ts';
import { fillLiveFields } from './live-dataset.ts';
import { intBetween, mulberry32, pick, uuidFrom, type Rng } from './prng.ts';

export interface GenerateOptions {
  seed: number;
  maps: number;
  players: number;
}

export const MAP_TYPE = {
  race: 'TrackMania\\TM_Race',
  stunt: 'TrackMania\\TM_Stunt',
  platform: 'TrackMania\\TM_Platform',
} as const;

/** 2^32 - 1 in respawnCount: not tracked. */
const NOT_TRACKED = SENTINEL_U32;
/** Nadeo's own account, author of official campaigns. */
const NADEO_ACCOUNT = 'd2372a08-a8a1-46cb-97fb-23a161d85ad0';
const RECORDS_END_MS = Date.parse('2026-05-01T12:00:00+00:00');
const MAPS_START_MS = Date.parse('2024-01-01T00:00:00+00:00');

type MapKind = 'race' | 'clones' | 'stunt' | 'platform';
/** The first six maps cover every kind, so any dataset of six maps or more has them all; the fifth has a secret. */
const FIRST_KINDS: readonly MapKind[] = ['race', 'clones', 'stunt', 'platform', 'race', 'race'];
const SECRET_MAP_INDEX = 4;

/** Formatting codes, malformed codes and hostile text, spread over the first maps. */
const SPECIAL_MAP_NAMES: readonly string[] = [
  '$i$a1bLaser $fff- Race',
  '<img src=x onerror=alert(1)>',
  '=HYPERLINK("http://x","y")',
  '$o$wBold',
  'Say "hi", then go\nnow 🏁',
  '$f0Malformed $ colour$',
  '+1',
  '-2',
  '@SUM(1)',
  '🏁 Emoji Cup 🚗💨',
  '$$Cash $z$s$t Reset',
  '<script>alert("x")</script> Tech',
  'Line one\r\nLine two',
  '$l[https://example.com]Linked$l map',
  `O'Brien's, "quoted"; ramp`,
];
const SPECIAL_PLAYER_NAMES: readonly string[] = [
  'Speedy',
  '$f00Red$z Baron',
  '<script>alert(1)</script>',
  '=cmd|"/C calc"!A0',
  'Comma, "Quote"',
  '🚗 Emoji Driver',
  'New\nLine',
  '@SUM(1)',
  '$o$i$w$$$ lone dollar $',
];
/** Replay file names a client must never use as paths. */
const HOSTILE_REPLAY_FILENAMES: readonly string[] = [
  '..\\..\\evil.replay.gbx',
  '../../etc/passwd',
  'C:\\Windows\\System32\\evil.replay.gbx',
  'Replays\\Downloaded\\CON.replay.gbx',
  'Replays\\Downloaded\\<img src=x onerror=alert(1)>.replay.gbx',
];
const COLOURS = ['$s$0f0', '$i$f80', '$o', '$w$09f', '$n$fff', '', '$t$ff0', '$0f'];
const WORDS = ['Green', 'Valley', 'Spiral', 'Canyon', 'Ice', 'Boost', 'Loop', 'Drift', 'Summer', 'Winter', 'Tech', 'Wall', 'Neon', 'Dirt'];
const UID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** Game mode of a map's personal-best leaderboard (seed 4.2 rules 3-5). */
export function personalBestGameMode(map: Pick<DatasetMap, 'mapType' | 'hasClones'>): string {
  if (map.mapType.endsWith('TM_Stunt')) return 'Stunt';
  if (map.mapType.endsWith('TM_Platform')) return 'Platform';
  return map.hasClones ? 'TimeAttackClone' : 'TimeAttack';
}

/** Game mode of a map's season leaderboards (clones matter only to personal bests). */
function seasonGameMode(map: DatasetMap): string {
  return map.hasClones ? 'TimeAttack' : personalBestGameMode(map);
}

/** 4 author, 3 gold, 2 silver, 1 bronze, 0 none. */
export function medalFor(map: DatasetMap, time: number, score: number): number {
  if (isStuntMapType(map.mapType)) {
    if (score >= map.authorScore) return 4;
    if (score >= map.goldScore) return 3;
    if (score >= map.silverScore) return 2;
    return score >= map.bronzeScore ? 1 : 0;
  }
  if (time <= map.authorScore) return 4;
  if (time <= map.goldScore) return 3;
  if (time <= map.silverScore) return 2;
  return time <= map.bronzeScore ? 1 : 0;
}

/** The replay name the service builds from map, account and result: `(0'22''34)` for 22.34 s. */
function replayFilename(mapId: string, accountId: string, time: number, score: number, stunt: boolean): string {
  const result = stunt
    ? `${score}pts`
    : `${Math.floor(time / 60000)}'${String(Math.floor(time / 1000) % 60).padStart(2, '0')}''${String(Math.floor(time / 10) % 100).padStart(2, '0')}`;
  return `Replays\\Downloaded\\${mapId}_${accountId}_(${result}).replay.gbx`;
}

function stripFormatting(name: string): string {
  return name.replace(/\$([0-9a-f]{1,3}|[lhp]\[[^\]]*\]|.)?/gi, '').trim() || 'Unnamed';
}

function makeMap(rng: Rng, index: number, kind: MapKind, authors: readonly string[], usedUids: Set<string>): DatasetMap {
  let mapUid: string;
  do {
    mapUid = '';
    const length = intBetween(rng, 24, 27);
    for (let i = 0; i < length; i++) mapUid += pick(rng, UID_ALPHABET.split(''));
  } while (usedUids.has(mapUid));
  usedUids.add(mapUid);
  const name =
    SPECIAL_MAP_NAMES[index] ?? `${pick(rng, COLOURS)}${pick(rng, WORDS)} ${pick(rng, WORDS)} #${String(index + 1).padStart(2, '0')}`;
  const author = pick(rng, authors);
  const submitter = rng() < 0.8 ? author : pick(rng, authors);
  let scores: { authorScore: number; goldScore: number; silverScore: number; bronzeScore: number };
  if (kind === 'stunt') {
    const a = intBetween(rng, 1500, 9000);
    scores = { authorScore: a, goldScore: Math.floor(a * 0.85), silverScore: Math.floor(a * 0.6), bronzeScore: Math.floor(a * 0.35) };
  } else {
    const a = intBetween(rng, 18000, 95000);
    const above = (factor: number): number => (Math.floor((a * factor) / 1000) + 1) * 1000;
    scores = { authorScore: a, goldScore: above(1.06), silverScore: above(1.2), bronzeScore: above(1.5) };
  }
  return {
    author,
    ...scores,
    collectionName: 'Stadium',
    createdWithGamepadEditor: rng() < 0.1,
    createdWithSimpleEditor: rng() < 0.15,
    filename: index === 1 ? '..\\..\\evil.Map.Gbx' : `${stripFormatting(name)}.Map.Gbx`,
    hasClones: kind === 'clones',
    isPlayable: true,
    mapId: uuidFrom(rng),
    mapUid,
    mapStyle: pick(rng, ['', '', 'Tech', 'FullSpeed', 'Dirt', 'Mixed']),
    mapType: kind === 'stunt' ? MAP_TYPE.stunt : kind === 'platform' ? MAP_TYPE.platform : MAP_TYPE.race,
    name,
    submitter,
    timestamp: isoSeconds(MAPS_START_MS + rng() * (RECORDS_END_MS - MAPS_START_MS) * 0.8),
  };
}

/** A result around the medals: some beat the author medal, most sit between gold and bronze, a few beyond. */
function drawResult(rng: Rng, map: DatasetMap): { time: number; score: number; respawnCount: number } {
  if (isStuntMapType(map.mapType)) {
    return {
      score: Math.max(1, Math.round(map.authorScore * (0.25 + rng() * 0.9))),
      time: intBetween(rng, 40000, 150000),
      respawnCount: rng() < 0.4 ? NOT_TRACKED : intBetween(rng, 0, 4),
    };
  }
  const platform = map.mapType.endsWith('TM_Platform');
  return {
    time: Math.round(map.authorScore * (0.97 + rng() * rng() * 0.8)),
    score: 0,
    respawnCount: platform ? intBetween(rng, 0, 12) : rng() < 0.35 ? NOT_TRACKED : intBetween(rng, 0, 3),
  };
}

function makeRecord(
  rng: Rng,
  map: DatasetMap,
  accountId: string,
  result: { time: number; score: number; respawnCount: number },
  scope: { gameMode: string; seasonId: string | null },
  timestampMs: number,
): DatasetRecord {
  return {
    accountId,
    filename: replayFilename(map.mapId, accountId, result.time, result.score, isStuntMapType(map.mapType)),
    gameMode: scope.gameMode,
    gameModeCustomData: '',
    mapId: map.mapId,
    mapRecordId: uuidFrom(rng),
    medal: medalFor(map, result.time, result.score),
    recordScore: { respawnCount: result.respawnCount, score: result.score, time: result.time },
    removed: false,
    scopeId: scope.seasonId,
    scopeType: scope.seasonId === null ? 'PersonalBest' : 'Season',
    timestamp: isoSeconds(timestampMs),
  };
}

/** A threshold that hides about a third of the map's personal bests, and at least one. */
function secretThresholdFor(map: DatasetMap, personalBests: readonly DatasetRecord[]): number | undefined {
  if (personalBests.length === 0) return undefined;
  const stunt = isStuntMapType(map.mapType);
  // Ordered best first: hidden are those strictly better than the threshold.
  const values = personalBests.map((r) => (stunt ? r.recordScore.score : r.recordScore.time)).sort((a, b) => (stunt ? b - a : a - b));
  const best = values[0] ?? 0;
  const cut = values[Math.max(1, Math.floor(values.length * 0.35))];
  if (cut === undefined || cut === best) return stunt ? best - 1 : best + 1;
  return cut;
}

/** A deterministic dataset: the same options give the same JSON, byte for byte. */
export function generateDataset(opts: GenerateOptions): Dataset {
  for (const [name, value] of Object.entries(opts))
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`generateDataset: ${name} must be a whole number >= 0, got ${value}`);
  const rng = mulberry32(opts.seed);
  const players = Array.from({ length: opts.players }, () => uuidFrom(rng));
  const authors = players.length > 0 ? [...players.slice(0, 6), NADEO_ACCOUNT] : [NADEO_ACCOUNT];
  const seasons = Array.from({ length: 3 }, () => uuidFrom(rng));
  const skill = players.map(() => rng());

  const displayNames: Record<string, string> = { [NADEO_ACCOUNT]: 'Nadeo' };
  players.forEach((accountId, i) => {
    // About one player in ten has no display name.
    if (i % 10 === 9) return;
    displayNames[accountId] = SPECIAL_PLAYER_NAMES[i] ?? `${pick(rng, ['', '', '$f80', '$o', '$i$0cf'])}${pick(rng, WORDS)}${pick(rng, WORDS)}${intBetween(rng, 1, 999)}`;
  });

  const usedUids = new Set<string>();
  const maps: DatasetMap[] = [];
  const records: DatasetRecord[] = [];
  for (let index = 0; index < opts.maps; index++) {
    const kind: MapKind =
      FIRST_KINDS[index] ?? (pick(rng, ['race', 'race', 'race', 'race', 'race', 'race', 'clones', 'clones', 'stunt', 'platform'] as const) satisfies MapKind);
    const map = makeMap(rng, index, kind, authors, usedUids);
    maps.push(map);
    const mapStartMs = Date.parse(map.timestamp);
    const coverage = 0.7 + rng() * 0.15;
    const personalBests: DatasetRecord[] = [];
    players.forEach((accountId, p) => {
      if (rng() >= coverage) return;
      const result = drawResult(rng, map);
      // Better players set better results, so leaderboards look plausible.
      if (!isStuntMapType(map.mapType)) result.time = Math.max(1, Math.round(result.time * (0.98 + (skill[p] ?? 0.5) * 0.08)));
      const record = makeRecord(rng, map, accountId, result, { gameMode: personalBestGameMode(map), seasonId: null }, mapStartMs + rng() * (RECORDS_END_MS - mapStartMs));
      const hostile = HOSTILE_REPLAY_FILENAMES[index];
      if (personalBests.length === 0 && hostile !== undefined) record.filename = hostile;
      personalBests.push(record);
    });
    if (personalBests.length === 0 && players[0] !== undefined) {
      personalBests.push(makeRecord(rng, map, players[0], drawResult(rng, map), { gameMode: personalBestGameMode(map), seasonId: null }, mapStartMs + 86400000));
    }
    if (index === SECRET_MAP_INDEX || (index > 5 && kind !== 'platform' && rng() < 0.1)) {
      const threshold = secretThresholdFor(map, personalBests);
      if (threshold !== undefined) map.secretThreshold = threshold;
    }
    records.push(...personalBests);

    // Season leaderboards on about a third of the maps (always on the first): results no better than the PB.
    if (index === 0 || index === 2 || rng() < 0.35) {
      const mapSeasons = seasons.slice(0, intBetween(rng, 1, 2));
      for (const seasonId of mapSeasons) {
        for (const pb of personalBests) {
          if (rng() >= 0.6) continue;
          const { time, score, respawnCount } = pb.recordScore;
          const result = isStuntMapType(map.mapType)
            ? { time: intBetween(rng, 40000, 150000), score: Math.max(0, score - intBetween(rng, 0, Math.ceil(score * 0.1))), respawnCount }
            : { time: time + intBetween(rng, 0, Math.ceil(time * 0.08)), score, respawnCount };
          const seasonMs = Math.min(Date.parse(pb.timestamp), RECORDS_END_MS - 1000) - rng() * 86400000 * 30;
          records.push(makeRecord(rng, map, pb.accountId, result, { gameMode: seasonGameMode(map), seasonId }, Math.max(seasonMs, mapStartMs)));
        }
      }
    }
  }
  // Live and Exchange fields come from their own random sequence: the maps and records above stay as they were.
  return { maps, records, displayNames, ...fillLiveFields(maps, opts.seed) };
}

/**
 * Improves about `fraction` of the personal bests (new mapRecordId, later timestamp, better time or Stunt score,
 * so new replay bytes) and adds first personal bests for some account/map pairs without one. Mutates the dataset.
 */
export function evolveDataset(dataset: Dataset, opts: { seed: number; fraction: number }): { improved: number; added: number } {
  const rng = mulberry32((opts.seed ^ 0x5bd1e995) >>> 0);
  const fraction = Math.min(1, Math.max(0, opts.fraction));
  const mapsById = new Map(dataset.maps.map((m) => [m.mapId.toLowerCase(), m]));
  let latestMs = RECORDS_END_MS;
  for (const r of dataset.records) latestMs = Math.max(latestMs, Date.parse(r.timestamp));
  const later = (): number => latestMs + intBetween(rng, 3600, 7 * 86400) * 1000;

  let improved = 0;
  const withPersonalBest = new Set<string>();
  const accounts = new Set<string>(Object.keys(dataset.displayNames ?? {}));
  accounts.delete(NADEO_ACCOUNT);
  for (const record of dataset.records) {
    accounts.add(record.accountId);
    if (record.scopeType !== 'PersonalBest') continue;
    withPersonalBest.add(`${record.mapId.toLowerCase()}|${record.accountId.toLowerCase()}`);
    const map = mapsById.get(record.mapId.toLowerCase());
    if (!map || rng() >= fraction) continue;
    const score = record.recordScore;
    if (isStuntMapType(map.mapType)) score.score += Math.max(1, Math.round(score.score * (0.01 + rng() * 0.1)));
    else score.time = Math.max(1, score.time - Math.max(1, Math.round(score.time * (0.002 + rng() * 0.03))));
    record.mapRecordId = uuidFrom(rng);
    record.timestamp = isoSeconds(Math.max(later(), Date.parse(record.timestamp) + 1000));
    record.medal = medalFor(map, score.time, score.score);
    record.filename = replayFilename(map.mapId, record.accountId, score.time, score.score, isStuntMapType(map.mapType));
    delete record.url;
    delete record.replayBase64;
    improved++;
  }

  let added = 0;
  const sortedAccounts = [...accounts].sort();
  for (const map of dataset.maps) {
    for (const accountId of sortedAccounts) {
      if (withPersonalBest.has(`${map.mapId.toLowerCase()}|${accountId.toLowerCase()}`) || rng() >= fraction * 0.5) continue;
      const result = drawResult(rng, map);
      dataset.records.push(makeRecord(rng, map, accountId, result, { gameMode: personalBestGameMode(map), seasonId: null }, later()));
      added++;
    }
  }
  return { improved, added };
}

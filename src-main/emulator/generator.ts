// Deterministic data: every kind of map and record the seed describes, named as a season of the game looks or with
// the hostile text real data holds.
import { DAY_MS } from './calendar.ts';
import type { Dataset, DatasetMap, DatasetRecord, DatasetRecordScore } from './dataset.ts';
import { calendarAt, fillLiveFields } from './live-generator.ts';
import { fnv1a, intBetween, mulberry32, pick, uuidFrom, type Rng } from './prng.ts';
import { kindOf, medalOf, personalBestGameMode, plainText, seasonGameMode, SENTINEL_U32 } from './rules.ts';
import {
  campaignAuthorTime,
  campaignMapName,
  campaignOf,
  communityMapName,
  communityMapsFrom,
  seasonCalendar,
  seasonPlayer,
  seasonLayout,
  type MapKind,
  type SeasonMapPlan,
} from './season.ts';

/**
 * 'season': what a player meets in the game (an official campaign "Fall 2026 - 01"..., community maps with formatting
 * codes, players with nicknames and club tags), for the demo. 'hostile': formula injection, markup, commas, quotes,
 * control characters, malformed codes and '..' file names in names and replay file names, for tests.
 */
export type DatasetStyle = 'season' | 'hostile';

export interface GenerateOptions {
  seed: number;
  maps: number;
  players: number;
  /** Default 'hostile'. */
  style?: DatasetStyle;
  /**
   * How many maps get a secret threshold that hides most of their personal bests (about 70%, at least two): Race or
   * Stunt maps with three personal bests or more, chosen by the seed. Default 0.
   */
  secretHeavyMaps?: number;
  /**
   * The moment the data is as of (ms): its records are set before it, its current campaign and Track of the Day month
   * are the ones running then (calendar.ts). Required, never a hidden real clock: the app's callers (the demo, the
   * `emulator` command) give Date.now(), tests a fixed moment, so the same options always give the same bytes.
   */
  now: number;
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
/** Hostile-style maps are made over the 851 days before the records end (about two years and four months). */
const HOSTILE_MAPS_SPAN_MS = 851 * DAY_MS;

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
/** Display names are plain (the OAuth API's); the formatting codes, malformed ones too, are in club tags. */
const SPECIAL_PLAYERS: ReadonlyArray<{ displayName: string; clubTag?: string }> = [
  { displayName: 'Speedy' },
  { displayName: 'Red Baron', clubTag: '$f00Red$z' },
  { displayName: '<script>alert(1)</script>', clubTag: '$f00<img src=x onerror=alert(1)>' },
  { displayName: '=cmd|"/C calc"!A0', clubTag: '=1+1' },
  { displayName: 'Comma, "Quote"', clubTag: 'a,"b"' },
  { displayName: '🚗 Emoji Driver', clubTag: '🏁' },
  { displayName: 'New\nLine' },
  { displayName: '@SUM(1)' },
  { displayName: 'Lone Dollar', clubTag: '$o$i$w$$$ lone $' },
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

/** A player of the hostile style: the special names first; about one player in ten has no display name. */
function hostilePlayer(rng: Rng, index: number): { displayName: string; clubTag?: string } | undefined {
  if (index % 10 === 9) return undefined;
  const special = SPECIAL_PLAYERS[index];
  if (special) return special;
  const colour = pick(rng, ['', '', '$f80', '$o', '$i$0cf']);
  const word = pick(rng, WORDS);
  const displayName = `${word}${pick(rng, WORDS)}${intBetween(rng, 1, 999)}`;
  return colour === '' ? { displayName } : { displayName, clubTag: `${colour}${word.slice(0, 3).toUpperCase()}` };
}

function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}


/** The time a Platform map's runs are built around: its medals are respawn counts, so no medal gives one. */
function platformParTime(map: Pick<DatasetMap, 'mapId'>): number {
  return 18000 + (fnv1a(`platform-par|${map.mapId.toLowerCase()}`) % 60001);
}

/** A respawn costs the run this long, roughly: the car goes back to the last checkpoint. */
function respawnCostMs(rng: Rng): number {
  return intBetween(rng, 900, 2500);
}

/** The replay name the service builds from map, account and result: `(0'22''34)` for 22.34 s. */
function replayFilename(mapId: string, accountId: string, time: number, score: number, stunt: boolean): string {
  const result = stunt
    ? `${score}pts`
    : `${Math.floor(time / 60000)}'${String(Math.floor(time / 1000) % 60).padStart(2, '0')}''${String(Math.floor(time / 10) % 100).padStart(2, '0')}`;
  return `Replays\\Downloaded\\${mapId}_${accountId}_(${result}).replay.gbx`;
}

/** A map file's name: the map's name without its formatting codes. */
function mapFilename(name: string): string {
  return `${plainText(name).trim() || 'Unnamed'}.Map.Gbx`;
}

function drawMapUid(rng: Rng, usedUids: Set<string>): string {
  let mapUid: string;
  do {
    mapUid = '';
    const length = intBetween(rng, 24, 27);
    for (let i = 0; i < length; i++) mapUid += pick(rng, UID_ALPHABET.split(''));
  } while (usedUids.has(mapUid));
  usedUids.add(mapUid);
  return mapUid;
}

type MedalScores = Pick<DatasetMap, 'authorScore' | 'goldScore' | 'silverScore' | 'bronzeScore'>;

/** Medal scores per kind: points on Stunt maps, respawn counts on Platform maps, times (ms) otherwise. */
function drawMedalScores(rng: Rng, kind: MapKind, authorTime?: number): MedalScores {
  if (kind === 'stunt') {
    const a = intBetween(rng, 1500, 9000);
    return { authorScore: a, goldScore: Math.floor(a * 0.85), silverScore: Math.floor(a * 0.6), bronzeScore: Math.floor(a * 0.35) };
  }
  if (kind === 'platform') {
    // Maximum respawn counts (map-page.md), like 0/1/3/5: author <= gold <= silver <= bronze.
    const a = rng() < 0.7 ? 0 : 1;
    const gold = a + intBetween(rng, 1, 2);
    const silver = gold + intBetween(rng, 1, 3);
    return { authorScore: a, goldScore: gold, silverScore: silver, bronzeScore: silver + intBetween(rng, 1, 4) };
  }
  const a = authorTime ?? intBetween(rng, 18000, 95000);
  // Gold, silver and bronze are the author time plus 6%, 20% and 50%, rounded up to the next full second.
  const above = (factor: number): number => (Math.floor((a * factor) / 1000) + 1) * 1000;
  return { authorScore: a, goldScore: above(1.06), silverScore: above(1.2), bronzeScore: above(1.5) };
}

function mapTypeOf(kind: MapKind): string {
  return kind === 'stunt' ? MAP_TYPE.stunt : kind === 'platform' ? MAP_TYPE.platform : MAP_TYPE.race;
}

/** A map of the hostile style: the special names first, a '..' file name on the second. */
function makeHostileMap(rng: Rng, index: number, kind: MapKind, authors: readonly string[], usedUids: Set<string>, nowMs: number): DatasetMap {
  const mapUid = drawMapUid(rng, usedUids);
  const name =
    SPECIAL_MAP_NAMES[index] ?? `${pick(rng, COLOURS)}${pick(rng, WORDS)} ${pick(rng, WORDS)} #${String(index + 1).padStart(2, '0')}`;
  const author = pick(rng, authors);
  const submitter = rng() < 0.8 ? author : pick(rng, authors);
  const scores = drawMedalScores(rng, kind);
  return {
    author,
    ...scores,
    collectionName: 'Stadium',
    createdWithGamepadEditor: rng() < 0.1,
    createdWithSimpleEditor: rng() < 0.15,
    filename: index === 1 ? '..\\..\\evil.Map.Gbx' : mapFilename(name),
    hasClones: kind === 'clones',
    isPlayable: true,
    mapId: uuidFrom(rng),
    mapUid,
    mapStyle: pick(rng, ['', '', 'Tech', 'FullSpeed', 'Dirt', 'Mixed']),
    mapType: mapTypeOf(kind),
    name,
    submitter,
    timestamp: isoSeconds(nowMs - HOSTILE_MAPS_SPAN_MS + rng() * HOSTILE_MAPS_SPAN_MS * 0.8),
  };
}

/** A map of the season style: an official map by Nadeo, uploaded before its campaign opens, or a player's map. */
function makeSeasonMap(rng: Rng, plan: SeasonMapPlan, mappers: readonly string[], usedUids: Set<string>, nowMs: number): DatasetMap {
  const mapUid = drawMapUid(rng, usedUids);
  const official = plan.source === 'campaign';
  const name = official ? campaignMapName(plan.campaign ?? 0, plan.number ?? 1, nowMs) : communityMapName(rng, plan.kind);
  const author = official || mappers.length === 0 ? NADEO_ACCOUNT : pick(rng, mappers);
  const scores = drawMedalScores(rng, plan.kind, official ? campaignAuthorTime(rng, plan.number ?? 1) : undefined);
  const madeMs = official
    ? campaignOf(plan.campaign ?? 0, nowMs).releaseMs - intBetween(rng, 5, 40) * DAY_MS
    : communityMapsFrom(nowMs) + rng() * (nowMs - communityMapsFrom(nowMs)) * 0.9;
  return {
    author,
    ...scores,
    collectionName: 'Stadium',
    createdWithGamepadEditor: false,
    createdWithSimpleEditor: !official && rng() < 0.1,
    filename: mapFilename(name),
    hasClones: plan.kind === 'clones',
    isPlayable: true,
    mapId: uuidFrom(rng),
    mapUid,
    mapStyle: official ? '' : pick(rng, ['', '', 'Tech', 'FullSpeed', 'Dirt', 'Mixed', 'Ice', 'LOL']),
    mapType: mapTypeOf(plan.kind),
    name,
    submitter: author,
    timestamp: isoSeconds(madeMs),
  };
}

/**
 * A result around the medals: some beat the author medal, most sit between gold and bronze, a few beyond.
 * `handicap` (0 best .. 1 worst) makes better players set better results, so leaderboards look plausible.
 */
function drawResult(rng: Rng, map: DatasetMap, handicap?: number): DatasetRecordScore {
  const kind = kindOf(map);
  if (kind === 'stunt') {
    return {
      score: Math.max(1, Math.round(map.authorScore * (0.25 + rng() * 0.9))),
      time: intBetween(rng, 40000, 150000),
      respawnCount: rng() < 0.4 ? NOT_TRACKED : intBetween(rng, 0, 4),
    };
  }
  const factor = handicap === undefined ? 1 : 0.98 + handicap * 0.08;
  if (kind === 'platform') {
    // A Platform run is judged by its respawns: most runs need a few, the best none; each one costs time.
    const drawn = Math.floor(rng() * (0.35 + rng() * 0.9) * (map.bronzeScore + 4));
    const respawnCount = handicap === undefined ? drawn : Math.round(drawn * (0.5 + handicap));
    let time = platformParTime(map) * (0.97 + rng() * rng() * 0.5);
    for (let i = 0; i < respawnCount; i++) time += respawnCostMs(rng);
    return { time: Math.max(1, Math.round(time * factor)), score: 0, respawnCount };
  }
  return {
    time: Math.max(1, Math.round(map.authorScore * (0.97 + rng() * rng() * 0.8) * factor)),
    score: 0,
    respawnCount: rng() < 0.35 ? NOT_TRACKED : intBetween(rng, 0, 3),
  };
}

function makeRecord(
  rng: Rng,
  map: DatasetMap,
  accountId: string,
  result: DatasetRecordScore,
  scope: { gameMode: string; seasonId: string | null },
  timestampMs: number,
): DatasetRecord {
  return {
    accountId,
    filename: replayFilename(map.mapId, accountId, result.time, result.score, kindOf(map) === 'stunt'),
    gameMode: scope.gameMode,
    gameModeCustomData: '',
    mapId: map.mapId,
    mapRecordId: uuidFrom(rng),
    medal: medalOf(map, result),
    recordScore: { respawnCount: result.respawnCount, score: result.score, time: result.time },
    removed: false,
    scopeId: scope.seasonId,
    scopeType: scope.seasonId === null ? 'PersonalBest' : 'Season',
    timestamp: isoSeconds(timestampMs),
  };
}

/** The personal bests' times, fastest first: the threshold is a time on every kind of map (map-page.md). */
function timesFastestFirst(personalBests: readonly DatasetRecord[]): number[] {
  return personalBests.map((r) => r.recordScore.time).sort((a, b) => a - b);
}

/** A threshold that hides about a third of the map's personal bests, and at least one. */
function secretThresholdFor(personalBests: readonly DatasetRecord[]): number | undefined {
  if (personalBests.length === 0) return undefined;
  // Hidden are those strictly faster than the threshold.
  const times = timesFastestFirst(personalBests);
  const fastest = times[0] ?? 0;
  const cut = times[Math.max(1, Math.floor(times.length * 0.35))];
  if (cut === undefined || cut === fastest) return fastest + 1;
  return cut;
}

/** A threshold that hides most of the map's personal bests (about 70%, at least two) and leaves at least one visible. */
function heavySecretThresholdFor(personalBests: readonly DatasetRecord[]): number {
  const times = timesFastestFirst(personalBests);
  const hidden = Math.min(times.length - 1, Math.max(2, Math.round(times.length * 0.7)));
  return times[hidden] ?? 0;
}

/** Gives `count` maps, chosen by the seed, a threshold that hides most of their personal bests. Mutates the dataset. */
function addSecretHeavyMaps(dataset: Dataset, count: number, seed: number): void {
  if (count === 0) return;
  const personalBests = new Map<string, DatasetRecord[]>();
  for (const record of dataset.records) {
    if (record.scopeType !== 'PersonalBest') continue;
    const list = personalBests.get(record.mapId) ?? [];
    list.push(record);
    personalBests.set(record.mapId, list);
  }
  // Every kind of map: on Stunt and Platform maps the threshold (a time) hides the fastest runs, not the best ones.
  const eligible = dataset.maps
    .filter((map) => new Set(personalBests.get(map.mapId)?.map((r) => r.recordScore.time)).size >= 3)
    .map((map) => ({ map, order: fnv1a(`secret-heavy|${seed}|${map.mapId}`) }))
    .sort((a, b) => a.order - b.order);
  if (eligible.length < count)
    throw new RangeError(
      `generateDataset: secretHeavyMaps is ${count} but only ${eligible.length} maps can have many secret entries (maps with 3 personal bests or more); ask for fewer, or for more maps or players`,
    );
  for (const { map } of eligible.slice(0, count)) map.secretThreshold = heavySecretThresholdFor(personalBests.get(map.mapId) ?? []);
}

/**
 * Weekly Shorts keep their threshold at the author time (docs/nadeo-api.md "Top Secret"): that, when it hides a few entries
 * but not all; otherwise a threshold that hides about a third.
 */
function authorTimeThresholdFor(map: DatasetMap, personalBests: readonly DatasetRecord[]): number | undefined {
  const hidden = personalBests.filter((r) => r.recordScore.time < map.authorScore).length;
  return hidden >= 2 && hidden < personalBests.length ? map.authorScore : secretThresholdFor(personalBests);
}

function checkOptions(opts: GenerateOptions): void {
  const { style, now, ...counts } = opts;
  if (!Number.isFinite(now) || Number.isNaN(new Date(now).getTime()))
    throw new RangeError(`generateDataset: now must be a moment in ms (Date.now()), got ${String(now)}`);
  for (const [name, value] of Object.entries(counts))
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`generateDataset: ${name} must be a whole number >= 0, got ${value}`);
  if (style !== undefined && style !== 'season' && style !== 'hostile')
    throw new RangeError(`generateDataset: style must be 'season' or 'hostile', got ${String(style)}`);
}

/** A deterministic dataset: the same options (`now` included) give the same JSON, byte for byte. */
export function generateDataset(opts: GenerateOptions): Dataset {
  checkOptions(opts);
  const season = opts.style === 'season';
  // The records end at the moment the data is as of, on a whole second.
  const recordsEndMs = Math.floor(opts.now / 1000) * 1000;
  const rng = mulberry32(opts.seed);
  const players = Array.from({ length: opts.players }, () => uuidFrom(rng));
  const authors = players.length > 0 ? [...players.slice(0, 6), NADEO_ACCOUNT] : [NADEO_ACCOUNT];
  const seasons = Array.from({ length: 3 }, () => uuidFrom(rng));
  // 0 the best player .. 1 the worst: better players set better results.
  const handicap = players.map(() => rng());

  const displayNames: Record<string, string> = { [NADEO_ACCOUNT]: 'Nadeo' };
  const clubTags: Record<string, string> = {};
  players.forEach((accountId, i) => {
    const player = season ? seasonPlayer(rng, i) : hostilePlayer(rng, i);
    if (!player) return;
    displayNames[accountId] = player.displayName;
    if (player.clubTag !== undefined) clubTags[accountId] = player.clubTag;
  });

  const layout = season ? seasonLayout(rng, opts.maps) : [];
  const usedUids = new Set<string>();
  const maps: DatasetMap[] = [];
  const records: DatasetRecord[] = [];
  for (let index = 0; index < opts.maps; index++) {
    const plan = layout[index];
    const kind: MapKind =
      plan?.kind ??
      FIRST_KINDS[index] ??
      (pick(rng, ['race', 'race', 'race', 'race', 'race', 'race', 'clones', 'clones', 'stunt', 'platform'] as const) satisfies MapKind);
    const map = plan ? makeSeasonMap(rng, plan, players.slice(0, 6), usedUids, recordsEndMs) : makeHostileMap(rng, index, kind, authors, usedUids, recordsEndMs);
    maps.push(map);
    // An official map is played from its campaign's release; any other from when it was made.
    const mapStartMs = plan?.source === 'campaign' ? campaignOf(plan.campaign ?? 0, recordsEndMs).releaseMs : Date.parse(map.timestamp);
    const coverage = 0.7 + rng() * 0.15;
    const personalBests: DatasetRecord[] = [];
    players.forEach((accountId, p) => {
      if (rng() >= coverage) return;
      const result = drawResult(rng, map, handicap[p] ?? 0.5);
      const record = makeRecord(rng, map, accountId, result, { gameMode: personalBestGameMode(map), seasonId: null }, mapStartMs + rng() * (recordsEndMs - mapStartMs));
      const hostile = season ? undefined : HOSTILE_REPLAY_FILENAMES[index];
      if (personalBests.length === 0 && hostile !== undefined) record.filename = hostile;
      personalBests.push(record);
    });
    if (personalBests.length === 0 && players[0] !== undefined) {
      personalBests.push(makeRecord(rng, map, players[0], drawResult(rng, map), { gameMode: personalBestGameMode(map), seasonId: null }, mapStartMs + 86400000));
    }
    // The random draw spares Platform maps so that earlier datasets stay as they were; secretHeavyMaps reach every kind.
    if (plan?.secret) {
      const threshold = authorTimeThresholdFor(map, personalBests);
      if (threshold !== undefined) map.secretThreshold = threshold;
    } else if (!plan && (index === SECRET_MAP_INDEX || (index > 5 && kind !== 'platform' && rng() < 0.1))) {
      const threshold = secretThresholdFor(personalBests);
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
          const result = kindOf(map) === 'stunt'
            ? { time: intBetween(rng, 40000, 150000), score: Math.max(0, score - intBetween(rng, 0, Math.ceil(score * 0.1))), respawnCount }
            : kindOf(map) === 'platform'
              ? { time: time + intBetween(rng, 0, Math.ceil(time * 0.08)), score, respawnCount: respawnCount + (rng() < 0.3 ? intBetween(rng, 1, 2) : 0) }
              : { time: time + intBetween(rng, 0, Math.ceil(time * 0.08)), score, respawnCount };
          const seasonMs = Math.min(Date.parse(pb.timestamp), recordsEndMs - 1000) - rng() * 86400000 * 30;
          records.push(makeRecord(rng, map, pb.accountId, result, { gameMode: seasonGameMode(map), seasonId }, Math.max(seasonMs, mapStartMs)));
        }
      }
    }
  }
  // Live and Exchange fields come from their own random sequence: the maps and records above stay as they were.
  const dataset = { maps, records, displayNames, clubTags, ...fillLiveFields(maps, opts.seed, season ? seasonCalendar(layout, recordsEndMs) : calendarAt(recordsEndMs)) };
  addSecretHeavyMaps(dataset, opts.secretHeavyMaps ?? 0, opts.seed);
  return dataset;
}

export interface EvolveOptions {
  seed: number;
  /** 0..1: the share of personal bests that improve (of the rivals' only, with `rivals`). */
  fraction: number;
  /** Only this many accounts, chosen by the seed, improve and set first records: a few rivals moving on. */
  rivals?: number;
  /** Accounts whose records never change (say, the player the demo plays as). */
  except?: readonly string[];
  /** The service's clock (ms): new records are set no later than this. Default: 1 hour to 7 days after the latest. */
  now?: number;
}

/**
 * Improves about `fraction` of the personal bests (new mapRecordId, later timestamp, better time, Stunt score or
 * Platform respawn count, so new replay bytes) and adds first personal bests for some account/map pairs without one.
 * Mutates the dataset.
 */
export function evolveDataset(dataset: Dataset, opts: EvolveOptions): { improved: number; added: number } {
  if (opts.rivals !== undefined && !(Number.isInteger(opts.rivals) && opts.rivals >= 0))
    throw new RangeError(`evolveDataset: rivals must be a whole number >= 0, got ${opts.rivals}`);
  const rng = mulberry32((opts.seed ^ 0x5bd1e995) >>> 0);
  const fraction = Math.min(1, Math.max(0, opts.fraction));
  const mapsById = new Map(dataset.maps.map((m) => [m.mapId.toLowerCase(), m]));
  const moves = accountsThatMove(dataset, opts);
  let latestMs = 0;
  for (const r of dataset.records) latestMs = Math.max(latestMs, Date.parse(r.timestamp));
  const later = (): number => {
    const at = latestMs + intBetween(rng, 3600, 7 * 86400) * 1000;
    return opts.now === undefined ? at : Math.max(latestMs, Math.min(opts.now, at));
  };

  let improved = 0;
  const withPersonalBest = new Set<string>();
  const accounts = new Set<string>(Object.keys(dataset.displayNames ?? {}));
  accounts.delete(NADEO_ACCOUNT);
  for (const record of dataset.records) {
    accounts.add(record.accountId);
    if (record.scopeType !== 'PersonalBest') continue;
    withPersonalBest.add(`${record.mapId.toLowerCase()}|${record.accountId.toLowerCase()}`);
    const map = mapsById.get(record.mapId.toLowerCase());
    if (!map || !moves(record.accountId) || rng() >= fraction) continue;
    const score = record.recordScore;
    const kind = kindOf(map);
    if (kind === 'stunt') score.score += Math.max(1, Math.round(score.score * (0.01 + rng() * 0.1)));
    else if (kind === 'platform' && score.respawnCount > 0 && rng() < 0.6) {
      // Fewer respawns is the better Platform run; a run with fewer respawns is faster too.
      const fewer = intBetween(rng, 1, Math.min(2, score.respawnCount));
      score.respawnCount -= fewer;
      for (let i = 0; i < fewer; i++) score.time = Math.max(1, score.time - respawnCostMs(rng));
    } else score.time = Math.max(1, score.time - Math.max(1, Math.round(score.time * (0.002 + rng() * 0.03))));
    record.mapRecordId = uuidFrom(rng);
    record.timestamp = isoSeconds(Math.max(later(), Date.parse(record.timestamp) + 1000));
    record.medal = medalOf(map, score);
    record.filename = replayFilename(map.mapId, record.accountId, score.time, score.score, kind === 'stunt');
    delete record.url;
    delete record.replayBase64;
    improved++;
  }

  let added = 0;
  const sortedAccounts = [...accounts].sort();
  for (const map of dataset.maps) {
    for (const accountId of sortedAccounts) {
      if (withPersonalBest.has(`${map.mapId.toLowerCase()}|${accountId.toLowerCase()}`) || !moves(accountId) || rng() >= fraction * 0.5) continue;
      const result = drawResult(rng, map);
      dataset.records.push(makeRecord(rng, map, accountId, result, { gameMode: personalBestGameMode(map), seasonId: null }, later()));
      added++;
    }
  }
  return { improved, added };
}

/** Whether an account's records may change: not one of `except`, and one of the rivals when there are rivals. */
function accountsThatMove(dataset: Dataset, opts: EvolveOptions): (accountId: string) => boolean {
  const except = new Set((opts.except ?? []).map((a) => a.toLowerCase()));
  if (opts.rivals === undefined) return (accountId) => !except.has(accountId.toLowerCase());
  const candidates = [...new Set(dataset.records.filter((r) => r.scopeType === 'PersonalBest').map((r) => r.accountId.toLowerCase()))]
    .filter((accountId) => !except.has(accountId))
    .map((accountId) => ({ accountId, order: fnv1a(`rival|${opts.seed}|${accountId}`) }))
    .sort((a, b) => a.order - b.order || (a.accountId < b.accountId ? -1 : 1));
  const rivals = new Set(candidates.slice(0, opts.rivals).map((c) => c.accountId));
  return (accountId) => rivals.has(accountId.toLowerCase());
}

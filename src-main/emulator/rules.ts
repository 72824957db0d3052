// The game's rules as the emulator reads them: a second reading, written from the documents and not from the product
// (docs/emulator.md): the seed (docs/seed-contract.md), docs/nadeo-api.md, docs/game-rules.md and Nadeo's map-page
// doc (nadeo/trackmania-doc docs/web/tm-com/map-page.md). The product's reading is src-main/shared/leaderboard.ts;
// test/unit/emulator/rules-cross-check.test.ts holds the two against each other on generated data.

/** 2^32-1: in `time` a record hidden by a secret threshold, in `respawnCount` "not tracked" (nadeo-api). */
export const SENTINEL_U32 = 4294967295;

/** The Live services' world zone, the same ID on every leaderboard answer (Openplanet docs, docs/live/leaderboards/). */
export const WORLD_ZONE_ID = '301e1b69-7e13-11e8-8060-e284abfd2bc4';
/** The Live group of the personal-best leaderboard (docs/live/leaderboards/top.md). */
export const PERSONAL_BEST_GROUP = 'Personal_Best';
/** The positions route takes at most 50 maps a request (docs/live/leaderboards/position.md). */
export const MAX_MAPS_PER_POSITION_REQUEST = 50;

// ---- map kinds (seed 2.1: mapType is <prefix>\TM_Race, TM_Stunt or TM_Platform; hasClones) ------------------------

export type MapKind = 'race' | 'clones' | 'stunt' | 'platform' | 'other';

export function kindOf(map: { mapType: string; hasClones: boolean }): MapKind {
  const type = map.mapType.slice(map.mapType.lastIndexOf('\\') + 1);
  if (type === 'TM_Stunt') return 'stunt';
  if (type === 'TM_Platform') return 'platform';
  if (type === 'TM_Race') return map.hasClones ? 'clones' : 'race';
  return 'other';
}

// ---- game modes (seed 4.2 rules 3-5) ---------------------------------------------------------------------------

/** The game mode of a map's personal-best leaderboard: Stunt, Platform, TimeAttackClone (a Race map with clones), else TimeAttack. */
export function personalBestGameMode(map: { mapType: string; hasClones: boolean }): string {
  const kind = kindOf(map);
  return kind === 'stunt' ? 'Stunt' : kind === 'platform' ? 'Platform' : kind === 'clones' ? 'TimeAttackClone' : 'TimeAttack';
}

/** The game mode of a map's season leaderboards: rule 4 (clones) binds only without a season. */
export function seasonGameMode(map: { mapType: string; hasClones: boolean }): string {
  return kindOf(map) === 'clones' ? 'TimeAttack' : personalBestGameMode(map);
}

// ---- results -----------------------------------------------------------------------------------------------------

/** A record's true result, as a dataset holds it: the time in ms, Stunt points, respawns (SENTINEL_U32: not tracked). */
export interface Result {
  time: number;
  score: number;
  respawnCount: number;
}

/**
 * Core's order of two results of one map kind, negative when `a` is ahead (docs/game-rules.md "Map kinds", from
 * map-page and tm-wiki): Race and clones by time, fastest first; Stunt by points, most first; Platform by respawns,
 * fewest first (an untracked count after every counted one), then time.
 */
export function compareResults(kind: MapKind, a: Result, b: Result): number {
  if (kind === 'stunt') return b.score - a.score;
  if (kind === 'platform') {
    const ra = a.respawnCount === SENTINEL_U32 ? Infinity : a.respawnCount;
    const rb = b.respawnCount === SENTINEL_U32 ? Infinity : b.respawnCount;
    if (ra !== rb) return ra < rb ? -1 : 1;
  }
  return a.time - b.time;
}

// ---- the secret threshold ("Top Secret", map-page) ---------------------------------------------------------------

/**
 * Whether a result is behind the map's Top Secret threshold. map-page: the threshold is "entered in milliseconds" and
 * "records with a faster time will be considered secret": a time, strictly faster, on every kind of map (a Stunt or
 * Platform run has a time too, so a secret entry there is not necessarily ahead of the visible ones).
 */
export function isSecret(map: { secretThreshold?: number | undefined }, result: Pick<Result, 'time'>): boolean {
  return map.secretThreshold !== undefined && result.time < map.secretThreshold;
}

/**
 * Whether the service hides a record from `caller` (the account the request's token acts for, lower case): a secret
 * result, unless it is the caller's own (map-page: "Other players' records faster than the threshold will display
 * SECRET"). Without a caller (no login), every secret record is hidden.
 */
export function isHiddenFrom(
  map: { secretThreshold?: number | undefined } | undefined,
  record: { accountId: string; recordScore: Pick<Result, 'time'> },
  caller: string | undefined,
): boolean {
  if (!map || !isSecret(map, record.recordScore)) return false;
  return caller === undefined || record.accountId.toLowerCase() !== caller;
}

// ---- medals (docs/game-rules.md "Medals"; map-page) --------------------------------------------------------------

export interface MedalScores {
  authorScore: number;
  goldScore: number;
  silverScore: number;
  bronzeScore: number;
}

/**
 * The best medal a result earns, 4 author .. 1 bronze, 0 none: medal scores are times on Race maps (at most that
 * time), points on Stunt maps (at least those points) and maximum respawn counts on Platform maps (map-page: "the max
 * respawn count for all medals"; a run whose respawns were not tracked proves none).
 */
export function medalOf(map: { mapType: string; hasClones: boolean } & MedalScores, result: Result): 0 | 1 | 2 | 3 | 4 {
  const kind = kindOf(map);
  const earns = (medalScore: number): boolean => {
    if (kind === 'stunt') return result.score >= medalScore;
    if (kind === 'platform') return result.respawnCount !== SENTINEL_U32 && result.respawnCount <= medalScore;
    return result.time <= medalScore;
  };
  if (earns(map.authorScore)) return 4;
  if (earns(map.goldScore)) return 3;
  if (earns(map.silverScore)) return 2;
  if (earns(map.bronzeScore)) return 1;
  return 0;
}

// ---- the Live leaderboards (docs/live/leaderboards/position.md, top.md) ----------------------------------------

/**
 * The one number a record ranks by on the Live leaderboards: "the score/time (in milliseconds)" (position.md), so
 * points on Stunt maps and the time on every other kind, Platform included (the route takes no respawn count).
 */
export function liveScoreOf(kind: MapKind, result: Pick<Result, 'time' | 'score'>): number {
  return kind === 'stunt' ? result.score : result.time;
}

/** Whether Live score `a` ranks strictly ahead of `b`: more points on Stunt, less time otherwise. */
export function isBetterLiveScore(kind: MapKind, a: number, b: number): boolean {
  return kind === 'stunt' ? a > b : a < b;
}

// ---- names (docs/nadeo-api.md "Conventions players expect") ------------------------------------------------------

/**
 * A name without its formatting codes: `$RGB` (one to three hex digits, as malformed names have them), `$l[...]`,
 * `$h[...]`, `$p[...]` links with their targets, every one-letter code and `$<`/`$>`; `$$` is a literal `$`.
 */
export function plainText(name: string): string {
  return name.replace(/\$(\$|[0-9a-f]{1,3}|[lhp]\[[^\]]*\]|[\s\S])?/gi, (_, code: string | undefined) => (code === '$' ? '$' : ''));
}

// The game's leaderboard, one source of truth (docs/game-rules.md): a map's kind, how each kind ranks, secret entries,
// deltas, medals and medal progress, and the name shown for a player. Pure functions: the store, the service, the
// command line, the CSV export and the renderer all rank, label and format through this module and nothing else.
import { formatDelta as formatTimeDelta, formatTime, medalName, stripFormatting } from './format.ts';

// ---- map kinds -------------------------------------------------------------------------------------------------

/** How a map is played and ranked. `other` (Royal, types not known yet) is shown and ranked by time. */
export const MAP_KINDS = ['race', 'clones', 'stunt', 'platform', 'other'] as const;
export type MapKind = (typeof MAP_KINDS)[number];

/** What a kind's results and medal scores count: milliseconds, Stunt points, or Platform respawns. */
export const UNITS = ['time', 'points', 'respawns'] as const;
export type Unit = (typeof UNITS)[number];

/** The map's kind from its type (`TrackMania\TM_Race`, `TM_Stunt`, `TM_Platform`...) and clones flag; never throws. */
export function mapKind(map: { mapType: unknown; hasClones?: unknown }): MapKind {
  const type = typeof map.mapType === 'string' ? map.mapType : '';
  if (type.endsWith('TM_Stunt')) return 'stunt';
  if (type.endsWith('TM_Platform')) return 'platform';
  if (type.endsWith('TM_Race')) return map.hasClones === true ? 'clones' : 'race';
  return 'other';
}

export function unitOf(kind: MapKind): Unit {
  return kind === 'stunt' ? 'points' : kind === 'platform' ? 'respawns' : 'time';
}

/**
 * Whether Trackwatch asks the world leaderboards where a record of this kind stands. Not on Platform maps: the Live
 * services take one score per record and document it as a time (or Stunt points); a position by time would
 * contradict the game's respawns-first ranking (docs/game-rules.md), so none is asked or shown.
 */
export function hasWorldPositions(kind: MapKind): boolean {
  return kind !== 'platform';
}

/**
 * The score the world leaderboards rank a record by, and that its position is asked for: Stunt points, the time
 * otherwise (docs/game-rules.md, "World positions"). Null when none is asked: a secret entry (its result is hidden),
 * a map kind without world positions, or no value in the unit.
 */
export function worldScoreOf(kind: MapKind, r: { hidden: boolean; time: number | null; score: number | null }): number | null {
  if (r.hidden || !hasWorldPositions(kind)) return null;
  const value = kind === 'stunt' ? r.score : r.time;
  return known(value) ? value : null;
}

/**
 * The result a world score stands for (worldScoreOf read backwards): Stunt points, a time otherwise; a secret one
 * (null: the service's -1) is hidden. A world record is compared with a watched PB through it (deltaOf).
 */
export function resultOfWorldScore(kind: MapKind, score: number | null): RecordResult {
  if (score === null) return { hidden: true, time: null, score: null, respawnCount: null };
  return kind === 'stunt' ? { hidden: false, time: null, score, respawnCount: null } : { hidden: false, time: score, score: null, respawnCount: null };
}

/** The kind in words: `Race`, `Race (clones)`, `Stunt`, `Platform`, or the type's own name (`Royal`). */
export function kindLabel(kind: MapKind, mapType = ''): string {
  switch (kind) {
    case 'race': return 'Race';
    case 'clones': return 'Race (clones)';
    case 'stunt': return 'Stunt';
    case 'platform': return 'Platform';
    case 'other': return mapType.slice(mapType.lastIndexOf('\\') + 1).replace(/^TM_/, '').trim() || 'Other';
  }
}

// ---- results ---------------------------------------------------------------------------------------------------

/**
 * A record as far as ranking goes. A hidden (secret) entry's time, score and respawn count mean nothing, whatever
 * they hold: the service may send a sentinel there.
 */
export interface RecordResult {
  hidden: boolean;
  /** Milliseconds. */
  time: number | null;
  /** Stunt points. */
  score: number | null;
  respawnCount: number | null;
}

/** A record with what orders and labels it on a leaderboard. */
export interface RankableRecord extends RecordResult {
  /** 0 none, 1 bronze, 2 silver, 3 gold, 4 author (the service's medal field). */
  medal: number;
  /** When it was set (ISO): of two equal results, the earlier one is ahead. */
  timestamp?: string | null | undefined;
}

const known = (n: number | null | undefined): n is number => typeof n === 'number' && Number.isFinite(n);

/**
 * The shortest run the game can time, in milliseconds: one physics tick (the game updates 100 times a second,
 * docs/game-rules.md "Times"). A record below it (0 ms, 1 ms) is not a run; the service's answer is refused.
 */
export const MIN_RUN_TIME = 10;

/** What a visible result ranks by on its kind, smaller first; null when it holds nothing to rank by. */
function sortKey(kind: MapKind, r: RecordResult): [number, number] | null {
  if (r.hidden) return null;
  switch (unitOf(kind)) {
    case 'points':
      return known(r.score) ? [-r.score, 0] : null;
    case 'respawns':
      // Fewest respawns first, then the time; a run whose respawns were not tracked comes after those counted.
      if (!known(r.respawnCount) && !known(r.time)) return null;
      return [known(r.respawnCount) ? r.respawnCount : Number.POSITIVE_INFINITY, known(r.time) ? r.time : Number.POSITIVE_INFINITY];
    case 'time':
      return known(r.time) ? [r.time, 0] : null;
  }
}

/** Whether a record has a visible result its map kind can rank. */
function isRankable(kind: MapKind, r: RecordResult): boolean {
  return sortKey(kind, r) !== null;
}

/**
 * Orders two visible results of one map kind: negative when `a` is ahead, 0 when tied. Race and clones by time,
 * fastest first; Stunt by points, most first; Platform by respawns, fewest first, then time. A result that cannot
 * be ranked (hidden, or nothing to rank by) comes after every one that can.
 */
export function compareResults(kind: MapKind, a: RecordResult, b: RecordResult): number {
  return compareKeys(sortKey(kind, a), sortKey(kind, b));
}

function compareKeys(x: [number, number] | null, y: [number, number] | null): number {
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  return x[0] !== y[0] ? Math.sign(x[0] - y[0]) : x[1] === y[1] ? 0 : Math.sign(x[1] - y[1]);
}

/**
 * Whether `next` improves on `previous` (the history's "improved"): a better visible result by the kind's order
 * (Platform: fewer respawns, or as many and faster), or a new record (another record ID) behind the secret threshold
 * where the previous one was visible: the service replaces a personal best only with a better one.
 */
export function isImprovement(
  kind: MapKind,
  previous: RecordResult & { mapRecordId?: string | undefined },
  next: RecordResult & { mapRecordId?: string | undefined },
): boolean {
  if (next.hidden) return !previous.hidden && previous.mapRecordId !== next.mapRecordId;
  if (previous.hidden || !isRankable(kind, next) || !isRankable(kind, previous)) return false;
  return compareResults(kind, next, previous) < 0;
}

/**
 * The values of a record a view may show: none for a secret entry, whatever was stored; the points only on Stunt
 * maps (0 elsewhere means nothing); the time and the respawn count as they are.
 */
export function shownResult(kind: MapKind, r: RecordResult): { time: number | null; score: number | null; respawnCount: number | null } {
  if (r.hidden) return { time: null, score: null, respawnCount: null };
  return { time: r.time, score: kind === 'stunt' ? r.score : null, respawnCount: r.respawnCount };
}

/**
 * Whether a map's Top Secret threshold hides a result: a time strictly faster than it, on every map kind (map-page:
 * "records with a faster time will be considered secret"; the threshold is entered in milliseconds). Stunt points and
 * Platform respawns do not enter into it. The service applies it (never to the reader's own record); Trackwatch reads
 * the outcome as `hidden`.
 */
export function isHiddenByThreshold(r: Pick<RecordResult, 'time'>, threshold: number): boolean {
  return known(r.time) && r.time < threshold;
}

// ---- deltas ----------------------------------------------------------------------------------------------------

/**
 * A difference "value minus reference", in the map kind's unit: milliseconds (positive: slower), Stunt points
 * (positive: more points) or Platform respawns (positive: more respawns), with the time difference beside it on
 * Platform (null elsewhere, or when a time is missing).
 */
export interface Delta {
  unit: Unit;
  value: number;
  time: number | null;
}

/** value − reference of two visible results; null when either cannot be compared in the kind's unit. */
export function deltaOf(kind: MapKind, value: RecordResult, reference: RecordResult): Delta | null {
  if (value.hidden || reference.hidden) return null;
  const time = known(value.time) && known(reference.time) ? value.time - reference.time : null;
  switch (unitOf(kind)) {
    case 'points':
      return known(value.score) && known(reference.score) ? { unit: 'points', value: value.score - reference.score, time: null } : null;
    case 'respawns':
      if (known(value.respawnCount) && known(reference.respawnCount)) {
        return { unit: 'respawns', value: value.respawnCount - reference.respawnCount, time };
      }
      return time === null ? null : { unit: 'time', value: time, time: null };
    case 'time':
      return time === null ? null : { unit: 'time', value: time, time: null };
  }
}

/** Whether a delta puts the value ahead of its reference (faster, more points, fewer respawns or as many and faster). */
export function deltaDirection(delta: Delta): 'ahead' | 'behind' | 'level' {
  const sign = delta.unit === 'respawns' && delta.value === 0 ? Math.sign(delta.time ?? 0) : Math.sign(delta.value);
  const worse = delta.unit === 'points' ? -sign : sign;
  return worse > 0 ? 'behind' : worse < 0 ? 'ahead' : 'level';
}

/** toLocaleString('en-US')'s formatter, made once: toLocaleString builds one per call (the CSV export formats a million). */
const EN_US = new Intl.NumberFormat('en-US');

function plural(n: number, one: string, many: string): string {
  return `${EN_US.format(n)} ${n === 1 ? one : many}`;
}

/** 1 → `1 respawn`, 3 → `3 respawns`. */
export function formatRespawns(count: number): string {
  return plural(count, 'respawn', 'respawns');
}

/** Stunt points with digit grouping: `12,345 pts`. */
export function formatPoints(points: number): string {
  return `${grouped(Math.round(points))} pts`;
}

/** EN_US.format for a safe integer, a comma between groups of three digits, without Intl's cost; Intl for the rest. */
function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return EN_US.format(n);
  const digits = String(n);
  return n < 1000 && n > -1000 ? digits : digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

const signed = (n: number): string => (n < 0 ? '-' : '+');

/**
 * A delta as players read it, signed as "value minus reference": `+0:00.412` (slower), `-215 pts` (fewer points),
 * `+1 respawn`; on Platform with as many respawns, the time (`-0:00.120`). '' for no delta.
 */
export function formatDelta(delta: Delta | null | undefined): string {
  if (!delta) return '';
  switch (delta.unit) {
    case 'time':
      return formatTimeDelta(delta.value);
    case 'points':
      return `${signed(delta.value)}${formatPoints(Math.abs(delta.value))}`;
    case 'respawns':
      if (delta.value === 0 && delta.time !== null) return formatTimeDelta(delta.time);
      return `${signed(delta.value)}${formatRespawns(Math.abs(delta.value))}`;
  }
}

/** A delta's size without its sign: `0:00.412`, `215 pts`, `1 respawn`. */
function formatAmount(delta: Delta): string {
  const size = Math.abs(delta.value);
  return delta.unit === 'time' ? formatTime(size) : delta.unit === 'points' ? formatPoints(size) : formatRespawns(size);
}

// ---- how a result reads -------------------------------------------------------------------------------------------

/** A result split in what it ranks by and what goes beside it (Platform's time). */
export interface ResultText {
  main: string;
  beside: string | null;
}

/** A record as the game shows it: `SECRET` when hidden, the time, `12,345 pts`, or `2 respawns` with the time beside. */
export function resultText(kind: MapKind, r: RecordResult): ResultText {
  if (r.hidden) return { main: 'SECRET', beside: null };
  switch (unitOf(kind)) {
    case 'points':
      return { main: known(r.score) ? formatPoints(r.score) : '-', beside: null };
    case 'respawns':
      if (!known(r.respawnCount)) return { main: formatTime(r.time), beside: null };
      return { main: formatRespawns(r.respawnCount), beside: known(r.time) ? formatTime(r.time) : null };
    case 'time':
      return { main: formatTime(r.time), beside: null };
  }
}

/** resultText on one line: `2 respawns (0:45.120)`. */
export function formatResult(kind: MapKind, r: RecordResult): string {
  const { main, beside } = resultText(kind, r);
  return beside === null ? main : `${main} (${beside})`;
}

/**
 * A new PB as a notification reads it: the result and, when there was one before, how much better it is:
 * `0:41.924, -0:00.400`, `1,266 pts, +44 pts`, `2 respawns (1:07.102), -1 respawn`, `SECRET`.
 */
export function formatImprovement(kind: MapKind, result: RecordResult, previous: RecordResult | null): string {
  const gain = previous ? formatDelta(deltaOf(kind, result, previous)) : '';
  return gain === '' ? formatResult(kind, result) : `${formatResult(kind, result)}, ${gain}`;
}

// ---- medals ----------------------------------------------------------------------------------------------------

/** A map's medal scores: times (ms) on race maps, points on Stunt maps, maximum respawn counts on Platform maps. */
export interface MedalScores {
  author: number;
  gold: number;
  silver: number;
  bronze: number;
}

/** A map's medal scores as its info (Core's map fields, the store's map) holds them. */
export function medalScores(map: { authorScore: number; goldScore: number; silverScore: number; bronzeScore: number }): MedalScores {
  return { author: map.authorScore, gold: map.goldScore, silver: map.silverScore, bronze: map.bronzeScore };
}

/** Medals from the best: 4 author, 3 gold, 2 silver, 1 bronze. */
const MEDALS_BEST_FIRST = [4, 3, 2, 1] as const;
export type EarnedMedal = 0 | 1 | 2 | 3 | 4;

function medalScore(medals: MedalScores, medal: 1 | 2 | 3 | 4): number {
  return medal === 4 ? medals.author : medal === 3 ? medals.gold : medal === 2 ? medals.silver : medals.bronze;
}

/** A medal score as the kind reads it: a time, `12,345 pts`, or `2 respawns` (Platform's maximum). */
export function formatMedalScore(kind: MapKind, score: number): string {
  const unit = unitOf(kind);
  return unit === 'points' ? formatPoints(score) : unit === 'respawns' ? formatRespawns(score) : formatTime(score);
}

/** A medal score as a result, to compare a record with. */
function medalAsResult(kind: MapKind, score: number): RecordResult {
  const unit = unitOf(kind);
  return {
    hidden: false,
    time: unit === 'time' ? score : null,
    score: unit === 'points' ? score : null,
    respawnCount: unit === 'respawns' ? score : null,
  };
}

/** Whether a visible result reaches a medal score: as fast, as many points, at most that many respawns. */
function reaches(kind: MapKind, r: RecordResult, score: number): boolean {
  if (r.hidden) return false;
  switch (unitOf(kind)) {
    case 'points': return known(r.score) && r.score >= score;
    case 'respawns': return known(r.respawnCount) && r.respawnCount <= score;
    case 'time': return known(r.time) && r.time <= score;
  }
}

/** The best medal a visible result reaches on a map with these medal scores (0: none). */
export function medalOf(kind: MapKind, r: RecordResult, medals: MedalScores): EarnedMedal {
  for (const medal of MEDALS_BEST_FIRST) if (reaches(kind, r, medalScore(medals, medal))) return medal;
  return 0;
}

/**
 * Whether a map's medal scores can be read: each medal at least as hard as the one below (a time or a respawn count
 * at most the lower medal's, points at least), and a time medal a time the game can run. Medal scores out of order
 * or empty (a damaged map) say nothing about a record.
 */
function medalsReadable(kind: MapKind, medals: MedalScores): boolean {
  const { author, gold, silver, bronze } = medals;
  if (![author, gold, silver, bronze].every((x) => known(x) && x >= 0)) return false;
  switch (unitOf(kind)) {
    case 'points': return bronze > 0 && bronze <= silver && silver <= gold && gold <= author;
    case 'respawns': return author <= gold && gold <= silver && silver <= bronze;
    case 'time': return author >= MIN_RUN_TIME && author <= gold && gold <= silver && silver <= bronze;
  }
}

/**
 * The medal a record really holds when the service's `medal` contradicts its result and the map's medal scores
 * (docs/game-rules.md "Medals"): medalOf, as a result earns exactly the medals whose scores it reaches. Null when they
 * agree, and when nothing can be said: a secret entry (its result is hidden), a record without a value in the kind's
 * unit (a Platform run whose respawns were not counted), or medal scores that cannot be read.
 */
export function contradictedMedal(kind: MapKind, r: RankableRecord, medals: MedalScores | null | undefined): EarnedMedal | null {
  if (r.hidden || !medals || !medalsReadable(kind, medals)) return null;
  const unit = unitOf(kind);
  const value = unit === 'points' ? r.score : unit === 'respawns' ? r.respawnCount : r.time;
  if (!known(value)) return null;
  const earned = medalOf(kind, r, medals);
  return earned === r.medal ? null : earned;
}

/** 0..4; anything else (a value the service never sends) reads as none. */
function clampMedal(medal: number): EarnedMedal {
  return medal === 1 || medal === 2 || medal === 3 || medal === 4 ? medal : 0;
}

/**
 * Where a record stands against the map's medals: the medal held (the service's, or the one its result reaches
 * if higher), the next one, and the gap to it as value − the next medal's score (null when unknown: a secret
 * entry's result is hidden).
 */
export interface MedalProgress {
  medal: EarnedMedal;
  /** null once the author medal is held. */
  next: 1 | 2 | 3 | 4 | null;
  gap: Delta | null;
}

/** Medal progress as the views carry it (plain numbers): what the readers below take. */
export interface MedalProgressLike {
  medal: number;
  next: number | null;
  gap: Delta | null;
}

/** A record's medal progress; null without a record. */
export function medalProgress(kind: MapKind, record: RankableRecord | null, medals: MedalScores): MedalProgress | null {
  if (!record) return null;
  const held = record.hidden ? clampMedal(record.medal) : (Math.max(clampMedal(record.medal), medalOf(kind, record, medals)) as EarnedMedal);
  if (held === 4) return { medal: 4, next: null, gap: null };
  const next = (held + 1) as 1 | 2 | 3 | 4;
  const gap = record.hidden ? null : deltaOf(kind, record, medalAsResult(kind, medalScore(medals, next)));
  return { medal: held, next, gap };
}

/** `0:00.412 to gold`, `1 respawn to author`, `215 pts to gold`; `gold next` when the gap is unknown; '' at author. */
export function formatMedalGap(progress: MedalProgressLike | null | undefined): string {
  if (!progress || progress.next === null) return '';
  const medal = medalName(progress.next);
  return progress.gap ? `${formatAmount(progress.gap)} to ${medal}` : `${medal} next`;
}

/** How close to the next medal counts as near, per unit. */
export interface GapLimit {
  time: number;
  points: number;
  respawns: number;
}

/** The choices players get for "within X of the next medal", closest first. */
export const GAP_LIMITS: readonly GapLimit[] = [
  { time: 100, points: 50, respawns: 1 },
  { time: 500, points: 250, respawns: 1 },
  { time: 1000, points: 500, respawns: 2 },
  { time: 5000, points: 2000, respawns: 5 },
];

/** `0:00.500 · 250 pts · 1 respawn` */
export function formatGapLimit(limit: GapLimit): string {
  return `${formatTime(limit.time)} · ${formatPoints(limit.points)} · ${formatRespawns(limit.respawns)}`;
}

/** Whether the next medal is within the limit (in the gap's own unit); false at author or with an unknown gap. */
export function isWithin(progress: MedalProgressLike | null | undefined, limit: GapLimit): boolean {
  if (!progress?.gap) return false;
  return Math.abs(progress.gap.value) <= limit[progress.gap.unit];
}

/** Medal counts over maps: records per medal held, maps without a record, and records near their next medal. */
export interface MedalCounts {
  author: number;
  gold: number;
  silver: number;
  bronze: number;
  /** Records without a medal. */
  none: number;
  /** Maps without a record. */
  missing: number;
  /** Records within the limit of their next medal. */
  near: number;
}

/** Counts medal progress over maps (null: no record on that map). */
export function countMedals(progress: Iterable<MedalProgressLike | null>, limit: GapLimit): MedalCounts {
  const counts: MedalCounts = { author: 0, gold: 0, silver: 0, bronze: 0, none: 0, missing: 0, near: 0 };
  for (const p of progress) {
    if (!p) {
      counts.missing += 1;
      continue;
    }
    counts[medalName(p.medal)] += 1;
    if (isWithin(p, limit)) counts.near += 1;
  }
  return counts;
}

// ---- the player shown ------------------------------------------------------------------------------------------

/** The start of an account ID, as shown when nothing better is known. */
function shortAccountId(accountId: string): string {
  return accountId.slice(0, 8);
}

/** Where the name shown for a player comes from: a window shows each its own way (a display name with its formatting). */
export type PlayerLabelSource = 'nickname' | 'displayName' | 'accountId';

/** playerLabel with where it comes from. */
export function playerLabelOf(player: { accountId: string; nickname?: string | null | undefined; displayName?: string | null | undefined }): { label: string; source: PlayerLabelSource } {
  const nickname = player.nickname?.trim();
  if (nickname) return { label: nickname, source: 'nickname' };
  const displayName = player.displayName ?? '';
  if (stripFormatting(displayName).trim() !== '') return { label: displayName, source: 'displayName' };
  return { label: shortAccountId(player.accountId), source: 'accountId' };
}

/**
 * The name shown for a player everywhere (window, command line, CSV): your nickname for them, else their display
 * name (raw, with its formatting codes: each surface renders or strips them), else the start of the account ID.
 */
export function playerLabel(player: { accountId: string; nickname?: string | null | undefined; displayName?: string | null | undefined }): string {
  return playerLabelOf(player).label;
}

// ---- a map's leaderboard ---------------------------------------------------------------------------------------

/** A watched player on one map, before ranking. */
export interface Contender<P> {
  player: P;
  /** The name shown (playerLabel): it orders entries whose order is unknown and ties set at the same moment. */
  name: string;
  record: RankableRecord | null;
  isMe?: boolean | undefined;
  /**
   * This record belongs to the account the records were read with: the service never hides that account's own
   * record, so it alone may be visible and still better than the secret threshold. Read with BoardFacts.viewerKnown.
   */
  isViewer?: boolean | undefined;
  /**
   * The record's world position, asked for this very result (Live services), and when it was asked: at most
   * `position - 1` records were ahead of it then, which bounds how many secret entries set before can be ahead.
   */
  worldPosition?: { position: number; asOf: string } | null | undefined;
}

/** What is known about a map beyond its records, that places secret entries (docs/game-rules.md "Secret entries"). */
export interface BoardFacts {
  /** The map's medal scores: a secret entry's medal then bounds its hidden result. */
  medals?: MedalScores | null | undefined;
  /**
   * True when the caller knows which account read the records (Contender.isViewer marks its record; none may be
   * watched). False: any one visible record may be the reader's own, visible though better than the threshold.
   */
  viewerKnown?: boolean | undefined;
}

/**
 * Where a player stands: `secret` (hidden by the map's secret threshold: no time, score or replay), `ranked`,
 * `unranked` (visible but with nothing its kind ranks by), or `none` (no record).
 */
export type StandingStatus = 'secret' | 'ranked' | 'unranked' | 'none';

/** The ranks an entry may hold on the board: one number when min = max, a range ("2–4") when secret entries blur it. */
export interface RankRange {
  min: number;
  max: number;
}

export interface Standing<P> extends Contender<P> {
  status: StandingStatus;
  isMe: boolean;
  /** Competition rank ("1, 2, 2, 4") on the board, secret entries counted; null when not known exactly or not ranked. */
  rank: number | null;
  /** The ranks it may hold (rank = min = max when known); null for unranked entries and players without a record. */
  rankRange: RankRange | null;
  /** Competition rank among the visible entries alone; null unless ranked. */
  visibleRank: number | null;
  /** Surely first on the board: no entry, secret or visible, can be ahead of it (ties share it). */
  isBest: boolean;
  /** The best visible result (ties share it); a secret entry may still be ahead of it. */
  isBestVisible: boolean;
  /** value − the best visible result; null unless ranked. */
  deltaToBestVisible: Delta | null;
  /** value − the best on the board: deltaToBestVisible when no secret entry can be ahead of that best; else null. */
  deltaToBest: Delta | null;
  /** value − my result; null on my own entry, when either is not ranked, or without a "me". */
  deltaToMe: Delta | null;
}

export interface Leaderboard<P> {
  kind: MapKind;
  /** In leaderboard order: by the best rank each may hold, then unranked entries, then players without a record. */
  entries: Standing<P>[];
  /** Secret entries among them. */
  secret: number;
  /** Whether the best visible result is surely the best on the board (no secret entry can be ahead of it). */
  bestIsKnown: boolean;
}

/** A rank as every view writes it: "3", or "2–4" where only a range is known; '' without one. */
export function formatRank(range: RankRange | null | undefined): string {
  if (!range) return '';
  return range.min === range.max ? String(range.min) : `${range.min}–${range.max}`;
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const byName = (a: { name: string }, b: { name: string }): number => collator.compare(stripFormatting(a.name), stripFormatting(b.name));

/**
 * The rules of a board without its presentation: the ranked entries in rank order with their visible ranks and the
 * ranks each may hold, the secret entries with theirs, the rest apart. rankLeaderboard presents it; the CSV export,
 * which writes only the ranks of a million entries, reads it through storedBoardRanks.
 */
interface Ranking<C> {
  ranked: C[];
  /** Competition ranks among the visible entries alone, in `ranked`'s order. */
  visibleRanks: number[];
  /** The ranks each ranked entry may hold, secret entries counted, in `ranked`'s order. */
  rankedRanges: RankRange[];
  secret: C[];
  secretRanges: RankRange[];
  unranked: C[];
  none: C[];
}

function rankBoard<C extends Contender<unknown>>(kind: MapKind, contenders: readonly C[], facts: BoardFacts): Ranking<C> {
  const secret: C[] = [];
  // Each ranked result with its key, worked out once and kept beside it: no lookup per comparison (a compare view
  // ranks thousands of maps at a time, the export a million entries).
  const keyed: { c: C; key: [number, number] }[] = [];
  const unranked: C[] = [];
  const none: C[] = [];
  for (const c of contenders) {
    const r = c.record;
    if (!r) none.push(c);
    else if (r.hidden) secret.push(c);
    else {
      const key = sortKey(kind, r);
      if (key) keyed.push({ c, key });
      else unranked.push(c);
    }
  }
  const earlier = (a: C, b: C): number => {
    const x = a.record!.timestamp ?? '';
    const y = b.record!.timestamp ?? '';
    return x < y ? -1 : x > y ? 1 : 0;
  };
  keyed.sort((a, b) => compareKeys(a.key, b.key) || earlier(a.c, b.c) || byName(a.c, b.c));
  const ranked = keyed.map(({ c }) => c);
  unranked.sort(byName);
  // Among the visible entries alone: competition ranks (1 + those strictly ahead).
  const visibleRanks = new Array<number>(ranked.length);
  keyed.forEach(({ key }, i) => {
    visibleRanks[i] = i > 0 && compareKeys(keyed[i - 1]!.key, key) === 0 ? visibleRanks[i - 1]! : i + 1;
  });
  const ranges = secret.length === 0
    ? { visible: visibleRanks.map((r) => ({ min: r, max: r })), secret: [] }
    : placeSecretEntries(kind, ranked, secret, visibleRanks, facts);
  return { ranked, visibleRanks, rankedRanges: ranges.visible, secret, secretRanges: ranges.secret, unranked, none };
}

/**
 * Ranks one map's watched players as the game does (docs/game-rules.md). Visible entries rank by their kind's order,
 * ties sharing a rank, the earlier record first. A secret entry is placed by what is known of it: its medal, the
 * threshold being a time, and world positions; where the order is unknown its rank, and the ranks it blurs, are
 * ranges, never a guess. Players without a record keep the order given.
 */
export function rankLeaderboard<P>(kind: MapKind, contenders: readonly Contender<P>[], facts: BoardFacts = {}): Leaderboard<P> {
  const board = rankBoard(kind, contenders, facts);
  const standing = (c: Contender<P>, status: StandingStatus, range: RankRange | null): Standing<P> => ({
    ...c, isMe: c.isMe === true, status, rank: range && range.min === range.max ? range.min : null, rankRange: range, visibleRank: null,
    isBest: range?.max === 1, isBestVisible: false, deltaToBestVisible: null, deltaToBest: null, deltaToMe: null,
  });
  const ranked = board.ranked.map((c, i) => standing(c, 'ranked', board.rankedRanges[i]!));
  const secret = board.secret.map((c, j) => standing(c, 'secret', board.secretRanges[j]!));
  const best = ranked[0];
  const me = ranked.find((s) => s.isMe)?.record;
  const bestIsKnown = best !== undefined && best.rankRange!.max === 1;
  ranked.forEach((s, i) => {
    s.visibleRank = board.visibleRanks[i]!;
    s.isBestVisible = s.visibleRank === 1;
    s.deltaToBestVisible = deltaOf(kind, s.record!, best!.record!);
    s.deltaToBest = bestIsKnown ? s.deltaToBestVisible : null;
    s.deltaToMe = me && !s.isMe ? deltaOf(kind, s.record!, me) : null;
  });
  // Sorting is stable: entries that tie on all of this keep their order, the visible ones ranked's.
  const placed = [...ranked, ...secret].sort((a, b) =>
    a.rankRange!.min - b.rankRange!.min || a.rankRange!.max - b.rankRange!.max
    || Number(a.status === 'secret') - Number(b.status === 'secret')
    || (a.status === 'secret' ? clampMedal(b.record!.medal) - clampMedal(a.record!.medal) || byName(a, b) : 0));
  const rest = [...board.unranked.map((c) => standing(c, 'unranked', null)), ...board.none.map((c) => standing(c, 'none', null))];
  return { kind, entries: [...placed, ...rest], secret: secret.length, bestIsKnown };
}

// ---- a stored map's board -------------------------------------------------------------------------------------

/** A world position as stored beside a record: the score it was asked for, the answer's state and position, and when. */
export interface AskedPosition {
  score: number;
  state: string;
  position: number | null;
  asOf: string;
}

/**
 * The world position of this very result: a stored position counts only when it was asked for the result's score
 * (worldScoreOf) and ranked; one asked for an earlier PB says nothing of this one. Null otherwise.
 */
export function positionOfResult(kind: MapKind, asked: AskedPosition | null | undefined, r: RecordResult): { position: number; asOf: string } | null {
  const score = worldScoreOf(kind, r);
  if (!asked || score === null || score !== asked.score || asked.state !== 'ranked' || asked.position === null) return null;
  return { position: asked.position, asOf: asked.asOf };
}

/** A watched player's stored record on one map, with the world position stored beside it. */
export interface StoredContender<P> {
  player: P;
  accountId: string;
  /** The name shown (playerLabel); '' where only ranks matter. */
  name: string;
  record: RankableRecord | null;
  isMe?: boolean | undefined;
  position?: AskedPosition | null | undefined;
}

/**
 * One map's board from what a data folder knows beside its records (docs/game-rules.md "Secret entries"): the map's
 * medal scores, the account the records were read with (`viewer`: an account ID, null for none, undefined when not
 * known) and each record's stored world position. The window's views, the command line and the CSV export all rank
 * a stored map through this function or storedBoardRanks (the same rules), so their ranks cannot drift apart.
 */
export function rankStoredBoard<P>(map: StoredMap, contenders: readonly StoredContender<P>[], viewer: string | null | undefined): Leaderboard<P> {
  const kind = mapKind(map);
  return rankLeaderboard(kind, storedContenders(kind, contenders, viewer), { medals: map.medals, viewerKnown: viewer !== undefined });
}

/**
 * The ranks rankStoredBoard gives, alone, in the contenders' order (null for an entry with no result to rank): for
 * the CSV export, which writes a million of them and none of the rest of a board.
 */
export function storedBoardRanks(map: StoredMap, contenders: readonly StoredContender<number>[], viewer: string | null | undefined): (RankRange | null)[] {
  const kind = mapKind(map);
  const board = rankBoard(kind, storedContenders(kind, contenders, viewer), { medals: map.medals, viewerKnown: viewer !== undefined });
  const ranks = new Array<RankRange | null>(contenders.length).fill(null);
  board.ranked.forEach((c, i) => (ranks[c.player] = board.rankedRanges[i]!));
  board.secret.forEach((c, j) => (ranks[c.player] = board.secretRanges[j]!));
  return ranks;
}

/** A stored map, as its board is ranked. */
type StoredMap = { mapType: string; hasClones?: boolean | undefined; medals: MedalScores | null };

function storedContenders<P>(kind: MapKind, contenders: readonly StoredContender<P>[], viewer: string | null | undefined): Contender<P>[] {
  const viewerKnown = viewer !== undefined;
  return contenders.map((c) => ({
    player: c.player,
    name: c.name,
    record: c.record,
    isMe: c.isMe,
    isViewer: viewerKnown && c.accountId === viewer,
    worldPosition: c.record ? positionOfResult(kind, c.position, c.record) : null,
  }));
}

// ---- where secret entries stand --------------------------------------------------------------------------------

/** How a secret entry stands against another entry: surely ahead of it, surely behind, or not known. */
type Order = 'ahead' | 'behind' | 'unknown';

/**
 * The values a secret entry's result may take in its kind's unit, given the medal it still carries: between two medal
 * scores (docs/game-rules.md "Medals": a result earns a medal when at least as good as its score). Null without
 * medal scores, or with medal scores out of order (nothing is then inferred from them).
 */
function medalBand(kind: MapKind, medal: number, medals: MedalScores | null | undefined): { lo: number; hi: number } | null {
  if (!medals) return null;
  const scores = [medals.bronze, medals.silver, medals.gold, medals.author];
  const held = clampMedal(medal);
  if (unitOf(kind) === 'points') {
    if (!scores.every((x, i) => known(x) && (i === 0 || x > scores[i - 1]!))) return null;
    // Points, more is better: [score of the medal held, score of the next one).
    return { lo: held === 0 ? 0 : scores[held - 1]!, hi: held === 4 ? Number.POSITIVE_INFINITY : scores[held]! - 1 };
  }
  if (!scores.every((x, i) => known(x) && (i === 0 || x < scores[i - 1]!))) return null;
  // Times and respawns, less is better: (score of the next medal, score of the medal held].
  return { lo: held === 4 ? 0 : scores[held]! + 1, hi: held === 0 ? Number.POSITIVE_INFINITY : scores[held - 1]! };
}

/**
 * Places the secret entries among the visible ones and each other, and gives every entry the ranks it may hold.
 * What is known (docs/game-rules.md "Secret entries"): the threshold is a time, and a secret entry's time is below it;
 * every visible record is at or above it but the reader's own; a medal bounds a result; a world position bounds how
 * many were ahead.
 */
function placeSecretEntries<C extends Contender<unknown>>(
  kind: MapKind,
  ranked: readonly C[],
  secret: readonly C[],
  visibleRanks: readonly number[],
  facts: BoardFacts,
): { visible: RankRange[]; secret: RankRange[] } {
  const above = thresholdSide(ranked, facts.viewerKnown === true);
  // A secret entry's result is bounded by its medal alone (medalBand): entries holding the same medal stand alike
  // against every visible one, so each medal's orders are found once, not once per entry (the export ranks a million).
  const medals = secret.map((h) => clampMedal(h.record!.medal));
  const bandOf = new Map([...new Set(medals)].map((medal) => [medal, medalBand(kind, medal, facts.medals)]));
  const bands = medals.map((medal) => bandOf.get(medal)!);
  // Per visible entry i, the secret ones ahead of it and those not known; per secret entry j, the visible ones it is
  // behind and those not known.
  const secretAhead = new Array<number>(ranked.length).fill(0);
  const secretUnknown = new Array<number>(ranked.length).fill(0);
  const visibleBehind = new Array<number>(secret.length).fill(0);
  const visibleUnknown = new Array<number>(secret.length).fill(0);
  for (const [medal, band] of bandOf) {
    const holders = medals.filter((m) => m === medal).length;
    let behind = 0;
    let unknown = 0;
    ranked.forEach((v, i) => {
      const o = secretAgainst(kind, band, v.record!, above[i]!);
      if (o === 'ahead') secretAhead[i]! += holders;
      else if (o === 'unknown') {
        secretUnknown[i]! += holders;
        unknown += 1;
      } else behind += 1;
    });
    medals.forEach((m, j) => {
      if (m !== medal) return;
      visibleBehind[j] = behind;
      visibleUnknown[j] = unknown;
    });
  }
  // A world position moves single orders: each move counted here.
  const count = (j: number, i: number, o: Order, by: number): void => {
    if (o === 'ahead') secretAhead[i]! += by;
    else if (o === 'unknown') {
      secretUnknown[i]! += by;
      visibleUnknown[j]! += by;
    } else visibleBehind[j]! += by;
  };
  // The secret entry secret[j] against the ranked entry ranked[i]: as found above, unless a world position bounded it
  // (kept here, by j × ranked.length + i).
  const bounded = new Map<number, Order>();
  const orderOf = (j: number, i: number): Order =>
    bounded.get(j * ranked.length + i) ?? secretAgainst(kind, bands[j]!, ranked[i]!.record!, above[i]!);
  ranked.forEach((v, i) => {
    // Only a world position bounds anything here.
    if (!v.worldPosition) return;
    // `ranked` is in rank order and a visible rank is 1 + those strictly ahead: they are the slice before it.
    const visibleAhead = (): readonly C[] => ranked.slice(0, visibleRanks[i]! - 1);
    boundByWorldPosition(v, visibleAhead, secret, (j) => orderOf(j, i), (j, o) => {
      count(j, i, orderOf(j, i), -1);
      bounded.set(j * ranked.length + i, o);
      count(j, i, o, 1);
    });
  });

  const visible = ranked.map((_, i) => {
    const ahead = visibleRanks[i]! - 1 + secretAhead[i]!;
    return { min: ahead + 1, max: ahead + secretUnknown[i]! + 1 };
  });
  return {
    visible,
    secret: secret.map((_, j) => {
      let ahead = visibleBehind[j]!;
      let unknown = visibleUnknown[j]!;
      medals.forEach((theirs, k) => {
        if (k === j) return;
        // Medals bound results in bands that do not overlap: a higher medal is ahead; the same medal is not known.
        if (theirs > medals[j]!) ahead += 1;
        else if (theirs === medals[j]!) unknown += 1;
      });
      return { min: ahead + 1, max: ahead + unknown + 1 };
    }),
  };
}

/**
 * Whether each visible entry's time is surely at or above the threshold (in `ranked`'s order). Every visible record is, but the reader's own
 * (the service never hides it). With the reader known, that is every record but theirs, and theirs too when a
 * record that is not theirs is as fast. With the reader not known, at most one record is theirs: so every record
 * with another visible one at least as fast.
 */
function thresholdSide(ranked: readonly Contender<unknown>[], viewerKnown: boolean): boolean[] {
  const timed = ranked.filter((v) => known(v.record!.time));
  // Linear, not a scan per record (the export ranks every map): another record at least as fast is the fastest time,
  // or the second fastest when v holds the fastest (a tie counts twice).
  let fastest = Number.POSITIVE_INFINITY;
  let second = Number.POSITIVE_INFINITY;
  let fastestOther = Number.POSITIVE_INFINITY;
  for (const v of timed) {
    const t = v.record!.time!;
    if (t < fastest) [second, fastest] = [fastest, t];
    else if (t < second) second = t;
    if (!v.isViewer) fastestOther = Math.min(fastestOther, t);
  }
  return ranked.map((v) => {
    const t = v.record!.time;
    // (With the reader known only their record can be under the threshold: it is sure when another's is as fast.)
    return known(t) && (viewerKnown ? !v.isViewer || fastestOther <= t : (t === fastest ? second : fastest) <= t);
  });
}

/** A secret entry (its result within `band`, its time below the threshold) against one visible record. */
function secretAgainst(kind: MapKind, band: { lo: number; hi: number } | null, visible: RecordResult, visibleAtOrAbove: boolean): Order {
  switch (unitOf(kind)) {
    case 'time':
      if (visibleAtOrAbove) return 'ahead';
      if (!band) return 'unknown';
      return band.hi < visible.time! ? 'ahead' : band.lo > visible.time! ? 'behind' : 'unknown';
    case 'points': {
      // The threshold is a time: it says nothing of points. Only the medal can.
      if (!band || !known(visible.score)) return 'unknown';
      return band.lo > visible.score ? 'ahead' : band.hi < visible.score ? 'behind' : 'unknown';
    }
    case 'respawns': {
      // Fewer respawns first, then the time: with as many respawns, a time below the threshold is ahead.
      if (!band) return 'unknown';
      const respawns = known(visible.respawnCount) ? visible.respawnCount : Number.POSITIVE_INFINITY;
      if (band.hi < respawns || (band.hi <= respawns && visibleAtOrAbove)) return 'ahead';
      return band.lo > respawns ? 'behind' : 'unknown';
    }
  }
}

/**
 * A visible record's world position says at most `position - 1` records were ahead of it when it was asked. Entries
 * set before then count in it; when those known to be ahead fill it, the secret entries not known are behind.
 */
function boundByWorldPosition(
  visible: Contender<unknown>,
  visibleAhead: () => readonly Contender<unknown>[],
  secret: readonly Contender<unknown>[],
  get: (j: number) => Order,
  set: (j: number, o: Order) => void,
): void {
  const asked = visible.worldPosition;
  if (!asked || !Number.isInteger(asked.position) || asked.position < 1) return;
  const before = (s: Contender<unknown>): boolean => (s.record!.timestamp ?? '') !== '' && s.record!.timestamp! <= asked.asOf;
  const aheadBefore = visibleAhead().filter(before).length + secret.filter((h, j) => before(h) && get(j) === 'ahead').length;
  if (aheadBefore < asked.position - 1) return;
  secret.forEach((h, j) => {
    if (before(h) && get(j) === 'unknown') set(j, 'behind');
  });
}

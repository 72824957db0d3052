// The seed's rules, applied for the caller: game modes, sentinels. What an ID looks like is shared/ids.ts.
import { mapKind } from '../../../shared/leaderboard.ts';
import { SENTINEL_U32, type GameMode, type MapInfo, type PlayerRecord } from '../../model.ts';
import type { MapInfoWire, MapRecordWire } from './schemas.ts';

/**
 * The game mode the records endpoint needs (seed 4.2 rules 3-5): Stunt and Platform maps by type; a Race map
 * with clones read without a season needs TimeAttackClone; everything else TimeAttack. Always sent.
 */
export function gameModeFor(map: Pick<MapInfo, 'mapType' | 'hasClones'>, opts: { seasonId?: string | undefined } = {}): GameMode {
  const kind = mapKind(map);
  if (kind === 'stunt') return 'Stunt';
  if (kind === 'platform') return 'Platform';
  if (map.hasClones && !opts.seasonId) return 'TimeAttackClone';
  return 'TimeAttack';
}

/** Sorts caller-supplied keys into unique valid ones (normalised) and invalid ones, keeping the caller's spelling. */
export function triageKeys(
  input: readonly string[],
  isValid: (s: string) => boolean,
  normalise: (s: string) => string,
): { keys: string[]; original: Map<string, string>; invalid: string[] } {
  const original = new Map<string, string>();
  const invalid: string[] = [];
  const seenInvalid = new Set<string>();
  for (const raw of input) {
    const value = typeof raw === 'string' ? raw.trim() : String(raw);
    if (!isValid(value)) {
      if (!seenInvalid.has(raw)) {
        seenInvalid.add(raw);
        invalid.push(raw);
      }
      continue;
    }
    const key = normalise(value);
    if (!original.has(key)) original.set(key, raw);
  }
  return { keys: [...original.keys()], original, invalid };
}

export function toMapInfo(w: MapInfoWire): MapInfo {
  return {
    mapId: w.mapId,
    mapUid: w.mapUid,
    name: w.name,
    author: w.author,
    submitter: w.submitter,
    authorScore: w.authorScore,
    goldScore: w.goldScore,
    silverScore: w.silverScore,
    bronzeScore: w.bronzeScore,
    mapType: w.mapType,
    mapStyle: w.mapStyle,
    collectionName: w.collectionName,
    filename: w.filename,
    hasClones: w.hasClones,
    isPlayable: w.isPlayable,
    createdWithGamepadEditor: w.createdWithGamepadEditor,
    createdWithSimpleEditor: w.createdWithSimpleEditor,
    timestamp: w.timestamp,
    fileUrl: w.fileUrl,
    thumbnailUrl: w.thumbnailUrl,
  };
}

/**
 * Turns the wire's sentinels into meaning: a hidden entry (2^32-1 in its time, or in its score as hidden Stunt
 * entries may carry) is `hidden: true, time: null, score: 0`; an untracked respawn count is null.
 */
export function toPlayerRecord(w: MapRecordWire): PlayerRecord {
  const hidden = w.recordScore.time === SENTINEL_U32 || w.recordScore.score === SENTINEL_U32;
  return {
    mapRecordId: w.mapRecordId,
    mapId: w.mapId,
    accountId: w.accountId,
    gameMode: w.gameMode,
    gameModeCustomData: w.gameModeCustomData,
    scopeType: w.scopeType,
    scopeId: w.scopeId,
    time: hidden ? null : w.recordScore.time,
    hidden,
    score: hidden ? 0 : w.recordScore.score,
    respawnCount: w.recordScore.respawnCount === SENTINEL_U32 ? null : w.recordScore.respawnCount,
    medal: w.medal,
    removed: w.removed,
    timestamp: w.timestamp,
    url: w.url,
    filename: w.filename,
  };
}

// The seed's two lookups (section 4) and their successors (docs/nadeo-api.md), answering from the dataset index.
import { json, notFoundError, redirect, text, validationError, type Answer } from './answers.ts';
import { UUID_PATTERN, type DatasetMap, type DatasetRecord } from './dataset.ts';
import { expandUrl, mapFileUrl, replayUrl, thumbnailUrl, type DatasetIndex } from './lookup.ts';
import { fnv1a } from './prng.ts';
import { isHiddenFrom, kindOf, personalBestGameMode, SENTINEL_U32 } from './rules.ts';
import { crowdRecordOf } from './world.ts';

/** Answers do not follow request order (docs/nadeo-api.md): a stable hash order that ignores how the request listed things. */
function shuffled<T>(items: T[], key: (item: T) => string): T[] {
  return items
    .map((item) => ({ item, rank: fnv1a(key(item), 0x1b873593) }))
    .sort((a, b) => a.rank - b.rank)
    .map((x) => x.item);
}

/** The map lookup's text for an invalid UUID (seed 4.1 rule 4). */
const INVALID_UUID = 'Invalid uuid.';

/**
 * Where a map's file and thumbnail are said to be: the seed's route gives the storage objects themselves; the
 * successors give `{base}/maps/<mapId>/file` and `.../thumbnail.jpg`, which redirect to them (docs/nadeo-api.md).
 */
function fileAddresses(map: DatasetMap, origin: string, route: MapsRoute): { fileUrl: string; thumbnailUrl: string } {
  if (route === 'seed') return { fileUrl: expandUrl(mapFileUrl(map), origin), thumbnailUrl: expandUrl(thumbnailUrl(map), origin) };
  return { fileUrl: `${origin}/maps/${map.mapId}/file`, thumbnailUrl: `${origin}/maps/${map.mapId}/thumbnail.jpg` };
}

/** GET /maps/<mapId>/file and /maps/<mapId>/thumbnail.jpg: a redirect to the stored object. */
export function mapFileRedirect(index: DatasetIndex, mapId: string, file: 'file' | 'thumbnail', origin: string): Answer {
  const map = UUID_PATTERN.test(mapId) ? index.mapById(mapId) : undefined;
  if (!map) return text(404, 'Not Found');
  return redirect(expandUrl(file === 'file' ? mapFileUrl(map) : thumbnailUrl(map), origin));
}

function wireMap(map: DatasetMap, origin: string, route: MapsRoute): Record<string, unknown> {
  const { fileUrl, thumbnailUrl: thumbnail } = fileAddresses(map, origin, route);
  return {
    author: map.author,
    authorScore: map.authorScore,
    bronzeScore: map.bronzeScore,
    collectionName: map.collectionName,
    createdWithGamepadEditor: map.createdWithGamepadEditor,
    createdWithSimpleEditor: map.createdWithSimpleEditor,
    fileUrl,
    filename: map.filename,
    goldScore: map.goldScore,
    hasClones: map.hasClones,
    isPlayable: map.isPlayable,
    mapId: map.mapId,
    mapStyle: map.mapStyle,
    mapType: map.mapType,
    mapUid: map.mapUid,
    name: map.name,
    silverScore: map.silverScore,
    submitter: map.submitter,
    thumbnailUrl: thumbnail,
    timestamp: map.timestamp,
  };
}

/**
 * A hidden entry shows no time, no score and no respawn count: map-page.md says a secret record shows SECRET as its
 * score. The seed puts 4294967295 in time; score (the Stunt points) and respawnCount (what Platform ranks by) get it too.
 */
function servedScore(map: DatasetMap, record: DatasetRecord, caller: string | undefined): DatasetRecord['recordScore'] {
  const { respawnCount, score, time } = record.recordScore;
  if (!isHiddenFrom(map, record, caller)) return { respawnCount, score, time };
  return { respawnCount: SENTINEL_U32, score: kindOf(map) === 'stunt' ? SENTINEL_U32 : score, time: SENTINEL_U32 };
}

function wireRecord(map: DatasetMap, record: DatasetRecord, origin: string, caller: string | undefined): Record<string, unknown> {
  return {
    accountId: record.accountId,
    filename: record.filename,
    gameMode: record.gameMode,
    gameModeCustomData: record.gameModeCustomData,
    mapId: record.mapId,
    mapRecordId: record.mapRecordId,
    medal: record.medal,
    recordScore: servedScore(map, record, caller),
    removed: record.removed,
    scopeId: record.scopeId,
    scopeType: record.scopeType,
    timestamp: record.timestamp,
    url: expandUrl(replayUrl(record), origin),
  };
}

/** A list parameter's items; an absent or empty parameter gives none. */
function listParam(query: URLSearchParams, name: string): string[] | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value.split(',');
}

function mapsByIds(index: DatasetIndex, ids: string[], origin: string, route: MapsRoute, dropInvalid: boolean): Answer {
  if (!dropInvalid && ids.some((id) => !UUID_PATTERN.test(id))) return validationError({ mapIdList: INVALID_UUID });
  const found = new Map<string, DatasetMap>();
  for (const id of ids) {
    const map = UUID_PATTERN.test(id) ? index.mapById(id) : undefined;
    if (map) found.set(map.mapId, map);
  }
  return json(200, shuffled([...found.values()], (m) => m.mapId).map((m) => wireMap(m, origin, route)));
}

function mapsByUids(index: DatasetIndex, uids: string[], origin: string, route: MapsRoute): Answer {
  const found = new Map<string, DatasetMap>();
  // Seed 4.1 rule 3: an invalid or unknown UID is simply left out.
  for (const uid of uids) {
    const map = index.mapByUid(uid);
    if (map) found.set(map.mapId, map);
  }
  return json(200, shuffled([...found.values()], (m) => m.mapId).map((m) => wireMap(m, origin, route)));
}

export type MapsRoute = 'seed' | 'by-id' | 'by-uid';

/** GET /maps/ (seed 4.1), /maps/by-id/ and /maps/by-uid/ (its successors). */
export function lookUpMaps(index: DatasetIndex, route: MapsRoute, query: URLSearchParams, origin: string, byIdDropsInvalid: boolean): Answer {
  const ids = route === 'by-uid' ? undefined : listParam(query, 'mapIdList');
  const uids = route === 'by-id' ? undefined : listParam(query, 'mapUidList');
  // Seed 4.1 rule 1: only one parameter is used. When both are given, mapIdList wins and mapUidList is ignored.
  if (ids) return mapsByIds(index, ids, origin, route, route === 'by-id' && byIdDropsInvalid);
  if (uids) return mapsByUids(index, uids, origin, route);
  if (route === 'by-uid') return validationError({ mapUidList: 'mapUidList is required.' });
  return validationError({ mapIdList: route === 'by-id' ? 'mapIdList is required.' : 'mapIdList or mapUidList is required.' });
}

/** The leaderboards that answer a race map's request, first match per account wins. */
function raceModes(seasonId: string | null, gameMode: string | undefined): string[] {
  // Seed 4.2 rule 4: personal bests of a map with clones are stored under TimeAttackClone, so any other mode
  // (or none) finds nothing there and answers an empty array.
  if (seasonId === null) return [gameMode ?? 'TimeAttack'];
  // Rule 4 binds only without seasonId: a season's leaderboard answers with or without the clone mode.
  if (gameMode === undefined || gameMode === 'TimeAttack') return ['TimeAttack', 'TimeAttackClone'];
  if (gameMode === 'TimeAttackClone') return ['TimeAttackClone', 'TimeAttack'];
  return [gameMode];
}

/** GET /v2/mapRecords/ (seed 4.2) and /v2/mapRecords/by-account/ (its successor). */
/**
 * `caller`: the account the request's token acts for, whose own records are never hidden. The crowd's best players
 * (world.ts CROWD_RECORDS) have personal bests here too: the top route names them, and their records must exist.
 */
export function lookUpRecords(index: DatasetIndex, query: URLSearchParams, origin: string, caller?: string, now: () => number = Date.now): Answer {
  const mapId = query.get('mapId') ?? '';
  const accounts = listParam(query, 'accountIdList');
  const seasonId = query.get('seasonId') || null;
  const gameMode = query.get('gameMode') || undefined;

  const info: string[] = [];
  if (!UUID_PATTERN.test(mapId)) info.push('mapId: Invalid uuid.');
  if (!accounts || accounts.some((id) => !UUID_PATTERN.test(id))) info.push('accountIdList: Invalid account id.');
  if (seasonId === 'Personal_Best') info.push('seasonId: Personal_Best is not accepted; omit seasonId to read personal bests.');
  if (info.length > 0 || !accounts) return validationError(info);

  const map = index.mapById(mapId);
  if (!map) return notFoundError();
  let modes: string[];
  const kind = kindOf(map);
  if (kind === 'stunt' || kind === 'platform') {
    // Seed 4.2 rule 3: the map's own mode or the not-found error.
    const own = kind === 'stunt' ? 'Stunt' : 'Platform';
    if (gameMode !== own) return notFoundError();
    modes = [own];
  } else {
    modes = raceModes(seasonId, gameMode);
  }

  const found = new Map<string, DatasetRecord>();
  for (const accountId of accounts) {
    const account = accountId.toLowerCase();
    if (found.has(account)) continue;
    for (const mode of modes) {
      const record = index.record(map.mapId, seasonId, mode, account);
      if (record) {
        found.set(account, record);
        break;
      }
    }
    if (!found.has(account) && seasonId === null && map.population && modes.includes(personalBestGameMode(map))) {
      const crowd = crowdRecordOf(map, account, now());
      if (crowd) found.set(account, crowd);
    }
  }
  return json(200, shuffled([...found.values()], (r) => r.accountId).map((r) => wireRecord(map, r, origin, caller)));
}

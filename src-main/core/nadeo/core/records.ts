// Records of many accounts on one map (seed 4.2): the game mode the map needs, accounts packed by URI length,
// answers checked value by value; a map the service does not know is said in the player's words.
import type { GameMode, MapInfo, PlayerRecord } from '../../model.ts';
import { packByLength } from '../http/batching.ts';
import { ErrorCode, HttpError, InputError } from '../http/errors.ts';
import { runLookup } from '../http/lookup.ts';
import { parseBody } from '../http/parse.ts';
import type { RouteDef } from '../http/route-choice.ts';
import { checkRecords, type RejectedRecord } from './checks.ts';
import { getJson, type CoreContext } from './context.ts';
import { isSendableId, isUuid } from '../../../shared/ids.ts';
import { gameModeFor, toPlayerRecord, triageKeys } from './rules.ts';
import { MapRecordListWire } from './schemas.ts';

const lower = (s: string) => s.toLowerCase();

function checkSeasonId(seasonId: string | undefined): void {
  if (seasonId === undefined) return;
  if (seasonId.toLowerCase() === 'personal_best') {
    throw new InputError("seasonId 'Personal_Best' is not accepted by the service: omit seasonId to read personal bests.");
  }
  if (!isSendableId(seasonId)) throw new InputError(`"${seasonId.slice(0, 60)}" is not a season ID.`);
}

/** The exact request-target of a records request for `keys` on `route`. */
function targetBuilder(ctx: CoreContext, mapId: string, gameMode: GameMode, seasonId: string | undefined): (route: RouteDef, keys: readonly string[]) => string {
  return (route, keys) =>
    `${ctx.api.basePath}${route.path}?${route.listParam}=${keys.join(',')}&mapId=${mapId}${seasonId ? `&seasonId=${seasonId}` : ''}&gameMode=${gameMode}`;
}

/**
 * How many requests getRecords would send for these accounts on this map now (the route and URI limit it knows),
 * without sending any: a caller can tell whether one more account still fits in the same requests.
 */
export function recordRequestCount(
  ctx: CoreContext,
  map: Pick<MapInfo, 'mapId' | 'mapType' | 'hasClones'>,
  accountIds: readonly string[],
  o: { seasonId?: string | undefined } = {},
): number {
  if (!isUuid(map.mapId)) throw new InputError(`"${String(map.mapId).slice(0, 60)}" is not a map ID (a UUID).`);
  checkSeasonId(o.seasonId);
  const keys = triageKeys(accountIds, isUuid, lower).keys;
  if (keys.length === 0) return 0;
  const build = targetBuilder(ctx, map.mapId.toLowerCase(), gameModeFor(map, { seasonId: o.seasonId }), o.seasonId);
  const route = ctx.routes.records.current();
  return packByLength(keys, { limit: ctx.limits.get(route.label), fixedLength: build(route, []).length }).length;
}

/** `rejected`: records the service sent that were left out, with the reason; the rest of the map is kept. */
export async function getRecords(
  ctx: CoreContext,
  map: Pick<MapInfo, 'mapId' | 'mapType' | 'hasClones'>,
  accountIds: readonly string[],
  o: { signal?: AbortSignal | undefined; seasonId?: string | undefined } = {},
): Promise<{ records: PlayerRecord[]; invalidAccounts: string[]; rejected: RejectedRecord[] }> {
  ctx.conn.ensureOpen();
  if (!isUuid(map.mapId)) {
    throw new InputError(`"${String(map.mapId).slice(0, 60)}" is not a map ID (a UUID). Records are read by map ID; look the UID up with getMapsByUid first.`);
  }
  const seasonId = o.seasonId;
  checkSeasonId(seasonId);
  const gameMode: GameMode = gameModeFor(map, { seasonId });
  const mapId = map.mapId.toLowerCase();
  const t = triageKeys(accountIds, isUuid, lower);
  const rejected = new Set<string>();
  const build = targetBuilder(ctx, mapId, gameMode, seasonId);
  let wire;
  try {
    wire = await runLookup({
      keys: t.keys,
      routes: ctx.routes.records,
      limits: ctx.limits,
      build,
      signal: o.signal,
      onInvalid: (k) => rejected.add(k),
      fetch: async (route, target, _keys, s) => parseBody(MapRecordListWire, await getJson(ctx, route, target, s), route.label, 'records'),
    });
  } catch (e) {
    if (e instanceof HttpError && e.code === ErrorCode.NOT_FOUND) {
      throw new HttpError(
        ErrorCode.NOT_FOUND,
        `${e.route}: map ${mapId} was not found with game mode ${gameMode} (${e.apiCode ?? e.status}). Check the map's type; it may have been deleted.`,
        { status: e.status, method: e.method, route: e.route, apiError: e.apiCode ? { code: e.apiCode, correlation_id: e.correlationId } : undefined, targetLength: e.targetLength },
        { cause: e },
      );
    }
    throw e;
  }
  const checked = checkRecords(wire, { mapId, accounts: t.original, seasonId });
  const byAccount = new Map<string, PlayerRecord>();
  for (const w of checked.kept) byAccount.set(w.accountId.toLowerCase(), toPlayerRecord(w));
  const records: PlayerRecord[] = [];
  const invalidAccounts: string[] = [...t.invalid];
  for (const key of t.keys) {
    const r = byAccount.get(key);
    if (r) records.push(r);
    else if (rejected.has(key)) invalidAccounts.push(t.original.get(key)!);
  }
  return { records, invalidAccounts, rejected: checked.rejected };
}

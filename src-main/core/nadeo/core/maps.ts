// Map info by UID and by map ID (seed 4.1): keys triaged, packed by URI length, answers checked value by value.
import type { MapInfo } from '../../model.ts';
import { runLookup } from '../http/lookup.ts';
import { parseBody } from '../http/parse.ts';
import { checkMaps, type RejectedMap } from './checks.ts';
import { getJson, listTarget, type CoreContext } from './context.ts';
import { isSendableId, isUuid } from '../../../shared/ids.ts';
import { toMapInfo, triageKeys } from './rules.ts';
import { MapInfoListWire, type MapInfoWire } from './schemas.ts';

const lower = (s: string) => s.toLowerCase();
const same = (s: string) => s;

function fetchMaps(
  ctx: CoreContext,
  family: 'mapsByUid' | 'mapsById',
  keys: string[],
  signal: AbortSignal | undefined,
  onInvalid: (k: string) => void,
): Promise<MapInfoWire[]> {
  return runLookup<MapInfoWire>({
    keys,
    routes: ctx.routes[family],
    limits: ctx.limits,
    build: (route, k) => listTarget(ctx, route, k),
    signal,
    onInvalid,
    fetch: async (route, target, _keys, s) => parseBody(MapInfoListWire, await getJson(ctx, route, target, s), route.label, 'maps'),
  });
}

/** `rejected`: maps the service sent with values out of range (issue 9 §4); neither kept nor "not found". */
export async function getMapsByUid(
  ctx: CoreContext,
  uids: readonly string[],
  o: { signal?: AbortSignal | undefined } = {},
): Promise<{ maps: MapInfo[]; notFound: string[]; rejected: RejectedMap[] }> {
  ctx.conn.ensureOpen();
  const t = triageKeys(uids, isSendableId, same);
  // A UID the service rejects outright is simply not found, like an unknown one (seed 4.1 rule 3).
  const wire = await fetchMaps(ctx, 'mapsByUid', t.keys, o.signal, () => {});
  const { kept, rejected } = checkMaps(wire, t.original, (w) => w.mapUid, 'mapUid');
  const refused = new Set(rejected.map((r) => r.mapUid));
  const found: MapInfo[] = [];
  const notFound: string[] = [...t.invalid];
  for (const key of t.keys) {
    const m = kept.get(key);
    if (m) found.push(toMapInfo(m));
    else if (!refused.has(t.original.get(key))) notFound.push(t.original.get(key)!);
  }
  return { maps: found, notFound, rejected };
}

export async function getMapsById(
  ctx: CoreContext,
  ids: readonly string[],
  o: { signal?: AbortSignal | undefined } = {},
): Promise<{ maps: MapInfo[]; notFound: string[]; invalid: string[]; rejected: RejectedMap[] }> {
  ctx.conn.ensureOpen();
  const t = triageKeys(ids, isUuid, lower);
  const rejected = new Set<string>();
  const wire = await fetchMaps(ctx, 'mapsById', t.keys, o.signal, (k) => rejected.add(k));
  const checked = checkMaps(wire, t.original, (w) => w.mapId.toLowerCase(), 'mapId');
  const refused = new Set(checked.rejected.map((r) => r.mapId));
  const found: MapInfo[] = [];
  const notFound: string[] = [];
  const invalid: string[] = [...t.invalid];
  for (const key of t.keys) {
    const m = checked.kept.get(key);
    if (m) found.push(toMapInfo(m));
    else if (rejected.has(key)) invalid.push(t.original.get(key)!);
    else if (!refused.has(t.original.get(key))) notFound.push(t.original.get(key)!);
  }
  return { maps: found, notFound, invalid, rejected: checked.rejected };
}

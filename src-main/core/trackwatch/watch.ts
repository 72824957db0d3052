// Maps added to a watchlist from whatever the player pasted (UIDs, IDs, links), looked up at once so the player
// learns which the service does not know.
import { expandExchangeLinks } from '../map-links.ts';
import { parseSourceLink, type ExchangeClient, type NadeoClient } from '../nadeo/index.ts';
import { parseMapRefs } from '../refs.ts';
import type { Store } from '../store/index.ts';

export interface AddMapsOutcome {
  /** Refs added to the list (UIDs, else IDs). */
  added: string[];
  alreadyListed: string[];
  /** Refs the service does not know. */
  notFound: string[];
  /** Text that names no map, with the reason. */
  invalid: { input: string; reason: string }[];
}

export interface AddMapsOptions {
  signal?: AbortSignal | undefined;
  lookUp?: boolean;
  /** The list must not exist yet: it is made with its maps, in one transaction (a name taken is a conflict). */
  newList?: boolean;
  /** More writes that belong with these maps, in their transaction (a list's source with the maps it brought). */
  commit?: (outcome: AddMapsOutcome) => void;
}

/** What adding maps needs: the store, and the clients (asked for only when a lookup is due). */
export interface WatchDeps {
  store: Store;
  client: () => NadeoClient;
  exchange: () => ExchangeClient;
}

type MapRef = { mapUid: string } | { mapId: string };

/**
 * Asks the service about the UIDs and IDs not stored yet, and stores what it knows. Returns the refs it does not
 * know, and those whose answer was unusable (a map sent with values out of range: the next sync would refuse it too).
 */
async function lookUp(
  deps: WatchDeps,
  uids: string[],
  ids: string[],
  signal: AbortSignal | undefined,
): Promise<{ notFound: string[]; refused: { input: string; reason: string }[] }> {
  const { store } = deps;
  const unknownUids = uids.filter((uid) => !store.maps.get(uid));
  const unknownIds = ids.filter((id) => !store.maps.get(id));
  const [byUid, byId] = await Promise.all([
    unknownUids.length > 0 ? deps.client().getMapsByUid(unknownUids, { signal }) : undefined,
    unknownIds.length > 0 ? deps.client().getMapsById(unknownIds, { signal }) : undefined,
  ]);
  const fetchedAt = new Date().toISOString();
  if (byUid) store.maps.upsert(byUid.maps, fetchedAt);
  if (byId) store.maps.upsert(byId.maps, fetchedAt);
  const notFound = [...(byUid?.notFound ?? []), ...(byId?.notFound ?? []), ...(byId?.invalid ?? [])];
  const refused = [...(byUid?.rejected ?? []), ...(byId?.rejected ?? [])].map((r) => ({ input: r.mapUid ?? r.mapId ?? '', reason: `the service's answer for it is not usable: ${r.reason}` }));
  return { notFound, refused };
}

/**
 * Adds pasted map refs (UIDs, IDs, links) to a list. Trackmania Exchange map and pack links become UIDs through the
 * Exchange. New UIDs are looked up right away so the player learns at once which the service does not know; IDs
 * and UIDs the service cannot be asked about now stay pending for the next sync.
 */
export async function addMaps(deps: WatchDeps, list: string, refs: string | string[], o: AddMapsOptions = {}): Promise<AddMapsOutcome> {
  const invalid: AddMapsOutcome['invalid'] = [];
  // Offline (no lookUp), an Exchange link stays what parseMapRefs makes of it: refused, with the reason.
  if (o.lookUp !== false && parseMapRefs(refs).some((r) => parseSourceLink(r.input) !== null)) {
    const expanded = await expandExchangeLinks(refs, deps.exchange(), o);
    invalid.push(...expanded.notFound, ...expanded.invalid);
    refs = expanded.refs;
  }
  const parsed = parseMapRefs(refs);
  invalid.push(...parsed.flatMap((r) => (r.kind === 'invalid' ? [{ input: r.input, reason: r.reason }] : [])));
  const uids = [...new Set(parsed.flatMap((r) => (r.kind === 'uid' ? [r.uid] : [])))];
  const ids = [...new Set(parsed.flatMap((r) => (r.kind === 'id' ? [r.id] : [])))];
  const notFound: string[] = [];
  let toAdd: MapRef[] = [...uids.map((mapUid) => ({ mapUid })), ...ids.map((mapId) => ({ mapId }))];
  if (o.lookUp !== false && toAdd.length > 0) {
    const found = await lookUp(deps, uids, ids, o.signal);
    notFound.push(...found.notFound);
    invalid.push(...found.refused);
    const missing = new Set([...found.notFound, ...found.refused.map((r) => r.input)]);
    toAdd = toAdd.filter((r) => !missing.has('mapUid' in r ? r.mapUid : r.mapId));
  }
  const { store } = deps;
  // Looked up first, written after in one transaction: a process killed on the way leaves nothing half made.
  return store.transaction(() => {
    if (o.newList) store.watchlists.create(list);
    else ensureList(store, list);
    const result = store.maps.addRefs(list, toAdd);
    const outcome: AddMapsOutcome = {
      added: result.added,
      alreadyListed: result.alreadyListed,
      notFound,
      invalid: [...invalid, ...result.invalid.map((i) => ({ input: i.ref.mapUid ?? i.ref.mapId ?? '', reason: i.reason }))],
    };
    o.commit?.(outcome);
    return outcome;
  });
}

/** A list named by the player is made on first use. */
function ensureList(store: Store, list: string): void {
  if (!store.watchlists.get(list)) store.watchlists.create(list);
}

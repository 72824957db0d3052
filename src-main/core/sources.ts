// Lists made from what players play: a seasonal campaign, a Track of the Day month, a club campaign or a Trackmania
// Exchange map pack. Creating one resolves the source, looks its maps up like pasted UIDs and remembers the source;
// a later refresh adds the maps that appeared since (a new Track of the Day) and never those the player removed.
import {
  formatListSource,
  InputError,
  parseListSource,
  resolveListSource,
  SourceError,
  type ListSource,
  type SourceClients,
} from './nadeo/index.ts';
import { printable, stripFormatting } from '../shared/format.ts';
import { StoreError, StoreErrorCode, watchlistName } from './store/index.ts';
import type { MapsRepo, WatchlistsRepo } from './store/index.ts';
import type { SourcesRepo } from './store/sources.ts';

/** What adding UIDs to a list reports (Trackwatch.addMaps): the labels are the UIDs given. */
export interface AddedMaps {
  added: string[];
  alreadyListed: string[];
  /** UIDs the Core service does not know. */
  notFound: string[];
}

export interface SourceDeps {
  store: { watchlists: WatchlistsRepo; maps: MapsRepo; sources: SourcesRepo };
  clients: SourceClients;
  /**
   * Looks UIDs up through the Core service's map lookup and adds the known ones to the list (Trackwatch.addMaps):
   * `newList` makes the list with them, and `commit` writes what belongs with them, all in one transaction.
   */
  addMaps: (
    list: string,
    mapUids: string[],
    o: { signal?: AbortSignal | undefined; newList?: boolean; commit?: (outcome: AddedMaps) => void },
  ) => Promise<AddedMaps>;
}

export interface ListFromSource {
  list: string;
  /** What the list is, in the player's words ("Fall 2026", "Track of the Day 2026-11"). */
  title: string;
  /** The source as given, and pinned down ("campaign:current" → "campaign:Fall 2026"), in their text forms. */
  source: string;
  pinned: string;
  /** Map UIDs added, in the source's order. */
  added: string[];
  /** Map UIDs the Core service does not know yet: left out now, tried again by the next sync. */
  notFound: string[];
  /** Things worth telling the player (days still to come...). */
  notes: string[];
}

export interface SourceRefresh {
  list: string;
  title: string;
  /** Map UIDs new in the source since it was last resolved, now in the list. */
  added: string[];
  notFound: string[];
  notes: string[];
}

/** Of `uids`, those now in the list: what the source brought. The others are tried again by the next resolve. */
function listed(uids: readonly string[], outcome: AddedMaps): string[] {
  const inList = new Set([...outcome.added, ...outcome.alreadyListed]);
  return uids.filter((uid) => inList.has(uid));
}

/** Reads a source as the player wrote it; a bad one is an InputError saying which forms there are. */
export function readListSource(text: string): ListSource {
  const parsed = parseListSource(text);
  if (!parsed.ok) throw new InputError(`Not a list source: ${parsed.reason}.`);
  return parsed.source;
}

/** A list named after its source: the title as shown, without formatting codes or control characters, cut to fit. */
function defaultListName(title: string): string {
  const plain = [...printable(stripFormatting(title))].slice(0, 64).join('').trim();
  return watchlistName(plain === '' ? 'New list' : plain);
}

function conflict(name: string): StoreError {
  return new StoreError(StoreErrorCode.CONFLICT, `a list named "${name}" already exists; choose another name`);
}

function notFoundNote(count: number, title: string): string[] {
  if (count === 0) return [];
  const maps = count === 1 ? '1 map' : `${count} maps`;
  return [`${maps} of ${title} ${count === 1 ? 'is' : 'are'} not known to the map lookup yet; the next sync tries again.`];
}

/**
 * Makes a new list from a source: resolves it (Live services or the Exchange), adds its maps through the map lookup
 * and remembers the source. The list is named `name`, or after the source ("Fall 2026"). Nothing is left behind
 * when it fails: an unknown source, a list name taken, the service unreachable.
 */
export async function createListFromSource(
  deps: SourceDeps,
  request: { source: string | ListSource; name?: string | undefined },
  o: { signal?: AbortSignal | undefined } = {},
): Promise<ListFromSource> {
  const source = typeof request.source === 'string' ? readListSource(request.source) : request.source;
  const given = request.name === undefined ? undefined : watchlistName(request.name);
  if (given !== undefined && deps.store.watchlists.get(given)) throw conflict(deps.store.watchlists.get(given)!.name);
  const resolved = await resolveListSource(source, deps.clients, o);
  const name = given ?? defaultListName(resolved.title);
  // A name taken is said before the maps are looked up; the list is made with its maps and its source, in one go.
  const taken = deps.store.watchlists.get(name);
  if (taken) throw conflict(taken.name);
  const text = { source: formatListSource(source), pinned: formatListSource(resolved.pinned), title: resolved.title };
  let list = name;
  const outcome = await deps.addMaps(name, resolved.mapUids, {
    ...o,
    newList: true,
    commit: (added) => {
      // A source none of whose maps could be added makes no empty list (the README's promise): all is rolled back.
      if (added.added.length === 0) {
        const invalid = resolved.mapUids.length - added.alreadyListed.length - added.notFound.length;
        const why = invalid === 0 ? 'the map lookup knows none of them'
          : added.notFound.length === 0 ? 'none of them is a map UID' : `${invalid} are not map UIDs, the map lookup knows none of the others`;
        throw new SourceError(`None of the ${resolved.mapUids.length} maps of ${printable(resolved.title)} could be added (${why}); no list was created.`);
      }
      const created = deps.store.watchlists.require(name);
      list = created.name;
      deps.store.sources.attach(created.id, text, listed(resolved.mapUids, added));
    },
  });
  return {
    list,
    ...text,
    added: resolved.mapUids.filter((uid) => outcome.added.includes(uid)),
    notFound: outcome.notFound,
    notes: [...resolved.notes, ...notFoundNote(outcome.notFound.length, resolved.title)],
  };
}

/**
 * Resolves a list's source again and adds the maps it brought since: UIDs it never brought before, so a map the
 * player removed stays out. Undefined for a list that follows no source.
 */
export async function refreshListSource(deps: SourceDeps, list: string | number, o: { signal?: AbortSignal | undefined } = {}): Promise<SourceRefresh | undefined> {
  const stored = deps.store.sources.get(list);
  if (!stored) return undefined;
  const resolved = await resolveListSource(readListSource(stored.pinned), deps.clients, { ...o, title: stored.title });
  const fresh = deps.store.sources.notYetBrought(stored.listId, resolved.mapUids);
  const record = (outcome: AddedMaps): void => {
    deps.store.sources.recordResolved(stored.listId, { pinned: formatListSource(resolved.pinned), title: resolved.title, brought: listed(fresh, outcome) });
  };
  const none: AddedMaps = { added: [], alreadyListed: [], notFound: [] };
  // The new maps and what the source brought are written together: a kill between them cannot add a map twice.
  const outcome = fresh.length > 0 ? await deps.addMaps(stored.list, fresh, { ...o, commit: record }) : (record(none), none);
  return {
    list: stored.list,
    title: resolved.title,
    added: fresh.filter((uid) => outcome.added.includes(uid)),
    notFound: outcome.notFound,
    notes: [...resolved.notes, ...notFoundNote(outcome.notFound.length, resolved.title)],
  };
}

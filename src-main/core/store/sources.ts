// Lists made from a source (a campaign, a Track of the Day month, a club campaign, an Exchange pack): the source,
// and every map UID it brought, so that resolving it again adds only what is new and never what the player removed.
import type { RepoContext } from './context.ts';
import { invalidInput } from './errors.ts';
import { describe, mapUid as checkMapUid } from './ids.ts';
import type { WatchlistRef } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

/** How long a source's text or title may be: a campaign name, a club campaign's name. */
export const SOURCE_TEXT_MAX = 200;

export interface ListSourceInput {
  /** The source as the player gave it, in its text form (formatListSource): 'campaign:current'. */
  source: string;
  /** The same source pinned down, what a later resolve reads: 'campaign:Fall 2026'. */
  pinned: string;
  /** What the list is, in the player's words: 'Fall 2026'. */
  title: string;
}

export interface StoredListSource extends ListSourceInput {
  listId: number;
  list: string;
  createdAt: string;
  resolvedAt: string;
  /** Map UIDs the source brought, in all. */
  broughtMaps: number;
}

interface SourceRow {
  watchlist_id: number;
  list: string;
  source: string;
  pinned: string;
  title: string;
  created_at: string;
  resolved_at: string;
  brought: number;
}

const SOURCE_SELECT = `SELECT s.watchlist_id, w.name AS list, s.source, s.pinned, s.title, s.created_at, s.resolved_at,
    (SELECT count(*) FROM list_source_maps b WHERE b.watchlist_id = s.watchlist_id) AS brought
  FROM list_sources s JOIN watchlists w ON w.id = s.watchlist_id`;

function toSource(row: SourceRow): StoredListSource {
  return {
    listId: row.watchlist_id,
    list: row.list,
    source: row.source,
    pinned: row.pinned,
    title: row.title,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    broughtMaps: row.brought,
  };
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw invalidInput(`a list source's ${what} must be text`);
  const clean = value.normalize('NFC').trim();
  if (clean === '') throw invalidInput(`a list source needs a ${what}`);
  if ([...clean].length > SOURCE_TEXT_MAX) throw invalidInput(`a list source's ${what} is at most ${SOURCE_TEXT_MAX} characters`);
  if (/\p{Cc}/u.test(clean)) throw invalidInput(`a list source's ${what} cannot hold control characters: ${describe(clean)}`);
  return clean;
}

export class SourcesRepo {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #upsert;
  readonly #resolved;
  readonly #bring;
  readonly #byList;
  readonly #all;
  readonly #broughtOf;
  readonly #removedOf;
  readonly #detach;

  constructor(ctx: RepoContext, lists: WatchlistsRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    const { db } = ctx;
    // A list given a new source starts over: the maps the old one brought are no longer "brought by the source".
    this.#upsert = db.prepare<[number, string, string, string, string, string]>(
      `INSERT INTO list_sources (watchlist_id, source, pinned, title, created_at, resolved_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (watchlist_id) DO UPDATE SET source = excluded.source, pinned = excluded.pinned,
         title = excluded.title, created_at = excluded.created_at, resolved_at = excluded.resolved_at`,
    );
    this.#resolved = db.prepare<[string, string, string, number]>(
      'UPDATE list_sources SET pinned = ?, title = ?, resolved_at = ? WHERE watchlist_id = ?',
    );
    this.#bring = db.prepare<[number, string, string]>(
      'INSERT OR IGNORE INTO list_source_maps (watchlist_id, map_uid, added_at) VALUES (?, ?, ?)',
    );
    this.#byList = db.prepare<[number], SourceRow>(`${SOURCE_SELECT} WHERE s.watchlist_id = ?`);
    this.#all = db.prepare<[], SourceRow>(`${SOURCE_SELECT} ORDER BY w.name, w.id`);
    this.#broughtOf = db.prepare<[number], { map_uid: string }>(
      'SELECT map_uid FROM list_source_maps WHERE watchlist_id = ? ORDER BY added_at, map_uid',
    );
    // Brought, and no longer in the list either resolved or pending.
    this.#removedOf = db.prepare<[number], { map_uid: string }>(
      `SELECT b.map_uid FROM list_source_maps b
       WHERE b.watchlist_id = ?
         AND NOT EXISTS (SELECT 1 FROM watchlist_maps wm JOIN maps m ON m.id = wm.map_ref
                         WHERE wm.watchlist_id = b.watchlist_id AND m.map_uid = b.map_uid)
         AND NOT EXISTS (SELECT 1 FROM watchlist_maps wm WHERE wm.watchlist_id = b.watchlist_id AND wm.pending_uid = b.map_uid)
       ORDER BY b.added_at, b.map_uid`,
    );
    this.#detach = db.prepare<[number]>('DELETE FROM list_sources WHERE watchlist_id = ?');
  }

  /**
   * Remembers that `list` follows a source, and the map UIDs it brought now. A list that followed another source
   * forgets it and what it brought.
   */
  attach(list: WatchlistRef, input: ListSourceInput, brought: readonly string[], at: string = this.#ctx.now()): StoredListSource {
    const source = text(input?.source, 'source');
    const pinned = text(input?.pinned, 'pinned source');
    const title = text(input?.title, 'title');
    const uids = brought.map(checkMapUid);
    return this.#ctx.db.transaction((): StoredListSource => {
      const { id } = this.#lists.require(list);
      this.#detach.run(id);
      this.#upsert.run(id, source, pinned, title, at, at);
      for (const uid of uids) this.#bring.run(id, uid, at);
      return toSource(this.#byList.get(id)!);
    })();
  }

  /** After resolving the source again: when, what it is called now, and the UIDs it brought this time. */
  recordResolved(list: WatchlistRef, update: { pinned: string; title: string; brought: readonly string[] }, at: string = this.#ctx.now()): void {
    const pinned = text(update.pinned, 'pinned source');
    const title = text(update.title, 'title');
    const uids = update.brought.map(checkMapUid);
    this.#ctx.db.transaction(() => {
      const { id, name } = this.#lists.require(list);
      if (this.#resolved.run(pinned, title, at, id).changes === 0) throw invalidInput(`the list ${describe(name)} does not follow a source`);
      for (const uid of uids) this.#bring.run(id, uid, at);
    })();
  }

  /** The list's source, or undefined for a list of maps the player added by hand. */
  get(list: WatchlistRef): StoredListSource | undefined {
    const row = this.#byList.get(this.#lists.require(list).id);
    return row && toSource(row);
  }

  /** Every list that follows a source, by list name. */
  list(): StoredListSource[] {
    return this.#all.all().map(toSource);
  }

  /** Of `uids`, those the list's source never brought, in the order given: what resolving it again should add. */
  notYetBrought(list: WatchlistRef, uids: readonly string[]): string[] {
    const brought = new Set(this.brought(list));
    return [...new Set(uids)].filter((uid) => !brought.has(uid));
  }

  /** Every map UID the list's source brought, oldest first. */
  brought(list: WatchlistRef): string[] {
    return this.#broughtOf.all(this.#lists.require(list).id).map((r) => r.map_uid);
  }

  /** Maps the source brought that the player removed from the list since: resolving it again leaves them out. */
  removed(list: WatchlistRef): string[] {
    return this.#removedOf.all(this.#lists.require(list).id).map((r) => r.map_uid);
  }

  /** The list stops following its source; its maps stay. */
  detach(list: WatchlistRef): boolean {
    return this.#detach.run(this.#lists.require(list).id).changes > 0;
  }
}

// Players: watched accounts (with the player's own nickname for them) and the display names a sync fetched.
import { playerLabel } from '../../shared/leaderboard.ts';
import type { RepoContext } from './context.ts';
import { invalidInput } from './errors.ts';
import { isUuid } from '../../shared/ids.ts';
import { describe, moment, uuid } from './ids.ts';
import type { AddPlayersResult, Player, WatchlistRef } from './types.ts';
import type { WatchlistsRepo } from './watchlists.ts';

export const NICKNAME_MAX = 60;

export interface AddPlayersOutcome extends AddPlayersResult {
  /** Accounts that already had another nickname: it was kept, and the one given was not applied. */
  nicknamesKept: { accountId: string; kept: string; given: string }[];
}

interface PlayerRow {
  id: number;
  account_id: string;
  nickname: string | null;
  display_name: string | null;
  display_name_fetched_at: string | null;
}

const PLAYER_COLUMNS = 'p.id, p.account_id, p.nickname, p.display_name, p.display_name_fetched_at';

/** The name shown for a player: the one rule of shared/leaderboard.ts (nickname, display name, short account ID). */
export function playerName(accountId: string, displayName: string | null, nickname: string | null): string {
  return playerLabel({ accountId, displayName, nickname });
}

/** A list's players in the order added (a hot query: every list view and sync starts here). */
export const LIST_PLAYERS_SQL = `SELECT ${PLAYER_COLUMNS} FROM watchlist_players wp JOIN players p ON p.id = wp.player_ref
  WHERE wp.watchlist_id = @list ORDER BY wp.added_at, p.id`;

function toPlayer(row: PlayerRow): Player {
  return {
    accountId: row.account_id,
    nickname: row.nickname,
    displayName: row.display_name,
    displayNameFetchedAt: row.display_name_fetched_at,
    name: playerName(row.account_id, row.display_name, row.nickname),
  };
}

/** Trimmed; empty means none. Returns a reason instead when it cannot be kept. */
function checkNickname(raw: unknown): { nickname: string | null } | { reason: string } {
  if (raw === undefined || raw === null) return { nickname: null };
  if (typeof raw !== 'string') return { reason: 'a nickname must be text' };
  const nickname = raw.normalize('NFC').trim();
  if (/\p{Cc}/u.test(nickname)) return { reason: 'a nickname cannot hold line breaks, tabs or other control characters' };
  if ([...nickname].length > NICKNAME_MAX) return { reason: `nicknames are at most ${NICKNAME_MAX} characters` };
  return { nickname: nickname === '' ? null : nickname };
}

export class PlayersRepo {
  readonly #ctx: RepoContext;
  readonly #lists: WatchlistsRepo;
  readonly #upsert;
  readonly #ensure;
  readonly #idOf;
  readonly #idsOf;
  /** account ID → row ID. Rows are never deleted, so an entry stays true unless a rollback removes its row. */
  readonly #refCache = new Map<string, number>();
  readonly #join;
  readonly #leave;
  readonly #setNickname;
  readonly #byAccount;
  readonly #watched;
  readonly #ofList;
  readonly #setName;
  readonly #markAsked;
  readonly #nameFoundBy;
  readonly #needingNames;
  readonly #watchAgain;
  readonly #firstSightings;
  readonly #isHolder;
  readonly #listed;
  readonly #hasRecords;
  readonly #markHolder;

  constructor(ctx: RepoContext, lists: WatchlistsRepo) {
    this.#ctx = ctx;
    this.#lists = lists;
    const { db } = ctx;
    // Adding never renames: a nickname given fills an empty one and leaves one the player already chose (setNickname
    // changes it on purpose).
    this.#upsert = db.prepare<[string, string | null, string], { id: number }>(
      `INSERT INTO players (account_id, nickname, added_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET nickname = coalesce(players.nickname, excluded.nickname)
       RETURNING id`,
    );
    // An account stored only as a WR holder that a list takes in becomes a watched player: its records become its
    // first sightings (schema 10).
    this.#watchAgain = db.prepare<[number]>('DELETE FROM world_record_holders WHERE player_ref = ?');
    this.#firstSightings = db.prepare<[number]>("UPDATE records SET change = 'first' WHERE player_ref = ? AND current = 1 AND change IS NULL");
    this.#isHolder = db.prepare<[number], { one: number }>('SELECT 1 AS one FROM world_record_holders WHERE player_ref = ?');
    this.#listed = db.prepare<[number], { one: number }>('SELECT 1 AS one FROM watchlist_players WHERE player_ref = ? LIMIT 1');
    this.#hasRecords = db.prepare<[number], { one: number }>(
      'SELECT 1 AS one FROM maps m CROSS JOIN records r ON r.map_ref = m.id WHERE r.player_ref = ? LIMIT 1',
    );
    this.#markHolder = db.prepare<[number]>('INSERT OR IGNORE INTO world_record_holders (player_ref) VALUES (?)');
    this.#ensure = db.prepare<[string, string]>('INSERT OR IGNORE INTO players (account_id, added_at) VALUES (?, ?)');
    this.#idOf = db.prepare<[string], { id: number }>('SELECT id FROM players WHERE account_id = ?');
    this.#idsOf = db.prepare<[string], { id: number; account_id: string }>(
      'SELECT p.id, p.account_id FROM json_each(?) j JOIN players p ON p.account_id = j.value',
    );
    this.#join = db.prepare<[number, number, string]>(
      'INSERT OR IGNORE INTO watchlist_players (watchlist_id, player_ref, added_at) VALUES (?, ?, ?)',
    );
    this.#leave = db.prepare<[number, string]>(
      `DELETE FROM watchlist_players
       WHERE watchlist_id = ? AND player_ref = (SELECT id FROM players WHERE account_id = ?)`,
    );
    this.#setNickname = db.prepare<[string, string | null, string]>(
      `INSERT INTO players (account_id, nickname, added_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET nickname = excluded.nickname`,
    );
    this.#byAccount = db.prepare<[string], PlayerRow>(`SELECT ${PLAYER_COLUMNS} FROM players p WHERE p.account_id = ?`);
    this.#watched = db.prepare<[], PlayerRow>(
      `SELECT ${PLAYER_COLUMNS} FROM players p
       WHERE EXISTS (SELECT 1 FROM watchlist_players wp WHERE wp.player_ref = p.id) ORDER BY p.id`,
    );
    this.#ofList = db.prepare<{ list: number }, PlayerRow>(LIST_PLAYERS_SQL);
    this.#setName = db.prepare<[string, string, string, string]>(
      `INSERT INTO players (account_id, display_name, display_name_fetched_at, added_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET display_name = excluded.display_name,
         display_name_fetched_at = excluded.display_name_fetched_at`,
    );
    this.#nameFoundBy = db.prepare<[string, string]>('UPDATE players SET display_name = ? WHERE account_id = ? AND display_name IS NULL');
    this.#markAsked = db.prepare<[string, string, string]>(
      `INSERT INTO players (account_id, display_name_fetched_at, added_at) VALUES (?, ?, ?)
       ON CONFLICT (account_id) DO UPDATE SET display_name_fetched_at = excluded.display_name_fetched_at`,
    );
    // Watched players, the authors of listed maps and their world records' holders: the names a view shows.
    this.#needingNames = db.prepare<[string], { account_id: string }>(
      `WITH wanted (account_id) AS (
         SELECT p.account_id FROM players p WHERE EXISTS (SELECT 1 FROM watchlist_players wp WHERE wp.player_ref = p.id)
         UNION
         SELECT m.author FROM maps m WHERE EXISTS (SELECT 1 FROM watchlist_maps wm WHERE wm.map_ref = m.id)
         UNION
         SELECT w.account_id FROM world_records w WHERE EXISTS (SELECT 1 FROM watchlist_maps wm WHERE wm.map_ref = w.map_ref)
       )
       SELECT w.account_id FROM wanted w LEFT JOIN players p ON p.account_id = w.account_id
       WHERE p.display_name_fetched_at IS NULL OR p.display_name_fetched_at < ?
       ORDER BY w.account_id`,
    );
  }

  /**
   * Adds accounts to a list. A nickname given is kept only for an account without one: a different stored nickname
   * stays, and the result says so (nicknamesKept). Bad IDs are reported, not thrown.
   */
  add(list: WatchlistRef, players: readonly { accountId: string; nickname?: string | undefined }[], addedAt: string = this.#ctx.now()): AddPlayersOutcome {
    const result: AddPlayersOutcome = { added: [], alreadyListed: [], invalid: [], nicknamesKept: [] };
    this.#ctx.db.transaction(() => {
      const { id: listId } = this.#lists.require(list);
      for (const player of players) {
        const raw = player?.accountId;
        if (typeof raw !== 'string' || !isUuid(raw.trim())) {
          result.invalid.push({ accountId: String(raw), reason: `account ID ${describe(raw)} is not a UUID` });
          continue;
        }
        const accountId = raw.trim().toLowerCase();
        const nick = checkNickname(player.nickname);
        if ('reason' in nick) {
          result.invalid.push({ accountId, reason: nick.reason });
          continue;
        }
        const stored = this.#byAccount.get(accountId)?.nickname ?? null;
        if (stored !== null && nick.nickname !== null && stored !== nick.nickname) {
          result.nicknamesKept.push({ accountId, kept: stored, given: nick.nickname });
        }
        const { id } = this.#upsert.get(accountId, nick.nickname, addedAt)!;
        const info = this.#join.run(listId, id, addedAt);
        if (this.#watchAgain.run(id).changes > 0) this.#firstSightings.run(id);
        (info.changes > 0 ? result.added : result.alreadyListed).push(accountId);
      }
    })();
    return result;
  }

  /** Takes players out of a list; their records and history stay. Returns how many memberships went. */
  remove(list: WatchlistRef, accountIds: string | readonly string[]): number {
    const ids: readonly string[] = typeof accountIds === 'string' ? [accountIds] : accountIds;
    return this.#ctx.db.transaction((): number => {
      const { id: listId } = this.#lists.require(list);
      let removed = 0;
      for (const id of ids) if (typeof id === 'string') removed += this.#leave.run(listId, id.trim().toLowerCase()).changes;
      return removed;
    })();
  }

  /** The player's own name for an account; null or empty clears it. */
  setNickname(accountId: string, nickname: string | null): void {
    const id = uuid(accountId, 'account ID');
    const nick = checkNickname(nickname);
    if ('reason' in nick) throw invalidInput(nick.reason);
    this.#setNickname.run(id, nick.nickname, this.#ctx.now());
  }

  /** The players of a list in the order added, or every player in some list. */
  list(list?: WatchlistRef): Player[] {
    const rows = list === undefined ? this.#watched.all() : this.#ofList.all({ list: this.#lists.require(list).id });
    return rows.map(toPlayer);
  }

  get(accountId: string): Player | undefined {
    if (typeof accountId !== 'string') return undefined;
    const row = this.#byAccount.get(accountId.trim().toLowerCase());
    return row && toPlayer(row);
  }

  /** How to show an account (playerName), known to the store or not. */
  nameOf(accountId: string): string {
    return this.get(accountId)?.name ?? playerLabel({ accountId });
  }

  /**
   * Stores display names fetched at `fetchedAt`. Accounts in `asked` that got no name are stamped too, so a
   * deleted account is not asked about on every sync.
   */
  setDisplayNames(names: ReadonlyMap<string, string>, fetchedAt: string = this.#ctx.now(), asked: Iterable<string> = []): void {
    this.#ctx.db.transaction(() => {
      const now = this.#ctx.now();
      for (const [rawId, name] of names) {
        if (typeof rawId !== 'string' || !isUuid(rawId) || typeof name !== 'string') continue;
        this.#setName.run(rawId.toLowerCase(), name, fetchedAt, now);
      }
      for (const rawId of asked) {
        if (typeof rawId !== 'string' || !isUuid(rawId) || names.has(rawId)) continue;
        this.#markAsked.run(rawId.toLowerCase(), fetchedAt, now);
      }
    })();
  }

  /**
   * The display name a player was just found by, for an account with none stored yet. Its fetch time stays unset, so
   * the next sync asks the service for the name as it spells it (the look-up answers in the asker's letter case).
   */
  nameFoundBy(accountId: string, name: string): void {
    const id = uuid(accountId, 'account ID');
    if (typeof name !== 'string' || name.trim() === '') return;
    this.#nameFoundBy.run(name.trim(), id);
  }

  /** Watched players, authors of listed maps and their WR holders whose display name is missing or was fetched before `olderThan`. */
  needingDisplayNames(olderThan: Date | string): string[] {
    return this.#needingNames.all(moment(olderThan, 'olderThan')).map((r) => r.account_id);
  }

  /**
   * @internal Of accounts a sync read beside the watched players (a map's WR holder; stored rows, lower case), those
   * that are no watched player's: in no list, and already known as only a holder or without any record yet (a player
   * of a deleted list keeps their records). They are remembered as such (schema 10) until a list takes them in.
   */
  onlyHolders(accountIds: readonly string[]): Set<string> {
    const holders = new Set<string>();
    for (const accountId of accountIds) {
      const ref = this.refOf(accountId);
      if (ref === undefined) continue;
      const holder = this.#isHolder.get(ref) !== undefined
        || (this.#listed.get(ref) === undefined && this.#hasRecords.get(ref) === undefined);
      if (!holder) continue;
      this.#markHolder.run(ref);
      holders.add(accountId);
    }
    return holders;
  }

  /** @internal an account's row ID, if the account is stored. */
  refOf(accountId: unknown): number | undefined {
    return typeof accountId === 'string' ? this.#idOf.get(accountId.trim().toLowerCase())?.id : undefined;
  }

  /** @internal row IDs for accounts (in their order), creating the rows that are missing. */
  refsFor(accountIds: readonly string[]): number[] {
    const refs = new Array<number>(accountIds.length);
    let unknown: string[] | undefined;
    for (let i = 0; i < accountIds.length; i += 1) {
      const cached = this.#refCache.get(accountIds[i]!);
      if (cached === undefined) (unknown ??= []).push(accountIds[i]!);
      else refs[i] = cached;
    }
    if (!unknown) return refs;
    // One query for the rest: a sync hands over a map's records for up to a few hundred players at once.
    const found = new Map<string, number>();
    for (const row of this.#idsOf.all(JSON.stringify(unknown))) {
      found.set(row.account_id, row.id);
      if (this.#refCache.size < 100_000) this.#refCache.set(row.account_id, row.id);
    }
    let now: string | undefined;
    for (let i = 0; i < accountIds.length; i += 1) {
      if (refs[i] !== undefined) continue;
      const accountId = accountIds[i]!;
      let ref = found.get(accountId);
      if (ref === undefined) {
        // Created now: not cached until read back, since a rollback would take the row away again.
        this.#ensure.run(accountId, (now ??= this.#ctx.now()));
        ref = this.#idOf.get(accountId)!.id;
        found.set(accountId, ref);
      }
      refs[i] = ref;
    }
    return refs;
  }

  /** @internal after a rollback: a cached row may have been created by the transaction that failed. */
  forgetCachedRefs(): void {
    this.#refCache.clear();
  }
}

// Schema 10: the accounts stored only as a map's world-record holder (issue 15). Their records are kept (the WR's
// ghost comes from one) but are no watched player's: the listings, the history and the exports leave them out, so
// "every stored record" still means the records of your lists, deleted lists and removed players included. Adding
// such an account to a list takes it out of here. Their record versions carry no `change` (no PB history).
import type { Database } from 'better-sqlite3';

export const version = 10;
export const name = 'world_record_holders';

export function up(db: Database): void {
  db.exec(`
    CREATE TABLE world_record_holders (
      player_ref INTEGER PRIMARY KEY REFERENCES players(id) ON DELETE CASCADE
    ) STRICT;

    -- A stored WR holder in no list whose every record is on a map they hold the WR of: before schema 9 every record
    -- was a watched player's, and a holder's record is only ever asked on the map they hold it on.
    INSERT INTO world_record_holders (player_ref)
    SELECT p.id FROM players p
    WHERE p.account_id IN (SELECT account_id FROM world_records)
      AND NOT EXISTS (SELECT 1 FROM watchlist_players wp WHERE wp.player_ref = p.id)
      AND NOT EXISTS (SELECT 1 FROM records r WHERE r.player_ref = p.id
        AND NOT EXISTS (SELECT 1 FROM world_records w WHERE w.map_ref = r.map_ref AND w.account_id = p.account_id));

    -- Their versions stored so far leave the PB history (the rows and their replays stay).
    UPDATE records SET change = NULL
    WHERE change IS NOT NULL AND player_ref IN (SELECT player_ref FROM world_record_holders);
  `);
}

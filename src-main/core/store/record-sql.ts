// SQL the record readers share: which rows belong to a list, and how a player's rows are reached map by map.

/** A list's records: the list's maps and the list's players (named parameter @list). */
export const IN_LIST = `r.map_ref IN (SELECT map_ref FROM watchlist_maps WHERE watchlist_id = @list AND map_ref IS NOT NULL)
  AND r.player_ref IN (SELECT player_ref FROM watchlist_players WHERE watchlist_id = @list)`;

export const FROM_RECORDS = 'FROM records r JOIN maps m ON m.id = r.map_ref JOIN players p ON p.id = r.player_ref';

/** A player's records are found map by map through records_by_map: CROSS JOIN keeps maps as the outer loop. */
export const FROM_MAPS_THEN_RECORDS = 'FROM maps m CROSS JOIN records r ON r.map_ref = m.id JOIN players p ON p.id = r.player_ref';

/** A watched player's record, in a list now or before: not one of an account stored only as a WR holder (schema 10). */
export const NOT_ONLY_HOLDERS = 'r.player_ref NOT IN (SELECT player_ref FROM world_record_holders)';

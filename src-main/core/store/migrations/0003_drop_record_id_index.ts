// Schema 3: no index on record IDs. Its random keys dirtied a scattered page per record on every sync commit; the
// only reader was the replay log looking up a record's map and player, which now come with the call instead.
import type { Database } from 'better-sqlite3';

export const version = 3;
export const name = 'drop_record_id_index';

export function up(db: Database): void {
  db.exec('DROP INDEX records_by_record_id');
}

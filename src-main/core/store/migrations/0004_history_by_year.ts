// Schema 4: history is found by time through the year a record was set, not its exact time. Keyed on the exact time,
// each map a sync commits puts its players' records on as many scattered index pages as they have distinct times
// (one per record in real data), and every commit rewrote them all: a first sync wrote about 0.47x as fast as one
// bare transaction, and 9 WAL bytes in 10 were those pages. Keyed on the year, a commit touches one page per distinct
// year (a handful: Trackmania's records start in 2020): 0.69-0.76x. Readers walk the years through the index and
// sort the rows of the newest years only (records.ts, historyQuery); a month key measured 0.63-0.69x and was dropped.
import type { Database } from 'better-sqlite3';

export const version = 4;
export const name = 'history_by_year';

export function up(db: Database): void {
  db.exec(`
    DROP INDEX records_by_time;
    CREATE INDEX records_by_year ON records(substr(timestamp, 1, 4)) WHERE change IS NOT NULL;
  `);
}

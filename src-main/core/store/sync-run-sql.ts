// SQL the list summaries and the sync-run log share: which run last covered a list.

/**
 * The newest run over the list @list, or over every list, whose outcome matches `where`. A run over every list (no
 * list, no remembered name) covers each list that existed when it started: a list created afterwards was not in it.
 */
export function lastRunCoveringList(where: string): string {
  return `SELECT id, finished_at, outcome FROM (
         SELECT id, finished_at, outcome FROM sync_runs WHERE watchlist_id = @list AND ${where}
         UNION ALL
         SELECT id, finished_at, outcome FROM sync_runs
         WHERE watchlist_id IS NULL AND watchlist_name IS NULL AND ${where}
           AND started_at >= (SELECT created_at FROM watchlists WHERE id = @list)
       ) ORDER BY id DESC LIMIT 1`;
}

/** Finished: ok, partial, failed or cancelled. */
export const FINISHED = "outcome <> 'running'";

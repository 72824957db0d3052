// What every repository is built from: the connection and the clock (injectable for tests).
import type { Database } from 'better-sqlite3';

export interface RepoContext {
  readonly db: Database;
  /** Now, as the UTC ISO text the store writes. */
  now(): string;
}

/** SQLite takes no booleans: 1 and 0 it is. */
export function bit(value: boolean): 0 | 1 {
  return value ? 1 : 0;
}

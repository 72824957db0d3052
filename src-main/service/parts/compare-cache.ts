// The last few compare tables, kept while the data they were computed from has not changed.
import type { z } from 'zod';
import type * as s from '../../contract/schemas.ts';
import type { Store } from '../../core/store/index.ts';

type CompareTable = z.output<typeof s.CompareTable>;

/** A compare table is read again and again between syncs (sorting, coming back): keep the last few. */
const KEEP = 4;

export class CompareCache {
  /** The active data folder's store, whose commits by other connections also make a table stale. */
  readonly #store: () => Store;
  /** Bumped by every write (a sync, an edit): cached views older than it are not served. */
  #dataVersion = 0;
  readonly #tables = new Map<string, { version: string; table: CompareTable }>();

  constructor(store: () => Store) {
    this.#store = store;
  }

  /** Stored data changed: what was computed from it is dropped. */
  touch(): void {
    this.#dataVersion++;
    this.#tables.clear();
  }

  get(list: string): CompareTable | undefined {
    const entry = this.#tables.get(list);
    return entry && entry.version === this.#version() ? entry.table : undefined;
  }

  set(list: string, table: CompareTable): void {
    if (this.#tables.size >= KEEP) this.#tables.delete(this.#tables.keys().next().value!);
    this.#tables.set(list, { version: this.#version(), table });
  }

  /**
   * Our own writes (touch), and SQLite's count of commits by other connections: the command line writing to the same
   * folder while the app is open.
   */
  #version(): string {
    return `${this.#dataVersion}.${String(this.#store().db.pragma('data_version', { simple: true }))}`;
  }
}

// A store with schema 6's repositories, built beside it until the migration joins the shipped list.
import type { Store } from '../../../src-main/core/store/index.ts';
import * as m0006 from '../../../src-main/core/store/migrations/0006_list_sources_and_positions.ts';
import { PositionsRepo } from '../../../src-main/core/store/positions.ts';
import { SourcesRepo } from '../../../src-main/core/store/sources.ts';
import { memoryStore, steppingClock } from './fixtures.ts';

export async function storeWithSources(): Promise<{ store: Store; sources: SourcesRepo; positions: PositionsRepo }> {
  const store = await memoryStore();
  m0006.up(store.db);
  const clock = steppingClock('2026-01-01T00:00:00.000Z');
  const ctx = { db: store.db, now: () => clock().toISOString() };
  return { store, sources: new SourcesRepo(ctx, store.watchlists), positions: new PositionsRepo(ctx, store.watchlists) };
}

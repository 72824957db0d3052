// The hot queries must find their rows through an index: a full SCAN of records or history grows with every sync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src-main/core/store/index.ts';
import { LIST_MAPS_SQL } from '../../../src-main/core/store/maps.ts';
import { LIST_PLAYERS_SQL } from '../../../src-main/core/store/players.ts';
import { exportQuery } from '../../../src-main/core/store/export-cursor.ts';
import { historyQuery, type HistoryFilterKey } from '../../../src-main/core/store/history.ts';
import { RECORD_QUERIES } from '../../../src-main/core/store/records.ts';
import { accountId, makeMap, makeRecord, mapId, seasonId } from './fixtures.ts';

let store: Store;
const stores: Store[] = [];

function build(analyze: boolean): Store {
  const store = openStore({ memory: true });
  const maps = Array.from({ length: 40 }, (_, i) => makeMap(i + 1));
  store.maps.upsert(maps);
  store.watchlists.create('L');
  store.maps.addRefs('L', maps.slice(0, 10).map((m) => ({ mapId: m.mapId })));
  store.players.add('L', Array.from({ length: 10 }, (_, i) => ({ accountId: accountId(i + 1) })));
  const run = store.syncRuns.start();
  for (let m = 1; m <= 40; m += 1) {
    // Set over four years, so the statistics ANALYZE gathers see history in several years.
    const records = Array.from({ length: 30 }, (_, a) => makeRecord(m, a + 1, {
      timestamp: `${2021 + ((m + a) % 4)}-${String(1 + (a % 12)).padStart(2, '0')}-${String(1 + (m % 28)).padStart(2, '0')}T12:00:00+00:00`,
    }));
    store.records.applyRecords({ mapId: mapId(m), scope: 'PersonalBest', records, seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run });
  }
  if (analyze) store.db.exec('ANALYZE');
  stores.push(store);
  return store;
}
afterAll(() => {
  for (const s of stores) s.close();
});

const PARAMS = {
  map: 1, player: 1, list: 1, scope: 'PersonalBest', mapId: mapId(1), accountId: accountId(1),
  since: '2024-01-01T00:00:00.000Z', until: '2026-01-01T00:00:00.000Z', limit: 100, after: 0,
};

function plan(sql: string): string[] {
  const names = new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!));
  const params = Object.fromEntries(Object.entries(PARAMS).filter(([k]) => names.has(k)));
  return store.db.prepare<Record<string, unknown>, { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(params).map((r) => r.detail);
}

/** No step reads the whole of records (r) or record_history (h), in table or in index order. */
function expectNoFullScan(details: string[]): void {
  const scans = details.filter((d) => /^SCAN (records|record_history|r|h)\b/.test(d));
  expect(scans, details.join('\n')).toEqual([]);
}

// Plans are checked on a fresh database (no statistics) and after ANALYZE: the planner may choose differently.
describe.each([['without statistics', false], ['after ANALYZE', true]])('query plans %s', (_label, analyze) => {
  beforeAll(() => {
    store = build(analyze);
  });

  it.each(Object.entries(RECORD_QUERIES))('records: %s reads through an index', (_name, sql) => {
    const details = plan(sql);
    expectNoFullScan(details);
    expect(details.join('\n')).toMatch(/SEARCH r USING (COVERING )?INDEX records_by_map/);
  });

  it('a map\'s records seek on the map; a player\'s records are probed map by map on (map, player)', () => {
    expect(plan(RECORD_QUERIES.currentOfMap).join('\n')).toMatch(/SEARCH r USING INDEX records_by_map \(map_ref=\?\)/);
    expect(plan(RECORD_QUERIES.one).join('\n')).toMatch(/records_by_map \(map_ref=\? AND player_ref=\? AND scope=\? AND current=\?\)/);
    const player = plan(RECORD_QUERIES.ofPlayer);
    expect(player[0]).toMatch(/^SCAN m\b/);
    expect(player.join('\n')).toMatch(/SEARCH r USING INDEX records_by_map \(map_ref=\? AND player_ref=\?\)/);
  });

  const historyCases: [string, HistoryFilterKey[], RegExp][] = [
    ['by player', ['player'], /records_by_map \(map_ref=\? AND player_ref=\?\)/],
    ['by map', ['map'], /records_by_map \(map_ref=\?\)/],
    ['by map and player', ['map', 'player', 'oldestFirst'], /records_by_map \(map_ref=\? AND player_ref=\?\)/],
    ['by map and scope', ['map', 'scope'], /records_by_map/],
    ['by time', ['since', 'until'], /SEARCH r USING INDEX records_by_year \(<expr>>\? AND <expr><\?\)/],
    ['newest first', ['limit'], /SCAN r USING INDEX records_by_year/],
    ['oldest first', ['limit', 'oldestFirst'], /SCAN r USING INDEX records_by_year/],
    ['by scope and time', ['scope', 'since', 'limit'], /SEARCH r USING INDEX records_by_year \(<expr>>\?\)/],
    ['by player and time', ['player', 'since'], /records_by_map \(map_ref=\? AND player_ref=\?\)/],
    ['by list', ['list'], /records_by_map \(map_ref=\? AND player_ref=\?\)/],
    ['by list and time', ['list', 'since', 'limit'], /records_by_map \(map_ref=\? AND player_ref=\?\)/],
  ];
  it.each(historyCases)('history %s reads through an index', (name, keys, index) => {
    const details = plan(historyQuery(new Set(keys)));
    // Newest (or oldest) first walks the year index from its end: a scan in name, stopped by the limit.
    if (!name.endsWith(' first')) expectNoFullScan(details);
    expect(details.join('\n')).toMatch(index);
  });

  it('the newest history rows come off the year index in order: only the rows within a year are sorted', () => {
    for (const keys of [['limit'], ['limit', 'since', 'until']] as HistoryFilterKey[][]) {
      const details = plan(historyQuery(new Set(keys))).join('\n');
      expect(details).toMatch(/records_by_year/);
      expect(details).toMatch(/USE TEMP B-TREE FOR (RIGHT PART|LAST 2 TERMS) OF ORDER BY/);
      expect(details).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
    }
  });

  it('list memberships are read through their keys', () => {
    expect(plan(LIST_MAPS_SQL).join('\n')).toMatch(/SEARCH wm USING (COVERING )?INDEX watchlist_maps_resolved \(watchlist_id=\?\)|SEARCH wm USING INDEX/);
    expect(plan(LIST_PLAYERS_SQL).join('\n')).toMatch(/SEARCH wp USING PRIMARY KEY \(watchlist_id=\?\)/);
  });

  it('a list export seeks the list\'s maps and players; the full export reads the table in pages by row ID, unsorted', () => {
    expectNoFullScan(plan(exportQuery(true)));
    const full = plan(exportQuery(false)).join('\n');
    expect(full).toMatch(/SEARCH r USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    expect(full).not.toMatch(/TEMP B-TREE/);
  });

  it('a season scope is served by the same indexes', () => {
    PARAMS.scope = seasonId(1);
    try {
      expectNoFullScan(plan(RECORD_QUERIES.ofListScope));
    } finally {
      PARAMS.scope = 'PersonalBest';
    }
  });
});

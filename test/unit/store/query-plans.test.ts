// The hot queries must find their rows through an index: a full SCAN of records or history grows with every sync.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src-main/core/store/index.ts';
import { LIST_MAPS_SQL } from '../../../src-main/core/store/maps.ts';
import { LIST_PLAYERS_SQL } from '../../../src-main/core/store/players.ts';
import { exportQuery } from '../../../src-main/core/store/export-cursor.ts';
import { historyQuery, type HistoryFilterKey } from '../../../src-main/core/store/history.ts';
import { RECORD_QUERIES } from '../../../src-main/core/store/records.ts';
import { REPLAY_QUERIES } from '../../../src-main/core/store/replays.ts';
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
  since: '2024-01-01T00:00:00.000Z', until: '2026-01-01T00:00:00.000Z', limit: 100, after: 0, max: 3, first: 1, last: 3,
};

function planRows(sql: string): { id: number; parent: number; detail: string }[] {
  const names = new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]!));
  const params = Object.fromEntries(Object.entries(PARAMS).filter(([k]) => names.has(k)));
  return store.db.prepare<Record<string, unknown>, { id: number; parent: number; detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all(params);
}

function plan(sql: string): string[] {
  return planRows(sql).map((r) => r.detail);
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
    ['by player and time', ['player', 'since'], /records_by_map \(map_ref=\? AND player_ref=\?\)/],
    ['by list', ['list'], /records_by_map \(map_ref=\? AND player_ref=\?\)/],
    ['by list and time', ['list', 'since', 'limit'], /records_by_map \(map_ref=\? AND player_ref=\?\)/],
  ];
  it.each(historyCases)('history %s reads through an index', (_name, keys, index) => {
    const details = plan(historyQuery(new Set(keys)));
    expectNoFullScan(details);
    expect(details.join('\n')).toMatch(index);
  });

  // Over every map (`trackwatch history`): the rows are picked from the time index alone (its entries hold the
  // time), then only those rows are read, by row ID. Issue 8 §5: no scan of the records table, no sort of all rows.
  const byTimeCases: [string, HistoryFilterKey[], RegExp][] = [
    ['the newest 50', ['limit'], /^SCAN records USING INDEX records_history_by_time$/],
    ['the oldest 50', ['limit', 'oldestFirst'], /^SCAN records USING INDEX records_history_by_time$/],
    ['one month', ['since', 'until'], /^SEARCH records USING INDEX records_history_by_time \(<expr>>\? AND <expr><\?\)$/],
    ['one month, the newest 50', ['since', 'until', 'limit'], /^SEARCH records USING INDEX records_history_by_time \(<expr>>\? AND <expr><\?\)$/],
    ['since a date, in a scope', ['scope', 'since', 'limit'], /^SEARCH records USING INDEX records_history_by_time \(<expr>>\?\)$/],
  ];
  it.each(byTimeCases)('history over every map, %s: an index walk, then only the rows picked', (_name, keys, walk) => {
    const rows = planRows(historyQuery(new Set(keys)));
    const details = rows.map((r) => r.detail);
    // The records table is read by row ID only, once per row picked; the index is the only thing walked.
    const reads = details.filter((d) => /^(SCAN|SEARCH) (records|r)\b/.test(d));
    expect(reads.filter((d) => !walk.test(d) && d !== 'SEARCH r USING INTEGER PRIMARY KEY (rowid=?)'), details.join('\n')).toEqual([]);
    expect(reads.filter((d) => walk.test(d))).toHaveLength(1);
    expect(details).toContain('SEARCH r USING INTEGER PRIMARY KEY (rowid=?)');
    // No sort of whole rows in SQLite (history.ts sorts the rows picked in memory).
    expect(details.filter((d) => d === 'USE TEMP B-TREE FOR ORDER BY')).toEqual([]);
    if (keys.includes('limit')) {
      // The limit applies to the index's entries: picking, sorting within a year and cutting happen before any row
      // is read.
      const picking = rows.find((r) => r.detail === 'CO-ROUTINE h');
      expect(picking, details.join('\n')).toBeDefined();
      const inside = rows.filter((r) => r.parent === picking!.id).map((r) => r.detail);
      expect(inside.some((d) => walk.test(d))).toBe(true);
      expect(inside.filter((d) => d.startsWith('USE TEMP B-TREE'))).toEqual(['USE TEMP B-TREE FOR LAST 2 TERMS OF ORDER BY']);
    }
  });

  // Issue 18: the replay queue walked every record (463 ms at a million); it starts from what the lists watch.
  it.each(Object.entries(REPLAY_QUERIES))('replays: %s walks the watched pairs, then records_by_map', (_name, sql) => {
    const details = plan(sql);
    expectNoFullScan(details);
    expect(details.join('\n')).toMatch(/SEARCH r USING INDEX records_by_map \(map_ref=\? AND player_ref=\?\)/);
    // What is walked is the lists' memberships (every watched pair, for the queue of any list), never a table of records
    // or replays.
    expect(details.filter((d) => /^SCAN /.test(d) && !/^SCAN (wm|wp|watchlist_maps|watchlist_players)\b/.test(d)), details.join('\n')).toEqual([]);
    expect(details.filter((d) => d.startsWith('USE TEMP B-TREE'))).toEqual([]);
  });

  it('list memberships are read through their keys', () => {
    expect(plan(LIST_MAPS_SQL).join('\n')).toMatch(/SEARCH wm USING (COVERING )?INDEX watchlist_maps_resolved \(watchlist_id=\?\)|SEARCH wm USING INDEX/);
    expect(plan(LIST_PLAYERS_SQL).join('\n')).toMatch(/SEARCH wp USING PRIMARY KEY \(watchlist_id=\?\)/);
  });

  it('a list export seeks the list\'s maps and players; the full export reads records_by_map in pages, map by map, unsorted', () => {
    expectNoFullScan(plan(exportQuery(true)));
    const full = plan(exportQuery(false)).join('\n');
    expect(full).toMatch(/SEARCH r USING INDEX records_by_map \(\(map_ref,player_ref,scope\)>\(\?,\?,\?\)\)/);
    expect(full).toMatch(/SEARCH ps USING PRIMARY KEY/);
    expect(full).not.toMatch(/TEMP B-TREE/);
  });

  it('a block of an export split across threads reads the same way, up to its last map', () => {
    expectNoFullScan(plan(exportQuery(true, true)));
    const full = plan(exportQuery(false, true)).join('\n');
    // Bounded by the block's last map: a block's last page stops there instead of walking the rest of the index.
    expect(full).toMatch(/SEARCH r USING INDEX records_by_map \(\(map_ref,player_ref,scope\)>\(\?,\?,\?\) AND map_ref<\?\)/);
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

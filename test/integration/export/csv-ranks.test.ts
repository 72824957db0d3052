// The CSV export's rank column says what the compare grid and `compare --json` say (issue 16): on maps whose secret
// threshold hides most records, read as a watched player whose own record is under the threshold, with the world
// positions a sync stores. The export ranks through the same shared rules as the views (storedBoardRanks gives
// rankStoredBoard's ranks alone), given the same facts: the map's medal scores, the reader, the positions.
import { Collected } from '../../helpers/collected.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareMaps } from '../../../src-main/cli/commands/read.ts';
import { CSV_COLUMNS, exportCsv } from '../../../src-main/core/export/csv.ts';
import { openTrackwatch } from '../../../src-main/core/trackwatch.ts';
import { generateDataset, startEmulator, type Dataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { TrackwatchService } from '../../../src-main/service/service.ts';
import { formatRank, mapKind, rankLeaderboard } from '../../../src-main/shared/leaderboard.ts';
import { DATA_NOW } from '../../helpers/clock.ts';
import { serviceCaller, testHost } from '../../helpers/service.ts';
import { tempDataDir } from '../../helpers/sync.ts';

const LIST = 'Heavy';
const LOGIN = { login: 'me@example.org', password: 'pw' };

/** One CSV line's cells (RFC 4180 quotes; no cell of this dataset holds a line break: checked by the length). */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell: string;
    if (line[i] === '"') {
      let end = line.indexOf('"', i + 1);
      while (line[end + 1] === '"') end = line.indexOf('"', end + 2);
      cell = line.slice(i + 1, end).replace(/""/g, '"');
      i = end + 1;
    } else {
      const end = line.indexOf(',', i);
      cell = line.slice(i, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    }
    cells.push(cell);
    if (line[i] !== ',') return cells;
    i += 1;
  }
}

/** The export's rows by column name. */
function parse(text: string): Record<(typeof CSV_COLUMNS)[number], string>[] {
  const [header, ...lines] = text.trimEnd().split('\r\n');
  const columns = cellsOf(header!);
  expect(columns).toEqual([...CSV_COLUMNS]);
  return lines.map((line) => {
    const cells = cellsOf(line);
    expect(cells, line).toHaveLength(columns.length);
    return Object.fromEntries(columns.map((c, i) => [c, cells[i]!])) as Record<(typeof CSV_COLUMNS)[number], string>;
  });
}

let dataset: Dataset;
let emulator: RunningEmulator;
let data: Awaited<ReturnType<typeof tempDataDir>>;
let service: TrackwatchService;
let viewer: string;
const { call } = serviceCaller(() => service);

beforeAll(async () => {
  dataset = generateDataset({ now: DATA_NOW, seed: 5, maps: 12, players: 30, style: 'season', secretHeavyMaps: 3 });
  // Read as a watched player whose own record is under a threshold: visible to them, better than secret entries.
  const hiddenOwn = dataset.maps.flatMap((m) => dataset.records.filter((r) =>
    r.mapId === m.mapId && r.scopeType === 'PersonalBest' && m.secretThreshold !== undefined && r.recordScore.time < m.secretThreshold));
  viewer = hiddenOwn[0]!.accountId;
  emulator = await startEmulator({ dataset, auth: { ...LOGIN, accountId: viewer } });
  data = await tempDataDir('trackwatch-csv-ranks-');
  const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: 1000, credentials: LOGIN });
  try {
    await tw.addMaps(LIST, dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.store.players.add(LIST, [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
    tw.store.settings.setMe(viewer);
    const summary = await tw.sync({ list: LIST, replays: false });
    expect(summary).toMatchObject({ outcome: 'ok', errors: [] });
  } finally {
    await tw.close();
  }
  service = await TrackwatchService.open({ dataDir: data.dir, host: testHost(), apiUrl: emulator.url });
});
afterAll(async () => {
  await service?.close();
  await emulator?.close();
  await data?.remove();
});

describe('the CSV rank on secret-threshold maps (issue 16)', () => {
  it('every row\'s rank is the compare grid\'s and compare --json\'s, on maps where the reader, the medals and the positions matter', async () => {
    const store = service.active.store;
    expect(store.settings.viewer()).toBe(viewer.toLowerCase());
    const sink = new Collected();
    await exportCsv(store, sink, { list: LIST });
    const rows = parse(sink.text()).filter((r) => r.scope === 'PersonalBest');
    const table = await call('compare.get', { list: LIST });
    const json = compareMaps(service.active, LIST, store.settings.me());
    const column = new Map(table.players.map((p, i) => [p.accountId, i]));

    let checked = 0;
    for (const row of rows) {
      const grid = table.rows.find((r) => r.mapUid === row.map_uid)!;
      const cell = grid.cells[column.get(row.account_id)!]!;
      const gridRank = formatRank(cell.rankRange ?? (cell.rank === undefined ? null : { min: cell.rank, max: cell.rank }));
      const entry = json.find((m) => m.mapUid === row.map_uid)!.entries.find((e) => e.accountId === row.account_id)!;
      expect([row.rank, row.hidden], `${grid.name}, ${row.player_name}`).toEqual([gridRank, String(cell.hidden === true)]);
      expect(row.rank, `${grid.name}, ${row.player_name} (compare --json)`).toBe(formatRank(entry.rankRange));
      checked += 1;
    }
    // Every PB the grid shows is a row of the export, and the maps hold what makes the facts matter.
    expect(checked).toBe(table.rows.reduce((n, r) => n + r.cells.filter((c) => c !== null).length, 0));
    const heavy = table.rows.filter((r) => r.secret >= 2);
    expect(heavy.length).toBeGreaterThanOrEqual(3);
    expect(rows.some((r) => r.rank.includes('–'))).toBe(true);
    expect(rows.some((r) => r.hidden === 'true' && r.rank !== '')).toBe(true);
    expect(store.positions.forList(LIST).length).toBeGreaterThan(0);
  });

  it('without the facts (ranked from the records alone, as the export did) some rows would say another rank', async () => {
    const store = service.active.store;
    const sink = new Collected();
    await exportCsv(store, sink, { list: LIST });
    const rows = parse(sink.text()).filter((r) => r.scope === 'PersonalBest');
    const differ = store.records.leaderboards(LIST).filter(({ map, records }) => {
      const board = rankLeaderboard(mapKind(map), records.map((r) => ({ player: r.accountId, name: '', record: r })));
      return board.entries.some((s) => rows.find((r) => r.map_uid === map.mapUid && r.account_id === s.player)!.rank !== formatRank(s.rankRange));
    });
    expect(differ.length).toBeGreaterThanOrEqual(1);
  });
});

// The fast writer caches csv-stringify's encodings of repeating cells; it must write exactly what csv-stringify
// writes over whole rows (reference.ts), for every kind of text a name, an ID or a path could hold, fed as the export
// feeds it: tuples of a cursor.
import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, CsvWriter, NameCache } from '../../../src-main/core/export/csv.ts';
import { asCursor, toCells, type ExportRow } from './reference.ts';

const NASTY = [
  '', 'plain', 'a,b', 'say "hi"', '"', 'line\nbreak', 'cr\ronly', 'crlf\r\nend', '=1+1', '+cmd', '-2', '@SUM(A1)',
  '\tlead', '\rlead', ' spaced ', '$o$f00Red$$Baron$z', '$', '$l[http://x]link$l', 'Ünïcödé 名前 🏁', "it's", ';semi',
  '2024-01-01T00:00:00.000Z', '00000001-0000-4000-8000-000000000001', 'replays/a/b/c.replay.gbx', 'replays/a b/c,d.gbx',
];

const PRIMES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/** Each field walks NASTY at its own pace, so fields combine in every way and caches cannot hide a difference. */
function pick<T>(values: readonly T[], i: number, salt: number): T {
  return values[(Math.floor(i / PRIMES[salt]!) * (salt + 1) + i) % values.length]!;
}

/** Maps and players as the database holds them: each key stands for one set of cells, however nasty. */
const MAPS = Array.from({ length: 100 }, (_, k) => ({ mapUid: pick(NASTY, k, 1), mapId: pick(NASTY, k, 2), mapName: pick(NASTY, k, 3) }));
const PLAYERS = Array.from({ length: 120 }, (_, k) => ({
  accountId: pick(NASTY, k, 4),
  displayName: k % 5 === 0 ? null : pick(NASTY, k, 5),
  nickname: k % 3 === 0 ? null : pick(NASTY, k, 6),
}));

function rows(n: number): ExportRow[] {
  return Array.from({ length: n }, (_, i): ExportRow => ({
    mapKey: i % MAPS.length,
    ...MAPS[i % MAPS.length]!,
    playerKey: (i * 7) % PLAYERS.length,
    ...PLAYERS[(i * 7) % PLAYERS.length]!,
    gameMode: pick(NASTY, i, 7),
    scope: pick(NASTY, i, 8),
    time: i % 7 === 0 ? null : i * 37,
    score: i % 11,
    respawnCount: i % 2 === 0 ? null : i % 9,
    medal: i % 5,
    hidden: i % 6 === 0 ? 1 : 0,
    timestamp: pick(NASTY, i, 9),
    mapRecordId: pick(NASTY, i, 10),
    replayPath: i % 4 === 0 ? null : pick(NASTY, i, 11),
  }));
}

describe('the CSV writer', () => {
  it.each([false, true])('writes byte-for-byte what csv-stringify writes over whole rows (bom: %s)', (bom) => {
    const sample = rows(3000);
    const writer = new CsvWriter();
    const cursor = asCursor(sample);
    const fast = writer.header(bom) + cursor.tuples.map((t) => writer.tupleLine(t, cursor)).join('');
    const names = new NameCache();
    const reference = stringify(sample.map((r) => toCells(r, names)), {
      record_delimiter: 'windows',
      quoted_match: /[\r\n]/,
      header: true,
      columns: [...CSV_COLUMNS],
      bom,
    });
    expect(fast).toBe(reference);
  });

  it('covers every nasty value in every column', () => {
    const sample = rows(3000);
    for (const column of ['gameMode', 'scope', 'timestamp', 'mapRecordId', 'replayPath'] as const) {
      expect(new Set(sample.map((r) => r[column])).size, column).toBeGreaterThanOrEqual(NASTY.length);
    }
    expect(new Set(MAPS.map((m) => m.mapName)).size).toBe(NASTY.length);
    expect(new Set(PLAYERS.map((p) => p.displayName)).size).toBe(NASTY.length + 1); // and null
  });
});

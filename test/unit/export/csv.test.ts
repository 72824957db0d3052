import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'csv-stringify/sync';
import { CSV_COLUMNS, NameCache, exportCsv, neutraliseFormula } from '../../../src-main/core/export/csv.ts';
import { ranksOf, toCells } from './reference.ts';
import type { Store } from '../../../src-main/core/store/index.ts';
import type { ExportCursor, ExportTuple } from '../../../src-main/core/store/index.ts';
import { replayPath } from '../../../src-main/core/store/index.ts';
import { accountId, exportRows, makeMap, makeRecord, mapId, memoryStore, recordId, seasonId } from '../store/fixtures.ts';

let store: Store;
let dir: string;
beforeEach(async () => {
  store = await memoryStore();
  dir = mkdtempSync(join(tmpdir(), 'tw-csv-'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Collects what the export writes. */
class Sink extends Writable {
  text = '';
  readonly delayMs: number;
  constructor(highWaterMark = 16_384, delayMs = 0) {
    super({ highWaterMark, decodeStrings: false });
    this.delayMs = delayMs;
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    if (this.delayMs > 0) setTimeout(done, this.delayMs);
    else done();
  }
}

/** A strict RFC 4180 reader, only to check round trips. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q < 0) throw new Error('unclosed quote');
        cell += text.slice(i, q);
        if (text[q + 1] === '"') {
          cell += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
    } else {
      const end = text.slice(i).search(/,|\r\n/);
      const stop = end < 0 ? text.length : i + end;
      cell = text.slice(i, stop);
      if (/["\r\n]/.test(cell)) throw new Error(`unquoted special character in ${JSON.stringify(cell)}`);
      i = stop;
    }
    row.push(cell);
    if (text.startsWith(',', i)) i += 1;
    else if (text.startsWith('\r\n', i) || i >= text.length) {
      rows.push(row);
      row = [];
      i += 2;
    } else throw new Error(`junk after a cell at ${i}`);
  }
  return rows;
}

async function exportText(options: { list?: string; bom?: boolean } = {}): Promise<{ text: string; rows: number }> {
  const sink = new Sink();
  const result = await exportCsv(store, sink, options);
  return { text: sink.text, rows: result.rows };
}

function seed(): void {
  store.maps.upsert([
    makeMap(1, { name: '$i$a1bLaserhawk $fff- Megacity, "Race"\nPart 2' }),
    makeMap(2, { name: '=HYPERLINK("http://evil")', mapType: 'TrackMania\\TM_Stunt' }),
  ]);
  store.players.add(
    (store.watchlists.create('L'), 'L'),
    [{ accountId: accountId(1), nickname: '$f00Red$$Baron' }, { accountId: accountId(2), nickname: '@SUM(A1)' }],
  );
  store.maps.addRefs('L', [{ mapId: mapId(1) }]);
  store.players.setDisplayNames(new Map([[accountId(3), '-Speedy-']]), '2025-01-01T00:00:00.000Z');
  const run = store.syncRuns.start();
  const apply = (map: number, records: ReturnType<typeof makeRecord>[], scope = 'PersonalBest'): void => {
    store.records.applyRecords({ mapId: mapId(map), scope, records, seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run });
  };
  apply(1, [
    makeRecord(1, 1, { time: 61234, respawnCount: 2, medal: 4 }),
    makeRecord(1, 2, { hidden: true, time: null }),
    makeRecord(1, 3, { gameMode: '+Weird' }),
  ]);
  apply(1, [makeRecord(1, 1, { time: 62000, scopeType: 'Season', scopeId: seasonId(1), mapRecordId: recordId(99) })], seasonId(1));
  apply(2, [
    makeRecord(2, 1, { gameMode: 'Stunt', score: 1234, time: 90000 }),
    // A secret Stunt entry as the service may send it: a sentinel where its score would be.
    makeRecord(2, 2, { gameMode: 'Stunt', hidden: true, time: null, score: 4294967295, respawnCount: 3 }),
  ]);
  const r = makeRecord(1, 1);
  store.replays.markDownloaded(r.mapRecordId, replayPath(mapId(1), accountId(1), r.mapRecordId), 100, 'b'.repeat(64));
}

describe('exportCsv', () => {
  it('writes exactly the agreed header, CRLF-terminated, even with no records', async () => {
    const { text, rows } = await exportText();
    expect(rows).toBe(0);
    expect(text).toBe(
      'map_uid,map_id,map_name,account_id,player_name,game_mode,scope,time_ms,score,respawns,medal,hidden,' +
        'record_timestamp,record_id,replay_file,result,medal_name,rank,world_position\r\n',
    );
    expect(CSV_COLUMNS).toEqual([
      'map_uid', 'map_id', 'map_name', 'account_id', 'player_name', 'game_mode', 'scope', 'time_ms', 'score',
      'respawns', 'medal', 'hidden', 'record_timestamp', 'record_id', 'replay_file', 'result', 'medal_name', 'rank',
      'world_position',
    ]);
  });

  it('writes one row per stored record, PB and season scopes, with names stripped and cells as agreed', async () => {
    seed();
    const { text, rows } = await exportText();
    expect(rows).toBe(6);
    const table = parseCsv(text);
    const header = table[0]!;
    const records = table.slice(1).map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]])));
    expect(records).toHaveLength(6);
    const pb1 = records.find((r) => r.account_id === accountId(1) && r.scope === 'PersonalBest' && r.map_id === mapId(1))!;
    expect(pb1).toEqual({
      map_uid: makeMap(1).mapUid,
      map_id: mapId(1),
      map_name: 'Laserhawk - Megacity, "Race"\nPart 2',
      account_id: accountId(1),
      player_name: 'Red$Baron',
      game_mode: 'TimeAttack',
      scope: 'PersonalBest',
      time_ms: '61234',
      score: '0',
      respawns: '2',
      medal: '4',
      hidden: 'false',
      record_timestamp: '2024-02-01T12:00:00.000Z',
      record_id: makeRecord(1, 1).mapRecordId,
      replay_file: `replays/${mapId(1)}/${accountId(1)}/${makeRecord(1, 1).mapRecordId}.replay.gbx`,
      result: '1:01.234',
      medal_name: 'author',
      rank: '3',
      world_position: '',
    });
    const hidden = records.find((r) => r.account_id === accountId(2) && r.map_id === mapId(1))!;
    // Ranked among the exported players of the map, per scope (shared rankStoredBoard): the secret entry may be ahead
    // or behind, so its rank and the others' are ranges, as every view shows them.
    expect(hidden).toMatchObject({ time_ms: '', score: '', hidden: 'true', respawns: '', replay_file: '', result: 'SECRET', rank: '1–2' });
    expect(records.find((r) => r.account_id === accountId(3) && r.map_id === mapId(1))).toMatchObject({ rank: '1–2' });
    expect(records.find((r) => r.scope === seasonId(1))).toMatchObject({ rank: '1', result: '1:02.000' });
    // A secret entry has no time, no score and no respawn count (docs/game-rules.md), whatever the service sent.
    const secretStunt = records.find((r) => r.account_id === accountId(2) && r.map_id === mapId(2))!;
    expect(secretStunt).toMatchObject({ time_ms: '', score: '', respawns: '', medal: '2', hidden: 'true' });
    const season = records.find((r) => r.scope === seasonId(1))!;
    expect(season).toMatchObject({ account_id: accountId(1), time_ms: '62000', replay_file: '' });
    const stunt = records.find((r) => r.map_id === mapId(2) && r.hidden === 'false')!;
    expect(stunt).toMatchObject({ score: '1234', game_mode: 'Stunt', result: '1,234 pts', rank: '1–2' });
    expect(text).toContain(',"1,234 pts",');
  });

  it('gives the world position stored for a record only when it was asked for that very result', async () => {
    seed();
    const position = store.db.prepare(
      "INSERT INTO positions (map_ref, player_ref, scope, score, state, position, zones, as_of) SELECT m.id, p.id, 'PersonalBest', ?, 'ranked', ?, '[]', 'x' FROM maps m, players p WHERE m.map_id = ? AND p.account_id = ?",
    );
    position.run(61234, 5150, mapId(1), accountId(1));
    // Asked for an older result: not this record's position.
    position.run(1000, 77, mapId(2), accountId(1));
    const table = parseCsv((await exportText()).text);
    const header = table[0]!;
    const cell = (map: number, name: string) => table.find((c) => c[header.indexOf('map_id')] === mapId(map) && c[header.indexOf('account_id')] === accountId(1) && c[header.indexOf('scope')] === 'PersonalBest')![header.indexOf(name)];
    expect(cell(1, 'world_position')).toBe('5150');
    expect(cell(2, 'world_position')).toBe('');
  });

  it('quotes commas, quotes and line breaks the RFC 4180 way', async () => {
    seed();
    const { text } = await exportText();
    expect(text).toContain(',"Laserhawk - Megacity, ""Race""\nPart 2",');
    // Every record ends in CRLF; the bare \n lives inside quotes only.
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toHaveLength(7);
  });

  it('neutralises text cells a spreadsheet would run as formulas, not numbers', async () => {
    seed();
    const rows = parseCsv((await exportText()).text);
    const names = rows.map((r) => r[2]);
    const players = rows.map((r) => r[4]);
    expect(names).toContain('\'=HYPERLINK("http://evil")');
    expect(players).toContain("'@SUM(A1)");
    expect(players).toContain("'-Speedy-"); // a display name (no nickname given), neutralised too
    expect(rows.map((r) => r[5])).toContain("'+Weird");
    // Scores are numbers, left as they are; a secret entry's is empty.
    expect(rows.slice(1).every((r) => (r[11] === 'true' ? r[8] === '' : /^\d+$/.test(r[8]!)))).toBe(true);
    expect(['=1', '+1', '-1', '@a', '\tx', '\rx'].map(neutraliseFormula)).toEqual(["'=1", "'+1", "'-1", "'@a", "'\tx", "'\rx"]);
    expect(neutraliseFormula('a=1')).toBe('a=1');
  });

  it('starts with a UTF-8 BOM only when asked', async () => {
    seed();
    expect((await exportText({ bom: true })).text.startsWith('\uFEFFmap_uid,')).toBe(true);
    expect((await exportText()).text.startsWith('map_uid,')).toBe(true);
  });

  it('exports one list: its players on its maps', async () => {
    seed();
    const { text, rows } = await exportText({ list: 'L' });
    expect(rows).toBe(3); // map 1 x players 1 and 2: PB 1, season 1, PB 2
    expect(parseCsv(text).slice(1).map((r) => r[3]).sort()).toEqual([accountId(1), accountId(1), accountId(2)]);
  });

  it('waits for a slow output (backpressure) and leaves the stream open for the caller', async () => {
    store.maps.upsert([makeMap(1)]);
    const run = store.syncRuns.start();
    const many = Array.from({ length: 4500 }, (_, i) => makeRecord(1, i + 1));
    store.records.applyRecords({ mapId: mapId(1), scope: 'PersonalBest', records: many, seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run });
    const slow = new Sink(64, 1);
    let drains = 0;
    slow.on('drain', () => (drains += 1));
    const result = await exportCsv(store, slow);
    expect(result).toEqual({ rows: 4500 });
    expect(drains).toBeGreaterThan(0);
    expect(parseCsv(slow.text)).toHaveLength(4501);
    expect(slow.writableEnded).toBe(false);
  });

  it('writes byte-for-byte what csv-stringify writes over the export\'s rows and toCells (the fast path holds)', async () => {
    seed();
    store.maps.upsert([makeMap(3, { name: 'crlf\r\nname, "q"' })]);
    store.players.setNickname(accountId(1), '=cmd()');
    const run = store.syncRuns.start();
    store.records.applyRecords({
      mapId: mapId(3), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run,
      records: [
        makeRecord(3, 1, { gameMode: 'Time,Attack"', timestamp: 'not a date' }),
        makeRecord(3, 4, { gameMode: '-x', timestamp: '-1' }),
      ],
    });
    store.replays.markDownloaded(makeRecord(3, 4), 'replays/odd, "name"/x y.replay.gbx', 1, 'a'.repeat(64));
    const names = new NameCache();
    const rows = [...exportRows(store)];
    const ranks = ranksOf(rows);
    const reference = stringify(rows.map((r) => toCells(r, names, ranks.get(r) ?? '')), {
      record_delimiter: 'windows', quoted_match: /[\r\n]/, header: true, columns: [...CSV_COLUMNS], bom: true,
    });
    expect((await exportText({ bom: true })).text).toBe(reference);
  });

  it('writes a file through a temp file and a rename', async () => {
    seed();
    const file = join(dir, 'out', 'records.csv');
    const result = await exportCsv(store, file, { bom: true });
    expect(result).toEqual({ rows: 6, file });
    expect(readFileSync(file, 'utf8').startsWith('\uFEFFmap_uid,')).toBe(true);
    expect(readdirSync(join(dir, 'out'))).toEqual(['records.csv']);
  });

  it('never leaves a half-written CSV under the final name, nor a temp file', async () => {
    const file = join(dir, 'broken.csv');
    // Maps take turns, so chunks are written before the failure.
    const tuple = (map: number): ExportTuple => [map, 1, 'TimeAttack', 'PersonalBest', 0, 1, 0, null, 0, 't', 'r', null, null, null, null];
    let closed = false;
    const cursor: ExportCursor = {
      maps: new Map([[1, ['u', mapId(1), 'm', 'TrackMania\\TM_Race', 0, 1, 2, 3, 4]], [2, ['v', mapId(2), 'n', 'TrackMania\\TM_Race', 0, 1, 2, 3, 4]]]),
      players: new Map([[1, [accountId(1), null, null]]]),
      rows: (function* () {
        for (let i = 0; i < 5000; i += 1) yield tuple(1 + (i % 2));
        throw new Error('database went away');
      })(),
      close: () => {
        closed = true;
      },
    };
    const failing = { records: { openExport: () => cursor }, settings: { viewer: () => undefined } } as unknown as Store;
    await expect(exportCsv(failing, file)).rejects.toThrow('database went away');
    expect(closed).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});

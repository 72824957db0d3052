// The CSV export flushes its temp file to disk in the background as it writes (core/export/csv.ts FLUSH_EVERY_BYTES),
// so the flush before the rename finds little left; a background flush that fails fails the export and leaves no
// file, neither under the final name nor as a temp file.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportCsv } from '../../../src-main/core/export/csv.ts';
import { openStore, type Store } from '../../../src-main/core/store/index.ts';

const MAPS = 800;
const PLAYERS = 200;
const ROWS = MAPS * PLAYERS;

let dir: string;
let store: Store;
/** FileHandle.prototype, whose datasync the tests watch or make fail. */
let handleProto: { datasync: () => Promise<void> };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tw-csv-flush-'));
  store = openStore({ file: join(dir, 'trackwatch.sqlite') });
  store.transaction(() => {
    const db = store.db;
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO maps (id, map_id, map_uid, name, author, submitter, author_score, gold_score, silver_score,
         bronze_score, map_type, map_style, collection_name, filename, has_clones, is_playable,
         created_with_gamepad_editor, created_with_simple_editor, timestamp, file_url, thumbnail_url, fetched_at)
       SELECT i, printf('00000001-0000-4000-8000-%012x', i), printf('FlushUid%010xxxxxxxxxxxx', i), printf('Map %d', i),
         '00000002-0000-4000-8000-000000000000', '00000002-0000-4000-8000-000000000000', 40000, 43000, 48000, 60000,
         'TrackMania\\TM_Race', '', 'Stadium', 'm.Map.Gbx', 0, 1, 0, 0, '2024-01-01T00:00:00.000Z',
         'https://storage.example/f', 'https://storage.example/t', '2025-01-01T00:00:00.000Z'
       FROM n`,
    ).run(MAPS);
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO players (id, account_id, nickname, display_name, added_at)
       SELECT i, printf('00000002-0000-4000-8000-%012x', i), NULL, printf('Player %d', i), '2025-01-01T00:00:00.000Z' FROM n`,
    ).run(PLAYERS);
    db.prepare("INSERT INTO sync_runs (id, started_at, outcome) VALUES (1, '2025-01-01T00:00:00.000Z', 'ok')").run();
    db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1)
       INSERT INTO records (map_ref, player_ref, scope, current, change, map_record_id, time, hidden, score,
         respawn_count, medal, game_mode, game_mode_custom_data, removed, timestamp, url, filename, seen_at, updated_at,
         sync_run_id)
       SELECT i / ${PLAYERS} + 1, i % ${PLAYERS} + 1, 'PersonalBest', 1, 'first', printf('00000004-0000-4000-8000-%012x', i),
         40000 + i % 20000, 0, 0, i % 7, i % 5, 'TimeAttack', '', 0, '2024-05-06T12:34:56.000Z', 'https://storage.example/r',
         'x.replay.gbx', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 1
       FROM n`,
    ).run(ROWS);
  });
  const probe = await open(join(dir, 'probe'), 'w');
  handleProto = Object.getPrototypeOf(probe) as typeof handleProto;
  await probe.close();
});

afterAll(() => {
  vi.restoreAllMocks();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the CSV export flushing to disk as it writes', () => {
  it('flushes in the background more than 32 MB into the file, and the file is whole', async () => {
    const flushes = vi.spyOn(handleProto, 'datasync');
    const out = join(dir, 'whole.csv');
    const { rows } = await exportCsv(store, out, { parallel: false });
    // Before mockRestore, which forgets the calls.
    expect(flushes).toHaveBeenCalled();
    flushes.mockRestore();
    const text = readFileSync(out, 'latin1');
    expect(text.length).toBeGreaterThan(32 << 20);
    expect(rows).toBe(ROWS);
    expect(text.split('\r\n')).toHaveLength(ROWS + 2);
  });

  it('fails the export when a background flush fails, and leaves no file', async () => {
    const failing = vi.spyOn(handleProto, 'datasync').mockRejectedValue(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    const out = join(dir, 'broken.csv');
    const failure = await exportCsv(store, out, { parallel: true }).then(() => undefined, (error: unknown) => error as Error);
    failing.mockRestore();
    expect(failure?.message).toMatch(/disk failed while writing .*broken\.csv/);
    expect(readdirSync(dir).filter((name) => name.includes('broken'))).toEqual([]);
  });
});

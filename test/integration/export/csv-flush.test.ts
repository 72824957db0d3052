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
import { insertExportRows } from '../../helpers/export-data.ts';

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
  store.transaction(() => insertExportRows(store.db, { maps: MAPS, players: PLAYERS, records: ROWS }));
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

// The export's bytes, held exactly: the CSV of a scripted history (hostile names, game modes and timestamps, secret
// entries, seasons, replays in every state), all records and one list, read from a data folder (through the export's
// own connection, in pages) and from memory. The golden files were written by the export before it was made faster;
// a change to them is a change of the CSV, made on purpose:
// UPDATE_GOLDEN=1 npx vitest run test/unit/export/csv-golden.test.ts, then review the diff.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCsv } from '../../../src-main/core/export/csv.ts';
import { golden } from '../store/golden.ts';
import { BULK_MAPS, BULK_PLAYERS, scriptedHistory, type ScriptedHistory } from '../store/scripted-history.ts';

const GOLDEN = join(import.meta.dirname, 'golden');

let dir: string;
const histories: ScriptedHistory[] = [];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tw-csv-golden-'));
});
afterAll(() => {
  for (const h of histories) h.store.close();
  rmSync(dir, { recursive: true, force: true });
});

function history(options: { onDisk: boolean; bulk?: boolean }): ScriptedHistory {
  const file = options.onDisk ? join(dir, `${histories.length}`, 'trackwatch.sqlite') : undefined;
  const h = scriptedHistory({ file, bulk: options.bulk ?? false });
  histories.push(h);
  return h;
}

let exports = 0;
async function exported(h: ScriptedHistory, options: { list?: string; bom?: boolean } = {}): Promise<string> {
  const file = join(dir, `export-${(exports += 1)}.csv`);
  await exportCsv(h.store, file, options);
  return readFileSync(file, 'utf8');
}

describe('the CSV of a scripted history', () => {
  it('lists every record as the golden file does, from a data folder and from memory', async () => {
    const text = await exported(history({ onDisk: true }), { bom: true });
    expect(text).toBe(golden(join(GOLDEN, 'all.csv'), text));
    expect(text.split('\r\n').length).toBeGreaterThan(40);
    expect(await exported(history({ onDisk: false }), { bom: true })).toBe(text);
  });

  it('lists one list\'s records as the golden file does', async () => {
    const text = await exported(history({ onDisk: true }), { list: 'L' });
    expect(text).toBe(golden(join(GOLDEN, 'list.csv'), text));
    expect(text.split('\r\n').length).toBeGreaterThan(10);
    expect(await exported(history({ onDisk: false }), { list: 'L' })).toBe(text);
  });

  it('lists thousands of records, across the export\'s pages, as the golden digest says', async () => {
    const text = await exported(history({ onDisk: true, bulk: true }));
    const digest = `${createHash('sha256').update(text).digest('hex')} ${Buffer.byteLength(text)}\n`;
    expect(digest).toBe(golden(join(GOLDEN, 'all-bulk.sha256'), digest));
    expect(text.split('\r\n').length).toBeGreaterThan(BULK_MAPS * BULK_PLAYERS);
    expect(await exported(history({ onDisk: false, bulk: true }))).toBe(text);
  });
});

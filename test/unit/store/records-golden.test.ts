// The write path's output, held byte for byte: every stored row (records, players, replays) and every result
// applyRecords returned over a scripted history (scripted-history.ts). The golden files were written by the code
// before the write path was made faster; a change to them is a change of behaviour, made on purpose:
// UPDATE_GOLDEN=1 npx vitest run test/unit/store/records-golden.test.ts, then review the diff.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { golden } from './golden.ts';
import { scriptedHistory, type ScriptedHistory } from './scripted-history.ts';

const GOLDEN = join(import.meta.dirname, 'golden');

/** Each table's rows, then each applyRecords result's new records and improvements: one JSON line per row. */
function dump({ store, results }: ScriptedHistory): string {
  const lines = (title: string, rows: readonly unknown[]): string => `# ${title}\n${rows.map((r) => `${JSON.stringify(r)}\n`).join('')}`;
  const all = (sql: string): unknown[] => store.db.prepare(sql).all();
  return lines('records', all('SELECT * FROM records ORDER BY id')) +
    lines('players', all('SELECT * FROM players ORDER BY id')) +
    lines('replays', all('SELECT * FROM replays ORDER BY record_id')) +
    results.map((r, i) => lines(`applyRecords call ${i + 1}: new records`, r.newRecords) + lines(`applyRecords call ${i + 1}: improvements`, r.improvements)).join('');
}

describe('the stored rows of a scripted history', () => {
  it('are exactly the golden ones, with the same applyRecords results', () => {
    const history = scriptedHistory();
    try {
      const actual = dump(history);
      expect(actual).toBe(golden(join(GOLDEN, 'records.jsonl'), actual));
      // The history covers what it says it does (a golden file of nothing would pass too).
      const counts = history.store.db.prepare<[], { change: string | null; current: number | null }>(
        'SELECT DISTINCT change, current FROM records',
      ).all();
      for (const kind of [null, 'first', 'improved', 'unhidden', 'changed']) expect(counts.map((c) => c.change), String(kind)).toContain(kind);
      expect(counts.some((c) => c.current === null)).toBe(true);
      expect(history.results.some((r) => r.improvements.length === 0)).toBe(true);
    } finally {
      history.store.close();
    }
  });

  it('are the golden ones at volume too (a digest)', () => {
    const history = scriptedHistory({ bulk: true });
    try {
      const actual = dump(history);
      const digest = `${createHash('sha256').update(actual).digest('hex')} ${Buffer.byteLength(actual)}\n`;
      expect(digest).toBe(golden(join(GOLDEN, 'records-bulk.sha256'), digest));
      expect(history.results.reduce((n, r) => n + r.improvements.length, 0)).toBeGreaterThan(3000);
    } finally {
      history.store.close();
    }
  });
});

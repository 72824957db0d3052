// `records` and `records --json` streamed (issue 17 §1.4): the text equals what the one-string versions made, and
// however many records, no piece handed to the stream is large and the writer waits for the stream to drain.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { table } from '../../../src-main/cli/output.ts';
import { jsonArrayPieces, tablePieces, writePieces } from '../../../src-main/cli/stream.ts';

/** A slow reader with a small buffer: it counts pieces, keeps only their total, and says when it waited. */
class CountingSink extends Writable {
  chars = 0;
  largest = 0;
  drains = 0;
  text = '';
  readonly keep: boolean;
  constructor(keep: boolean) {
    super({ highWaterMark: 1024, decodeStrings: false });
    this.keep = keep;
    this.on('drain', () => (this.drains += 1));
  }
  override _write(chunk: string, _encoding: string, done: () => void): void {
    this.chars += chunk.length;
    this.largest = Math.max(this.largest, chunk.length);
    if (this.keep) this.text += chunk;
    setImmediate(done);
  }
}

const record = (i: number) => ({ mapId: `map-${i % 25}`, accountId: `acc-${i % 50}`, time: 40_000 + i, medal: i % 4, hidden: false, timestamp: '2026-05-01T18:00:00Z' });

describe('streamed output', () => {
  it.each([0, 1, 3])('writes %i items as JSON.stringify(items, null, 2) would', async (n) => {
    const items = Array.from({ length: n }, (_, i) => ({ ...record(i), nested: { a: [1, 2], b: null } }));
    const sink = new CountingSink(true);
    await writePieces(sink, jsonArrayPieces(items));
    expect(sink.text).toBe(`${JSON.stringify(items, null, 2)}\n`);
  });

  it('600,000 records: pieces stay small and the writer waits for the reader', async () => {
    function* many(): Generator<ReturnType<typeof record>> {
      for (let i = 0; i < 600_000; i++) yield record(i);
    }
    const sink = new CountingSink(false);
    await writePieces(sink, jsonArrayPieces(many()));
    expect(sink.chars).toBeGreaterThan(600_000 * 100);
    expect(sink.largest).toBeLessThan(70_000);
    expect(sink.drains).toBeGreaterThan(100);
  });

  it('a short table is drawn exactly as table() draws it', () => {
    const rows = [['Lagoon', 'Me', '0:41.000'], ['Canyon', 'Rival', '1:02.500']];
    expect([...tablePieces(['map', 'player', 'result'], rows)].join('')).toBe(`${table(['map', 'player', 'result'], rows, { compact: true })}\n`);
  });

  it('150,000 rows: one header, and every line laid out as a short table lays it out', () => {
    const rows = Array.from({ length: 150_000 }, (_, i) => [`Map ${i % 300}`, `player-${i % 77}`, String(40_000 + i)]);
    const lines = [...tablePieces(['map', 'player', 'result'], rows)].join('').split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(150_001);
    expect(lines.filter((l) => l.startsWith('map '))).toHaveLength(1);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    // The same layout as cli-table3's, for rows whose columns are as wide.
    const widest = [rows[299]!, rows[76]!, rows[149_999]!].map((r) => r.map(String));
    expect(lines[0]).toBe(table(['map', 'player', 'result'], widest, { compact: true }).split('\n')[0]);
  });
});

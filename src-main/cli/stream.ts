// Long outputs written as they are made, with the stream's back-pressure: `records --json` of 600,000 records is never
// one string (V8 caps a string near 512 MB: "Invalid string length"), and a table of 150,000 rows is never one
// cli-table3 call ("Maximum call stack size exceeded").
import type { Writable } from 'node:stream';
import { NO_COLOURS, table, terminalJson, type Colours } from './output.ts';

/** Text is handed to the stream in pieces of about this many characters. */
const PIECE_CHARS = 1 << 16;
/** The most rows drawn by cli-table3, which lays out a whole table in memory and slows down past a few thousand. */
export const TABLE_ROWS_AT_ONCE = 2000;

/** Writes `pieces` to `out`, waiting for 'drain' whenever the stream asks: memory stays bounded whatever the length. */
export async function writePieces(out: Writable, pieces: Iterable<string>): Promise<void> {
  let pending = '';
  const flush = async (): Promise<void> => {
    const text = pending;
    pending = '';
    if (text === '' || out.write(text)) return;
    // A reader that went away (a closed pipe) ends the wait as well as a drained buffer does.
    await new Promise<void>((resolve) => {
      const done = (): void => {
        out.off('drain', done).off('close', done).off('error', done);
        resolve();
      };
      out.on('drain', done).on('close', done).on('error', done);
    });
  };
  for (const piece of pieces) {
    if (out.destroyed) return;
    pending += piece;
    if (pending.length >= PIECE_CHARS) await flush();
  }
  await flush();
}

/** The text `terminalJson(items)` + a newline would make, one item at a time. */
export function* jsonArrayPieces(items: Iterable<unknown>): Generator<string> {
  let first = true;
  for (const item of items) {
    yield `${first ? '[\n  ' : ',\n  '}${terminalJson(item).replace(/\n/g, '\n  ')}`;
    first = false;
  }
  yield first ? '[]\n' : '\n]\n';
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** How many columns a cell takes on a terminal (colours left out; one column a code point). */
function cellWidth(cell: string): number {
  return [...cell.replace(ANSI, '')].length;
}

/**
 * A compact table as text. A short one is drawn whole by cli-table3 (`table()`); a long one (cli-table3 takes minutes
 * over 150,000 rows) line by line in the same layout: each cell padded to its column's widest, one space after it,
 * one between columns.
 */
export function* tablePieces(
  head: string[],
  rows: readonly (string | number)[][],
  align?: ('left' | 'right')[],
  colours: Colours = NO_COLOURS,
): Generator<string> {
  if (rows.length <= TABLE_ROWS_AT_ONCE) {
    yield `${table(head, rows, { compact: true, colours, ...(align ? { align } : {}) })}\n`;
    return;
  }
  const widths = head.map(cellWidth);
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cellWidth(String(cell)))));
  const draw = (cells: readonly string[]): string =>
    cells.map((cell, i) => {
      const room = ' '.repeat(Math.max(0, widths[i]! - cellWidth(cell)));
      return `${align?.[i] === 'right' ? room + cell : cell + room} `;
    }).join(' ');
  yield `${draw(head.map((h) => colours.bold(h)))}\n`;
  for (const row of rows) yield `${draw(row.map(String))}\n`;
}

// Terminal output: tables, colours only on a terminal, names with formatting codes stripped. Results, deltas and
// medal gaps read as the shared leaderboard module writes them.
import Table from 'cli-table3';
import pc from 'picocolors';
import { BIDI_CONTROLS, medalName, stripFormatting } from '../shared/format.ts';
import { deltaDirection, formatDelta, formatResult, type Delta, type MapKind, type RecordResult } from '../shared/leaderboard.ts';

export const colours = pc.createColors(Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);

/** A name from the service as one safe line: formatting stripped, control characters (newlines, escapes) and bidi controls replaced. */
export function plainName(name: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex
  return stripFormatting(name ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(BIDI_CONTROLS, ' ').trim();
}

/** No borders and no lines between rows: one line per row, columns aligned. */
const COMPACT_CHARS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: ' ',
};

/**
 * A table; `compact` drops the borders and the line under every row (for long listings such as `compare`).
 * `align` gives each column's alignment (left by default).
 */
export function table(head: string[], rows: readonly (string | number)[][], options: { compact?: boolean; align?: ('left' | 'right')[]; colWidths?: number[] } = {}): string {
  const t = new Table({
    head: head.map((h) => colours.bold(h)),
    style: { head: [], border: [], ...(options.compact ? { compact: true, 'padding-left': 0, 'padding-right': 1 } : {}) },
    ...(options.compact ? { chars: COMPACT_CHARS } : {}),
    ...(options.align ? { colAligns: options.align } : {}),
    ...(options.colWidths ? { colWidths: options.colWidths } : {}),
  });
  t.push(...rows.map((r) => r.map((cell) => (typeof cell === 'number' ? String(cell) : cell))));
  return t.toString();
}

const MEDAL_STYLE = {
  author: colours.green,
  gold: colours.yellow,
  silver: colours.gray,
  bronze: colours.red,
  none: colours.dim,
} as const;

export function medal(medalValue: number): string {
  const name = medalName(medalValue);
  return name === 'none' ? '' : MEDAL_STYLE[name](name);
}

/** A record as the game shows it (shared/leaderboard.ts formatResult); a secret entry dimmed. */
export function result(kind: MapKind, record: RecordResult): string {
  const text = formatResult(kind, record);
  return record.hidden ? colours.dim(text) : text;
}

/** A delta, value − reference, coloured as in the game: blue ahead, red behind. */
export function delta(value: Delta | null): string {
  if (!value) return '';
  const direction = deltaDirection(value);
  const text = formatDelta(value);
  return direction === 'ahead' ? colours.blue(text) : direction === 'behind' ? colours.red(text) : text;
}

/** `1 map`, `3 maps`. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

// JSON leaves C1 controls and bidi controls as they are: on a terminal they would drive it or reorder the line.
const JSON_UNSAFE = new RegExp(`[\\u007f-\\u009f]|${BIDI_CONTROLS.source}`, 'gu');

/** JSON.stringify, with C1 and bidi controls written as \u escapes: the same value to a script, harmless on a terminal. */
export function terminalJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${terminalJson(value)}\n`);
}

export function line(text = ''): void {
  process.stdout.write(`${text}\n`);
}

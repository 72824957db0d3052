// Terminal output: tables, colours only on a terminal, names with formatting codes stripped. Results, deltas and
// medal gaps read as the shared leaderboard module writes them. One run of the command writes through its Output
// (the streams of its CliIo, io.ts); the pure helpers below take the colours they draw with.
import Table from 'cli-table3';
import pc from 'picocolors';
import { BIDI_CONTROLS, medalName, stripFormatting } from '../shared/format.ts';
import { deltaDirection, formatDelta, formatResult, type Delta, type MapKind, type RecordResult } from '../shared/leaderboard.ts';
import type { CliIo } from './io.ts';
import { localDateTime } from './words.ts';

export type Colours = ReturnType<typeof pc.createColors>;

/** No colours: what a pipe, a file or NO_COLOR gets. */
export const NO_COLOURS: Colours = pc.createColors(false);

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
export function table(
  head: string[],
  rows: readonly (string | number)[][],
  options: { compact?: boolean; align?: ('left' | 'right')[]; colWidths?: number[]; colours?: Colours } = {},
): string {
  const colours = options.colours ?? NO_COLOURS;
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

/**
 * What one run of the command prints, and where: lines and JSON on its stdout, coloured only when that is a terminal
 * and NO_COLOR is not set. Built per run from its CliIo, so nothing of one run (colours, a failed output) reaches
 * the next one in the same process.
 */
export class Output {
  readonly io: CliIo;
  readonly colours: Colours;
  /** The first write failure of stdout or stderr other than a closed pipe, said once the command is done. */
  failure: NodeJS.ErrnoException | undefined;

  constructor(io: CliIo) {
    this.io = io;
    this.colours = pc.createColors(Boolean(io.stdout.isTTY) && !io.env.NO_COLOR);
  }

  /**
   * A reader that went away (`trackwatch compare | head`) is not an error: what is left to print is dropped, the
   * command finishes what it was doing (a sync keeps its data), and the process ends quietly. Another write failure
   * (stdout redirected to a full disk) is kept in `failure`, said once the command is done. Stays on the streams
   * for good: a closed pipe can still be found out while the process ends.
   */
  quietOnClosedPipes(): void {
    for (const stream of [this.io.stdout, this.io.stderr]) {
      stream.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') this.failure ??= error;
        stream.write = (() => true) as typeof stream.write;
      });
    }
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  json(value: unknown): void {
    this.io.stdout.write(`${terminalJson(value)}\n`);
  }

  /** A line on stderr: progress and what went wrong with one file of many. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  table(head: string[], rows: readonly (string | number)[][], options: { compact?: boolean; align?: ('left' | 'right')[]; colWidths?: number[] } = {}): string {
    return table(head, rows, { ...options, colours: this.colours });
  }

  medal(medalValue: number): string {
    const name = medalName(medalValue);
    if (name === 'none') return '';
    const c = this.colours;
    const style = { author: c.green, gold: c.yellow, silver: c.gray, bronze: c.red }[name];
    return style(name);
  }

  /** A record as the game shows it (shared/leaderboard.ts formatResult); a secret entry dimmed. */
  result(kind: MapKind, record: RecordResult): string {
    const text = formatResult(kind, record);
    return record.hidden ? this.colours.dim(text) : text;
  }

  /** A delta, value − reference, coloured as in the game: blue ahead, red behind. */
  delta(value: Delta | null): string {
    if (!value) return '';
    const direction = deltaDirection(value);
    const text = formatDelta(value);
    return direction === 'ahead' ? this.colours.blue(text) : direction === 'behind' ? this.colours.red(text) : text;
  }

  /** An ISO time in the run's time zone: "24 Nov 2026, 14:05"; '' for none. */
  dateTime(iso: string | null | undefined): string {
    return localDateTime(iso, this.io.timeZone);
  }

  /** Commands take a terminal on both ends as a player typing; anything else (a pipe, a cron job) as a script. */
  interactive(): boolean {
    return Boolean(this.io.stdin.isTTY && this.io.stdout.isTTY);
  }

  /** Resolves once what was written to stdout went out (or failed: its error handler has then run). */
  flushed(): Promise<void> {
    return new Promise((resolve) => {
      this.io.stdout.write('', () => setImmediate(resolve));
    });
  }
}

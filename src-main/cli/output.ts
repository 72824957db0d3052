// Terminal output: tables, colours only on a terminal, names with formatting codes stripped.
import Table from 'cli-table3';
import pc from 'picocolors';
import { formatDelta, formatScore, formatScoreDelta, formatTime, medalName, stripFormatting } from '../shared/format.ts';

export const colours = pc.createColors(Boolean(process.stdout.isTTY) && !process.env.NO_COLOR);

/** A name from the service as one safe line: formatting stripped, control characters (newlines, escapes) replaced. */
export function plainName(name: string | null | undefined): string {
  // eslint-disable-next-line no-control-regex
  return stripFormatting(name ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
}

export function table(head: string[], rows: (string | number)[][]): string {
  const t = new Table({ head: head.map((h) => colours.bold(h)), style: { head: [], border: [] } });
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

/** A PB as players read it: the time, or Stunt points; hidden entries say so. */
export function result(entry: { hidden: boolean; time: number | null; score: number | null }, isStunt: boolean): string {
  if (entry.hidden) return colours.dim('hidden');
  return isStunt ? `${formatScore(entry.score)} pts` : formatTime(entry.time);
}

/** A delta where positive means worse: shown as time (+ slower) or as Stunt points (- fewer points). */
export function delta(value: number | null, isStunt: boolean): string {
  if (value === null) return '';
  return isStunt ? formatScoreDelta(-value) : formatDelta(value);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function line(text = ''): void {
  process.stdout.write(`${text}\n`);
}

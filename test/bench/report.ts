// What every benchmark shares: a row per figure (measured against its target, never asserted), a table printer,
// and the fewest requests the URI limit allows, computed from lengths alone (independently of the client's packer).
import { fileURLToPath } from 'node:url';

/** A figure; one with an empty target is information only (a baseline, a detail) and carries ok: true. */
export interface BenchRow {
  figure: string;
  measured: string;
  target: string;
  ok: boolean;
}

/** The service answers 414 from 8220 characters: the longest request-target that passes. */
export const URI_LIMIT = 8219;

/** Fewest requests that can carry `keys` after `fixed` characters of request-target, commas between keys. */
export function minimumRequests(fixed: number, keys: readonly string[], limit = URI_LIMIT): number {
  if (keys.length === 0) return 0;
  const room = limit - fixed;
  if (keys.every((k) => k.length === keys[0]!.length)) {
    // Equal lengths: n keys take n*len + (n-1) commas.
    const perRequest = Math.floor((room + 1) / (keys[0]!.length + 1));
    return Math.ceil(keys.length / perRequest);
  }
  const total = keys.reduce((sum, k) => sum + k.length, 0) + keys.length - 1;
  // Each extra request saves one comma; the bound below is what no packing can beat.
  let n = Math.max(1, Math.ceil(total / room));
  while (total - (n - 1) > n * room) n++;
  return n;
}

export function ratioRow(figure: string, made: number, minimum: number, target = 1.01): BenchRow {
  const ratio = made / minimum;
  return { figure, measured: `${made} / ${minimum} = ${ratio.toFixed(3)}`, target: `<= ${target}`, ok: ratio <= target };
}

export function countRow(figure: string, value: number): BenchRow {
  return { figure, measured: String(value), target: '0', ok: value === 0 };
}

export function printRows(rows: readonly BenchRow[]): void {
  const head: BenchRow = { figure: 'figure', measured: 'measured', target: 'target', ok: true };
  const w = (k: 'figure' | 'measured' | 'target') => Math.max(...[head, ...rows].map((r) => r[k].length));
  const line = (r: BenchRow, ok: string) => `| ${r.figure.padEnd(w('figure'))} | ${r.measured.padEnd(w('measured'))} | ${r.target.padEnd(w('target'))} | ${ok.padEnd(3)} |`;
  console.log(line(head, 'ok'));
  console.log(`|${'-'.repeat(w('figure') + 2)}|${'-'.repeat(w('measured') + 2)}|${'-'.repeat(w('target') + 2)}|-----|`);
  for (const r of rows) console.log(line(r, r.target === '' ? '' : r.ok ? 'ok' : 'NOT'));
}

/** True when the module at `url` is the script node was started with (so a bench file runs on its own too). */
export function isMain(url: string): boolean {
  return Boolean(process.argv[1]) && fileURLToPath(url) === process.argv[1];
}

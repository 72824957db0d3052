// The emulator's own imports: no circle among its modules (issue 18 step 6), and nothing from the product (lint holds
// that too; this says it where the emulator's tests are).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../../src-main/emulator');

function modules(): string[] {
  return readdirSync(ROOT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => join(ROOT, f));
}

/** Every relative import and export-from of a module, resolved to a file (type-only ones included: they are still an arrow). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'(\.[^']+)'/gm)].map((m) => resolve(dirname(file), m[1]!));
}

describe('the emulator\'s imports', () => {
  const graph = new Map(modules().map((f) => [f, importsOf(f)]));

  it('take nothing from the product: every relative import stays inside src-main/emulator', () => {
    const outside = [...graph].flatMap(([f, deps]) => deps.filter((d) => relative(ROOT, d).startsWith('..')).map((d) => `${relative(ROOT, f)} → ${relative(ROOT, d)}`));
    expect(outside).toEqual([]);
  });

  it('form no circle', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, path: string[]): void => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        circles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(ROOT, f)).join(' → '));
        return;
      }
      state.set(file, 'open');
      for (const dep of graph.get(file) ?? []) visit(dep, [...path, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(graph.size).toBeGreaterThan(10);
    expect(circles).toEqual([]);
  });
});

// No import circle anywhere in the sources (issue 18 steps 6-7): every relative import, export-from and dynamic
// import() of src-main and src-renderer (.ts and .svelte), type-only ones included (they are still an arrow).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..', '..', '..');
const SOURCES = ['src-main', 'src-renderer'];

function modules(): string[] {
  return SOURCES.flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|svelte)$/.test(f)).map((f) => join(ROOT, dir, f)),
  );
}

/** A module's relative imports, resolved to files (a path without its extension gets .ts). */
export function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]/gm),
    ...text.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.map((s) => resolve(dirname(file), /\.\w+$/.test(s) ? s : `${s}.ts`));
}

/** Every circle in `graph`, each once, as "a → b → a". */
export function circlesIn(graph: Map<string, string[]>, name: (f: string) => string): string[] {
  const circles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      circles.push([...path.slice(path.indexOf(file)), file].map(name).join(' → '));
      return;
    }
    state.set(file, 'open');
    for (const dep of graph.get(file) ?? []) visit(dep, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  return circles;
}

describe('imports across the sources', () => {
  const graph = new Map(modules().map((f) => [f, importsOf(f)]));
  const name = (f: string) => relative(ROOT, f);

  it('reads every kind of import the sources write', () => {
    const here = join(ROOT, 'src-main', 'core', 'probe.ts');
    const text = "import a from './a.ts';\nimport type { B } from '../b.ts';\nexport { c } from './c.ts';\nimport './d.ts';\nconst e = await import('./e.ts');\nimport {\n  f,\n} from './f.ts';";
    expect(importsOf(here, text).map(name).sort()).toEqual(
      ['src-main/b.ts', 'src-main/core/a.ts', 'src-main/core/c.ts', 'src-main/core/d.ts', 'src-main/core/e.ts', 'src-main/core/f.ts'],
    );
    expect(circlesIn(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]), (f) => f)).toEqual(['a → b → c → a']);
  });

  it('resolve to files that exist', () => {
    const missing = [...graph].flatMap(([f, deps]) => deps.filter((d) => !existsSync(d)).map((d) => `${name(f)} → ${name(d)}`));
    expect(graph.size).toBeGreaterThan(200);
    expect(missing).toEqual([]);
  });

  it('form no circle', () => {
    expect(circlesIn(graph, name)).toEqual([]);
  });
});

// Runs the benchmarks one after another (all, or those named: `npm run bench -- sync csv`). Each prints its own
// figures and ratios against a baseline measured in the same run; nothing here passes or fails on a time.
import { readdir } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const here = import.meta.dirname;
const all = (await readdir(here)).filter((f) => f.endsWith('.bench.ts')).map((f) => f.replace(/\.bench\.ts$/, '')).sort();
const wanted = process.argv.slice(2);
const unknown = wanted.filter((w) => !all.includes(w));
if (unknown.length > 0) {
  console.error(`no benchmark named ${unknown.join(', ')}; there are: ${all.join(', ')}`);
  process.exit(2);
}
let missed = 0;
for (const name of wanted.length > 0 ? wanted : all) {
  console.log(`\n## ${name}`);
  const started = performance.now();
  const bench = (await import(pathToFileURL(join(here, `${name}.bench.ts`)).href)) as { run: () => Promise<{ ok: boolean }[]> };
  const rows = await bench.run();
  missed += rows.filter((r) => !r.ok).length;
  console.log(`(${name}: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
console.log(`\n${missed === 0 ? 'every figure within its target' : `${missed} figure(s) outside their targets (see NOT above)`}`);

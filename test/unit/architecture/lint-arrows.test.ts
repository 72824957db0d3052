// Lint holds every arrow the README draws (issue 18 step 7): for each floor, a probe file placed there imports across
// an arrow and ESLint (its Node API, on code in memory, with the project's own eslint.config.js) refuses it, while
// the imports the picture allows pass. A rule that stops matching (a renamed folder, a pattern typo) fails here.
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The import rules' complaints about `code` as if it were the file `file` (relative to the repository). */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  const fatal = result!.messages.filter((m) => m.fatal);
  if (fatal.length > 0) throw new Error(`${file} did not parse: ${fatal.map((m) => m.message).join('; ')}`);
  return result!.messages.filter((m) => /no-restricted-imports$/.test(m.ruleId ?? '')).map((m) => m.message);
}

/** A module that uses what it imports (so only the import rules speak). */
const probe = (...imports: string[]) => `${imports.join('\n')}\nexport const used = [${imports.map((_, i) => `p${i}`).join(', ')}];\n`;
const value = (i: number, from: string) => `import { x as p${i} } from '${from}';`;
const typeOnly = (i: number, from: string) => `import type { X as T${i} } from '${from}';\nconst p${i} = undefined as unknown as T${i};`;

// Each floor, with the imports it may make and those lint must refuse (paths as written from a file one level in).
const floors: Array<{ file: string; allowed: string[]; refused: string[] }> = [
  {
    file: 'src-main/shared/probe.ts',
    allowed: ['./leaderboard.ts'],
    refused: ['../core/model.ts', '../contract/index.ts', 'node:fs', 'zod', 'electron'],
  },
  {
    file: 'src-main/core/probe.ts',
    allowed: ['../shared/leaderboard.ts', './model.ts', 'node:fs', 'zod'],
    refused: ['../service/service.ts', '../app/main.ts', '../bridge/browser-mode.ts', '../cli/main.ts', '../emulator/index.ts', '../contract/index.ts', 'electron'],
  },
  {
    file: 'src-main/contract/probe.ts',
    allowed: ['./commands.ts', '../shared/leaderboard.ts', 'zod'],
    refused: ['../core/model.ts', '../service/service.ts', '../emulator/index.ts', 'node:fs', 'electron'],
  },
  {
    file: 'src-main/emulator/probe.ts',
    allowed: ['./rules.ts', 'node:http', 'zod'],
    refused: ['../core/model.ts', '../shared/leaderboard.ts', '../contract/index.ts', '../service/service.ts', '../cli/main.ts', 'electron'],
  },
  {
    file: 'src-main/service/probe.ts',
    allowed: ['../core/trackwatch.ts', '../shared/leaderboard.ts', '../contract/index.ts', '../emulator/index.ts'],
    refused: ['../app/main.ts', '../bridge/browser-mode.ts', '../cli/main.ts', 'electron'],
  },
  {
    file: 'src-main/app/probe.ts',
    allowed: ['../service/service.ts', '../contract/index.ts', '../core/paths.ts', 'electron'],
    refused: ['../bridge/browser-mode.ts', '../cli/main.ts', '../emulator/index.ts', '../../src-renderer/main.ts'],
  },
  {
    file: 'src-main/bridge/probe.ts',
    allowed: ['../service/service.ts', '../contract/index.ts', 'node:http'],
    refused: ['../app/main.ts', '../cli/main.ts', '../emulator/index.ts', '../../src-renderer/main.ts', 'electron'],
  },
  {
    file: 'src-main/cli/probe.ts',
    allowed: ['../core/trackwatch.ts', '../service/views.ts', '../shared/leaderboard.ts', '../bridge/browser-mode.ts', '../emulator/index.ts'],
    refused: ['../app/main.ts', '../contract/index.ts', '../../src-renderer/main.ts', 'electron'],
  },
  {
    file: 'src-renderer/lib/probe.ts',
    allowed: ['../../src-main/shared/leaderboard.ts', './format.ts'],
    refused: ['../../src-main/core/model.ts', '../../src-main/service/views.ts', '../../src-main/emulator/index.ts', '../../src-main/app/main.ts',
      '../../src-main/bridge/browser-mode.ts', '../../src-main/cli/main.ts', '../../src-main/contract/index.ts', 'node:fs', 'electron'],
  },
];

describe('lint holds the arrows', () => {
  for (const { file, allowed, refused } of floors) {
    it(`${path.dirname(file)}: allows ${allowed.length} kinds of import and refuses ${refused.length}`, async () => {
      expect(await refusals(file, probe(...allowed.map((from, i) => value(i, from))))).toEqual([]);
      for (const from of refused) {
        expect(await refusals(file, probe(value(0, from))), `${file} importing ${from}`).toHaveLength(1);
      }
    });
  }

  it('lets the renderer import types from the contract, and refuses a value from it, in .ts and .svelte alike', async () => {
    const contract = '../../src-main/contract/index.ts';
    expect(await refusals('src-renderer/lib/probe.ts', probe(typeOnly(0, contract)))).toEqual([]);
    expect(await refusals('src-renderer/lib/probe.ts', `import { type X as T0 } from '${contract}';\nexport const used: T0 | undefined = undefined;\n`)).toEqual([]);
    expect(await refusals('src-renderer/lib/probe.ts', probe(value(0, contract)))).toHaveLength(1);
    const svelte = (script: string) => `<script lang="ts">\n${script}\n</script>\n<p>{String(used)}</p>\n`;
    const component = 'src-renderer/components/Probe.svelte';
    expect(await refusals(component, svelte(probe(typeOnly(0, '../../src-main/contract/index.ts'), value(1, '../../src-main/shared/format.ts'))))).toEqual([]);
    expect(await refusals(component, svelte(probe(value(0, '../../src-main/contract/index.ts'))))).toHaveLength(1);
    expect(await refusals(component, svelte(probe(value(0, '../../src-main/core/model.ts'))))).toHaveLength(1);
  });

  it('refuses a function over 150 lines in src-main, but not in a migration', async () => {
    const long = `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(150)}  return n;\n}\n`;
    const [core] = await eslint.lintText(long, { filePath: path.join(ROOT, 'src-main/core/probe.ts') });
    expect(core!.messages.map((m) => m.ruleId)).toEqual(['max-lines-per-function']);
    const [migration] = await eslint.lintText(long, { filePath: path.join(ROOT, 'src-main/core/store/migrations/9999_probe.ts') });
    expect(migration!.messages).toEqual([]);
  });
});

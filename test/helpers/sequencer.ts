// The order test files start in. The last file to start sets the run's tail: a slow one started last keeps one worker
// busy while the other sits idle. Vitest starts the files its cache knows as slowest first, but a fresh clone (CI)
// has no cache, and then it starts the largest first across every folder. The slow files here are the ones that wait
// on an emulator, a child process or Chromium: without a full cache those folders start first, largest first.
import { statSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Folders by how slow their files are: e2e, then integration and faults alike, then the rest (unit files). */
const SLOW_FIRST: [folder: string, rank: number][] = [['test/e2e/', 0], ['test/integration/', 1], ['test/faults/', 1]];

function folderRank(spec: TestSpecification): number {
  const file = spec.moduleId.slice(spec.project.config.root.length + 1);
  return SLOW_FIRST.find(([folder]) => file.startsWith(folder))?.[1] ?? 2;
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    if (files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec))) return sorted;
    // Projects keep vitest's order (e2e, shared, shell); within one: the slow folders first, each largest file first.
    const projectAt = new Map<string, number>();
    sorted.forEach((spec, i) => projectAt.set(spec.project.name, Math.min(i, projectAt.get(spec.project.name) ?? i)));
    const key = new Map(sorted.map((spec) => [spec, { project: projectAt.get(spec.project.name)!, folder: folderRank(spec), size: statSync(spec.moduleId).size }]));
    return [...sorted].sort((a, b) => {
      const ka = key.get(a)!;
      const kb = key.get(b)!;
      return ka.project - kb.project || ka.folder - kb.folder || kb.size - ka.size;
    });
  }
}

// The order test files start in. The last file to start sets the run's tail: a slow one started last keeps one worker
// busy while the other sits idle. Vitest starts the files its cache knows as slowest first, but a fresh clone (CI)
// has no cache, and then it starts the largest first: the slow files here are the ones that wait on an emulator,
// a child process or Chromium, whatever their size, so without a cache those folders start first.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const SLOW_FIRST = ['test/e2e/', 'test/integration/', 'test/faults/'];

function folderRank(spec: TestSpecification): number {
  const file = spec.moduleId.slice(spec.project.config.root.length + 1);
  const rank = SLOW_FIRST.findIndex((folder) => file.startsWith(folder));
  return rank === -1 ? SLOW_FIRST.length : rank;
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    if (files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec))) return sorted;
    // Projects keep vitest's order; within one, a stable sort keeps its order (largest first) inside each folder.
    const projectAt = new Map<string, number>();
    sorted.forEach((spec, i) => projectAt.set(spec.project.name, Math.min(i, projectAt.get(spec.project.name) ?? i)));
    const at = (spec: TestSpecification) => projectAt.get(spec.project.name)!;
    return [...sorted].sort((a, b) => at(a) - at(b) || folderRank(a) - folderRank(b));
  }
}

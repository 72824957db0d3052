import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/helpers/sequencer.ts';

// The shell's unit tests need a process and module registry of their own: they mock modules (vi.mock of electron).
// The end-to-end files are a project of their own for the one Chromium they share (globalSetup below).
const SHELL_UNITS = 'test/unit/app/**/*.test.ts';
const E2E = 'test/e2e/**/*.test.ts';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Without vitest's cache of durations (a fresh clone, CI), the slow folders start first (test/helpers/sequencer.ts).
    sequence: { sequencer: SlowFirstSequencer },
    // Most of the suite's time is spent waiting: on a child `trackwatch` process, a paced emulator, Chromium. Vitest's
    // default (one worker per core but one: one worker on CI's two cores) leaves a core idle through those waits;
    // one file per core keeps both busy (two per core overloaded a loaded machine into timeouts).
    // TRACKWATCH_TEST_WORKERS overrides it (1 to read a failing file's output in order).
    maxWorkers: Number(process.env.TRACKWATCH_TEST_WORKERS) || availableParallelism(),
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/faults/**/*.test.ts'],
          exclude: [SHELL_UNITS, E2E],
          // These files share a worker and its loaded modules: a fresh process and import graph per file cost about
          // 0.3-0.8 s of CPU each, more than most unit files' tests. None of them mocks a module, stubs a global,
          // fakes the clock or leaves a process hook behind (children they start are their own processes).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'shell',
          include: [SHELL_UNITS],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [E2E],
          // Like the shared files, they share a worker's process and loaded modules (about 1 s of CPU a file): none
          // mocks a module or installs a process hook (browser mode does not; `serve` does, and no e2e file runs it).
          isolate: false,
          // One Chromium for the run, started only when an e2e file is: each file opens its own pages in it.
          globalSetup: ['test/helpers/chromium-server.ts'],
        },
      },
    ],
  },
});

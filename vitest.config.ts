import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/faults/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of the suite's time is spent waiting: on a child `trackwatch` process, a paced emulator, Chromium. Vitest's
    // default (one worker per core but one: one worker on CI's two cores) leaves a core idle through those waits;
    // one file per core keeps both busy (two per core overloaded a loaded machine into timeouts).
    // TRACKWATCH_TEST_WORKERS overrides it (1 to read a failing file's output in order).
    maxWorkers: Number(process.env.TRACKWATCH_TEST_WORKERS) || availableParallelism(),
  },
});

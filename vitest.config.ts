import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    // A hang guard, not a speed check: a loaded machine (two suites at once) runs a test several times slower.
    testTimeout: 120_000,
    // Vitest's default (one worker fewer than the cores) is one worker on two cores, where the
    // files then run one after another; most of a file's time is spent waiting on the CLI processes
    // it starts, so a worker per core keeps both busy. The suite passes so with both cores loaded.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});

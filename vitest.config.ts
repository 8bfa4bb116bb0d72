import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The files that wait longest on the processes they start (npm installs of the package, the
// differential run of 100,000 records, the signal and FIFO tests). On a fresh clone Vitest has no
// durations yet and starts the largest files first, which leaves these to run last, alone on one
// worker; started first, they run beside the rest.
const longest = ['test/pack.test.ts', 'test/scan-differential.test.ts', 'test/robustness.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = longest.findIndex((path) => file.moduleId.endsWith(path));
      return index < 0 ? longest.length : index;
    };
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    // A hang guard, not a speed check: with both cores busy elsewhere a test runs many
    // times slower, and every timeout in the tests is such a guard.
    testTimeout: 600_000,
    // Vitest's default (one worker fewer than the cores) is one worker on two cores, where the
    // files then run one after another; most of a file's time is spent waiting on the CLI processes
    // it starts, so a worker per core keeps both busy. The suite passes so with both cores loaded.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // A worker runs file after file in one process, so each file does not pay a process start and
    // the import of the modules it shares with the others. Files leave nothing behind for the next:
    // each has its own temporary folder (helpers/setup.ts) and restores the working directory and
    // any spy it sets.
    isolate: false,
    sequence: { sequencer: LongestFirst },
  },
});

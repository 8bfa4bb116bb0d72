// How a large file is cut into byte ranges (src/parallel/plan.ts) and how threads take batches of
// work from both ends of one shared queue (src/parallel/claims.ts).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { claimBack, claimFront, createClaims, stop } from '../src/parallel/claims.js';
import { minRangeBytes, rangeCuts } from '../src/parallel/plan.js';
import { repoRoot } from './helpers/cli.js';

/** The ranges' sizes, from the cuts. */
function sizes(size: number, cuts: number[]): number[] {
  const starts = [0, ...cuts];
  return starts.map((start, k) => (starts[k + 1] ?? size) - start);
}

describe('rangeCuts', () => {
  it('cuts a file into ranges, large at both ends and small where the threads meet', () => {
    const size = 300_000_000;
    for (const threads of [2, 4]) {
      const cuts = rangeCuts(size, threads);
      const parts = sizes(size, cuts);
      expect(cuts).toEqual([...cuts].sort((a, b) => a - b));
      expect(parts.reduce((sum, part) => sum + part, 0)).toBe(size);
      expect(Math.min(...parts)).toBeGreaterThanOrEqual(minRangeBytes);
      // More ranges than threads, yet few enough to open, tally and merge at little cost.
      expect(parts.length).toBeGreaterThan(2 * threads);
      expect(parts.length).toBeLessThan(40);
      // The first range, this thread's, and the last, the first worker's, are the largest; the
      // smallest lie in between.
      const smallest = parts.indexOf(Math.min(...parts));
      expect(smallest).toBeGreaterThan(0);
      expect(smallest).toBeLessThan(parts.length - 1);
      expect(parts[0]).toBe(Math.max(...parts));
      expect(parts.at(-1)).toBe(Math.max(...parts.slice(1)));
      // From each end inwards, each range is no larger than the one before it, down to the smallest.
      for (let k = 1; k < parts.length / 3; k++) {
        expect(parts[k]).toBeLessThanOrEqual(parts[k - 1]!);
        expect(parts.at(-1 - k)).toBeLessThanOrEqual(parts.at(-k)!);
      }
    }
  });

  it('cuts a file just large enough to split into a range per thread at least, of even size', () => {
    for (const threads of [2, 3, 4]) {
      const size = 16 * 1024 * 1024;
      const parts = sizes(size, rangeCuts(size, threads));
      expect(parts.length).toBeGreaterThanOrEqual(threads);
      expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(Math.ceil(size / (2 * threads)));
    }
    expect(rangeCuts(0, 2)).toEqual([]);
  });
});

describe('the shared queue', () => {
  it('gives each batch to one thread: this one from the front, workers from the back, until they meet', () => {
    const claims = createClaims(5);
    expect(claimFront(claims, 0)).toBe(0);
    expect(claimBack(claims)).toBe(4);
    expect(claimBack(claims)).toBe(3);
    expect(claimFront(claims, 1)).toBe(1);
    expect(claimFront(claims, 2)).toBe(2);
    // Batch 3 is a worker's: this thread stops there, and the worker below batch 2, this thread's.
    expect(claimFront(claims, 3)).toBeUndefined();
    expect(claimBack(claims)).toBeUndefined();
    expect(claimBack(claims)).toBeUndefined();
  });

  it('gives nothing more once stopped (Ctrl-C, a failure), and nothing from an empty queue', () => {
    const claims = createClaims(4);
    expect(claimFront(claims, 0)).toBe(0);
    stop(claims);
    expect(claimFront(claims, 1)).toBeUndefined();
    expect(claimBack(claims)).toBeUndefined();
    const empty = createClaims(0);
    expect(claimFront(empty, 0)).toBeUndefined();
    expect(claimBack(empty)).toBeUndefined();
  });

  it('gives every batch exactly once to threads that take at the same time', async () => {
    const batches = 200_000;
    const claims = createClaims(batches);
    // Both workers and this thread wait at a gate until all are running, then take as fast as they can.
    const gate = new Int32Array(new SharedArrayBuffer(8));
    // The built module (a worker cannot import TypeScript), as pool.ts's workers use it.
    const claimsModule = pathToFileURL(join(repoRoot, 'dist/parallel/claims.js')).href;
    const source = `
      const { workerData, parentPort } = require('node:worker_threads');
      import(${JSON.stringify(claimsModule)}).then(({ claimBack, claimsOf }) => {
        const claims = claimsOf(workerData.claims);
        const gate = new Int32Array(workerData.gate);
        Atomics.add(gate, 0, 1);
        Atomics.notify(gate, 0);
        Atomics.wait(gate, 1, 0);
        const taken = [];
        for (let index; (index = claimBack(claims)) !== undefined; ) taken.push(index);
        parentPort.postMessage(taken);
      });`;
    const workers = [0, 1].map(() => new Worker(source, { eval: true, workerData: { claims: claims.cells.buffer, gate: gate.buffer } }));
    const fromWorkers = workers.map((worker) => new Promise<number[]>((resolve, reject) => worker.once('message', resolve).once('error', reject)));
    for (let running; (running = Atomics.load(gate, 0)) < 2; ) Atomics.wait(gate, 0, running);
    Atomics.store(gate, 1, 1);
    Atomics.notify(gate, 1);
    const mine: number[] = [];
    for (let next = 0, index; (index = claimFront(claims, next)) !== undefined; next++) mine.push(index);
    const theirs = await Promise.all(fromWorkers);
    await Promise.all(workers.map((worker) => worker.terminate()));
    expect([...mine, ...theirs.flat()].sort((a, b) => a - b)).toEqual(Array.from({ length: batches }, (_, k) => k));
    // This thread's batches are the front of the queue, in order; each worker's came from the back, in order.
    expect(mine).toEqual(Array.from({ length: mine.length }, (_, k) => k));
    for (const taken of theirs) expect(taken).toEqual([...taken].sort((a, b) => b - a));
  });
});

// Runs units of work on worker threads, at most `jobs` at a time, and returns their results in unit
// order, so that the report does not depend on which worker finished first. Small units travel in
// batches: one message per small file made 10k files slower on two workers than on one thread.
import { Worker } from 'node:worker_threads';
import type { Unit, UnitOptions, UnitResult } from '../check-unit.js';
import { UsageError } from '../errors.js';
import { workerSpoolFolder } from '../findings/store.js';
import type { Progress } from '../types.js';

export interface WorkerRequest {
  first: number;
  units: Unit[];
}

export type WorkerReply = { first: number; results: UnitResult[] } | { first: number; error: string; usage: boolean } | { progress: Progress };

/** Enough work per message that posting it costs little: up to 64 units or about 4 MiB. */
const batchUnits = 64;
const batchBytes = 4 * 1024 * 1024;

function batches(units: readonly Unit[], sizes: readonly number[]): WorkerRequest[] {
  const out: WorkerRequest[] = [];
  let current: WorkerRequest | undefined;
  let bytes = 0;
  units.forEach((unit, index) => {
    const size = sizes[index] ?? 0;
    if (!current || current.units.length >= batchUnits || bytes + size > batchBytes) {
      current = { first: index, units: [] };
      out.push(current);
      bytes = 0;
    }
    current.units.push(unit);
    bytes += size;
  });
  return out;
}

export async function runOnWorkers(units: readonly Unit[], sizes: readonly number[], jobs: number, options: UnitOptions, signal?: AbortSignal, progress?: Progress): Promise<(UnitResult | undefined)[]> {
  const results: (UnitResult | undefined)[] = new Array(units.length);
  const queue = batches(units, sizes);
  const spoolFolder = workerSpoolFolder();
  let next = 0;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      signal?.addEventListener('abort', () => resolve(), { once: true });
      const feed = (worker: Worker) => {
        if (signal?.aborted || next >= queue.length) {
          if (running === 0) resolve();
          return;
        }
        running++;
        worker.postMessage(queue[next++]!);
      };
      for (let k = 0; k < Math.min(jobs, queue.length); k++) {
        const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { options, progress: progress !== undefined, spoolFolder } });
        workers.push(worker);
        worker.on('message', (reply: WorkerReply) => {
          if ('progress' in reply) {
            if (progress) for (const key of ['bytes', 'entries', 'findings'] as const) progress[key] += reply.progress[key];
            return;
          }
          running--;
          if ('error' in reply) return reject(reply.usage ? new UsageError(reply.error) : new Error(reply.error));
          reply.results.forEach((result, offset) => (results[reply.first + offset] = result));
          feed(worker);
        });
        worker.on('error', reject);
        feed(worker);
      }
      if (queue.length === 0) resolve();
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}

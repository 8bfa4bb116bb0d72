// Runs units of work on worker threads, at most `jobs` at a time, and returns their results in unit
// order, so that the report does not depend on which worker finished first.
import { Worker } from 'node:worker_threads';
import type { Unit, UnitOptions, UnitResult } from '../check-unit.js';
import type { Progress } from '../types.js';

export interface WorkerRequest {
  index: number;
  unit: Unit;
}

export type WorkerReply = { index: number; result: UnitResult } | { index: number; error: string } | { progress: Progress };

export async function runOnWorkers(units: readonly Unit[], jobs: number, options: UnitOptions, signal?: AbortSignal, progress?: Progress): Promise<(UnitResult | undefined)[]> {
  const results: (UnitResult | undefined)[] = new Array(units.length);
  let next = 0;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0;
      const stop = () => resolve();
      signal?.addEventListener('abort', stop, { once: true });
      const feed = (worker: Worker) => {
        if (signal?.aborted || next >= units.length) {
          if (running === 0) resolve();
          return;
        }
        const index = next++;
        running++;
        worker.postMessage({ index, unit: units[index]! } satisfies WorkerRequest);
      };
      for (let k = 0; k < Math.min(jobs, units.length); k++) {
        const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { options, progress: progress !== undefined } });
        workers.push(worker);
        worker.on('message', (reply: WorkerReply) => {
          if ('progress' in reply) {
            if (progress) for (const key of ['bytes', 'entries', 'findings'] as const) progress[key] += reply.progress[key];
            return;
          }
          running--;
          if ('error' in reply) return reject(new Error(reply.error));
          results[reply.index] = reply.result;
          feed(worker);
        });
        worker.on('error', reject);
        feed(worker);
      }
      if (units.length === 0) resolve();
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}

// Runs units of work on this thread and on `jobs - 1` worker threads, and returns their results in
// unit order, so that the report does not depend on which thread finished first. This thread starts
// at once; a worker takes its first batch when it has started (claims.ts), so a run never waits for
// a worker that is still starting, and a run has one thread fewer to start and to hold in memory.
// Small units go in batches: a message per small file costs more than checking it.
import { setImmediate as macrotask } from 'node:timers/promises';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { Unit, UnitOptions, UnitResult } from '../check-unit.js';
import { UsageError } from '../errors.js';
import type { Progress, Summary } from '../types.js';
import { threadsStarted } from '../v8-tuning.js';
import { claimFront, createClaims, stop } from './claims.js';

/** A batch of units, `first` the index of its first unit in the run's. */
export interface Batch {
  first: number;
  units: Unit[];
}

export type WorkerReply =
  | { ready: true }
  | { first: number; results: UnitResult[]; summary: Summary }
  | { first: number; error: string; usage: boolean }
  | { progress: Progress };

export interface PoolResults {
  /** In unit order; undefined for a unit not run (Ctrl-C). */
  results: (UnitResult | undefined)[];
  /** The workers' counts of whole inputs, a summary per batch; a byte range's are in its result. */
  summaries: Summary[];
}

/** Checks one unit on this thread (counting a whole input into this thread's tally). */
export type LocalCheck = (unit: Unit) => Promise<UnitResult>;

/** Enough work per message that posting it costs little: up to 64 units or about 4 MiB. */
const batchUnits = 64;
const batchBytes = 4 * 1024 * 1024;
/** How long this thread checks before it takes the workers' results and progress. */
const answerWithinMs = 5;

/**
 * A worker's Node options: the process's, inherited (`undefined`), unless they hold `--input-type`.
 * A worker runs a file, and with that inherited (a library caller's `node --input-type=module -e
 * '...'`) every worker would fail to start, ERR_INPUT_TYPE_NOT_ALLOWED, and check() with it. Given as a
 * list, the options are parsed again, and a worker refuses V8's and the process's own
 * (`--max-old-space-size`, `--stack-size`, `--title`): those apply to every thread anyway.
 */
function startWorker(url: URL, options: Omit<WorkerOptions, 'execArgv'>): Worker {
  const args = process.execArgv;
  if (!args.some((arg) => arg === '--input-type' || arg.startsWith('--input-type='))) return new Worker(url, options);
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--input-type') i++;
    else if (!args[i]!.startsWith('--input-type=')) kept.push(args[i]!);
  }
  try {
    return new Worker(url, { ...options, execArgv: kept });
  } catch (error) {
    // Which options a worker takes Node does not say; without them, the process-wide ones still apply.
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(url, { ...options, execArgv: [] });
  }
}

/**
 * A worker's young generation, in which every parsed record lives and dies. V8 grows it larger; with
 * both cores busy, two threads' nurseries that size evict each other from the shared cache, so a
 * worker's is held smaller (`npm run bench`, default mode). This thread's is left as V8 sizes it.
 */
const workerYoungGenerationMb = 12;

function batches(units: readonly Unit[], sizes: readonly number[]): Batch[] {
  const out: Batch[] = [];
  let current: Batch | undefined;
  let bytes = 0;
  units.forEach((unit, index) => {
    const size = sizes[index] ?? 0;
    // A bundle (folder or zip, spec section 8.2) is one unit of work: its files go in one batch.
    const inBundle = unit.source.unit !== undefined && current?.units.at(-1)?.source.unit === unit.source.unit;
    if (!current || (!inBundle && (current.units.length >= batchUnits || bytes + size > batchBytes))) {
      current = { first: index, units: [] };
      out.push(current);
      bytes = 0;
    }
    current.units.push(unit);
    bytes += size;
  });
  return out;
}

export async function runOnWorkers(
  units: readonly Unit[],
  sizes: readonly number[],
  jobs: number,
  options: UnitOptions,
  local: LocalCheck,
  /** The run's temporary folder, made for the workers' spools before they start. */
  folder: () => string,
  signal?: AbortSignal,
  progress?: Progress,
  /** Takes each result a worker posts as it comes (the findings it holds, into this thread's budget). */
  received?: (result: UnitResult) => void,
): Promise<PoolResults> {
  const results: (UnitResult | undefined)[] = new Array(units.length);
  const summaries: Summary[] = [];
  const queue = batches(units, sizes);
  // This thread takes batches from the front, workers from the back, and they meet in the middle,
  // whichever is faster doing more. From the front, because after Ctrl-C this thread's unit is the
  // one reported in part: the first range of a file can be, a later one cannot (its first line's
  // number depends on the ranges before it).
  const claims = createClaims(queue.length);
  let next = 0;
  // Set when the run fails (a worker's error, a spool that cannot be written): nobody takes more.
  let failed = false;
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolveRun, rejectRun) => {
      const reject = (error: unknown) => {
        failed = true;
        stop(claims);
        rejectRun(error);
      };
      // This thread's own loop is awaited even after Ctrl-C, as an inline run's is, so that the
      // unit it was reading reports what it read; the workers' batches are then not waited for.
      let finished = 0;
      let localDone = false;
      const settle = () => {
        if (localDone && (signal?.aborted || finished === queue.length)) resolveRun();
      };
      signal?.addEventListener(
        'abort',
        () => {
          stop(claims);
          settle();
        },
        { once: true },
      );
      // No worker for a single batch: this thread takes it at once.
      const workerCount = Math.min(jobs, queue.length) - 1;
      const spoolFolder = workerCount > 0 ? folder() : '';
      let ready = 0;
      for (let k = 0; k < workerCount; k++) {
        const worker = startWorker(new URL('./worker.js', import.meta.url), { workerData: { options, progress: progress !== undefined, spoolFolder, batches: queue, claims: claims.cells.buffer }, resourceLimits: { maxYoungGenerationSizeMb: workerYoungGenerationMb } });
        workers.push(worker);
        worker.on('message', (reply: WorkerReply) => {
          if ('ready' in reply) {
            if (++ready === workerCount) threadsStarted();
            return;
          }
          if ('progress' in reply) {
            if (progress) for (const key of ['bytes', 'entries', 'findings'] as const) progress[key] += reply.progress[key];
            return;
          }
          if ('error' in reply) return reject(reply.usage ? new UsageError(reply.error) : new Error(reply.error));
          reply.results.forEach((result, offset) => {
            results[reply.first + offset] = result;
            received?.(result);
          });
          summaries.push(reply.summary);
          finished++;
          settle();
        });
        worker.on('error', reject);
      }
      void (async () => {
        let turned = performance.now();
        for (let index; !failed && (index = claimFront(claims, next)) !== undefined; next++) {
          const batch = queue[index]!;
          for (let i = 0; i < batch.units.length && !signal?.aborted; i++) {
            results[batch.first + i] = await local(batch.units[i]!);
            // The workers' results are taken as they come, within answerWithinMs, not after the batch.
            if (performance.now() - turned >= answerWithinMs) {
              // A macrotask turn: worker messages are delivered only between them.
              await macrotask();
              turned = performance.now();
            }
          }
          if (!signal?.aborted) finished++;
        }
      })().then(() => {
        localDone = true;
        settle();
      }, reject);
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return { results, summaries };
}

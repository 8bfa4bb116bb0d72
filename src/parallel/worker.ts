// A worker thread: builds its own check context once (the bundled schema is precompiled, so this is
// cheap), then takes the run's batches from the back of the shared queue (claims.ts), one at a
// time, and posts back each batch's results.
import { parentPort, workerData } from 'node:worker_threads';
import { checkUnit, type UnitOptions } from '../check-unit.js';
import { createCheckContext } from '../context.js';
import { UsageError, describeError } from '../errors.js';
import { RecordTexts } from '../findings/record-text.js';
import { SpillBudget } from '../findings/store.js';
import { Tally } from '../tally.js';
import type { Progress } from '../types.js';
import { claimBack, claimsOf } from './claims.js';
import type { Batch, WorkerReply } from './pool.js';

const { options, progress: watched, spoolFolder, batches, claims: shared } = workerData as { options: UnitOptions; progress: boolean; spoolFolder: string; batches: Batch[]; claims: SharedArrayBuffer };
// `parser` is the run's own choice, no option a caller gives.
const { parser: _parser, ...checkOptions } = options;
const context = createCheckContext(checkOptions);
const budget = new SpillBudget(options.findingsInMemory, () => spoolFolder);
const texts = new RecordTexts();

// Progress is sent as deltas a few times a second, only when someone shows it.
const progress: Progress = { bytes: 0, entries: 0, findings: 0 };
function sendProgress(): void {
  if (progress.bytes === 0 && progress.entries === 0) return;
  parentPort!.postMessage({ progress: { ...progress } } satisfies WorkerReply);
  progress.bytes = progress.entries = progress.findings = 0;
}
if (watched) setInterval(sendProgress, 250).unref();

/** Checks one batch and posts its results; false when it posted an error instead (the run fails). */
async function runBatch({ first, units }: Batch): Promise<boolean> {
  // One tally per batch: a summary per small file costs more to sort, post and merge than to check
  // the file. A byte range keeps its own, which the run drops if it checks that file again whole.
  const tally = new Tally(context.schema.categories, context.registry);
  try {
    const results = [];
    for (const unit of units) results.push(await checkUnit(unit, context, options, { budget, texts, posted: true, ...(!unit.range && { tally }), ...(watched && { progress }) }));
    if (watched) sendProgress();
    parentPort!.postMessage({ first, results, summary: tally.summary() } satisfies WorkerReply);
    return true;
  } catch (error) {
    parentPort!.postMessage({ first, error: describeError(error), usage: error instanceof UsageError } satisfies WorkerReply);
    return false;
  }
}

// Every thread is checking once this worker is: the main thread raises V8's shape limit then.
parentPort!.postMessage({ ready: true } satisfies WorkerReply);
const claims = claimsOf(shared);
void (async () => {
  for (let index; (index = claimBack(claims)) !== undefined; ) if (!(await runBatch(batches[index]!))) return;
})();

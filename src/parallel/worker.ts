// A worker thread: builds its own check context once (the bundled schema is precompiled, so this is
// cheap), then checks the units the main thread posts and sends back their results.
import { parentPort, workerData } from 'node:worker_threads';
import { checkUnit, type UnitOptions } from '../check-unit.js';
import { createCheckContext } from '../context.js';
import { describeError } from '../errors.js';
import type { WorkerReply, WorkerRequest } from './pool.js';

const options = (workerData as { options: UnitOptions }).options;
const context = createCheckContext(options);

parentPort!.on('message', ({ index, unit }: WorkerRequest) => {
  checkUnit(unit, context, options).then(
    (result) => parentPort!.postMessage({ index, result } satisfies WorkerReply),
    (error: unknown) => parentPort!.postMessage({ index, error: describeError(error) } satisfies WorkerReply),
  );
});

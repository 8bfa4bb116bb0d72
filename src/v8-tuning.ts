// V8 settings the command line makes for its own process; the library leaves its caller's V8 alone.
import { loadV8 } from './lazy.js';

/**
 * V8 doubles the young generation each time the bytes that survived its scavenges since the last
 * doubling pass its size, so a long run's few survivors (findings, counts) grow it step by step to
 * its maximum, and the peak RSS with the input's length, though what is live stays the same. Held at
 * a size a run reaches early, the peak is flat past that point. Held at its first size, it would be
 * flat from the start, but a transcript's requests, live until their answers, would survive
 * scavenges that come more often, each copying them (`node --trace-gc` counts them). The growth
 * factor is read at each doubling, so it is set once this thread's new space has grown to the size
 * to hold; the maximum size only as the heap is made, before any code runs. Raised with the shape
 * limit, for the same threads (a worker's young generation has a limit of its own: parallel/pool.ts).
 */
const youngGenerationKept = '--semi-space-growth-factor=1';

/** The new space's size, as V8 reports it, at which its growth stops: four times its first. */
const youngGenerationHeld = 8 * 1024 * 1024;

/**
 * V8 keeps at most four object shapes (hidden classes) per property read site in its inline caches;
 * past that, every read there takes the generic, hashed lookup. Envelopes parsed from JSON have a
 * shape per member order: a log's valid records have four, its invalid ones bring more, and from
 * the first of those on every member read of the validator, the rules and the tally would be
 * generic. Sixteen shapes a site keep them fast (`npm run bench`), the same report.
 *
 * Only once the bundle is loaded and no worker thread is still starting: V8 checks every code cache
 * against the flags it was made with, Node's cache of its own modules too, so a flag changed before a
 * worker starts makes its start slower (Node's modules compiled afresh in it). Raised once the
 * workers have started, it speeds them (the main thread's read sites that went generic before stay so).
 * A default-mode run its plan keeps on this thread raises it once planned, if it is long (run.ts).
 */
function raise(): void {
  const v8 = loadV8();
  v8.setFlagsFromString('--max-valid-polymorphic-map-count=16');
  v8.setFlagsFromString(oneThreadScavenges);
  const watch = setInterval(() => {
    const newSpace = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    // A V8 that reports no new space gets the hold at once.
    if (newSpace !== undefined && newSpace.space_size < youngGenerationHeld) return;
    v8.setFlagsFromString(youngGenerationKept);
    clearInterval(watch);
  }, 25);
  // A run that ends before its young generation grows has nothing to hold.
  watch.unref();
}

/**
 * V8 scavenges the young generation on helper threads as well as the one that allocates. What a
 * run's scavenges copy is small (findings and counts are held as numbers, requests only until their
 * answers), and the helpers' start and hand-over then cost more than the copying they share
 * (`npm run bench`, docs/performance.md). Read at each scavenge, so it takes effect when set.
 */
const oneThreadScavenges = '--no-parallel-scavenge';

/** Set by the CLI for a run that may start worker threads: raised when the run knows where it checks. */
let armed = false;

/** The CLI, before its run on `threads` threads: at once on one, else once `threadsStarted()`. */
export function raiseShapeLimit(threads: number): void {
  armed = threads > 1;
  if (!armed) raise();
}

/**
 * Every thread of a long run is checking: this one alone (said by the run, once its plan keeps it
 * here) or with every worker it started (said by the pool, once they are ready). Does nothing
 * unless the CLI asked.
 */
export function threadsStarted(): void {
  if (!armed) return;
  armed = false;
  raise();
}

// The run's batches as a queue every thread takes from itself, in memory all threads share: the main
// thread from the front, the workers from the back. A worker takes its next batch when it starts
// it, never asking the main thread (which may be in the middle of a range), and holds none in
// reserve, so that the threads end together, within one batch of each other.

/**
 * Layout of the shared Int32Array: one flag per batch (0 free, 1 taken), then the back cursor (the
 * next batch a worker takes is the one below it), then the stop flag (set after Ctrl-C or a failure).
 */
export interface Claims {
  readonly cells: Int32Array;
  readonly batches: number;
}

export function createClaims(batches: number): Claims {
  const cells = new Int32Array(new SharedArrayBuffer((batches + 2) * Int32Array.BYTES_PER_ELEMENT));
  cells[batches] = batches;
  return { cells, batches };
}

/** The same queue, from the buffer another thread was given. */
export function claimsOf(buffer: SharedArrayBuffer): Claims {
  const cells = new Int32Array(buffer);
  return { cells, batches: cells.length - 2 };
}

/** Takes batch `index` unless another thread has: free batches are taken once, by whoever comes first. */
function take({ cells }: Claims, index: number): boolean {
  return Atomics.compareExchange(cells, index, 0, 1) === 0;
}

/**
 * The main thread's next batch from the front, or undefined once it meets one a worker took: the
 * workers take from the back in order, so every batch past that one is theirs.
 */
export function claimFront(claims: Claims, next: number): number | undefined {
  if (stopped(claims) || next >= claims.batches || !take(claims, next)) return undefined;
  return next;
}

/**
 * A worker's next batch from the back, or undefined once it meets one the main thread took (every
 * batch before it is the main thread's) or the run stopped.
 */
export function claimBack(claims: Claims): number | undefined {
  if (stopped(claims)) return undefined;
  const index = Atomics.sub(claims.cells, claims.batches, 1) - 1;
  if (index < 0 || !take(claims, index)) return undefined;
  return index;
}

export function stop({ cells, batches }: Claims): void {
  Atomics.store(cells, batches + 1, 1);
}

function stopped({ cells, batches }: Claims): boolean {
  return Atomics.load(cells, batches + 1) === 1;
}

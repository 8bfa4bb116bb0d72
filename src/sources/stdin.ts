// Standard input as a stream of chunks. A file redirected in (`< big.jsonl`) is read in 1 MiB
// chunks, as a named file is: process.stdin reads a file 64 KiB at a time, a thread-pool round trip
// each. A pipe or a terminal stays process.stdin: a read from a pipe returns what the pipe holds
// however much is asked, and fs reads of a pipe are slower than process.stdin's.
import { setImmediate as macrotask } from 'node:timers/promises';
import { createReadStream, fstatSync } from 'node:fs';
import type { Readable } from 'node:stream';

/** What a library caller may give as standard input: chunks of bytes, or of text (a Readable with an encoding set). */
export type StdinChunks = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

const fileChunk = 1 << 20;

export function standardInput(): Readable {
  let file = false;
  let folder = false;
  try {
    const stats = fstatSync(0);
    file = stats.isFile();
    folder = stats.isDirectory();
  } catch {
    // No descriptor 0 at all: process.stdin reports that as an empty input.
  }
  // `check - < logs/` read as an empty input (a warning, exit 0): it is an input that cannot be read.
  if (folder) throw new Error('standard input is a folder: name the folder as an input instead of redirecting it');
  // From the descriptor's current offset, as process.stdin reads, and left open: it is not ours.
  return file ? createReadStream('', { fd: 0, highWaterMark: fileChunk, autoClose: false }) : process.stdin;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const name = typeof value === 'object' ? (value.constructor?.name ?? 'object') : typeof value;
  // "a Object", "a ArrayBuffer" read wrong.
  return name === 'Object' ? 'an object' : `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/** What a chunk of a caller's standard input may be: bytes or text. */
export function isChunk(value: unknown): value is string | Uint8Array {
  return typeof value === 'string' || value instanceof Uint8Array;
}

/**
 * A library caller's standard input as Buffers: text chunks (`process.stdin.setEncoding('utf8')`)
 * UTF-8 encoded, any Uint8Array viewed as a Buffer; anything else is a TypeError, which the run
 * reports as an input failure of `-`.
 */
export async function* asBytes(chunks: StdinChunks): AsyncGenerator<Buffer> {
  let count = 0;
  for await (const chunk of chunks) {
    // A caller's source that answers in microtasks alone (an async generator that never waits on
    // I/O, Readable.from of an endless iterable) never lets a timer run, AbortSignal.timeout's
    // included: the event loop gets a turn now and then, so that the abort fires.
    if (++count % 1024 === 0) await macrotask();
    if (Buffer.isBuffer(chunk)) yield chunk;
    else if (typeof chunk === 'string') yield Buffer.from(chunk, 'utf8');
    else if (chunk instanceof Uint8Array) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    else throw new TypeError(`standard input gave ${kindOf(chunk)}, not bytes (Buffer, Uint8Array) or text`);
  }
}

/**
 * Chunks that end when `signal` aborts, even while the source is waiting: a stream is destroyed by
 * the signal, and a caller's async generator that never yields again must not keep check() pending
 * after the abort. The source's own return() is asked for, not awaited (it may be waiting too).
 */
export async function* untilAborted<T>(chunks: AsyncIterable<T> | Iterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  if (!(Symbol.asyncIterator in chunks)) {
    // A synchronous source answers at once and never lets a timer run (an endless one would keep the
    // abort from firing): it is read directly, giving the event loop a turn now and then.
    let count = 0;
    for (const chunk of chunks) {
      if (++count % 1024 === 0) await macrotask();
      if (signal.aborted) return;
      yield chunk;
    }
    return;
  }
  const iterator = chunks[Symbol.asyncIterator]();
  for (;;) {
    // One listener a wait, removed after it: a race against one abort promise would add a reaction
    // to it per chunk, held until the run ends.
    const next = await new Promise<IteratorResult<T> | 'aborted'>((resolve, reject) => {
      if (signal.aborted) return resolve('aborted');
      const onAbort = () => resolve('aborted');
      signal.addEventListener('abort', onAbort, { once: true });
      iterator.next().then(
        (result) => (signal.removeEventListener('abort', onAbort), resolve(result)),
        (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
      );
    });
    if (next === 'aborted') {
      void Promise.resolve(iterator.return?.()).catch(() => {});
      return;
    }
    if (next.done) return;
    yield next.value;
  }
}

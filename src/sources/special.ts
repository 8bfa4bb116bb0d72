// A FIFO or device named as an input (`check pipe`, `check <(zcat run.jsonl.gz)`) or as a report
// (`-o pipe`). Opening a FIFO blocks until the other end is opened, and reading one blocks until its
// writer writes: done synchronously, the main thread would wait there with no signal handler run
// (Ctrl-C and SIGTERM ignored for good if nobody opens the other end). Here the open is made on
// libuv's thread pool and a FIFO is read as process.stdin reads a pipe, so signals are handled.
import { closeSync, constants, createReadStream, fstat, open, openSync, statSync, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { loadNet } from '../lazy.js';

/** Raised when the signal stopped the wait for the FIFO's other end. */
export class OpenAborted extends Error {
  override name = 'AbortError';
}

function isFifo(path: string): boolean {
  try {
    return statSync(path).isFIFO();
  } catch {
    return false;
  }
}

/**
 * Opens the FIFO's other end for a moment, which ends a wait in open() for it: a thread-pool thread
 * left waiting keeps the process from exiting (Node joins those threads at exit), even after
 * process.exit(). With O_NONBLOCK this open never waits itself.
 */
function releaseWaitingOpen(path: string, otherEnd: number): void {
  try {
    closeSync(openSync(path, otherEnd | constants.O_NONBLOCK));
  } catch {
    // No waiting open to meet yet (ENXIO): the caller tries again.
  }
}

/**
 * `path` opened with `flags` off the main thread. When `signal` aborts first, the wait is ended (the
 * FIFO's other end opened and closed) and the promise rejects with OpenAborted; when the process
 * exits first (SIGTERM), likewise, so that the exit is not held up.
 */
export function openOffThread(path: string, flags: 'r' | 'w', signal: AbortSignal | undefined): Promise<number> {
  const otherEnd = flags === 'r' ? constants.O_WRONLY : constants.O_RDONLY;
  // An abort event is dispatched once: a signal that came before this call is never heard below,
  // and the open would wait for a writer no one is going to be.
  if (signal?.aborted) return Promise.reject(new OpenAborted('the wait for the other end of the FIFO was stopped'));
  const fifo = isFifo(path);
  return new Promise((resolve, reject) => {
    let opened = false;
    const release = () => {
      if (opened || !fifo) return;
      releaseWaitingOpen(path, otherEnd);
      // The pool's open may not have started when the abort came: tried until it has returned.
      setTimeout(release, 10);
    };
    const onExit = () => fifo && releaseWaitingOpen(path, otherEnd);
    signal?.addEventListener('abort', release, { once: true });
    process.once('exit', onExit);
    open(path, flags, (error, fd) => {
      opened = true;
      signal?.removeEventListener('abort', release);
      process.off('exit', onExit);
      if (error) return reject(error);
      if (!signal?.aborted) return resolve(fd);
      closeSync(fd);
      reject(new OpenAborted('the wait for the other end of the FIFO was stopped'));
    });
  });
}

/** A special file's bytes: a FIFO (or pipe) read as process.stdin reads one, with no thread waiting on it. */
export async function readSpecial(path: string, signal: AbortSignal | undefined): Promise<Readable> {
  const fd = await openOffThread(path, 'r', signal);
  let stats: Stats;
  try {
    stats = await new Promise((resolve, reject) => fstat(fd, (error, s) => (error ? reject(error) : resolve(s))));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  // A socket, not a thread-pool read: that would hold the exit up while the FIFO's writer is idle.
  if (stats.isFIFO()) return new (loadNet().Socket)({ fd, readable: true, writable: false });
  return createReadStream('', { fd, highWaterMark: 1 << 20 });
}

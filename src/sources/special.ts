// A FIFO or device named as an input (`check pipe`, `check <(zcat run.jsonl.gz)`) or as a report
// (`-o pipe`). Opening a FIFO blocks until the other end is opened, and reading one blocks until its
// writer writes: done synchronously, the main thread would wait there with no signal handler run
// (Ctrl-C and SIGTERM ignored for good if nobody opens the other end). Here no open waits (see
// openOffThread) and a FIFO is read as process.stdin reads a pipe, so signals are handled.
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

/** How often a report's FIFO is tried for a reader. */
const readerPollMs = 20;

function aborted(): OpenAborted {
  return new OpenAborted('the wait for the other end of the FIFO was stopped');
}

/**
 * A FIFO's write end, once a reader has it open. An open that waits for the reader (in the main
 * thread or in libuv's pool) holds up signals or the exit, so the FIFO is tried without waiting
 * (O_NONBLOCK, ENXIO while nobody reads) on a timer, which a signal can stop. The report is
 * written with blocking writes, so the end kept is opened again without O_NONBLOCK while the
 * probe holds the FIFO's reader side met: that open returns at once.
 */
function openForReader(path: string, signal: AbortSignal | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (signal?.aborted) return reject(aborted());
      let probe: number;
      try {
        probe = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENXIO') return void setTimeout(attempt, readerPollMs);
        return reject(error);
      }
      try {
        resolve(openSync(path, constants.O_WRONLY));
      } catch (error) {
        reject(error);
      } finally {
        closeSync(probe);
      }
    };
    attempt();
  });
}

/**
 * `path` opened with `flags` without blocking the main thread or leaving a thread waiting in
 * open() (Node joins libuv's pool threads at exit, so such a thread holds the exit up, even after
 * process.exit()). A FIFO's read end opens at once with O_NONBLOCK, and its reader (a socket, see
 * readSpecial) waits for the writer as it waits for the writer's data: an abort ends that wait.
 * A FIFO's write end waits for a reader in openForReader, which an abort also stops (OpenAborted).
 * Other special files open on the pool: their open does not wait for another process.
 */
export function openOffThread(path: string, flags: 'r' | 'w', signal: AbortSignal | undefined): Promise<number> {
  // An abort event is dispatched once: a signal that came before this call is never heard below.
  if (signal?.aborted) return Promise.reject(aborted());
  if (isFifo(path)) {
    if (flags === 'w') return openForReader(path, signal);
    try {
      return Promise.resolve(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return new Promise((resolve, reject) => open(path, flags, (error, fd) => (error ? reject(error) : resolve(fd))));
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

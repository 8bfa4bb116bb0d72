// `--follow`: a growing log file read as it is written, as `tail -F` reads one (spec section 8.10).
// From the file's current end (or its start), then whatever is appended; a file replaced at the path
// (rotated) is read to its end, then the new file from its start; a file cut shorter than what was
// read (truncated) is read again from its start. Reading ends when the signal aborts, normally.
import { closeSync, fstat, open, read, stat, type Stats } from 'node:fs';

export type FollowEvent = { kind: 'chunk'; chunk: Buffer } | { kind: 'restart'; reason: 'rotated' | 'truncated' };

/**
 * How often the file and its path are looked at once everything written was read. Polled, not
 * watched: fs.watch follows an inode, which after a rename is the old file, says nothing of a file
 * created at the path later, and is unreliable on network and container file systems; a stat of
 * the open file and one of the path each tick see appends, truncation and replacement alike.
 */
export const followPollMs = 50;

const chunkBytes = 1 << 20;

const fstatOf = (fd: number) => new Promise<Stats>((resolve, reject) => fstat(fd, (error, stats) => (error ? reject(error) : resolve(stats))));
const statOf = (path: string) => new Promise<Stats | undefined>((resolve) => stat(path, (error, stats) => resolve(error ? undefined : stats)));
const openOf = (path: string) => new Promise<number>((resolve, reject) => open(path, 'r', (error, fd) => (error ? reject(error) : resolve(fd))));
const readAt = (fd: number, buffer: Buffer, position: number) => new Promise<number>((resolve, reject) => read(fd, buffer, 0, buffer.length, position, (error, n) => (error ? reject(error) : resolve(n))));

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Where reading from the file's current end starts, and the lines before it: after the last line
 * break, so that a line being written when the run starts is read whole, and its line number counts
 * every line before it.
 */
async function currentEnd(fd: number, size: number): Promise<{ position: number; lines: number }> {
  const buffer = Buffer.allocUnsafe(chunkBytes);
  let position = 0;
  let lines = 0;
  let afterLastBreak = 0;
  while (position < size) {
    const n = await readAt(fd, buffer.subarray(0, Math.min(chunkBytes, size - position)), position);
    if (n === 0) break;
    for (let at = buffer.indexOf(10, 0); at !== -1 && at < n; at = buffer.indexOf(10, at + 1)) {
      lines++;
      afterLastBreak = position + at + 1;
    }
    position += n;
  }
  return { position: afterLastBreak, lines };
}

export interface Followed {
  /** Line breaks before the first byte read: the first line read is `lines + 1`. */
  lines: number;
  events: AsyncGenerator<FollowEvent>;
}

/** Opens `path` for following; the events end when `signal` aborts. */
export async function followFile(path: string, fromStart: boolean, signal: AbortSignal): Promise<Followed> {
  let fd = await openOf(path);
  let file: Stats;
  let start: { position: number; lines: number };
  try {
    file = await fstatOf(fd);
    start = fromStart ? { position: 0, lines: 0 } : await currentEnd(fd, file.size);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  async function* events(): AsyncGenerator<FollowEvent> {
    let position = start.position;
    const buffer = Buffer.allocUnsafe(chunkBytes);
    try {
      for (;;) {
        // Everything written so far, a chunk at a time; each chunk is the reader's until it asks for the next.
        for (let n = await readAt(fd, buffer, position); n > 0; n = await readAt(fd, buffer, position)) {
          position += n;
          yield { kind: 'chunk', chunk: Buffer.from(buffer.subarray(0, n)) };
          if (signal.aborted) return;
        }
        if (signal.aborted) return;
        if ((await fstatOf(fd)).size < position) {
          position = 0;
          yield { kind: 'restart', reason: 'truncated' };
          continue;
        }
        const now = await statOf(path);
        if (now && (now.ino !== file.ino || now.dev !== file.dev)) {
          const next = await openOf(path).catch(() => undefined);
          if (next !== undefined) {
            // The old file to its end (its writer may have written on after the check above), then the new one from its start.
            for (let n = await readAt(fd, buffer, position); n > 0; n = await readAt(fd, buffer, position)) {
              position += n;
              yield { kind: 'chunk', chunk: Buffer.from(buffer.subarray(0, n)) };
            }
            closeSync(fd);
            fd = next;
            file = await fstatOf(fd);
            position = 0;
            yield { kind: 'restart', reason: 'rotated' };
            continue;
          }
        }
        await pause(followPollMs, signal);
        if (signal.aborted) {
          // What was written up to the signal is read, then the run ends.
          for (let n = await readAt(fd, buffer, position); n > 0; n = await readAt(fd, buffer, position)) {
            position += n;
            yield { kind: 'chunk', chunk: Buffer.from(buffer.subarray(0, n)) };
          }
          return;
        }
      }
    } finally {
      closeSync(fd);
    }
  }
  return { lines: start.lines, events: events() };
}

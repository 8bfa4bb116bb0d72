// Reading a file's bytes for a unit (src/check-unit.ts): a small file whole into a buffer this thread
// reuses, a large one in chunks read ahead into two reused buffers, a byte range of a file the plan
// measured, and a file read again from its start. Files of /proc and /sys, whose reads fall short of
// their end, are read on. A file rotated or truncated under the run is an `InputDataError`.
import { closeSync, createReadStream, fstatSync, openSync, read, readSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { Framing } from '../framing/index.js';
import { InputDataError, needsDecoding, type ChunkSource } from './decode.js';
import { loadStream } from '../lazy.js';

/** A byte range [start, end) of a file, starting at a line start; `index` 0 is the file's first. */
export interface ByteRange {
  start: number;
  end: number;
  index: number;
  /** The file the plan measured (fstat's device and inode), which each range checks it reads. */
  file?: { dev: number; ino: number };
}

const maxChunk = 1 << 20;

/**
 * Read buffers of this thread (each maxChunk long) that no read holds, for the next file. A fresh
 * buffer costs a page fault for each of its pages (in the kernel's copy and in the first look at
 * it), and a file larger than one chunk takes three (its first chunk copied out, two to read on into).
 */
const spareBuffers: Buffer[] = [];
const maxSpareBuffers = 4;

function takeBuffer(): Buffer {
  return spareBuffers.pop() ?? Buffer.allocUnsafe(maxChunk);
}

/** Given back once nothing reads from it or into it any more. */
function giveBack(buffer: Buffer): void {
  if (spareBuffers.length < maxSpareBuffers && buffer.length === maxChunk && buffer.byteOffset === 0 && buffer.buffer.byteLength === maxChunk) spareBuffers.push(buffer);
}

/** The buffer small files are read into, one after another. */
let scratch: Buffer | undefined;

/** A file larger than one chunk: its first chunk read, its descriptor open at the byte after it. */
export interface OpenFile {
  fd: number;
  first: Buffer;
}

/**
 * A file of /proc or /sys: a regular file to stat, whose reads fall short of its end (a page or so
 * each), so that the first short read is no end: such a file (/proc/kallsyms, say) is read on to its end.
 */
function isPseudoFile(path: string): boolean {
  if (process.platform !== 'linux') return false;
  // Resolved only when it may climb out of the working directory: this runs for every small file.
  const cwd = process.cwd();
  const absolute = path.startsWith('/') ? path : path.startsWith('..') ? resolve(path) : `${cwd === '/' ? '' : cwd}/${path}`;
  return absolute.startsWith('/proc/') || absolute.startsWith('/sys/');
}

/**
 * A file smaller than one chunk is read synchronously into a reused buffer: open, read, close.
 * Without a stat (each one also builds a Stats object with four Dates: for many small files, stats,
 * async hops and their garbage would be most of the time), and without the read that returns
 * nothing: a regular file's read returns less than asked only at its end, which readFileSync trusts
 * its stat for, so one read that falls short ends the file, but one of /proc or /sys (isPseudoFile),
 * which is read on. Only regular files
 * come here; FIFOs and devices, whose reads fall short all the time, are special sources. A file
 * that fills the chunk is read on from there, on the same descriptor; the caller closes it.
 *
 * The small file's bytes are returned in place, a view of the reused buffer: they are the caller's
 * only until this thread reads the next file, which the synchronous fast path of checkUnit keeps to;
 * any other path copies them first (`ownCopy`), so that the common path copies nothing.
 */
export function readFile(path: string): Buffer | OpenFile {
  const buffer = (scratch ??= takeBuffer());
  const fd = openSync(path, 'r');
  let handedOver = false;
  try {
    const read = readSync(fd, buffer, 0, maxChunk, null);
    if (read === maxChunk || (read > 0 && isPseudoFile(path))) {
      // The buffer goes with the file (which gives it back when read whole); the next small file
      // takes another.
      handedOver = true;
      scratch = undefined;
      return { fd, first: buffer.subarray(0, read) };
    }
    return buffer.subarray(0, read);
  } finally {
    if (!handedOver) closeSync(fd);
  }
}

/** A small file's bytes (see readFile) made its own, for a path that does not finish with them at once. */
export function ownCopy(bytes: Buffer): Buffer {
  return bytes.buffer === scratch?.buffer ? Buffer.from(bytes) : bytes;
}

/** The rest of an open file as a stream, on from where the reads stopped, with its first chunk put back in front. */
function restOfFile({ fd, first }: OpenFile): Readable {
  // No `start`: the stream reads on from the descriptor's position.
  const rest = createReadStream('', { fd, highWaterMark: maxChunk });
  rest.unshift(first);
  return rest;
}

/**
 * A file read whole, or a large one's chunks: plain line-delimited text into buffers used again;
 * anything to decode, or a .json document whose chunks are held until it is parsed, as a stream of
 * its own buffers.
 */
export function fileChunks(file: Buffer | OpenFile, framing: Framing, signal: AbortSignal | undefined): Buffer | ChunkSource {
  if (Buffer.isBuffer(file)) return file;
  return framing === 'ndjson' && !needsDecoding(file.first) ? reusedChunks(file.fd, file.first.length, Infinity, signal, file.first) : restOfFile(file);
}

/**
 * Bytes [position, end) of `fd` (to its end, for Infinity), read into two buffers taken in turn,
 * one read ahead while the other is framed: a stream's fresh buffer a chunk would cost a page fault
 * for each of its pages, in the kernel's copy and in the first look at it. A chunk is the consumer's only until it asks for the next, which line framing keeps to
 * (it copies the end of a line it holds): used for plain line-delimited input only. `first`, when
 * given, comes before. Ctrl-C stops it at the next chunk; the descriptor is closed at the end, and
 * the buffers are given back for the next file (`first` too: nobody reads it once this one ends).
 */
async function* reusedChunks(fd: number, position: number, end: number, signal: AbortSignal | undefined, first?: Buffer): AsyncGenerator<Buffer> {
  let [current, next] = [takeBuffer(), takeBuffer()];
  const readInto = (buffer: Buffer, at: number) =>
    new Promise<number>((resolve, reject) => read(fd, buffer, 0, Math.min(maxChunk, end - at), Number.isFinite(end) ? at : null, (error, n) => (error ? reject(error) : resolve(n))));
  const sizeAtStart = Number.isFinite(end) ? 0 : fstatSync(fd).size;
  let pending: Promise<number> | undefined = position < end ? readInto(current, position) : undefined;
  try {
    if (first) yield first;
    while (pending) {
      const n = await pending;
      pending = undefined;
      if (signal?.aborted) throw signal.reason;
      if (n === 0) {
        // Read to its end: a file truncated under the run ends here with fewer bytes than were read
        // (a log rotated by copy and truncate): an input failure, not a last line cut off, as a byte
        // range of it reports, so that the report is the same for any --jobs.
        // (A file of /proc says it holds 0 bytes and reads more: only a file that said it held some.)
        if (!Number.isFinite(end) && sizeAtStart > 0 && fstatSync(fd).size < position) throw new InputDataError(changedWhileRead);
        return;
      }
      const chunk = current.subarray(0, n);
      position += n;
      [current, next] = [next, current];
      if (position < end) pending = readInto(current, position);
      yield chunk;
    }
  } finally {
    // A read still under way writes into a buffer of ours and reads a descriptor not closed yet.
    await pending?.catch(() => undefined);
    closeSync(fd);
    giveBack(current);
    giveBack(next);
    if (first) giveBack(first);
  }
}

const changedWhileRead = 'the file changed while it was read (rotated or truncated?): check a copy that nothing writes to';

/**
 * A byte range opened in its own thread, after the plan measured the file: by then the path may name
 * another file (a log rotated) or a shorter one (truncated), whose bytes would be read as the rest
 * of the first. Either is an input failure, not records.
 */
function openRange(path: string, range: ByteRange, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'r');
  let now;
  try {
    now = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if ((range.file && (now.dev !== range.file.dev || now.ino !== range.file.ino)) || now.size < range.end) {
    closeSync(fd);
    throw new InputDataError(changedWhileRead);
  }
  return reusedChunks(fd, range.start, range.end, signal);
}

/** The range's bytes, all of them: a file cut short while it is read ends the stream early. */
async function* wholeRange(chunks: AsyncIterable<Buffer>, range: ByteRange): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    yield chunk;
  }
  if (bytes < range.end - range.start) throw new InputDataError(changedWhileRead);
}

/** The first range, read through decoding like a whole file; Ctrl-C stops it, as a whole file's. */
export function firstRange(path: string, range: ByteRange, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  return wholeRange(openRange(path, range, signal), range);
}

/** A later range's bytes, all of them, read without a stop at Ctrl-C: the range is framed from its first byte. */
export function laterRange(path: string, range: ByteRange): AsyncGenerator<Buffer> {
  return wholeRange(openRange(path, range, undefined), range);
}

/** A file streamed from its first byte once more; Ctrl-C destroys the stream, as the first read's. */
export function readAgain(path: string, signal: AbortSignal | undefined): Readable {
  const stream = createReadStream(path, { highWaterMark: maxChunk });
  return signal ? loadStream().addAbortSignal(signal, stream) : stream;
}

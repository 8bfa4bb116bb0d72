// Which units of work a run has: one per input, and for a large plain line-delimited file of bare
// envelopes, one per byte range, so that even a single big file uses every core (issue 5).
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { Unit } from '../check-unit.js';
import { framingFor, type InputMode } from '../framing/index.js';
import { needsDecoding } from '../sources/decode.js';
import type { InputSource } from '../sources/input-source.js';

/** Below this a file is not worth splitting: a worker's start costs about as much as checking it. */
export const splitThreshold = 16 * 1024 * 1024;
const probeBytes = 64 * 1024;

/** Where the first line at or after `offset` starts (one past its LF), or the file's size. */
function nextLineStart(fd: number, offset: number, size: number): number {
  const buffer = Buffer.allocUnsafe(probeBytes);
  for (let position = offset; position < size; position += probeBytes) {
    const read = readSync(fd, buffer, 0, probeBytes, position);
    const newline = buffer.subarray(0, read).indexOf(0x0a);
    if (newline !== -1) return position + newline + 1;
    if (read === 0) break;
  }
  return size;
}

/**
 * Transcripts and JSON-RPC captures pair lines across the file, gzip and UTF-16 must be decoded from
 * the start: such files stay whole. Bare envelopes (and logs) are independent line by line.
 */
function splittable(fd: number): boolean {
  const head = Buffer.allocUnsafe(probeBytes);
  const read = readSync(fd, head, 0, probeBytes, 0);
  const bytes = head.subarray(0, read);
  if (needsDecoding(bytes)) return false;
  return !bytes.includes('"direction"') && !bytes.includes('"jsonrpc"') && !bytes.includes('"content"');
}

/** The smallest range a file is cut into, unless the file is small: a range per thread at least. */
export const minRangeBytes = 16 * 1024 * 1024;

/**
 * Where a file of `size` bytes is cut for `threads` threads, before the cuts move to line starts.
 * This thread takes ranges from the file's start and the workers from its end (pool.ts), and they
 * meet somewhere in the middle, wherever the later start of a worker and each thread's speed put
 * that place. So ranges are cut alternately from both ends, each a share of what is left between
 * them: large where each thread starts, smaller where they meet, so that the threads end within
 * about one small range of each other, while the run has few ranges to open, tally and merge.
 */
export function rangeCuts(size: number, threads: number): number[] {
  const smallest = Math.min(minRangeBytes, Math.floor(size / (2 * threads)));
  const front: number[] = [];
  const back: number[] = [];
  let low = 0;
  let high = size;
  for (let fromFront = true; smallest > 0 && high - low >= 2 * smallest; fromFront = !fromFront) {
    const piece = Math.max(smallest, Math.floor((high - low) / (2 * threads)));
    if (fromFront) front.push((low += piece));
    else back.push((high -= piece));
  }
  return [...front, ...back.reverse()];
}

function rangesOf(path: string, size: number, threads: number): Unit['range'][] {
  const fd = openSync(path, 'r');
  try {
    if (!splittable(fd)) return [undefined];
    const { dev, ino } = fstatSync(fd);
    const starts = [0];
    for (const cut of rangeCuts(size, threads)) {
      const start = nextLineStart(fd, cut - 1, size);
      if (start > starts.at(-1)! && start < size) starts.push(start);
    }
    return starts.map((start, index) => ({ start, end: starts[index + 1] ?? size, index, file: { dev, ino } }));
  } finally {
    closeSync(fd);
  }
}

export interface Plan {
  units: Unit[];
  /** Bytes of each unit, for batching: a file not stat'ed counts as the mean of those sampled (or 0). */
  sizes: number[];
  /** Bytes of the inputs whose size the plan knows. */
  bytes: number;
  /** Files whose size is learnt only when they are read. */
  unsized: number;
  /** `bytes`, and the files not stat'ed at the mean size of a sample of them: for deciding to use workers. */
  estimated: number;
}

/** Files a plan stats, at most, to reckon the size of many it does not (spread over them). */
const sampledFiles = 64;

/** Stats a file; undefined when it cannot (reported when its unit tries to read it). */
function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/**
 * Every file that may be split is stat'ed: a line-delimited one, when there are workers to split it
 * for. A `.json` document is never split, and a stat per file weighs on a folder of many small
 * ones: of those, only a sample is stat'ed, to tell a folder of large documents, worth workers,
 * from many small ones.
 */
export function planUnits(sources: readonly InputSource[], jobs: number, input: InputMode): Plan {
  const units: Unit[] = [];
  const sizes: number[] = [];
  let bytes = 0;
  /** Units of files not stat'ed, by index. */
  const unknown: number[] = [];
  for (const source of sources) {
    if (source.path === undefined) {
      units.push({ source });
      sizes.push(0);
      continue;
    }
    // A zip's entry and a bundle's file are never split: a bundle is one unit of work (spec section 8.2).
    const size = jobs >= 2 && framingFor(source.entry ?? source.path, input) === 'ndjson' ? sizeOf(source.path) : undefined;
    if (size === undefined) unknown.push(units.length);
    bytes += size ?? 0;
    if (size === undefined || size < splitThreshold || source.entry !== undefined || source.bundle !== undefined) {
      units.push({ source });
      sizes.push(size ?? 0);
      continue;
    }
    for (const range of rangesOf(source.path, size, jobs)) {
      units.push(range ? { source, range } : { source });
      sizes.push(range ? range.end - range.start : size);
    }
  }
  let unsized = unknown.length;
  let estimated = bytes;
  if (jobs >= 2 && unknown.length > 0) {
    const sampled = Math.min(sampledFiles, unknown.length);
    const measured = new Set<number>();
    let sampledBytes = 0;
    for (let k = 0; k < sampled; k++) {
      const u = unknown[Math.floor((k * unknown.length) / sampled)]!;
      const size = sizeOf(units[u]!.source.path!);
      if (size === undefined) continue;
      sizes[u] = size;
      sampledBytes += size;
      measured.add(u);
    }
    bytes += sampledBytes;
    unsized -= measured.size;
    const mean = measured.size === 0 ? 0 : Math.round(sampledBytes / measured.size);
    for (const u of unknown) if (!measured.has(u)) sizes[u] = mean;
    estimated = bytes + mean * unsized;
  }
  return { units, sizes, bytes, unsized, estimated };
}

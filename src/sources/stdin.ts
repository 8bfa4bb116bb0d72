// Standard input as a stream of chunks. A file redirected in (`< big.jsonl`) is read in 1 MiB
// chunks, as a named file is: process.stdin reads a file 64 KiB at a time, a thread-pool round trip
// each (90 MB took 148 ms to read that way, 64 ms in 1 MiB chunks). A pipe or a terminal stays
// process.stdin: a read from a pipe returns what the pipe holds (64 KiB) however much is asked, and
// fs reads of a pipe were slower than process.stdin's (180 against 137 ms).
import { createReadStream, fstatSync } from 'node:fs';
import type { Readable } from 'node:stream';

const fileChunk = 1 << 20;

export function standardInput(): Readable {
  let file = false;
  try {
    file = fstatSync(0).isFile();
  } catch {
    // No descriptor 0 at all: process.stdin reports that as an empty input.
  }
  // From the descriptor's current offset, as process.stdin reads, and left open: it is not ours.
  return file ? createReadStream('', { fd: 0, highWaterMark: fileChunk, autoClose: false }) : process.stdin;
}

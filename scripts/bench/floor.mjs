#!/usr/bin/env node
// The floor: the least work any checker must do on a corpus, run as its own `node` process so that
// it pays the same start-up as the CLI. It reads the input in 1 MiB chunks (fs.readSync), splits
// lines with Buffer.indexOf(10), and JSON.parses each non-blank line, and nothing else.
//
//   node scripts/bench/floor.mjs <file.jsonl> [--inner]   line-delimited input
//   node scripts/bench/floor.mjs <folder>                   every *.json file under it: read + parse
//   node scripts/bench/floor.mjs <file.jsonl> --threads <n>  the same file in n byte ranges (cut at
//                                                            line starts), this thread and n - 1 workers
//
// --threads is the floor of the default mode: what reading and parsing alone cost on n threads of
// this machine, worker start included. It shows how much a second core gives here at all (two busy
// threads may run slower each than one alone), the ceiling any parallel checker is under.
// --inner (transcripts, JSON-RPC captures): for response lines also JSON.parse the envelope text of
// the last text content block of the response's result, as a checker must.
// Prints one JSON object: { lines, parsed, innerParsed, failed, bytes }.
import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const args = isMainThread ? process.argv.slice(2) : workerData.args;
const inner = args.includes('--inner');
const threadsAt = args.indexOf('--threads');
const threads = threadsAt === -1 ? 1 : Number(args[threadsAt + 1]);
const target = args.find((a, i) => !a.startsWith('--') && (threadsAt === -1 || i !== threadsAt + 1));
if (target === undefined || !Number.isInteger(threads) || threads < 1) {
  process.stderr.write('usage: node scripts/bench/floor.mjs <file.jsonl|folder> [--inner] [--threads <n>]\n');
  process.exit(2);
}

let lines = 0;
let parsed = 0;
let innerParsed = 0;
let failed = 0;
let bytes = 0;

function parseInner(value) {
  if (value === null || typeof value !== 'object') return;
  // A transcript's response line carries the JSON-RPC response as payload; a JSON-RPC capture's line is one.
  const response = value.direction === 'response' ? value.payload : value.jsonrpc !== undefined ? value : undefined;
  const content = response?.result?.content;
  if (!Array.isArray(content)) return;
  for (let i = content.length - 1; i >= 0; i--) {
    const block = content[i];
    if (block !== null && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string') {
      try {
        JSON.parse(block.text);
        innerParsed++;
      } catch {
        failed++;
      }
      return;
    }
  }
}

function line(chunk, start, end) {
  if (end > start && chunk[end - 1] === 13) end--;
  if (end === start) return;
  lines++;
  let value;
  try {
    value = JSON.parse(chunk.toString('utf8', start, end));
    parsed++;
  } catch {
    failed++;
    return;
  }
  if (inner) parseInner(value);
}

/** Reads and parses bytes [start, end) of the file, which start and end at line starts. */
function lineDelimited(path, start = 0, end = Infinity) {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let carry = null;
  for (let position = start; position < end; ) {
    const n = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
    if (n === 0) break;
    position += n;
    bytes += n;
    const chunk = buffer.subarray(0, n);
    let start = 0;
    let nl;
    // Only the line that straddles the chunks is joined: joining the whole chunk to it (as this
    // script did to 2026-12-04) copied every byte of the file into a fresh buffer, page faults and
    // all, a fifth of the floor's time, which no checker has to spend.
    if (carry !== null) {
      nl = chunk.indexOf(10);
      if (nl === -1) {
        carry = Buffer.concat([carry, chunk]);
        continue;
      }
      const joined = Buffer.concat([carry, chunk.subarray(0, nl)]);
      line(joined, 0, joined.length);
      carry = null;
      start = nl + 1;
    }
    while ((nl = chunk.indexOf(10, start)) !== -1) {
      line(chunk, start, nl);
      start = nl + 1;
    }
    // The buffer is reused for the next read, so a partial last line is copied out.
    carry = start < chunk.length ? Buffer.from(chunk.subarray(start)) : null;
  }
  if (carry !== null) line(carry, 0, carry.length);
  closeSync(fd);
}

function documents(dir) {
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith('.json'))
    .sort();
  for (const name of files) {
    const data = readFileSync(join(dir, name));
    bytes += data.length;
    try {
      const value = JSON.parse(data.toString('utf8'));
      const n = Array.isArray(value) ? value.length : 1;
      lines += n;
      parsed += n;
    } catch {
      failed++;
    }
  }
}

/** Where the first line at or after `offset` starts (one past its LF), or the file's size. */
function lineStartAfter(path, offset, size) {
  const fd = openSync(path, 'r');
  const probe = Buffer.allocUnsafe(64 * 1024);
  try {
    for (let position = offset; position < size; position += probe.length) {
      const n = readSync(fd, probe, 0, probe.length, position);
      const newline = probe.subarray(0, n).indexOf(10);
      if (newline !== -1) return position + newline + 1;
      if (n === 0) break;
    }
    return size;
  } finally {
    closeSync(fd);
  }
}

/** The file in `threads` ranges: workers take the later ones, this thread the first. */
async function threaded(path) {
  const size = statSync(path).size;
  const starts = [0];
  for (let k = 1; k < threads; k++) starts.push(Math.max(starts.at(-1), lineStartAfter(path, Math.max(0, Math.floor((size * k) / threads) - 1), size)));
  const ranges = starts.map((start, k) => [start, starts[k + 1] ?? size]);
  const workers = ranges.slice(1).map(
    ([start, end]) =>
      new Promise((resolve, reject) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: { args, start, end } });
        worker.once('message', resolve);
        worker.once('error', reject);
      }),
  );
  lineDelimited(path, ...ranges[0]);
  for (const counts of await Promise.all(workers)) {
    lines += counts.lines;
    parsed += counts.parsed;
    innerParsed += counts.innerParsed;
    failed += counts.failed;
    bytes += counts.bytes;
  }
}

if (!isMainThread) {
  lineDelimited(target, workerData.start, workerData.end);
  parentPort.postMessage({ lines, parsed, innerParsed, failed, bytes });
} else {
  if (statSync(target).isDirectory()) documents(target);
  else if (threads > 1) await threaded(target);
  else lineDelimited(target);
  process.stdout.write(JSON.stringify({ lines, parsed, innerParsed, failed, bytes }) + '\n');
}

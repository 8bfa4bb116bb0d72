#!/usr/bin/env node
// The floor: the least work any checker must do on a corpus, run as its own `node` process so that
// it pays the same start-up as the CLI. It reads the input in 1 MiB chunks (fs.readSync), splits
// lines with Buffer.indexOf(10), and JSON.parses each non-blank line, and nothing else.
//
//   node scripts/bench/floor.mjs <file.jsonl> [--inner]   line-delimited input
//   node scripts/bench/floor.mjs <folder>                   every *.json file under it: read + parse
//
// --inner (transcripts): for response lines also JSON.parse the envelope text of the last text
// content block of payload.result, as a checker must.
// Prints one JSON object: { lines, parsed, innerParsed, failed, bytes }.
import { closeSync, openSync, readFileSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const inner = args.includes('--inner');
const target = args.find((a) => !a.startsWith('--'));
if (target === undefined) {
  process.stderr.write('usage: node scripts/bench/floor.mjs <file.jsonl|folder> [--inner]\n');
  process.exit(2);
}

let lines = 0;
let parsed = 0;
let innerParsed = 0;
let failed = 0;
let bytes = 0;

function parseInner(value) {
  if (value === null || typeof value !== 'object' || value.direction !== 'response') return;
  const content = value.payload?.result?.content;
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

function lineDelimited(path) {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(1024 * 1024);
  let carry = null;
  for (;;) {
    const n = readSync(fd, buffer, 0, buffer.length, null);
    if (n === 0) break;
    bytes += n;
    const chunk = carry === null ? buffer.subarray(0, n) : Buffer.concat([carry, buffer.subarray(0, n)]);
    let start = 0;
    let nl;
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

if (statSync(target).isDirectory()) documents(target);
else lineDelimited(target);
process.stdout.write(JSON.stringify({ lines, parsed, innerParsed, failed, bytes }) + '\n');

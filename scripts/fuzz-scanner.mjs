#!/usr/bin/env node
// The scanner's fuzz test (issue 36 item 4): a million cases, random bytes and mutated JSON (bench
// envelopes and random values with escapes, surrogates, numbers at their edges), each decided by
// the scanner and by today's path (UTF-8 check, then parseJson: decode + JSON.parse within
// nesting.ts's limits). Held: the scanner's own verdict (isJsonLine, before any confirmation by
// JSON.parse) equals today's; a refusal has today's column and words; an accepted line's value is
// JSON.parse's, members in its order. Deterministic from its seed; a mismatch prints the case in hex.
//
//   npm run build --silent && node scripts/fuzz-scanner.mjs [--cases N] [--seed S]
import { isDeepStrictEqual } from 'node:util';
import { createEnvelopeGenerator, mulberry32 } from './bench/generate.mjs';

const root = new URL('../', import.meta.url);
const load = (path) => import(new URL(`dist/framing/${path}`, root).href);
const { scan, isJsonLine, wholePlan } = await load('scan.js');
const { envelopePlan } = await import(new URL('dist/checks/record-plan.js', root).href);
const { parseJson } = await load('nesting.js');
const { locateParseError } = await load('parse-error.js');
const { invalidUtf8Fault, isUtf8 } = await load('utf8.js');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const cases = option('--cases', 1_000_000);
const seed = option('--seed', 0x5ca22e2);
const rand = mulberry32(seed);
const int = (n) => Math.floor(rand() * n);
const pick = (list) => list[int(list.length)];

/** Today's path on a line: { ok, value } or { ok: false, column, message }. */
function today(bytes) {
  if (!isUtf8(bytes)) {
    const { column, message } = invalidUtf8Fault(bytes);
    return { ok: false, column, message };
  }
  const text = bytes.toString('utf8');
  try {
    return { ok: true, value: parseJson(text) };
  } catch (error) {
    const failure = locateParseError(text, error, true);
    return { ok: false, column: failure.offset + 1, message: failure.message };
  }
}

// Sources to mutate: bench envelopes, and random JSON values written with what JSON.stringify never writes.
const nextEnvelope = createEnvelopeGenerator(seed);
const envelopes = Array.from({ length: 2000 }, () => JSON.stringify(nextEnvelope().envelope));
const strings = ['', 'ok', 'é', '😀', '\\u00e9', '\\ud800', '\\udc00\\ud83d', '\\"', '\\\\', '\\/', '\\b\\f\\n\\r\\t', '\\u0000', '__proto__', 'a b', '\u2028', '\u007f', '\uFFFD'];
const numbers = ['0', '-0', '1', '-1', '0.5', '1e5', '1E+5', '1e-5', '-0.0e0', '1e400', '-1e400', '12345678901234567890', '9007199254740993', '0.1', '5e-324'];
const spaces = ['', '', '', ' ', '\t', '\r', '\n', ' \r\n '];
function value(depth) {
  const r = rand();
  if (depth > 4 || r < 0.35) {
    const k = int(5);
    if (k === 0) return `"${pick(strings)}${pick(strings)}"`;
    if (k === 1) return pick(numbers);
    return pick(['true', 'false', 'null']);
  }
  const n = int(4);
  const items = [];
  for (let k = 0; k < n; k++) {
    const item = value(depth + 1);
    items.push(r < 0.65 ? `${pick(spaces)}"${pick(strings)}"${pick(spaces)}:${pick(spaces)}${item}${pick(spaces)}` : `${pick(spaces)}${item}${pick(spaces)}`);
  }
  return r < 0.65 ? `{${items.join(',')}}` : `[${items.join(',')}]`;
}
const values = Array.from({ length: 2000 }, () => value(0));

const alphabet = [...Buffer.from('{}[],:"\\u0123456789.eE+-tfnrl \t\r\n/\'xa')];
const odd = [0x00, 0x01, 0x1f, 0x7f, 0x80, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xee, 0xef, 0xbb, 0xf0, 0xf4, 0xf5, 0xff];
const byte = () => (rand() < 0.6 ? pick(alphabet) : rand() < 0.7 ? pick(odd) : int(256));

function mutated() {
  let bytes = Buffer.from(rand() < 0.5 ? pick(envelopes) : pick(values));
  // One case in ten unmutated: the accepting path's values are compared too.
  const count = rand() < 0.1 ? 0 : rand() < 0.6 ? 1 : 2 + int(2);
  for (let m = count; m > 0; m--) {
    const kind = int(4);
    const at = int(bytes.length + 1);
    if (kind === 0) bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from([byte()]), bytes.subarray(at)]);
    else if (kind === 1) bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + 1)]);
    else if (kind === 2 && at < bytes.length) bytes[at] = byte();
    // A UTF-8 sequence, well-formed or not, where a string's text is.
    else bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(Array.from({ length: 1 + int(4) }, () => 0x80 | int(0x80)).map((b, k) => (k === 0 ? pick([0xc3, 0xe2, 0xed, 0xf0, 0xf4, 0xe0]) : b))), bytes.subarray(at)]);
  }
  return bytes;
}

function randomBytes() {
  return Buffer.from(Array.from({ length: int(24) }, byte));
}

const envelopeWhole = envelopePlan({ lastObservation: 'whole' });
const failures = [];
let accepted = 0;
let refused = 0;
const started = performance.now();
for (let n = 0; n < cases && failures.length < 10; n++) {
  const bytes = n % 2 === 0 ? mutated() : randomBytes();
  const expected = today(bytes);
  const verdict = isJsonLine(bytes, 0, bytes.length);
  // The whole plan (every value compared) on most cases, the envelope plan's path on the rest.
  const plan = n % 4 === 3 ? envelopeWhole : wholePlan;
  const result = scan(bytes, 0, bytes.length, plan);
  let problem;
  if (verdict !== expected.ok) problem = `isJsonLine says ${verdict}, today's path ${expected.ok}`;
  else if (result.ok !== expected.ok) problem = `scan says ${result.ok}, today's path ${expected.ok}`;
  else if (!expected.ok && (result.column !== expected.column || result.message !== expected.message)) problem = `scan says ${result.column}: ${result.message}; today's path ${expected.column}: ${expected.message}`;
  else if (expected.ok && plan === wholePlan && !(isDeepStrictEqual(result.value, expected.value) && JSON.stringify(result.value) === JSON.stringify(expected.value))) problem = 'scan built another value than JSON.parse';
  // A line whose text the framer has (an ASCII window's) is scanned from its text: the same result.
  if (!problem && bytes.every((b) => b < 0x80)) {
    const fromText = scan(bytes, 0, bytes.length, plan, undefined, bytes.toString('latin1'), 0);
    if (!isDeepStrictEqual(fromText, result)) problem = 'scan from the line\'s text built another result than from its bytes';
  }
  if (problem) failures.push({ case: n, hex: bytes.toString('hex'), text: bytes.toString('latin1'), problem });
  if (expected.ok) accepted++;
  else refused++;
  if ((n + 1) % 100_000 === 0) process.stderr.write(`${(n + 1).toLocaleString('en-US')} cases, ${failures.length} mismatches\n`);
}
const summary = { cases: accepted + refused, accepted, refused, mismatches: failures.length, seed, seconds: +((performance.now() - started) / 1000).toFixed(1) };
process.stdout.write(JSON.stringify(summary) + '\n');
for (const failure of failures) process.stdout.write(JSON.stringify(failure) + '\n');
process.exitCode = failures.length === 0 ? 0 : 1;

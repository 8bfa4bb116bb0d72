#!/usr/bin/env node
// Instructions, not seconds: the floor and `check --jobs 1` run under valgrind's callgrind with V8
// on one thread (`node --single-threaded`: it compiles and collects garbage on the main thread, so
// that no helper thread's timing changes what runs), on the first lines of the bench's corpora.
// Counts of one build repeat far more closely than wall times do, whatever else the machine is doing
// (docs/performance.md gives the spread; a run of a few hundred lines is mostly start-up, which
// varies more): a change is measured here as its difference against another checkout (--against)
// in one run. The counts are no wall times (JSON.parse's native code does more per instruction than
// the checker's compiled JavaScript), so the targets stay `npm run bench`'s.
//
//   npm run build --silent && node scripts/bench/instructions.mjs [--lines N] [--only a,b] [--against <checkout>] [--dir .bench]
//
// The corpora are `npm run bench`'s, in --dir; each is cut to its first --lines lines (default
// 40,000) in <dir>/instructions/. Needs valgrind (VALGRIND names another binary).
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { table } from './table.mjs';

const root = resolve(import.meta.dirname, '../..');
const corpora = {
  bare: { file: 'bare-1m.jsonl', inner: false },
  transcript: { file: 'transcript-200k.jsonl', inner: true },
  'mcec-calls': { file: 'mcec-calls-1m.jsonl', inner: true },
  'jsonrpc-calls': { file: 'jsonrpc-calls-1m.jsonl', inner: true },
};

const usage = `usage: node scripts/bench/instructions.mjs [--lines N] [--only ${Object.keys(corpora).join(',')}] [--against <checkout>] [--dir <folder>]`;
let options;
try {
  ({ values: options } = parseArgs({ options: { lines: { type: 'string', default: '40000' }, only: { type: 'string', multiple: true }, against: { type: 'string' }, dir: { type: 'string', default: '.bench' }, help: { type: 'boolean' } } }));
} catch (error) {
  fail(`${error.message}\n${usage}`);
}
if (options.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const lines = Number(options.lines);
if (!Number.isInteger(lines) || lines < 1) fail(`--lines takes a whole number of lines, not ${options.lines}`);
const names = (options.only ?? Object.keys(corpora)).flatMap((name) => name.split(','));
for (const name of names) if (!(name in corpora)) fail(`--only: no corpus ${name} (${Object.keys(corpora).join(', ')})`);
const dir = resolve(options.dir);
const against = options.against === undefined ? undefined : resolve(options.against);
if (against !== undefined && !existsSync(join(against, 'bin/mcec-result.js'))) fail(`--against: ${against} holds no bin/mcec-result.js (a checkout, built)`);
const valgrind = process.env.VALGRIND ?? 'valgrind';
if (spawnSync(valgrind, ['--version'], { stdio: 'ignore' }).status !== 0) fail(`${valgrind} does not run here: install valgrind (Debian: apt-get install valgrind)`);

function fail(message) {
  process.stderr.write(`instructions: ${message}\n`);
  process.exit(2);
}

/** The first `count` lines of `source`, written to `target`; how many there were. */
async function cut(source, target, count) {
  const kept = [];
  const input = createReadStream(source);
  const reader = createInterface({ input, crlfDelay: Infinity });
  for await (const line of reader) {
    kept.push(line);
    if (kept.length === count) break;
  }
  reader.close();
  input.destroy();
  writeFileSync(target, `${kept.join('\n')}\n`);
  return kept.length;
}

/** Instructions callgrind counts for `node --single-threaded <args>`; throws when the command fails. */
function instructions(args) {
  return new Promise((done, failed) => {
    const child = spawn(valgrind, ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--single-threaded', ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', failed);
    child.on('close', (status) => {
      const count = /Collected : (\d+)/.exec(stderr);
      if (status !== 0 || count === null) failed(new Error(`${args.join(' ')} exited ${status}:\n${stderr.slice(-2000)}`));
      else done(Number(count[1]));
    });
  });
}

// As `npm run bench` measures: a certificate file Node would read at every start is no work of ours.
const env = { ...process.env, NO_COLOR: '1' };
delete env.NODE_EXTRA_CA_CERTS;

const giga = (n) => `${(n / 1e9).toFixed(3)} G`;
const cliArgs = (checkout, file) => [join(checkout, 'bin/mcec-result.js'), 'check', file, '--jobs', '1', '--format', 'json', '-o', '/dev/null', '--exit-zero', '--no-config', '--no-progress'];

for (const name of names) {
  const source = join(dir, corpora[name].file);
  if (!existsSync(source)) fail(`${source} is missing: \`npm run bench -- --only ${name}\` makes it`);
}
mkdirSync(join(dir, 'instructions'), { recursive: true });
const rows = [];
let base;
try {
  base = await instructions(['-e', '0']);
  for (const name of names) {
    const { file, inner } = corpora[name];
    const sample = join(dir, 'instructions', `${name}-${lines}.jsonl`);
    const count = await cut(join(dir, file), sample, lines);
    // Side by side: each runs on one thread, and its count does not depend on what else runs.
    const [floor, cli, other] = await Promise.all([
      instructions([join(root, 'scripts/bench/floor.mjs'), sample, ...(inner ? ['--inner'] : [])]),
      instructions(cliArgs(root, sample)),
      against === undefined ? undefined : instructions(cliArgs(against, sample)),
    ]);
    rows.push({ name, lines: count, floor, cli, ratio: (cli - base) / (floor - base), perLine: (cli - base) / count, ...(other !== undefined && { against: other, change: (cli - other) / (other - base) }) });
  }
} catch (error) {
  process.stderr.write(`instructions: a measured command failed: ${error.message}\n`);
  process.exit(1);
}

const header = ['corpus', 'floor', 'cli', 'cli / floor', 'cli per line', ...(against ? ['--against cli', 'change'] : [])];
const body = rows.map((row) => [`${row.name} (${row.lines} lines)`, giga(row.floor), giga(row.cli), `${row.ratio.toFixed(2)}x`, `${(row.perLine / 1e3).toFixed(1)} k`, ...(against ? [giga(row.against), `${row.change >= 0 ? '+' : ''}${(100 * row.change).toFixed(2)} %`] : [])]);
process.stdout.write(`instructions under callgrind, V8 on one thread; node -e 0: ${giga(base)}, taken off every ratio, line count and change\n`);
process.stdout.write(table(header, body, [1, 2, 3, 4, 5, 6]));
writeFileSync(join(dir, 'instructions.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, against, base, rows }, null, 2)}\n`);

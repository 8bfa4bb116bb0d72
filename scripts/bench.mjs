#!/usr/bin/env node
// npm run bench: how fast and how lean `mcec-result check` is, against a floor measured in the same
// run. The machine this runs on is small and noisy, so nothing is compared with a number measured
// elsewhere: every target is a ratio to a floor (or to `node -e 0`) measured in this run, and every
// timing is the median of several runs, the commands of one corpus taking turns run by run (so that
// a slow patch of the machine hits all of them alike).
//
//  - Corpora are generated into .bench/ by scripts/bench/generate.mjs (seeded mulberry32, no
//    dependencies), only when missing or when the generator version changed (.bench/manifest.json).
//  - The floor is scripts/bench/floor.mjs, its own `node` process: read in 1 MiB chunks, split on
//    Buffer.indexOf(10), JSON.parse each line (transcripts: also the envelope text, --inner).
//  - Wall time is measured around spawnSync (Node start-up included). Peak RSS and CPU time (user +
//    system, all threads) come from GNU time (`/usr/bin/time -f '%M %U %S'`) when it works here,
//    else from scripts/bench/rss-wrapper.mjs, which runs the target in its own process and reads
//    process.resourceUsage() on exit (--rss picks).
//  - The CLI's report goes to .bench/out/<measurement>.json; after the last run its summary is
//    checked against the corpus (records + unparseable + skipped == lines), so a CLI that skips
//    work cannot look fast.
//  - Results: two tables on stdout (measurements, targets), progress on stderr, everything as JSON
//    in .bench/results.json. The exit status is 0 even when targets are missed; 1 when a measured
//    command failed; 2 on a usage error.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureCorpora } from './bench/generate.mjs';
import { detectRssMethod, median, runNode } from './bench/measure.mjs';
import { table } from './bench/table.mjs';

const root = resolve(import.meta.dirname, '..');
const bin = 'bin/mcec-result.js';
const floorScript = 'scripts/bench/floor.mjs';
const groups = ['startup', 'small', 'bare', 'mid', 'uia', 'transcript', 'merge', 'mcec-calls', 'jsonrpc-calls'];
// The 1M-call corpora (agent recovery, spec section 9) take gigabytes and minutes: run with --only or --all.
const optIn = ['mcec-calls', 'jsonrpc-calls'];

const help = `usage: node scripts/bench.mjs [options]      (npm run bench builds first)

Measures mcec-result check against a floor measured in the same run (medians of --runs runs)
and prints a table of measurements and a table of targets (PASS/MISS). Corpora are generated
into .bench/ when missing; results are written to .bench/results.json.

options:
  --quick             smoke run: 100k- and 40k-line bare corpora and 20k-pair transcript, 1 run each
  --memory            also check peak-RSS growth from 1M to 4M bare lines (--jobs 1);
                      generates .bench/bare-4m.jsonl (about 1.2 GB) when missing
  --all               every group (mcec-calls and jsonrpc-calls included) and the memory check
  --runs <n>          runs per corpus measurement, the median is reported (default 3; --quick: 1)
  --startup-runs <n>  runs of the start-up measurements (default 10)
  --only <group>      only this group: bare, mid, uia, transcript, small, startup, merge, mcec-calls
                      or jsonrpc-calls (repeatable, or a,b); uia: 20k records, 5 % invalid, 27 %
                      failures, successes holding UIA trees of 20-200 nodes (bare and uia also
                      run the CLI on the JSON.parse reference path); merge: the JSON report of the bare corpus,
                      merged once and as 4 shards' reports (copies under other input names), for
                      time and peak RSS; mcec-calls: 1M agent calls as MCEC's client writes them
                      (2M lines, failures followed by retries); jsonrpc-calls: 1M calls as plain
                      JSON-RPC, answered out of order, 10 % never answered (--quick: 100k calls;
                      neither runs unless named here or with --all)
  --dir <folder>      where corpora, reports and results.json go (default .bench)
  --rss <method>      peak RSS and CPU time from: auto (default), time (/usr/bin/time),
                      wrapper (scripts/bench/rss-wrapper.mjs, process.resourceUsage())
  -h, --help          this text
`;

function usage(message) {
  process.stderr.write(`bench: ${message}\n\n${help}`);
  process.exit(2);
}

function count(name, value, fallback) {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) usage(`${name}: expected a whole number of at least 1, got "${value}"`);
  return Number(value);
}

let flags;
try {
  flags = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      memory: { type: 'boolean', default: false },
      all: { type: 'boolean', default: false },
      runs: { type: 'string' },
      'startup-runs': { type: 'string' },
      only: { type: 'string', multiple: true },
      rss: { type: 'string', default: 'auto' },
      dir: { type: 'string', default: '.bench' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  }).values;
} catch (error) {
  usage(error.message);
}
if (flags.help) {
  process.stdout.write(help);
  process.exit(0);
}
const only = (flags.only ?? []).flatMap((value) => value.split(',')).map((value) => value.trim()).filter(Boolean);
for (const name of only) if (!groups.includes(name)) usage(`--only: unknown group "${name}" (choose from ${groups.join(', ')})`);
if (flags.all && only.length > 0) usage('--all runs every group; leave out --only');
if (!['auto', 'time', 'wrapper'].includes(flags.rss)) usage(`--rss: expected auto, time or wrapper, got "${flags.rss}"`);
const benchDir = resolve(root, flags.dir);
const outDir = join(benchDir, 'out');
const selected = new Set(only.length > 0 ? only : flags.all ? groups : groups.filter((group) => !optIn.includes(group)));
const runs = count('--runs', flags.runs, flags.quick ? 1 : 3);
const startupRuns = count('--startup-runs', flags['startup-runs'], 10);
const memory = (flags.memory || flags.all) && selected.has('bare');
if (flags.memory && !selected.has('bare')) process.stderr.write('bench: --memory needs the bare group; memory check not run\n');

const names = {
  bare: flags.quick ? 'bare-100k.jsonl' : 'bare-1m.jsonl',
  // Under the 64 MiB from which the default mode starts workers on two cores (src/run.ts): whether they would pay.
  mid: flags.quick ? 'bare-40k.jsonl' : 'bare-200k.jsonl',
  // 5 % invalid, 27 % failures, successes holding UIA trees of 20-200 nodes (about 200 MB).
  uia: flags.quick ? 'uia-2k.jsonl' : 'uia-20k.jsonl',
  bareBig: flags.quick ? 'bare-400k.jsonl' : 'bare-4m.jsonl',
  transcript: flags.quick ? 'transcript-20k.jsonl' : 'transcript-200k.jsonl',
  small: 'small-10k',
  'mcec-calls': flags.quick ? 'mcec-calls-100k.jsonl' : 'mcec-calls-1m.jsonl',
  'jsonrpc-calls': flags.quick ? 'jsonrpc-calls-100k.jsonl' : 'jsonrpc-calls-1m.jsonl',
  one: 'one-small.jsonl',
};

const log = (text) => process.stderr.write(`${text}\n`);
const startedAt = performance.now();

// ---------------------------------------------------------------------------------------------
// Machine, corpora, CLI probe

const cpus = os.cpus();
const machine = {
  cpu: cpus[0]?.model?.trim() ?? 'unknown',
  cores: cpus.length,
  availableParallelism: os.availableParallelism(),
  node: process.version,
  platform: `${os.platform()} ${os.release()} ${os.arch()}`,
  memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
  loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
};

if (!existsSync(join(root, 'dist/cli/cli.js'))) {
  process.stderr.write('bench: dist/ is missing; run `npm run build` first (npm run bench does)\n');
  process.exit(2);
}

mkdirSync(outDir, { recursive: true });
const wanted = [names.one];
if (selected.has('small')) wanted.push(names.small);
if (selected.has('bare') || selected.has('merge')) wanted.push(names.bare);
if (selected.has('mid')) wanted.push(names.mid);
if (selected.has('uia')) wanted.push(names.uia);
if (memory) wanted.push(names.bareBig);
if (selected.has('transcript')) wanted.push(names.transcript);
for (const group of optIn) if (selected.has(group)) wanted.push(names[group]);
const generationStarted = performance.now();
const { corpora, generatedMs } = ensureCorpora(benchDir, wanted, log);
const generationWallMs = performance.now() - generationStarted;

const rss = detectRssMethod(flags.rss, benchDir);
const corpusPath = (name) => relative(root, corpora[name].path);

// Does the CLI know --jobs? If it rejects the option, every "--jobs 1" row is the default run.
const probe = spawnSync(process.execPath, [bin, 'check', corpusPath(names.one), '--format', 'json', '--jobs', '1'], { cwd: root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
let jobs = true;
if (probe.status === 2 && /unknown option/i.test(probe.stderr) && probe.stderr.includes('--jobs')) jobs = false;
else if (probe.status !== 0 && probe.status !== 1) {
  process.stderr.write(`bench: the CLI fails on ${names.one} (exit ${probe.status}):\n${probe.stderr}`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Measurements

/**
 * kind: floor (node floor.mjs), cli (bin/mcec-result.js check --format json), baseline (node -e 0).
 * expect: what the output must say about the corpus (lines, records) for the run to count.
 */
function floorOf(id, label, corpus, extra = []) {
  const info = corpora[corpus];
  return { id, label, kind: 'floor', corpus, args: [floorScript, corpusPath(corpus), ...extra], records: info.records, bytes: info.bytes, expect: { lines: info.lines, inner: extra.includes('--inner') ? info.records : undefined } };
}

/** `reference`: the run parses lines with JSON.parse, the scanner's reference path (src/framing/parser.ts). */
function cliOf(id, label, corpus, { jobs1, threads, reference = false }) {
  const info = corpora[corpus];
  const args = [bin, 'check', corpusPath(corpus), '--format', 'json'];
  if (jobs1 && jobs) args.push('--jobs', '1');
  if (threads !== undefined) args.push('--jobs', String(threads));
  const env = reference ? { MCEC_RESULT_PARSER: 'reference' } : {};
  return { id, label, kind: 'cli', corpus, args, env, records: info.records, bytes: info.bytes, expect: { lines: info.lines, records: info.records } };
}

/** When --jobs does not exist, the --jobs 1 row is the default run under another name. */
function jobsRow(id, label, corpus, defaultRow) {
  if (jobs) return cliOf(id, label, corpus, { jobs1: true });
  return { id, label, kind: 'cli', corpus, aliasOf: defaultRow.id, notes: ['jobs n/a: same run as default'] };
}

const plan = [];
if (selected.has('startup')) {
  const info = corpora[names.one];
  plan.push({
    group: 'startup',
    runs: startupRuns,
    reference: 'node -e 0',
    referenceLabel: 'node -e 0',
    rows: [
      { id: 'node -e 0', label: 'node -e 0', kind: 'baseline', corpus: '-', args: ['-e', '0'] },
      { id: 'startup default', label: 'cli default', kind: 'cli', corpus: names.one, args: [bin, 'check', corpusPath(names.one), '--format', 'json'], records: info.records, bytes: info.bytes, expect: { lines: info.lines, records: info.records } },
    ],
  });
}
if (selected.has('small')) {
  const def = cliOf('small default', 'cli default', names.small, { jobs1: false });
  plan.push({ group: 'small', runs, reference: 'small floor', referenceLabel: 'floor', rows: [floorOf('small floor', 'floor', names.small), jobsRow('small jobs1', 'cli --jobs 1', names.small, def), def] });
}
if (selected.has('bare')) {
  const def = cliOf('bare default', 'cli default', names.bare, { jobs1: false });
  // The floor on every core, worker start included: the most a second core gives here at all.
  const threaded = machine.availableParallelism >= 2 ? [floorOf('bare floor threads', `floor, ${machine.availableParallelism} threads`, names.bare, ['--threads', String(machine.availableParallelism)])] : [];
  // The same runs on the reference parser (JSON.parse of every line): what the scanner saves.
  const referenceRows = jobs ? [cliOf('bare jobs1 reference', 'cli --jobs 1, JSON.parse', names.bare, { jobs1: true, reference: true })] : [];
  referenceRows.push(cliOf('bare default reference', 'cli default, JSON.parse', names.bare, { jobs1: false, reference: true }));
  plan.push({ group: 'bare', runs, reference: 'bare floor', referenceLabel: 'floor', rows: [floorOf('bare floor', 'floor', names.bare), ...threaded, jobsRow('bare jobs1', 'cli --jobs 1', names.bare, def), def, ...referenceRows] });
}
if (selected.has('mid')) {
  const def = cliOf('mid default', 'cli default', names.mid, { jobs1: false });
  // --jobs given starts workers from 8 MiB: what the default mode leaves out at this size.
  const threads = jobs && machine.availableParallelism >= 2 ? [cliOf('mid threads', `cli --jobs ${machine.availableParallelism}`, names.mid, { jobs1: false, threads: machine.availableParallelism })] : [];
  plan.push({ group: 'mid', runs, reference: 'mid floor', referenceLabel: 'floor', rows: [floorOf('mid floor', 'floor', names.mid), jobsRow('mid jobs1', 'cli --jobs 1', names.mid, def), ...threads, def] });
}
if (selected.has('uia')) {
  const def = cliOf('uia default', 'cli default', names.uia, { jobs1: false });
  const rows = [floorOf('uia floor', 'floor', names.uia), jobsRow('uia jobs1', 'cli --jobs 1', names.uia, def), def];
  if (jobs) rows.push(cliOf('uia jobs1 reference', 'cli --jobs 1, JSON.parse', names.uia, { jobs1: true, reference: true }));
  rows.push(cliOf('uia default reference', 'cli default, JSON.parse', names.uia, { jobs1: false, reference: true }));
  plan.push({ group: 'uia', runs, reference: 'uia floor', referenceLabel: 'floor', rows });
}
if (selected.has('transcript')) {
  const def = cliOf('transcript default', 'cli default', names.transcript, { jobs1: false });
  plan.push({
    group: 'transcript',
    runs,
    reference: 'transcript floor inner',
    referenceLabel: 'floor+inner',
    rows: [
      floorOf('transcript floor lines', 'floor (lines only)', names.transcript),
      floorOf('transcript floor inner', 'floor (lines + inner text)', names.transcript, ['--inner']),
      jobsRow('transcript jobs1', 'cli --jobs 1', names.transcript, def),
      def,
    ],
  });
}
// Agent calls: the floor, like the transcript's, also parses each response's envelope text.
for (const group of optIn) {
  if (!selected.has(group)) continue;
  const corpus = names[group];
  const def = cliOf(`${group} default`, 'cli default', corpus, { jobs1: false });
  plan.push({
    group,
    runs,
    reference: `${group} floor inner`,
    referenceLabel: 'floor+inner',
    rows: [
      floorOf(`${group} floor lines`, 'floor (lines only)', corpus),
      floorOf(`${group} floor inner`, 'floor (lines + inner text)', corpus, ['--inner']),
      jobsRow(`${group} jobs1`, 'cli --jobs 1', corpus, def),
      def,
    ],
  });
}
/** Shards' reports for the merge group: made from one check of the bare corpus, before it runs. */
const mergeParts = 4;
if (selected.has('merge')) {
  const info = corpora[names.bare];
  const source = join(outDir, 'merge-source.json');
  const part = (k) => relative(root, join(outDir, `merge-part-${k}.json`));
  const mergeRow = (id, label, count) => ({
    id,
    label,
    kind: 'cli',
    corpus: `${count} x report of ${names.bare}`,
    args: [bin, 'merge', ...Array.from({ length: count }, (_, k) => part(k + 1)), '--format', 'json'],
    records: count * info.records,
    expect: { lines: count * info.lines, records: count * info.records },
  });
  plan.push({
    group: 'merge',
    runs,
    reference: 'merge one',
    referenceLabel: 'one report',
    // Each part is the report under other input names, as the shards of one run have: no input in two.
    prepare() {
      const made = spawnSync(process.execPath, [bin, 'check', corpusPath(names.bare), '--format', 'json', '-o', source], { cwd: root, encoding: 'utf8' });
      if (made.status !== 0 && made.status !== 1) throw new Error(`the report to merge: exit ${made.status}: ${made.stderr}`);
      const text = readFileSync(source, 'utf8');
      const name = JSON.stringify(corpusPath(names.bare));
      for (let k = 1; k <= mergeParts; k++) writeFileSync(join(root, part(k)), text.replaceAll(`"source": ${name}`, `"source": ${JSON.stringify(`part-${k}/${corpusPath(names.bare)}`)}`));
    },
    rows: [mergeRow('merge one', 'merge, 1 report', 1), mergeRow('merge parts', `merge, ${mergeParts} reports`, mergeParts)],
  });
}
if (memory) {
  // One run: peak RSS hardly varies between runs, and the 4M-line corpus is slow to check.
  plan.push({
    group: 'memory',
    runs: 1,
    reference: 'memory floor',
    referenceLabel: 'floor',
    rows: [floorOf('memory floor', 'floor', names.bareBig), cliOf('memory jobs1', jobs ? 'cli --jobs 1' : 'cli default (jobs n/a)', names.bareBig, { jobs1: true })],
  });
}

const fmtSeconds = (ms) => (ms === undefined ? '-' : ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`);
const fmtMiB = (kib) => (kib === undefined ? '-' : (kib / 1024).toFixed(1));

function validate(row, sample) {
  if (row.kind === 'baseline') return undefined;
  try {
    if (row.kind === 'floor') {
      const out = JSON.parse(sample.stdout);
      if (out.lines !== row.expect.lines || out.failed !== 0) return `floor saw ${out.lines} lines, ${out.failed} failures (expected ${row.expect.lines}, 0)`;
      if (row.expect.inner !== undefined && out.innerParsed !== row.expect.inner) return `floor parsed ${out.innerParsed} envelopes (expected ${row.expect.inner})`;
      return undefined;
    }
    const report = JSON.parse(readFileSync(row.stdoutFile, 'utf8'));
    const s = report.summary;
    row.summary = { records: s.records, valid: s.valid, invalid: s.invalid, unparseable: s.unparseable, skipped: s.skipped, errors: s.errors, warnings: s.warnings, findings: report.findings?.length };
    if (s.records !== row.expect.records || s.records + s.unparseable + s.skipped !== row.expect.lines) {
      return `report counts ${s.records} records + ${s.unparseable} unparseable + ${s.skipped} skipped (expected ${row.expect.records} records of ${row.expect.lines} lines)`;
    }
    return undefined;
  } catch (error) {
    return `output not readable: ${error.message}`;
  }
}

const measuringStarted = performance.now();
const rows = [];
for (const step of plan) {
  const measured = step.rows.filter((row) => row.aliasOf === undefined);
  for (const row of measured) {
    row.group = step.group;
    row.samples = [];
    if (row.kind === 'cli') row.stdoutFile = join(outDir, `${row.id.replace(/\W+/g, '-')}.json`);
  }
  log(`[${step.group}] ${measured.map((row) => `${row.label} ${row.corpus}`).join(', ')}: ${step.runs} run(s)`);
  step.prepare?.();
  for (let run = 1; run <= step.runs; run++) {
    for (const row of measured) {
      const sample = runNode(row.args, { rss, tmpDir: benchDir, cwd: root, stdoutFile: row.stdoutFile, env: row.env });
      const okStatus = row.kind === 'cli' ? sample.status === 0 || sample.status === 1 : sample.status === 0;
      if (!okStatus) row.failure = `exit ${sample.status ?? sample.signal ?? sample.error}: ${sample.stderr.trim().split('\n').slice(-3).join(' | ')}`;
      if (run === step.runs && okStatus) row.mismatch = validate(row, sample);
      row.samples.push({ wallMs: Math.round(sample.wallMs * 10) / 10, cpuMs: sample.cpuMs === undefined ? undefined : Math.round(sample.cpuMs), maxRssKiB: sample.maxRssKiB, status: sample.status });
      if (step.group !== 'startup' || run === step.runs) {
        log(`  run ${run}/${step.runs}  ${row.label.padEnd(26)} ${fmtSeconds(sample.wallMs).padStart(9)}  ${fmtMiB(sample.maxRssKiB).padStart(7)} MiB${okStatus ? '' : `  FAILED (${row.failure})`}`);
      }
    }
  }
  for (const row of measured) {
    row.wallMs = median(row.samples.map((s) => s.wallMs));
    row.minWallMs = Math.min(...row.samples.map((s) => s.wallMs));
    row.cpuMs = median(row.samples.map((s) => s.cpuMs));
    row.maxRssKiB = median(row.samples.map((s) => s.maxRssKiB));
    row.peakRssKiB = Math.max(...row.samples.map((s) => s.maxRssKiB ?? 0)) || undefined;
  }
  const reference = step.rows.find((row) => row.id === step.reference);
  for (const row of step.rows) {
    if (row.aliasOf !== undefined) {
      const source = step.rows.find((r) => r.id === row.aliasOf);
      Object.assign(row, { ...source, id: row.id, label: row.label, aliasOf: row.aliasOf, notes: row.notes });
    }
    row.group = step.group;
    row.notes ??= [];
    if (row.wallMs !== undefined && reference?.wallMs) {
      row.ratio = row.wallMs / reference.wallMs;
      row.ratioTo = step.referenceLabel;
    }
    if (row.records !== undefined && row.wallMs) row.recordsPerSec = row.records / (row.wallMs / 1000);
    if (row.bytes !== undefined && row.wallMs) row.mbPerSec = row.bytes / 1e6 / (row.wallMs / 1000);
    if ((step.group === 'transcript' || optIn.includes(step.group)) && row.kind === 'cli') {
      const lines = step.rows.find((r) => r.id === `${step.group} floor lines`);
      if (lines?.wallMs) row.notes.push(`${(row.wallMs / lines.wallMs).toFixed(2)}x floor (lines only)`);
    }
    if (row.failure) row.notes.push(`FAILED ${row.failure}`);
    if (row.mismatch) row.notes.push(`COUNT MISMATCH ${row.mismatch}`);
    rows.push(row);
  }
}
const measuringMs = performance.now() - measuringStarted;

// ---------------------------------------------------------------------------------------------
// Targets

const byId = (id) => rows.find((row) => row.id === id);
const broken = (row) => row.failure !== undefined || row.mismatch !== undefined;
const quickNote = flags.quick ? ' (quick corpus)' : '';

function target(name, corpus, limit, rowIds, measure) {
  const needed = rowIds.map(byId);
  if (needed.some((row) => row === undefined)) return { target: name, corpus, limit, measured: 'not run', result: 'not run' };
  if (needed.some(broken)) return { target: name, corpus, limit, measured: 'command failed', result: 'ERROR' };
  const { value, text, pass } = measure(...needed);
  return { target: name, corpus, limit, measured: text, value, result: pass ? 'PASS' : 'MISS' };
}

const ratioTarget = (max) => (row) => ({ value: row.ratio, text: `${row.ratio.toFixed(2)}x ${row.ratioTo} (${fmtSeconds(row.wallMs)})`, pass: row.ratio <= max });
const rssTarget = (maxMiB) => (row) => ({ value: row.maxRssKiB / 1024, text: `${fmtMiB(row.maxRssKiB)} MiB`, pass: row.maxRssKiB / 1024 <= maxMiB });
const jobsNote = jobs ? '' : ' [jobs n/a]';

const targets = [
  target(`bare NDJSON --jobs 1 wall time${jobsNote}`, names.bare, '<= 1.35x floor', ['bare jobs1'], ratioTarget(1.35)),
  target(`bare NDJSON --jobs 1 wall time, under the parse floor${jobsNote}`, names.bare, '<= 0.80x floor', ['bare jobs1'], ratioTarget(0.8)),
  target('bare NDJSON default mode wall time, under the parse floor', names.bare, '<= 0.55x floor', ['bare default'], ratioTarget(0.55)),
  target('bare NDJSON default mode wall time', names.bare, '<= 0.85x floor', ['bare default'], (row) => {
    const measured = ratioTarget(0.85)(row);
    // What the same number of threads give the floor itself: the ceiling this target sits under.
    const floor = byId('bare floor threads');
    return floor?.ratio === undefined || broken(floor) ? measured : { ...measured, text: `${measured.text}; floor on ${machine.availableParallelism} threads ${floor.ratio.toFixed(2)}x` };
  }),
  target(`transcript --jobs 1 wall time${jobsNote}`, names.transcript, '<= 1.8x floor (lines + inner text)', ['transcript jobs1'], ratioTarget(1.8)),
  target(`MCEC transcript, ${flags.quick ? '100k' : '1M'} calls, --jobs 1 wall time${jobsNote}`, names['mcec-calls'], '<= 1.8x floor (lines + inner text)', ['mcec-calls jobs1'], ratioTarget(1.8)),
  target(`JSON-RPC, ${flags.quick ? '100k' : '1M'} calls, 10 % unanswered, --jobs 1 wall time${jobsNote}`, names['jsonrpc-calls'], '<= 1.8x floor (lines + inner text)', ['jsonrpc-calls jobs1'], ratioTarget(1.8)),
  target(`peak RSS, --jobs 1 on ${flags.quick ? '100k' : '1M'} lines${jobsNote}`, names.bare, '<= 150 MiB', ['bare jobs1'], rssTarget(150)),
  memory
    ? target(`peak RSS growth ${flags.quick ? '100k -> 400k' : '1M -> 4M'} lines, --jobs 1${jobsNote}`, `${names.bare} -> ${names.bareBig}`, '<= 10 %', ['bare jobs1', 'memory jobs1'], (small, big) => {
        const growth = (big.maxRssKiB / small.maxRssKiB - 1) * 100;
        return { value: growth, text: `${growth >= 0 ? '+' : ''}${growth.toFixed(1)} % (${fmtMiB(small.maxRssKiB)} -> ${fmtMiB(big.maxRssKiB)} MiB)`, pass: growth <= 10 };
      })
    : { target: `peak RSS growth ${flags.quick ? '100k -> 400k' : '1M -> 4M'} lines, --jobs 1`, corpus: `${names.bare} -> ${names.bareBig}`, limit: '<= 10 %', measured: 'not run (--memory)', result: 'not run' },
  target('peak RSS, default mode', names.bare, '<= 300 MiB', ['bare default'], rssTarget(300)),
  target('startup: one small file vs node -e 0', names.one, '<= 1.4x node -e 0', ['startup default'], ratioTarget(1.4)),
  target('10k small .json files, default mode', names.small, '<= 0.5 s', ['small default'], (row) => ({ value: row.wallMs / 1000, text: fmtSeconds(row.wallMs), pass: row.wallMs <= 500 })),
];

// ---------------------------------------------------------------------------------------------
// Output


const fmtRate = (n) => (n === undefined ? '-' : n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0));
const totalMs = performance.now() - startedAt;
const generated = Object.entries(corpora).filter(([, c]) => c.generated).map(([name]) => name);

let text = '';
text += `mcec-result bench${flags.quick ? ' (quick)' : ''}\n`;
text += `machine: ${machine.cpu}, ${machine.cores} cores (available parallelism ${machine.availableParallelism}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}\n`;
text += `load average at start: ${machine.loadAverage.join(' ')}; peak RSS and CPU (user + system) via ${rss === 'time' ? '/usr/bin/time' : 'scripts/bench/rss-wrapper.mjs'}; --jobs ${jobs ? 'supported' : 'n/a (the CLI rejects it)'}\n`;
text += `medians of ${runs} run(s) per corpus, ${startupRuns} for start-up${memory ? ', 1 for the memory check' : ''}; ratios are to a floor measured in this run\n\n`;
text += table(
  ['group', 'measurement', 'corpus', 'runs', 'records/s', 'MB/s', 'peak RSS MiB', 'wall', 'CPU', 'ratio', 'notes'],
  rows.map((row) => [
    row.group,
    row.label,
    row.corpus,
    row.samples?.length ?? '-',
    fmtRate(row.recordsPerSec),
    row.mbPerSec === undefined ? '-' : row.mbPerSec.toFixed(1),
    fmtMiB(row.maxRssKiB),
    fmtSeconds(row.wallMs),
    fmtSeconds(row.cpuMs),
    row.ratio === undefined ? '-' : `${row.ratio.toFixed(2)}x ${row.ratioTo}`,
    row.notes.join('; '),
  ]),
  [3, 4, 5, 6, 7, 8],
);
text += '\ntargets\n';
text += table(['target', 'corpus', 'limit', 'measured', 'result'], targets.map((t) => [t.target, t.corpus, t.limit, t.measured, t.result]));
const passCount = targets.filter((t) => t.result === 'PASS').length;
const missCount = targets.filter((t) => t.result === 'MISS').length;
text += `\n${passCount} PASS, ${missCount} MISS, ${targets.length - passCount - missCount} not run or failed${quickNote}\n`;
text += `time: generating ${(generatedMs / 1000).toFixed(1)} s (${generated.length > 0 ? generated.join(', ') : 'all corpora up to date'}; corpus check ${(generationWallMs / 1000).toFixed(1)} s), measuring ${(measuringMs / 1000).toFixed(1)} s, total ${(totalMs / 1000).toFixed(1)} s\n`;
text += `results: ${relative(root, join(benchDir, 'results.json'))}\n`;
process.stdout.write(text);

const strip = ({ args, samples, stdoutFile, expect, ...rest }) => ({ ...rest, command: args === undefined ? undefined : `node ${args.join(' ')}`, samples });
writeFileSync(
  join(benchDir, 'results.json'),
  JSON.stringify(
    {
      benchVersion: 1,
      date: new Date().toISOString(),
      machine,
      options: { quick: flags.quick, memory, runs, startupRuns, only: [...selected], rss, jobs },
      corpora: Object.fromEntries(Object.entries(corpora).map(([name, c]) => [name, { ...c, path: relative(root, c.path) }])),
      timing: { generatingMs: Math.round(generatedMs), measuringMs: Math.round(measuringMs), totalMs: Math.round(totalMs) },
      measurements: rows.map(strip),
      targets,
    },
    null,
    2,
  ) + '\n',
);

process.exitCode = rows.some((row) => row.failure !== undefined) ? 1 : 0;

// Runs one command as a child process and measures it: wall time (process.hrtime around
// spawnSync, Node start-up included), and the peak RSS and CPU time (user + system, every thread
// of the child) of the child. CPU beside wall shows what threads cost: a run on two cores that
// takes more CPU than the same run on one did more work, not only the same work faster.
//
// Peak RSS and CPU time, in order of preference:
//  - 'time': GNU time, `/usr/bin/time -f '%M %U %S' -o <file> node ...` (the child's ru_maxrss
//    in KiB, and its user and system seconds, from wait4). Adds one fork+exec of a tiny C program
//    to the wall time (well under 1 ms).
//  - 'wrapper': scripts/bench/rss-wrapper.mjs, which imports the target in its own process and
//    writes process.resourceUsage() maxRSS and CPU times on exit (see that file for why).
// Both count worker threads (they share the process). Should the CLI ever fork child processes,
// note that ru_maxrss is the largest single process, not the sum.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const TIME = '/usr/bin/time';
export const wrapperPath = join(import.meta.dirname, 'rss-wrapper.mjs');

/** 'time' when GNU time works here (it must accept -f '%M %U %S' -o), else 'wrapper'. */
export function detectRssMethod(preference, tmpDir) {
  if (preference === 'wrapper') return 'wrapper';
  if (existsSync(TIME)) {
    const out = join(tmpDir, 'rss-probe.txt');
    const probe = spawnSync(TIME, ['-f', '%M %U %S', '-o', out, process.execPath, '-e', '0'], { stdio: 'ignore' });
    const kib = probe.status === 0 && existsSync(out) ? lastLine(readFileSync(out, 'utf8'))?.maxRssKiB : undefined;
    rmSync(out, { force: true });
    if (kib !== undefined && kib > 0) return 'time';
  }
  if (preference === 'time') throw new Error('--rss time: /usr/bin/time -f %M does not work on this machine');
  return 'wrapper';
}

/** The `%M %U %S` line of GNU time's output: peak RSS in KiB, user and system CPU seconds. */
function lastLine(text) {
  // GNU time writes "Command exited with non-zero status N" before the format when N != 0.
  const last = (text.trim().split('\n').pop() ?? '').trim();
  const match = /^(\d+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)$/.exec(last);
  return match ? { maxRssKiB: Number(match[1]), cpuMs: (Number(match[2]) + Number(match[3])) * 1000 } : undefined;
}

/**
 * The environment of a measured process: this one's, less NODE_EXTRA_CA_CERTS. Node reads and
 * parses the certificate file it names at every start, before any code runs; none of the measured
 * processes opens a connection, and with it every start-up carries the same fixed cost, which brings
 * the start-up ratios to `node -e 0` nearer 1 than a machine without the variable sees them.
 */
function measuredEnv(env) {
  const measured = { ...process.env, NO_COLOR: '1', ...env };
  delete measured.NODE_EXTRA_CA_CERTS;
  return measured;
}

/**
 * Runs `node <args...>` once.
 * options: { rss: 'time'|'wrapper', tmpDir, stdoutFile?: path (else stdout is captured), timeoutMs? }
 * Returns { wallMs, status, signal, maxRssKiB, cpuMs, stdout?, stderr }.
 */
export function runNode(args, { rss, tmpDir, stdoutFile, timeoutMs = 30 * 60_000, cwd, env = {} }) {
  const rssFile = join(tmpDir, `rss-${process.pid}.txt`);
  rmSync(rssFile, { force: true });
  let command;
  let argv;
  if (rss === 'time') {
    command = TIME;
    argv = ['-f', '%M %U %S', '-o', rssFile, process.execPath, ...args];
  } else {
    command = process.execPath;
    argv = [wrapperPath, rssFile, ...args];
  }
  const out = stdoutFile === undefined ? 'pipe' : openSync(stdoutFile, 'w');
  let result;
  const started = process.hrtime.bigint();
  try {
    result = spawnSync(command, argv, {
      cwd,
      stdio: ['ignore', out, 'pipe'],
      maxBuffer: 64 * 1024 * 1024,
      timeout: timeoutMs,
      env: measuredEnv(env),
    });
  } finally {
    if (typeof out === 'number') closeSync(out);
  }
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  let usage;
  if (existsSync(rssFile)) {
    const text = readFileSync(rssFile, 'utf8');
    usage = rss === 'time' ? lastLine(text) : JSON.parse(text);
    rmSync(rssFile, { force: true });
  }
  return {
    wallMs,
    status: result.status,
    signal: result.signal,
    error: result.error?.message,
    maxRssKiB: usage?.maxRssKiB,
    cpuMs: usage?.cpuMs,
    stdout: stdoutFile === undefined ? result.stdout?.toString('utf8') : undefined,
    stderr: result.stderr?.toString('utf8') ?? '',
  };
}

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

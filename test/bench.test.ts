// Smoke test of `npm run bench` (scripts/bench.mjs): the script runs and prints its tables. Timings
// on a shared machine prove nothing, so no timing is asserted, only the shape of the output; the
// instruction counts of scripts/bench/instructions.mjs repeat, so their relations are.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot, runJson } from './helpers/cli.js';

const script = join(repoRoot, 'scripts/bench.mjs');

function bench(args: string[], timeout: number) {
  return spawnSync(process.execPath, [script, ...args], { cwd: repoRoot, encoding: 'utf8', timeout, env: { ...process.env, NO_COLOR: '1' } });
}

/** What scripts/bench/floor.mjs counts in `file` (exit 0 asserted). */
function floorOf(file: string, threads: string[] = []) {
  const result = spawnSync(process.execPath, [join(repoRoot, 'scripts/bench/floor.mjs'), file, ...threads], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { lines: number; parsed: number; innerParsed: number; failed: number; bytes: number };
}

describe('scripts/bench/floor.mjs --threads', () => {
  it('counts every line once, whatever the number of threads the file is cut for', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcec-result-floor-'));
    try {
      // Lines of many lengths, so that range edges fall inside lines, on LFs and after CRLFs.
      const lines = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ ok: i % 3 !== 0, n: i, pad: 'x'.repeat((i * 37) % 500) }) + (i % 5 === 0 ? '\r\n' : '\n'));
      const file = join(dir, 'lines.jsonl');
      writeFileSync(file, lines.join(''));
      const floor = (threads: string[]) => floorOf(file, threads);
      const one = floor([]);
      expect(one).toMatchObject({ lines: 2000, parsed: 2000, failed: 0, bytes: statSync(file).size });
      for (const threads of ['2', '3', '7']) expect(floor(['--threads', threads])).toEqual(one);
      // More threads than lines: some ranges are empty.
      writeFileSync(file, '{"ok":true}\n{"ok":false}\n');
      expect(floor(['--threads', '7'])).toMatchObject({ lines: 2, parsed: 2, failed: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('joins the lines that straddle its 1 MiB reads, one longer than a read among them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcec-result-floor-'));
    try {
      // ~3.5 MiB: lines of many lengths across three read edges, CRLFs, blank lines, one 1.5 MiB
      // line (a read with no LF in it), and a last line without its LF.
      const lines: string[] = [];
      for (let i = 0; i < 9000; i++) lines.push(JSON.stringify({ ok: i % 2 === 0, pad: 'y'.repeat((i * 53) % 400) }) + (i % 7 === 0 ? '\r\n' : '\n') + (i % 1000 === 0 ? '\n' : ''));
      lines.splice(4000, 0, JSON.stringify({ ok: true, big: 'z'.repeat(1.5 * 1024 * 1024) }) + '\n');
      lines.push('{"ok":false}');
      const file = join(dir, 'lines.jsonl');
      writeFileSync(file, lines.join(''));
      const one = floorOf(file);
      expect(one).toEqual({ lines: 9002, parsed: 9002, innerParsed: 0, failed: 0, bytes: statSync(file).size });
      expect(floorOf(file, ['--threads', '3'])).toEqual(one);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scripts/bench/generate.mjs: the agent-call corpora', () => {
  it('MCEC-shape and JSON-RPC calls: the CLI and the floor count what the manifest says, pairing intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcec-result-calls-'));
    try {
      const { ensureCorpora } = (await import(pathToFileURL(join(repoRoot, 'scripts/bench/generate.mjs')).href)) as {
        ensureCorpora: (dir: string, names: string[]) => { corpora: Record<string, { path: string; lines: number; records: number; skipped: number; unanswered?: number; protocolErrors?: number }> };
      };
      const { corpora } = ensureCorpora(dir, ['mcec-calls-2k.jsonl', 'jsonrpc-calls-2k.jsonl']);
      const mcec = corpora['mcec-calls-2k.jsonl']!;
      const rpc = corpora['jsonrpc-calls-2k.jsonl']!;
      expect(mcec).toMatchObject({ lines: 4000, records: 2000, skipped: 2000 });
      // A tenth of the calls unanswered, a hundredth answered by a JSON-RPC error.
      expect(rpc.unanswered! / 2000).toBeGreaterThan(0.07);
      expect(rpc.unanswered! / 2000).toBeLessThan(0.13);
      expect(rpc.records + rpc.protocolErrors! + rpc.unanswered!).toBe(2000);
      for (const corpus of [mcec, rpc]) {
        expect(floorOf(corpus.path, ['--inner'])).toMatchObject({ lines: corpus.lines, innerParsed: corpus.records, failed: 0 });
        const { report } = runJson([corpus.path]);
        expect(report.summary).toMatchObject({ records: corpus.records, unparseable: 0, skipped: corpus.skipped, protocolErrors: corpus.protocolErrors ?? 0 });
        const rules = new Set((report.findings as { rule: string }[]).map((f) => f.rule));
        for (const rule of ['unpaired-response', 'unanswered-request', 'duplicate-response', 'parse-error']) expect(rules.has(rule), rule).toBe(false);
      }
      // Out of order: some response answers an earlier request than the one just before it.
      const ids = readFileSync(rpc.path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { id: number; method?: string });
      expect(ids.some((m, i) => m.method === undefined && i > 0 && ids[i - 1]!.method !== undefined && ids[i - 1]!.id !== m.id)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scripts/bench.mjs', () => {
  it('--help lists the flags', () => {
    const result = bench(['--help'], 30_000);
    expect(result.status).toBe(0);
    for (const flag of ['--quick', '--memory', '--all', '--runs', '--only', 'mcec-calls', 'jsonrpc-calls']) expect(result.stdout).toContain(flag);
  });

  it(
    'a quick start-up run exits 0 and prints the targets table with the start-up row',
    () => {
      // A folder of its own, so that the smoke run never overwrites the results of a real run in .bench/.
      const dir = mkdtempSync(join(tmpdir(), 'mcec-result-bench-'));
      try {
        const result = bench(['--quick', '--only', 'startup', '--runs', '1', '--dir', dir], 500_000);
        expect(result.error).toBeUndefined();
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^machine: .+ cores.+Node v\d+/m);
        expect(result.stdout).toMatch(/^startup\s+node -e 0\s/m);
        expect(result.stdout).toMatch(/^targets$/m);
        expect(result.stdout).toMatch(/^startup: one small file vs node -e 0\s.*\b(PASS|MISS)$/m);
        expect(result.stdout).toMatch(/^10k small \.json files.*\bnot run$/m);
        const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
        const names: string[] = results.targets.map((t: { target: string }) => t.target);
        expect(names).toContain('startup: one small file vs node -e 0');
        // A target is named by what it measures, not by the issue that asked for it.
        expect(names).toContain('bare NDJSON default mode wall time, under the parse floor');
        expect(names.some((name) => name.startsWith('bare NDJSON --jobs 1 wall time, under the parse floor'))).toBe(true);
        for (const name of names) expect(name).not.toMatch(/issue \d/);
        // Every measured command reports the CPU time of its process, not only its wall time. GNU
        // time counts it in hundredths of a second, which `node -e 0` takes less than now and then:
        // only the commands that do work are held to more than nothing.
        for (const row of results.measurements as { id: string; cpuMs?: number; samples: { cpuMs?: number }[] }[]) {
          for (const sample of row.samples) expect(sample.cpuMs, row.id).toBeGreaterThanOrEqual(0);
          if (row.id !== 'node -e 0') expect(row.cpuMs, row.id).toBeGreaterThan(0);
        }
        expect((results.measurements as { id: string }[]).map((row) => row.id)).toContain('node -e 0');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect(existsSync(dir)).toBe(false);
    },
    120_000,
  );
});

describe('scripts/bench/instructions.mjs', () => {
  const instructions = join(repoRoot, 'scripts/bench/instructions.mjs');
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [instructions, ...args], { cwd: repoRoot, encoding: 'utf8', timeout: 600_000, env: { ...process.env, NO_COLOR: '1', ...env } });
  const hasValgrind = spawnSync('valgrind', ['--version'], { stdio: 'ignore' }).status === 0;

  it('says what it needs when valgrind does not run, refuses what it does not know, and names a command that fails', () => {
    const missing = run(['--only', 'bare'], { VALGRIND: join(tmpdir(), 'no-such-valgrind') });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/does not run here: install valgrind/);
    const unknown = run(['--only', 'nope']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/--only: no corpus nope/);
    // A valgrind that runs but counts nothing: the run says which command failed, exit 1.
    const dir = mkdtempSync(join(tmpdir(), 'mcec-result-instructions-'));
    try {
      const fake = join(dir, 'valgrind');
      writeFileSync(fake, '#!/bin/sh\n[ "$1" = --version ] && exit 0\necho "no count" >&2\nexit 3\n', { mode: 0o755 });
      writeFileSync(join(dir, 'bare-1m.jsonl'), '{"ok":true}\n');
      const failed = run(['--only', 'bare', '--dir', dir], { VALGRIND: fake });
      expect(failed.status).toBe(1);
      expect(failed.stderr).toMatch(/^instructions: a measured command failed: -e 0 exited 3:\nno count/);
      expect(failed.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasValgrind)(
    "counts the floor and the CLI on a corpus's first lines, and the CLI of another checkout beside it",
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'mcec-result-instructions-'));
      try {
        const line = (k: number) => JSON.stringify(k % 3 === 0 ? { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: `no window ${k}` }, sessionId: 's1' } : { ok: true, result: { n: k }, sessionId: 's1' });
        writeFileSync(join(dir, 'bare-1m.jsonl'), `${Array.from({ length: 300 }, (_, k) => line(k)).join('\n')}\n`);
        const result = run(['--only', 'bare', '--lines', '200', '--dir', dir, '--against', repoRoot]);
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^bare \(200 lines\)\s+\d+\.\d{3} G\s+\d+\.\d{3} G\s+\d+\.\d\dx/m);
        expect(result.stdout).toMatch(/^corpus\s+floor\s+cli\s+cli \/ floor\s+cli per line\s+--against cli\s+change\n-+/m);
        // The cut holds the first 200 lines, and the runs read it.
        expect(readFileSync(join(dir, 'instructions', 'bare-200.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(200);
        const { base, rows } = JSON.parse(readFileSync(join(dir, 'instructions.json'), 'utf8')) as { base: number; rows: { floor: number; cli: number; against: number; change: number }[] };
        expect(result.stdout).toMatch(/^bare \(200 lines\).*[+-]\d+\.\d\d %$/m);
        expect(rows).toHaveLength(1);
        const [row] = rows;
        expect(row!.floor).toBeGreaterThan(base);
        expect(row!.cli).toBeGreaterThan(row!.floor);
        // The other checkout's CLI ran too, and the change is worked out net of node -e 0. Its size is
        // not held here: a run this short is mostly start-up, whose count varies from run to run more
        // than a long run's does (docs/performance.md).
        expect(row!.against).toBeGreaterThan(row!.floor);
        expect(row!.change).toBeCloseTo((row!.cli - row!.against) / (row!.against - base), 12);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    600_000,
  );
});

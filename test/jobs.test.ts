// --jobs: worker threads across files and across byte ranges of one large file. The report must be
// byte-identical to a single-threaded run (issue 5), line numbers included.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Unit, UnitResult } from '../src/check-unit.js';
import { StoredList } from '../src/findings/store.js';
import { defaultParallelBytes, dropUnplaceable, inputBytes, planRun } from '../src/run.js';
import { binary, lines, repoRoot, tempFiles } from './helpers/cli.js';

function run(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [binary, 'check', ...args], { cwd, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** About 20 MiB of bare envelopes, with faults spread over the whole file (so over every range). */
function bigFile(): string {
  const out: string[] = [];
  let size = 0;
  for (let i = 0; size < 20 * 1024 * 1024; i++) {
    let line: string;
    if (i % 997 === 0) line = '{"ok":false,"sessionId":"s1"}';
    else if (i % 1499 === 0) line = '{"ok":true,"result":{"cut":"off';
    else if (i % 2003 === 0) line = '';
    else if (i % 4001 === 0) line = '{\n  "ok": true,';
    else if (i % 3001 === 0) line = JSON.stringify({ ok: false, error: { code: 'window-not-fonud', category: 'no-target', detail: `run ${i}` }, sessionId: `s${i % 7}` });
    else line = JSON.stringify({ ok: true, result: { i, title: 'Untitled - Notepad', padding: 'x'.repeat(200) }, sessionId: `s${i % 7}` });
    out.push(line);
    size += line.length + 1;
  }
  return `${out.join('\n')}\n`;
}

describe('--jobs', () => {
  const dir = tempFiles({ 'big.jsonl': bigFile(), 'small/a.jsonl': lines({ ok: false }), 'small/b.json': '[{"ok":true}]', 'small/empty.jsonl': '' });

  it("checks with workers from a library caller's `node --input-type=module -e` script", () => {
    // Was: the workers inherited --input-type and none started: check() rejected with
    // ERR_INPUT_TYPE_NOT_ALLOWED.
    const script = `const { check } = await import(${JSON.stringify(join(repoRoot, 'dist/index.js'))}); const one = await check(['big.jsonl'], { jobs: 1 }); const two = await check(['big.jsonl'], { jobs: 2 }); process.stdout.write(JSON.stringify([one.summary, two.summary]));`;
    const result = spawnSync(process.execPath, ['--input-type', 'module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const [one, two] = JSON.parse(result.stdout) as [{ records: number }, { records: number }];
    expect(one.records).toBeGreaterThan(50_000);
    expect(two).toEqual(one);
    const equals = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(equals.stderr).toBe('');
    expect(JSON.parse(equals.stdout)).toEqual([one, two]);
  });

  it('keeps a file under 64 MiB on this thread on two cores unless --jobs asks for workers, and keeps its size', () => {
    // Unasked, workers start from 64 MiB on two threads (one thread was as fast up to ~80 MB). A run
    // kept here reads the file whole, and the size the plan learnt stays: it is the progress line's
    // total (was: a file planned in ranges, then read whole, showed progress without one).
    const path = join(dir, 'big.jsonl');
    const size = statSync(path).size;
    const sources = [{ name: 'big.jsonl', path }];
    const unasked = planRun(sources, 2, {});
    expect(unasked.inline).toBe(true);
    expect(unasked.plan.units).toEqual([{ source: sources[0] }]);
    expect([unasked.plan.bytes, unasked.plan.unsized]).toEqual([size, 0]);
    // Each thread's share is what a worker's start is weighed against: on 16 threads, from 8 MiB.
    expect([2, 4, 16, 64].map((threads) => defaultParallelBytes(threads) / 2 ** 20)).toEqual([64, 32, 8, 8]);
    expect(planRun(sources, 16, {}).inline).toBe(false);
    const asked = planRun(sources, 2, { jobs: 2 });
    expect(asked.inline).toBe(false);
    // More ranges than threads (plan.ts, rangeCuts): each starts at a line and ends where the next starts.
    const ranges = asked.plan.units.map((unit) => unit.range!);
    expect(ranges.length).toBeGreaterThan(2);
    expect(ranges.map((range) => range.index)).toEqual(ranges.map((_, k) => k));
    const bytes = readFileSync(path);
    ranges.forEach((range, k) => {
      expect(range.start, `range ${k}`).toBe(k === 0 ? 0 : ranges[k - 1]!.end);
      if (k > 0) expect(bytes[range.start - 1], `range ${k}`).toBe(0x0a);
    });
    expect(ranges.at(-1)!.end).toBe(size);
    expect([asked.plan.bytes, asked.plan.unsized]).toEqual([size, 0]);
  });

  it("finds a progress line's total where the plan learnt no size: one thread, .json documents", async () => {
    // Was: --jobs 1, or any .json input, showed progress without a total (the plan stats only files
    // it may split).
    const files = ['big.jsonl', 'small/a.jsonl', 'small/b.json'].map((name) => ({ name, path: join(dir, name) }));
    const total = files.reduce((sum, file) => sum + statSync(file.path).size, 0);
    const { plan } = planRun(files, 1, { jobs: 1 });
    expect([plan.bytes, plan.unsized]).toEqual([0, 3]);
    expect(await inputBytes(plan.units)).toBe(total);
    // A file in byte ranges counts once.
    expect(await inputBytes(planRun(files.slice(0, 1), 2, { jobs: 2 }).plan.units)).toBe(statSync(files[0]!.path).size);
    // No total when an input has no size, or none to give.
    expect(await inputBytes([{ source: files[0]! }, { source: { name: '-' } }])).toBeUndefined();
    expect(await inputBytes([{ source: { name: 'gone.jsonl', path: join(dir, 'gone.jsonl') } }])).toBeUndefined();
  });

  it("reports progress once more at the end, every thread's counts in, with the total", () => {
    // A caller's bar ends where the run did: the last call has every byte of every input, the
    // workers' counts included, and the total the plan did not know (--jobs 1, a .json input).
    const script = `const { check } = await import(${JSON.stringify(join(repoRoot, 'dist/index.js'))});
      const out = [];
      for (const jobs of [1, 2]) {
        const calls = [];
        const report = await check(['big.jsonl', 'small'], { jobs, onProgress: (p) => calls.push(p) });
        out.push({ last: calls.at(-1), summary: report.summary, findings: report.findings.length });
      }
      process.stdout.write(JSON.stringify(out));`;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const bytes = ['big.jsonl', 'small/a.jsonl', 'small/b.json', 'small/empty.jsonl'].reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    const runs = JSON.parse(result.stdout) as { last: { bytes: number; totalBytes: number; entries: number; findings: number }; summary: { records: number; unparseable: number; skipped: number }; findings: number }[];
    for (const { last, summary, findings } of runs) {
      expect([last.bytes, last.totalBytes]).toEqual([bytes, bytes]);
      expect(last.entries).toBe(summary.records + summary.unparseable + summary.skipped);
      expect(last.findings).toBe(findings);
    }
  });

  it("gives one report for a large file read into buffers used again, piped, and on workers started under node's own V8 and process options, with or without --input-type", () => {
    // A large plain file is read two buffers at a time (fresh buffers each cost page faults); a line
    // held across two chunks must not see the next read. Standard input through a pipe is read into
    // fresh buffers: both reports must be the same, byte for byte.
    const one = run(['--jobs', '1', '-f', 'json', 'big.jsonl'], dir);
    const piped = spawnSync(process.execPath, [binary, 'check', '--jobs', '1', '-f', 'json', '--stdin-filename', 'big.jsonl', '-'], { cwd: dir, input: readFileSync(join(dir, 'big.jsonl')), encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
    expect(one.status).toBe(1);
    expect(JSON.parse(one.stdout).summary.unparseable).toBeLessThan(200);
    expect(piped.stdout === one.stdout).toBe(true);
    // Was: given the process's options as a list, every worker refused --max-old-space-size,
    // --stack-size and --title (ERR_WORKER_INVALID_EXEC_ARGV) and the run failed.
    const flags = ['--max-old-space-size=2048', '--stack-size=2000', '--title=mcec-test'];
    const two = spawnSync(process.execPath, [...flags, binary, 'check', '--jobs', '2', '-f', 'json', 'big.jsonl'], { cwd: dir, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
    expect(two.stderr).toBe('');
    expect(two.status).toBe(1);
    expect(two.stdout === one.stdout).toBe(true);
    // With --input-type as well, the workers start without the options they refuse.
    const script = `const { check } = await import(${JSON.stringify(join(repoRoot, 'dist/index.js'))}); const report = await check(['big.jsonl'], { jobs: 2 }); process.stdout.write(JSON.stringify(report.summary));`;
    const library = spawnSync(process.execPath, [...flags, '--no-warnings', '--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' });
    expect(library.stderr).toBe('');
    expect(JSON.parse(library.stdout)).toEqual(JSON.parse(one.stdout).summary);
  });

  it('splits a large file into byte ranges and gives the same JSON and human reports, byte for byte', () => {
    // Each run writes its human report, every finding listed, to a file beside the JSON on stdout.
    const out = tempFiles({});
    const human = (jobs: string[]) => ['-f', `human=${join(out, `${jobs.join(' ')}.txt`)}`, '--max-listed', '0'];
    const one = run(['--jobs', '1', '-f', 'json', ...human(['1']), 'big.jsonl', 'small'], dir);
    expect(one.status).toBe(1);
    const report = JSON.parse(one.stdout);
    expect(report.summary.records).toBeGreaterThan(70_000);
    // The hint goes to the first pretty-printed-looking line only, wherever the ranges fall.
    expect(one.stdout.match(/check the file with --input json/g)).toHaveLength(1);
    const oneHuman = readFileSync(join(out, '1.txt'), 'utf8');
    expect(oneHuman).toContain('small/a.jsonl:1 ');
    // 256 is the most --jobs takes. The last run also sends most findings through each worker's temporary file.
    for (const jobs of [['2'], ['3'], ['256'], ['2', '--findings-in-memory', '50']]) {
      const many = run(['--jobs', ...jobs, '-f', 'json', ...human(jobs), 'big.jsonl', 'small'], dir);
      expect(many.stderr, jobs.join(' ')).toBe('');
      expect(many.status, jobs.join(' ')).toBe(1);
      expect(many.stdout === one.stdout, jobs.join(' ')).toBe(true);
      expect(readFileSync(join(out, `${jobs.join(' ')}.txt`), 'utf8') === oneHuman, jobs.join(' ')).toBe(true);
    }
  });

  // Both request shapes, a file each: a JSON-RPC request pairs by id, far from its response; MCEC's
  // `{name, arguments}` with the next line of its session (spec section 8.1), with no unreadable line
  // between. Each file's request names a tool of its own, so the summary tells the two apart.
  it('large files with transcript lines past their start are each checked whole, pairing intact, in either request shape', () => {
    const shapes = [
      ['json-rpc.jsonl', 'capture', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'capture', arguments: {} } }, false],
      ['mcec.jsonl', 'find', { name: 'find', arguments: {} }, true],
    ] as const;
    const files: Record<string, string> = {};
    for (const [name, , payload, nextToIt] of shapes) {
      const request = JSON.stringify({ ts: 't', sessionId: 'S', direction: 'request', method: 'tools/call', payload });
      const response = JSON.stringify({ ts: 't', sessionId: 'S', direction: 'response', method: 'tools/call', payload: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"ok":false}' }], isError: true } } });
      const body = bigFile().split('\n');
      const responseAt = Math.floor(body.length * 0.75);
      body.splice(responseAt, 0, response);
      body.splice(nextToIt ? responseAt : Math.floor(body.length * 0.25), 0, request);
      files[name] = body.join('\n');
    }
    const mixed = tempFiles(files);
    const names = shapes.map(([name]) => name);
    const one = run(['--jobs', '1', '-f', 'json', ...names], mixed);
    const report = JSON.parse(one.stdout);
    expect(report.summary.tools).toEqual(Object.fromEntries(shapes.map(([, tool]) => [tool, { records: 1, ok: 0, failed: 1, unknown: 0 }])));
    expect(report.findings.some((f: { rule: string }) => f.rule === 'unpaired-response' || f.rule === 'unanswered-request')).toBe(false);
    expect(run(['--jobs', '2', '-f', 'json', ...names], mixed).stdout === one.stdout).toBe(true);
  });

  it('many inputs, checked on this thread and on workers alike, add up to the same report', () => {
    // More batches than threads: this thread and the worker each count whole inputs into their own
    // tallies, and the run adds them up; a failure, a session and a tool in every file.
    // This thread takes batches from the front and workers from the back, so small inputs on both
    // sides of the big one are checked on both kinds of thread.
    const files: Record<string, string> = { 'b-big.jsonl': bigFile() };
    for (let k = 0; k < 300; k++) {
      const failed = JSON.stringify({ ok: false, error: { code: k % 3 === 0 ? 'element-not-found' : `code-${k % 11}`, category: k % 5 === 0 ? 'NoTarget' : 'no-target', detail: 'd' }, sessionId: `session-${k % 13}` });
      const request = JSON.stringify({ ts: 't', sessionId: `t${k}`, direction: 'request', method: 'tools/call', payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: `tool-${(k >> 1) % 4}`, arguments: {} } } });
      const response = JSON.stringify({ ts: 't', sessionId: `t${k}`, direction: 'response', method: 'tools/call', payload: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"ok":true,"result":{}}' }] } } });
      files[`${k < 150 ? 'a' : 'c'}-many/f${String(k).padStart(3, '0')}.jsonl`] = k % 2 === 0 ? `${failed}\n{"ok":true,"result":{}}\n` : `${request}\n${response}\n`;
    }
    const many = tempFiles(files);
    const inputs = ['a-many', 'b-big.jsonl', 'c-many'];
    const one = run(['--jobs', '1', '-f', 'json', ...inputs], many);
    const report = JSON.parse(one.stdout);
    expect(report.summary.inputs).toBe(301);
    expect(Object.keys(report.summary.tools)).toEqual(['tool-0', 'tool-1', 'tool-2', 'tool-3']);
    expect(report.summary.invalidCategories).toEqual({ NoTarget: 30 });
    const two = run(['--jobs', '2', '-f', 'json', ...inputs], many);
    expect(two.stderr).toBe('');
    expect(two.stdout === one.stdout).toBe(true);
  });

  it('stats a sample of .json documents to decide on workers, and reports them as one thread does', () => {
    // Was: a .json document was never stat'ed (a stat per file cost 10k small files 0.15 s), so no
    // run of .json files, however large, used a worker. 100 files of the same size, 64 stat'ed.
    const files: Record<string, string> = {};
    for (let k = 0; k < 100; k++) {
      const records: string[] = [];
      for (let i = 0; i < 400; i++) {
        const n = String(k * 400 + i).padStart(5, '0');
        records.push(i % 50 === 7 ? `{"ok":false,"error":{"code":"code-${n}","category":"no-target","detail":"d"},"sessionId":"s${n}"}` : `{"ok":true,"result":{"title":"Untitled - Notepad ${n}","padding":"${'x'.repeat(160)}"},"sessionId":"s${n}"}`);
      }
      files[`docs/f${String(k).padStart(3, '0')}.json`] = `[\n${records.join(',\n')}\n]\n`;
    }
    const folder = tempFiles(files);
    const sources = Object.keys(files).map((name) => ({ name, path: join(folder, name) }));
    const size = statSync(sources[0]!.path).size;
    expect(size * 100).toBeGreaterThan(8 * 2 ** 20);
    const asked = planRun(sources, 2, { jobs: 2 });
    expect(asked.inline).toBe(false);
    expect([asked.plan.bytes, asked.plan.unsized, asked.plan.estimated]).toEqual([64 * size, 36, 100 * size]);
    // Those not stat'ed are batched at the sample's mean size.
    expect(new Set(asked.plan.sizes)).toEqual(new Set([size]));
    // Unasked, on two cores, 10 MB is too little for a worker; one thread stats none.
    expect(planRun(sources, 2, {}).inline).toBe(true);
    expect(planRun(sources, 1, { jobs: 1 }).plan).toMatchObject({ bytes: 0, unsized: 100, estimated: 0 });
    const one = run(['--jobs', '1', '-f', 'json', 'docs'], folder);
    expect(JSON.parse(one.stdout).summary).toMatchObject({ inputs: 100, records: 40_000 });
    const two = run(['--jobs', '2', '-f', 'json', 'docs'], folder);
    expect(two.stderr).toBe('');
    expect(two.stdout === one.stdout).toBe(true);
  });

  it('rejects --jobs 0, and more than 256 (--jobs 1000000 started workers until V8 ran out of heap)', () => {
    for (const jobs of ['0', '257', '1000000']) {
      const result = run(['--jobs', jobs, join(dir, 'big.jsonl')], dir);
      expect(result, jobs).toMatchObject({ status: 2, stderr: `mcec-result: --jobs: expected a whole number from 1 to 256, got "${jobs}"\n` });
    }
    // --jobs 256 is taken, and gives the same reports: the byte-range test above runs it.
  });
});

describe('a caller\'s own context, on worker threads', () => {
  it('decides the schema, the rules and redaction in every byte range, as on one thread', async () => {
    // Was: workers made their context from check()'s options, not the context's, so the later byte
    // ranges were checked with the bundled schema and default rules, and framing quoted raw text.
    const { check, createCheckContext } = await import('../dist/index.js');
    const { formatReport } = await import('../dist/index.js');
    const loose = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { error: { type: 'object' } } };
    const body: string[] = [];
    for (let size = 0, i = 0; size < 18 * 1024 * 1024; i++) {
      const line = i % 501 === 0 ? `SECRET-${i} {"ok":` : i % 2 === 0 ? JSON.stringify({ ok: true, pad: 'x'.repeat(200) }) : JSON.stringify({ ok: false, error: { code: 'weird_code', category: 'timeout', detail: 'd' } });
      body.push(line);
      size += line.length + 1;
    }
    const dir = tempFiles({ 'big.jsonl': `${body.join('\n')}\n`, 'loose.schema.json': JSON.stringify(loose) });
    const context = createCheckContext({ schema: join(dir, 'loose.schema.json'), rules: { 'missing-result': 'off', 'code-format': 'error' }, strictCodes: true, redact: true });
    const reports = [];
    for (const jobs of [1, 2]) reports.push(formatReport('json', await check([join(dir, 'big.jsonl')], { jobs }, context)));
    const [one, two] = reports as [string, string];
    const counts: Record<string, number> = {};
    for (const finding of JSON.parse(one).findings as { rule: string; severity: string }[]) counts[`${finding.rule} ${finding.severity}`] = (counts[`${finding.rule} ${finding.severity}`] ?? 0) + 1;
    expect(Object.keys(counts).sort()).toEqual(['code-format error', 'parse-error error', 'unknown-code error']);
    expect(one).not.toContain('SECRET-');
    expect(two === one).toBe(true);
  });
});

describe('the worker pool', () => {
  it('workers taking batches from the shared queue: every unit checked once, its result in its place', async () => {
    // The built modules: a worker runs dist/parallel/worker.js, beside the pool that starts it.
    const { runOnWorkers } = await import('../dist/parallel/pool.js');
    const { checkUnit } = await import('../dist/check-unit.js');
    const { createCheckContext } = await import('../dist/context.js');
    const { Tally } = await import('../dist/tally.js');
    const count = 700;
    const files: Record<string, string> = {};
    // Each file's one record says which it is: a failure whose code carries its number.
    for (let k = 0; k < count; k++) files[`f${String(k).padStart(3, '0')}.jsonl`] = `${JSON.stringify({ ok: false, error: { code: `code-${k}`, category: 'no-target', detail: 'd' } })}\n`;
    const dir = tempFiles(files);
    const units = Object.keys(files).map((name) => ({ source: { name, path: join(dir, name) } }));
    const context = createCheckContext({});
    const tally = new Tally(context.schema.categories, context.registry);
    let local = 0;
    // This thread starts its first unit only once the worker has posted 150 results, so at least
    // three batches of at most 64 units, however late the worker starts on a loaded machine.
    let received = 0;
    let release = () => {};
    const workerTookThree = new Promise<void>((resolve) => (release = resolve));
    const slow = async (unit: Unit) => {
      if (local++ === 0) await workerTookThree;
      return checkUnit(unit, context, {}, { tally });
    };
    const { results, summaries } = await runOnWorkers(units, units.map(() => 60), 2, {}, slow, () => dir, undefined, undefined, () => {
      if (++received === 150) release();
    });
    // One summary per batch a worker checked: it took many.
    expect(summaries.length).toBeGreaterThan(2);
    expect(local + summaries.reduce((n, s) => n + s.records, 0)).toBe(count);
    results.forEach((result, k) => {
      expect(result, `unit ${k}`).toBeDefined();
      const findings = [...new StoredList(result!.findings)];
      expect(findings.find((f) => f.rule === 'unknown-code')?.message, `unit ${k}`).toContain(`"code-${k}"`);
    });
  });
});

describe('--jobs, interrupted', () => {
  const big = bigFile();
  const dir = tempFiles({ 'big.jsonl': big });

  it('Ctrl-C while threads spool findings: exit 130, every finding at its true line, no temporary file left behind', async () => {
    const tmp = tempFiles({});
    const child = spawn(process.execPath, [binary, 'check', '--jobs', '2', '--findings-in-memory', '1', '-f', 'json', 'big.jsonl'], { cwd: dir, env: { ...process.env, TMPDIR: tmp } });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // Interrupt once threads write findings to their spools, in the run's folder (made before the worker starts).
    const spooling = () => readdirSync(tmp).some((run) => readdirSync(join(tmp, run)).some((name) => name.startsWith('thread-')));
    for (let waited = 0; !spooling() && waited < 120_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(spooling()).toBe(true);
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(readdirSync(tmp)).toEqual([]);
    // The report covers what was read: the first byte range, read on this thread, up to where it
    // stopped; a later range cannot be placed when the one before it was not read whole, and is left
    // out rather than numbered from the wrong line. Every line of the file with a finding is one of
    // its faulty lines, which alone have no "padding".
    const report = JSON.parse(stdout) as { interrupted?: boolean; findings: { line: number }[] };
    const lines = big.split('\n');
    const misplaced = report.findings.filter((f) => lines[f.line - 1]!.includes('"padding"'));
    expect(misplaced).toEqual([]);
    expect(report.findings.length).toBeGreaterThan(0);
  });
});

describe('a whole file truncated while it is read', () => {
  it('is an input failure, as a byte range of it is, not a last line cut off', async () => {
    // Was, with --jobs 1: records, then the last line read as a data fault (a cut-off string, or bad
    // UTF-8); with --jobs 2 an input failure. The report was not the same for any --jobs.
    const { checkUnit } = await import('../src/check-unit.js');
    const { createCheckContext } = await import('../src/context.js');
    const dir = tempFiles({ 'big.jsonl': lines(...Array.from({ length: 60_000 }, (_, i) => ({ ok: false, sessionId: `session-${i}` }))) });
    const path = join(dir, 'big.jsonl');
    expect(statSync(path).size).toBeGreaterThan(2 * 1024 * 1024);
    const running = checkUnit({ source: { name: 'big.jsonl', path } }, createCheckContext({}), {});
    // The first chunk is read before checkUnit returns; the rest are read after this.
    truncateSync(path, 100_000);
    const result = await running;
    expect(result.failure).toEqual({ source: 'big.jsonl', message: 'big.jsonl: the file changed while it was read (rotated or truncated?): check a copy that nothing writes to' });
  });
});

describe('a byte range reads the file the plan measured', () => {
  it('another file at the path (a log rotated), or a shorter one (truncated), is an input failure, not records', async () => {
    const { checkUnit } = await import('../src/check-unit.js');
    const { createCheckContext } = await import('../src/context.js');
    const first = lines({ ok: false });
    const dir = tempFiles({ 'big.jsonl': first + lines({ ok: false }, { ok: false }) });
    const path = join(dir, 'big.jsonl');
    const { dev, ino, size } = statSync(path);
    const context = createCheckContext({});
    const source = { name: 'big.jsonl', path };
    const planned = await checkUnit({ source, range: { start: 0, end: size, index: 0, file: { dev, ino } } }, context, {});
    expect(planned.failure).toBeUndefined();
    expect(planned.entries).toBe(3);
    const message = 'big.jsonl: the file changed while it was read (rotated or truncated?): check a copy that nothing writes to';
    for (const range of [
      { start: 0, end: size, index: 0, file: { dev, ino: ino + 1 } },
      { start: first.length, end: size, index: 1, file: { dev, ino: ino + 1 } },
      { start: 0, end: size + 100, index: 0, file: { dev, ino } },
      { start: first.length, end: size + 100, index: 1, file: { dev, ino } },
    ]) {
      const result = await checkUnit({ source, range }, context, {});
      expect(result.failure, JSON.stringify(range)).toEqual({ source: 'big.jsonl', message });
      expect(result.entries).toBe(0);
    }
  });
});

describe('after Ctrl-C, which byte ranges can be placed', () => {
  const source = { name: 'big.jsonl', path: 'big.jsonl' };
  const other = { name: 'other.jsonl', path: 'other.jsonl' };
  const units: Unit[] = [
    { source, range: { start: 0, end: 10, index: 0 } },
    { source, range: { start: 10, end: 20, index: 1 } },
    { source, range: { start: 20, end: 30, index: 2 } },
    { source: other },
  ];
  const result = (interrupted = false): UnitResult => ({ findings: { head: { kinds: [], slots: [], chunks: [], count: 0, inLast: 0, numbers: [], numbersInLast: 0 }, unsorted: [], spooled: 0, errors: 0 }, entries: 1, kinds: { entries: 1, records: 1, skipped: 0, ownSkipped: 0, firstLine: 1 }, lines: 1, paired: false, ...(interrupted && { interrupted: true as const }) });

  it('keeps ranges read whole after a first range read whole, and a range stopped part way', () => {
    const results = [result(), result(), result(true), result()];
    dropUnplaceable(units, results);
    expect(results.map((r) => r !== undefined)).toEqual([true, true, true, true]);
  });

  it('drops every later range of a file after one not read, or not read whole; other inputs stay', () => {
    const missing = [result(), undefined, result(), result(true)];
    dropUnplaceable(units, missing);
    expect(missing.map((r) => r !== undefined)).toEqual([true, false, false, true]);
    const stopped = [result(true), result(), result(), result()];
    dropUnplaceable(units, stopped);
    expect(stopped.map((r) => r !== undefined)).toEqual([true, false, false, true]);
  });
});

describe('a small file read in place', () => {
  it("a file still being decoded keeps its bytes while the same thread reads the next one into the buffer it was read into", async () => {
    const { checkUnit } = await import('../src/check-unit.js');
    const { createCheckContext } = await import('../src/context.js');
    const { gzipSync } = await import('node:zlib');
    // UTF-16 and gzip are decoded asynchronously; a plain file is framed at once from the shared buffer.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines({ ok: true, result: {} }, { ok: false }), 'utf16le')]);
    const dir = tempFiles({
      'wide.jsonl': utf16,
      'packed.jsonl.gz': gzipSync(lines({ ok: false }, { ok: true, result: {} }, { ok: true })),
      'plain.jsonl': lines(...Array.from({ length: 200 }, (_, i) => ({ ok: true, result: { n: i, pad: 'x'.repeat(40) } }))),
    });
    const context = createCheckContext({});
    const unit = (name: string) => ({ source: { name, path: join(dir, name) } });
    const brief = (result: UnitResult) => ({ entries: result.entries, lines: [...new StoredList(result.findings)].map((f) => [f.location.line, f.message]) });
    for (const name of ['wide.jsonl', 'packed.jsonl.gz']) {
      const alone = brief(await checkUnit(unit(name), context, {}));
      expect(alone.lines.length, name).toBeGreaterThan(0);
      // Started, not awaited: it reads its file, then waits for decoding; the plain file is read meanwhile.
      const decoding = checkUnit(unit(name), context, {});
      const plain = checkUnit(unit('plain.jsonl'), context, {});
      expect(brief(await decoding), name).toEqual(alone);
      expect((await plain).entries).toBe(200);
    }
  });
});

describe('read buffers used again from file to file', () => {
  it('files larger than one chunk, read one after another and side by side, each report their own lines', async () => {
    const { check } = await import('../src/run.js');
    // Over 1 MiB each, with a finding on a line of their own, past the first chunk: a buffer given
    // back too early, or taken by two files at once, shows as another file's bytes.
    const big = (tag: number) => lines(...Array.from({ length: 9000 }, (_, i) => (i === 8000 + tag ? { ok: false } : { ok: true, result: { n: i, pad: 'x'.repeat(100) } })));
    const { gzipSync } = await import('node:zlib');
    const dir = tempFiles({ 'a.jsonl': big(1), 'b.jsonl': big(2), 'c.json': JSON.stringify([{ ok: false }]), 'd.jsonl.gz': gzipSync(big(4)), 'e.jsonl': big(5) });
    expect(statSync(join(dir, 'a.jsonl')).size).toBeGreaterThan(1024 * 1024);
    const names = ['a.jsonl', 'b.jsonl', 'c.json', 'd.jsonl.gz', 'e.jsonl'];
    const lineOf = async (inputs: string[]) => {
      const report = await check(inputs.map((name) => join(dir, name)), { jobs: 1 });
      return [...report.findings].map((f) => [f.location.source.replace(/^.*[\\/]/, ''), f.location.line, f.message]);
    };
    const alone = (await Promise.all(names.map((name) => lineOf([name])))).flat();
    expect(alone.map(([, line]) => line)).toEqual([8002, 8003, 1, 8005, 8006]);
    // One run after another, and two runs at once on this thread.
    expect(await lineOf(names)).toEqual(alone);
    const [forward, backward] = await Promise.all([lineOf(names), lineOf([...names].reverse())]);
    expect(forward).toEqual(alone);
    expect(backward).toEqual([...alone].reverse());
  });
});

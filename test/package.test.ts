// What an installed package holds: everything the CLI reads at run time must be in `files`.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultParallelBytes } from '../src/run.js';
import { binary, repoRoot, runCli, tempFiles } from './helpers/cli.js';

describe('the published package', () => {
  it('ships the bundled schema, the registry, the generated validator and the report schema', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: repoRoot, encoding: 'utf8' })) as { files: { path: string }[] }[];
    const paths = new Set(pack!.files.map((f) => f.path));
    for (const path of [
      'bin/mcec-result.js',
      'bin/package.json',
      'dist/cli/launch.cjs',
      'dist/cli/cli.cjs',
      'dist/cli/cli.cjs.cache',
      'dist/cli/worker.js',
      'dist/generated/envelope-validator-2026-06.cjs',
      'dist/generated/envelope-validator-2026-07.cjs',
      'data/agent-tool-result.schema.json',
      'data/agent-tool-result.schema.2026-07.json',
      'data/codes.json',
      'data/codes.schema.json',
      'data/config.schema.json',
      'data/baseline.schema.json',
      'data/categories.json',
      'schemas/report-v1.schema.json',
      'README.md',
      'docs/ci.md',
      'docs/rules/schema.md',
    ]) {
      expect(paths.has(path), path).toBe(true);
    }
    // README's relative links work where npm and the registry's page show the installed README.
    const links = [...readFileSync(join(repoRoot, 'README.md'), 'utf8').matchAll(/\]\((?!https?:|#)([^)#]*)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) expect(link.endsWith('/') ? [...paths].some((p) => p.startsWith(link)) : paths.has(link), link).toBe(true);
    expect([...paths].some((p) => p.startsWith('test/') || p.startsWith('fixtures/'))).toBe(false);
  });

  it('checks a file, or walks a folder, without loading node:crypto, node:child_process, node:fs/promises or perf_hooks', () => {
    // Was: crypto (a temporary file name) and child_process (commander) loaded on every start, ~4 ms
    // each; a folder walk also loaded child_process (globby's unicorn-magic) and fs/promises (globby).
    const dir = tempFiles({ 'list-modules.cjs': "process.on('exit', () => process.stderr.write(JSON.stringify(process.moduleLoadList)));" });
    for (const input of ['fixtures/valid/single-object.json', 'fixtures/valid']) {
      const run = spawnSync(process.execPath, ['-r', join(dir, 'list-modules.cjs'), binary, 'check', '--no-config', '-f', 'json', input], { cwd: repoRoot, encoding: 'utf8' });
      expect(run.status, input).toBe(0);
      expect(JSON.parse(run.stdout).summary.records, input).toBeGreaterThan(0);
      const loaded = JSON.parse(run.stderr) as string[];
      expect(loaded).toContain('NativeModule vm');
      // perf_hooks: the global `performance` loads it and ten modules behind it.
      expect(loaded.filter((name) => /^NativeModule (crypto|child_process|fs\/promises|perf_hooks)$/.test(name)), input).toEqual([]);
    }
    // Writing a report file needs a temporary name, and loads it then.
    expect(runCli(['check', '--no-config', '-o', join(dir, 'report.txt'), 'fixtures/valid/single-object.json']).status).toBe(0);
  });

  it('checks a small file, its report to a pipe in either format or to /dev/null, without making stdout or stderr a stream or loading node:stream, node:net or node:tty', () => {
    // Was: node:tty (chalk's guess at colour, which the CLI does not use) and the streams of stdout
    // and stderr (made to hold their EPIPE handlers) loaded node:net and node:stream on every start.
    // The list is taken before anything writes, since a write to process.stderr would make the stream.
    const dir = tempFiles({ 'list-modules.cjs': "process.on('exit', () => { const loaded = JSON.stringify(process.moduleLoadList); require('node:fs').writeSync(2, loaded); });" });
    const devNull = openSync('/dev/null', 'w');
    try {
      for (const [format, stdout] of [['human', 'pipe'], ['json', 'pipe'], ['human', devNull]] as const) {
        const run = spawnSync(process.execPath, ['-r', join(dir, 'list-modules.cjs'), binary, 'check', '--no-config', '-f', format, 'fixtures/invalid/schema-error-required.jsonl'], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', stdout, 'pipe'] });
        const to = `${format} to ${stdout === 'pipe' ? 'a pipe' : '/dev/null'}`;
        expect(run.status, to).toBe(1);
        if (stdout === 'pipe') expect(run.stdout, to).toContain('schema');
        const loaded = JSON.parse(run.stderr) as string[];
        expect(loaded).toContain('NativeModule vm');
        expect(loaded.filter((name) => /^NativeModule (stream|net|tty|internal\/fs\/sync_write_stream)$/.test(name)), to).toEqual([]);
      }
    } finally {
      closeSync(devNull);
    }
  });

  it("guards stdout as whatever first reads process.stdout makes it, once, and tells a pipe from a terminal without making it (src/cli/stdio.ts)", () => {
    // main() hands its EPIPE handlers to whenMade: commander's help and say() read the streams themselves.
    const script = [
      `import { whenMade, isTerminal } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'dist/cli/stdio.js')).href)};`,
      'const made = [];',
      "whenMade('stdout', (stream) => { made.push('stdout'); stream.on('error', () => {}); });",
      "whenMade('stderr', () => made.push('stderr'));",
      "const netBefore = process.moduleLoadList.includes('NativeModule net');",
      'const terminal = isTerminal(1);',
      'const madeBefore = [...made];',
      'const first = process.stdout;',
      'const again = process.stdout;',
      "process.stdout.write(JSON.stringify({ netBefore, terminal, madeBefore, made, same: first === again, guards: first.listenerCount('error') }));",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ netBefore: false, terminal: false, madeBefore: [], made: ['stdout'], same: true, guards: 1 });
  });

  it('checks files and writes human and JSON reports without asking ICU for locale formatting', () => {
    // Was: a message built at load time called toLocaleString('en-US'), which loads ICU's locale
    // data: ~4 ms of every start here (1.30x -> 1.45x node -e 0).
    const dir = tempFiles({
      'watch-locale.cjs': [
        "const calls = [];",
        "for (const [owner, name] of [[Number.prototype, 'toLocaleString'], [Date.prototype, 'toLocaleString'], [String.prototype, 'localeCompare']]) {",
        '  const original = owner[name];',
        "  owner[name] = function (...args) { calls.push(name); return original.apply(this, args); };",
        '}',
        "for (const name of ['NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules']) {",
        '  const Original = Intl[name];',
        "  Intl[name] = function (...args) { calls.push(`Intl.${name}`); return new Original(...args); };",
        '}',
        "process.on('exit', () => process.stderr.write(JSON.stringify(calls)));",
      ].join('\n'),
    });
    for (const format of ['json', 'human']) {
      const run = spawnSync(process.execPath, ['-r', join(dir, 'watch-locale.cjs'), binary, 'check', '--no-config', '-f', format, 'fixtures/valid', 'fixtures/invalid/schema-error-required.jsonl', 'fixtures/invalid/code-format.jsonl'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(run.status, format).toBe(1);
      expect(run.stdout, format).toContain('schema');
      expect(JSON.parse(run.stderr), format).toEqual([]);
    }
  });

  it("raises V8's limit of shapes a property read keeps, scavenges on one thread, and holds its young generation's size once grown, for the CLI's run, after any worker thread started", () => {
    // src/v8-tuning.ts: envelopes of many member orders make member reads generic past four shapes;
    // raised before a worker starts, the flag would make that start slower.
    const line = JSON.stringify({ ok: true, result: { text: 'x'.repeat(200) }, sessionId: 's' });
    const part = `${line}\n`.repeat(Math.ceil((5 * 1024 * 1024) / (line.length + 1)));
    const dir = tempFiles({
      // Records, in order, each call, each worker's start and its "ready" message as the main thread
      // gets it (the CLI bundle takes Worker from node:worker_threads when it starts one).
      'watch-flags.cjs': [
        "const v8 = require('node:v8');",
        "const threads = require('node:worker_threads');",
        'const events = [];',
        'const original = v8.setFlagsFromString;',
        // The young generation's hold is recorded with the new space's size when it is set.
        "const newSpace = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space').space_size;",
        "v8.setFlagsFromString = (flags) => { events.push(flags.includes('semi-space') ? `${flags} at ${newSpace()}` : flags); return original(flags); };",
        'if (threads.isMainThread) {',
        '  const Base = threads.Worker;',
        "  threads.Worker = class extends Base { constructor(...args) { super(...args); events.push('worker'); this.on('message', (m) => { if (m && m.ready) events.push('worker ready'); }); } };",
        "  process.on('exit', () => process.stderr.write(JSON.stringify(events)));",
        '}',
      ].join('\n'),
      'a.jsonl': part,
      'b.jsonl': part,
      'c.jsonl': part,
      'd.jsonl': part,
      'whole.jsonl': part.repeat(4),
      // 28 MB of MCEC transcript calls: requests live until their answers, and the young generation grows.
      'calls.jsonl': Array.from({ length: 40_000 }, (_, k) => {
        const payload = { jsonrpc: '2.0', id: k + 1 };
        const envelope = JSON.stringify({ ok: true, result: { text: 'x'.repeat(300) }, sessionId: 's' });
        return [
          JSON.stringify({ sessionId: 's', direction: 'request', method: 'tools/call', payload: { ...payload, method: 'tools/call', params: { name: 'find', arguments: { value: `item ${k}` } } } }),
          JSON.stringify({ sessionId: 's', direction: 'response', method: 'tools/call', payload: { ...payload, result: { content: [{ type: 'text', text: envelope }], isError: false } } }),
        ].join('\n');
      }).join('\n'),
    });
    const shapes = '--max-valid-polymorphic-map-count=16';
    const oneThreadScavenges = '--no-parallel-scavenge';
    // The shape limit and scavenges on this thread, then at most once the young generation's hold,
    // set once its new space has grown to 8 MiB.
    const tuned = (events: readonly string[]) => {
      const [first, second, ...rest] = events;
      expect([first, second]).toEqual([shapes, oneThreadScavenges]);
      expect(rest.length).toBeLessThanOrEqual(1);
      for (const event of rest) expect(Number(/^--semi-space-growth-factor=1 at (\d+)$/.exec(event)?.[1])).toBeGreaterThanOrEqual(8 * 1024 * 1024);
    };
    const run = (...args: string[]) => spawnSync(process.execPath, ['-r', join(dir, 'watch-flags.cjs'), binary, 'check', '--no-config', '-f', 'json', ...args], { cwd: dir, encoding: 'utf8' });
    // On this thread alone: at once. Nothing else on stderr (a V8 without the flag would say so there).
    const single = run('--jobs', '1', 'a.jsonl');
    expect(single.status).toBe(0);
    const perFile = JSON.parse(single.stdout).summary.valid as number;
    expect(perFile).toBeGreaterThan(10_000);
    tuned(JSON.parse(single.stderr));
    const calls = JSON.parse(run('--jobs', '1', 'calls.jsonl').stderr) as string[];
    expect(calls).toHaveLength(3);
    tuned(calls);
    // 20 MB in four files: a worker starts and says it is ready, and only then is the flag raised
    // (were this thread to finish first, no worker would be ready and nothing raised).
    const threads = run('--jobs', '2', '--no-progress', 'a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl');
    expect(threads.status).toBe(0);
    expect(JSON.parse(threads.stdout).summary.records).toBe(4 * perFile);
    const events = JSON.parse(threads.stderr) as string[];
    if (events.includes('worker ready')) {
      expect(events.slice(0, 2)).toEqual(['worker', 'worker ready']);
      tuned(events.slice(2));
    } else expect(events).toEqual(['worker']);
    // Unasked, 20 MB stays on this thread where workers start from more (128 MiB divided by the
    // threads: up to 6 cores): a long run, raised once planned; in four files, and in one, which
    // the plan first cut in byte ranges for workers. With more cores, workers start.
    const kept = run('--no-progress', 'a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl');
    const whole = run('--no-progress', 'whole.jsonl');
    expect(kept.stdout).toBe(threads.stdout);
    expect(JSON.parse(whole.stdout).summary.records).toBe(4 * perFile);
    const onThisThread = statSync(join(dir, 'whole.jsonl')).size < defaultParallelBytes(availableParallelism());
    for (const result of [kept, whole]) {
      const seen = JSON.parse(result.stderr) as string[];
      if (onThisThread) tuned(seen);
      else expect(seen[0]).toBe('worker');
    }
    // A small input on the default mode's path: no worker, and no flag (start-up stays as it was).
    const small = run('--jobs', '2', join(repoRoot, 'fixtures/valid'));
    expect(small.status).toBe(0);
    expect(JSON.parse(small.stderr)).toEqual([]);
    // The library never changes its caller's V8, on one thread, with workers, or in the default mode.
    const library = spawnSync(process.execPath, ['-r', join(dir, 'watch-flags.cjs'), '--input-type=module', '-e', `const { check } = await import(${JSON.stringify(join(repoRoot, 'dist/index.js'))}); for (const options of [{ jobs: 1 }, { jobs: 2 }, {}]) { const report = await check(['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl'], options); process.stdout.write(String(report.summary.records) + ' '); }`], { cwd: dir, encoding: 'utf8' });
    expect(library.stdout.trim().split(' ').map(Number)).toEqual([4 * perFile, 4 * perFile, 4 * perFile]);
    expect((JSON.parse(library.stderr) as string[]).filter((event) => event !== 'worker' && event !== 'worker ready')).toEqual([]);
  });

  it("gives a TypeScript project that imports 'mcec-result/vitest' the toBeMcecResult matcher's types", () => {
    // Was: dist/vitest.d.ts imported nothing from vitest, so its `declare module 'vitest'` merged
    // with nothing and README's example failed to compile (TS2339).
    const dir = tempFiles({
      'package.json': JSON.stringify({ name: 'consumer', type: 'module', private: true }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['uses.ts'] }),
      'uses.ts': "import 'mcec-result/vitest';\nimport { expect } from 'vitest';\nexpect({ ok: true, result: {} }).toBeMcecResult();\nexpect({ ok: true }).toBeMcecResult({ strict: true });\n",
    });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules', 'mcec-result'));
    symlinkSync(join(repoRoot, 'node_modules', 'vitest'), join(dir, 'node_modules', 'vitest'));
    const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });

  it('bundles the CLI and the worker as ASCII text, which V8 holds one byte a character', () => {
    // Was: one "✔" in a regular expression made the whole 700 KB bundle a two-byte string, read and
    // compiled on every start (~13 ms here, 1.23x -> 1.57x node -e 0).
    for (const file of ['dist/cli/cli.cjs', 'dist/cli/worker.js']) {
      const text = readFileSync(join(repoRoot, file), 'latin1');
      const at = text.search(/[^\x00-\x7f]/);
      expect(at === -1 ? '' : `${file}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 10))}`).toBe('');
    }
  });

  it('starts the CLI bundle with the code cache the build wrote, which this Node accepts', () => {
    // A cache V8 rejects is ignored without a word, and start-up quietly loses a fifth: say so here.
    const probe = "import { loadCli } from './dist/cli/launch.cjs'; process.stdout.write(String(loadCli().script.cachedDataRejected));";
    const rejected = execFileSync(process.execPath, ['--input-type=module', '-e', probe], { cwd: repoRoot, encoding: 'utf8' });
    expect(rejected).toBe('false');
  });
});

// The README and the docs pages it sends a newcomer to are part of the interface: every command
// they show runs here as written, on the fixtures it names, and prints what the page shows.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { checkEnvelope, ruleCatalog } from '../src/index.js';
import { binary, installedWorkdir as workdir, repoRoot, tempFiles } from './helpers/cli.js';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const readme = read('README.md');

/** The fenced blocks of one language in a page, in order. */
const blocks = (page: string, lang: string) => [...page.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);

/** Each `mcec-result` command line of a page's `sh` blocks, without its trailing comment. */
const commands = (page: string) =>
  blocks(page, 'sh')
    .flatMap((block) => block.split('\n'))
    .filter((line) => /(^|\| )mcec-result /.test(line))
    .map((line) => line.replace(/\s+# .*$/, ''));

const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined } as NodeJS.ProcessEnv;

const shell = (command: string, cwd: string) => spawnSync('sh', ['-c', command], { cwd, env: { ...env, PATH: `${join(cwd, '.bin')}:${env.PATH}` }, encoding: 'utf8' });

/** Every line of `shown` is a line of `printed`, in the same order. */
function expectExcerpt(printed: string, shown: string): void {
  const lines = printed.split('\n');
  let at = 0;
  for (const line of shown.split('\n').filter((l) => l.trim() !== '')) {
    at = lines.indexOf(line, at);
    expect(at, line).toBeGreaterThanOrEqual(0);
  }
}

/** The `run:` commands of a workflow in docs/ci.md, in order, without the npm ci step. */
function workflowCommands(startsWith: string): string[] {
  const workflow = blocks(read('docs/ci.md'), 'yaml').find((block) => block.startsWith(startsWith));
  if (!workflow) throw new Error(`docs/ci.md has no workflow starting ${JSON.stringify(startsWith)}`);
  return [...workflow.matchAll(/^\s+(?:- )?run: (.+)$/gm)].map((m) => m[1]!).filter((command) => command !== 'npm ci');
}

/** Runs a workflow step: `npx mcec-result` is the installed package; here it is this checkout's built binary. */
const step = (command: string, cwd: string, extra: NodeJS.ProcessEnv = {}) =>
  spawnSync('sh', ['-c', command.replace('npx mcec-result', `"${process.execPath}" "${binary}"`)], { cwd, env: { ...env, ...extra }, encoding: 'utf8' });

describe('README', () => {
  it('is at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('shows the two fresh-clone commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    const pkg = JSON.parse(read('package.json'));
    expect(pkg.scripts.start).toContain('fixtures/samples');
    expect(pkg.scripts.test).toBe('node scripts/test.mjs');
    expect(read('scripts/test.mjs')).toMatch(/'vitest\/vitest\.mjs'\), 'run'/);
    // The build compiles without a type check; the tests' check is the one, so it holds src/ with
    // every option of the build's that decides what is an error.
    expect(pkg.scripts.build).toMatch(/^tsc -p tsconfig\.json --noCheck && /);
    expect(read('scripts/test.mjs')).toMatch(/'typescript\/bin\/tsc'\), '-p', 'tsconfig\.test\.json'/);
    const testConfig = JSON.parse(read('tsconfig.test.json'));
    expect(testConfig.extends).toBe('./tsconfig.json');
    expect(testConfig.include).toContain('src');
    expect(Object.keys(testConfig.compilerOptions).sort()).toEqual(['declaration', 'noEmit', 'rootDir', 'rootDirs', 'sourceMap']);
  });

  it("lists every rule of the catalog, with its default severity, the catalog's description and its page", () => {
    const rows = [...readme.matchAll(/^\| \[`([a-z-]+)`\]\(docs\/rules\/([a-z-]+)\.md\) \| (\w+) \| (.+) \|$/gm)];
    expect(rows.map((row) => row[1])).toEqual(Object.keys(ruleCatalog));
    for (const [, id, page, severity, description] of rows) {
      const rule = ruleCatalog[id as keyof typeof ruleCatalog];
      expect({ id, page, severity, description }).toEqual({ id, page: id, severity: rule.defaultSeverity, description: rule.description });
      expect(existsSync(join(repoRoot, `docs/rules/${id}.md`)), id).toBe(true);
    }
  });

  it('links only to docs pages that exist', () => {
    const links = [...readme.matchAll(/\]\((docs\/[^)#]*)(?:#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) expect(existsSync(join(repoRoot, link)), link).toBe(true);
  });

  it('shows the recipes this file runs, and no other command', () => {
    expect(commands(readme)).toEqual([
      'mcec-result check fixtures/samples',
      'mcec-result check evidence/',
      'mcec-result check evidence/ --format github --format sarif=mcec-result.sarif',
      "grep 'Message from server' mcp.log | mcec-result check --extract -",
      'tail -f agent.log | mcec-result check --extract -',
      'mcec-result check evidence/ --write-baseline mcec-baseline.json',
      'mcec-result check evidence/ --baseline mcec-baseline.json',
    ]);
  });

  it("quick start: the sample output is an excerpt of the real output", () => {
    const [command] = commands(readme);
    const dir = workdir({ 'fixtures/samples': 'fixtures/samples' });
    const run = shell(command!, dir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expectExcerpt(run.stdout, blocks(readme, 'text')[0]!);
  });

  it('evidence bundles: checks the folders and zips under evidence/', () => {
    const dir = workdir({ evidence: 'fixtures/field/bundles/evidence' });
    const run = shell(commands(readme)[1]!, dir);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^✔ no problems in 6 inputs$/m);
  });

  it('CI gate: annotations on stdout, a valid SARIF log, exit 1 on an error finding', () => {
    const dir = workdir({ evidence: 'fixtures/transcripts' });
    const run = shell(commands(readme)[2]!, dir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^::error file=evidence\/run-1\/tool-calls\.jsonl,line=4,title=schema::/m);
    const sarif = JSON.parse(readFileSync(join(dir, 'mcec-result.sarif'), 'utf8'));
    const schema = JSON.parse(read('test/data/sarif-2.1.0-rtm.5.json'));
    expect(new Validator(schema, '7', false).validate(sarif).valid).toBe(true);
  });

  it("logs and pipes: the servers' answers grepped from a Claude Desktop mcp.log", () => {
    const dir = workdir({ 'mcp.log': 'fixtures/field/mcp-logs/claude-desktop-mcp.log' });
    const run = shell(commands(readme)[3]!, dir);
    expect(run.stderr).toBe('');
    // The log holds one schema error, as docs/logs.md shows.
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^-:\d+\s+error\s+.*\bschema$/m);
  });

  it('logs and pipes: tail -f shows a finding at once, and Ctrl-C ends the pipeline with the summary', async () => {
    const dir = workdir();
    writeFileSync(join(dir, 'agent.log'), '2026-07-01T10:15:02Z INFO agent result {"ok":false}\n2026-07-01T10:15:03Z DEBUG idle\n');
    // Its own process group, as a terminal's job is: Ctrl-C goes to every process of the pipeline.
    const child = spawn('bash', ['-c', commands(readme)[4]!], { cwd: dir, env: { ...env, PATH: `${join(dir, '.bin')}:${env.PATH}` }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (text: string) => {
        stdout += text;
        if (stdout.includes('-:1  error    ok is false, so error is required  schema')) resolve();
      });
      void closed.then(() => reject(new Error(`exited before the first finding:\n${stdout}\n${stderr}`)));
    });
    process.kill(-child.pid!, 'SIGINT');
    await closed;
    expect(stdout).toContain('✖ 1 problem (1 error, 0 warnings) in 1 input (interrupted)');
    expect(stderr).toBe('mcec-result: interrupted: the report covers only what was read before Ctrl-C (1 records)\n');
  });

  it('baseline: record the findings, then the same corpus passes and says what it suppressed', () => {
    const dir = workdir({ evidence: 'fixtures/transcripts' });
    const write = shell(commands(readme)[5]!, dir);
    expect(write.status).toBe(0);
    expect(existsSync(join(dir, 'mcec-baseline.json'))).toBe(true);
    const again = shell(commands(readme)[6]!, dir);
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/^baseline {2}11 known findings suppressed {2}0 entries no longer found$/m);
  });

  it('Vitest: the example passes in a project that installs mcec-result, and is the one docs/library.md shows', () => {
    const example = blocks(readme, 'ts')[0]!;
    expect(blocks(read('docs/library.md'), 'ts')).toContain(example);
    const dir = tempFiles({ 'package.json': JSON.stringify({ name: 'consumer', type: 'module', private: true }), 'conformance.test.ts': example });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules/mcec-result'));
    symlinkSync(join(repoRoot, 'node_modules/vitest'), join(dir, 'node_modules/vitest'));
    const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], { cwd: dir, env: { ...env, CI: '1' }, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toMatch(/Tests\s+1 passed \(1\)/);
    expect(run.status).toBe(0);
  });
});

describe('docs/config.md', () => {
  it('the config file example is a valid config that takes effect', () => {
    const config = /## The config file[\s\S]*?```json\n([\s\S]*?)```/.exec(read('docs/config.md'))?.[1];
    expect(config).toBeDefined();
    const dir = tempFiles({ 'mcec-result.config.json': config!, 'mcec-codes.json': JSON.stringify({ errorCodes: {} }), 'reports/.keep': '' });
    cpSync(join(repoRoot, 'fixtures/samples/legacy-server.ndjson'), join(dir, 'run.ndjson'));
    const result = spawnSync(process.execPath, [binary, 'check', 'run.ndjson'], { cwd: dir, encoding: 'utf8', env });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    // "unknown-code": "error" in the example turns the typo'd code into an error.
    expect(result.stdout).toMatch(/error\s+unknown error code "window-not-fonud"/);
    expect(JSON.parse(readFileSync(join(dir, 'reports/mcec.sarif'), 'utf8')).version).toBe('2.1.0');
  });

  it('the codes file example is a valid codes file whose {n} codes are known', () => {
    const codes = /## The codes file[\s\S]*?```json\n([\s\S]*?)```/.exec(read('docs/config.md'))?.[1];
    const record = { ok: false, error: { code: 'window-minimized-3', category: 'no-target', detail: 'minimized' } };
    const dir = tempFiles({ 'team-codes.json': codes!, 'run.jsonl': `${JSON.stringify(record)}\n` });
    const result = spawnSync(process.execPath, [binary, 'check', '--no-config', '--codes', 'team-codes.json', 'run.jsonl'], { cwd: dir, encoding: 'utf8', env });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^✔ no problems in 1 input$/m);
    expect(result.status).toBe(0);
  });
});

describe('docs/config.md: --print-config', () => {
  it('the example prints what the page shows, with the config file above it, less what it leaves out', () => {
    const page = read('docs/config.md');
    const config = /## The config file[\s\S]*?```json\n([\s\S]*?)```/.exec(page)![1]!;
    const section = page.slice(page.indexOf('## The settings a run uses'));
    const [command] = commands(section);
    const shown = blocks(section, 'text')[0]!;
    const dir = workdir();
    writeFileSync(join(dir, 'mcec-result.config.json'), config);
    writeFileSync(join(dir, 'mcec-codes.json'), JSON.stringify({ errorCodes: {} }));
    const run = shell(command!, dir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const printed = run.stdout.replaceAll(dir, '/work/project');
    expectExcerpt(printed, shown.split('\n').filter((line) => line.trim() !== '...').join('\n'));
    // The lines kept are whole: the first and last, and every rule's line the page names.
    expect(shown.startsWith('{\n') && shown.trimEnd().endsWith('\n}')).toBe(true);
  });
});

describe('docs/config.md: recovery advice', () => {
  it("the recovery example is a valid codes file whose members replace the bundled ones, explain shows", () => {
    const codes = /### Recovery advice[\s\S]*?```json\n([\s\S]*?)```/.exec(read('docs/config.md'))?.[1];
    expect(codes).toBeDefined();
    const dir = tempFiles({ 'team.json': codes! });
    const explain = (name: string) => spawnSync(process.execPath, [binary, 'explain', name, '--no-config', '--codes', 'team.json'], { cwd: dir, encoding: 'utf8', env });
    const stale = explain('stale-element');
    expect(stale.stderr).toBe('');
    expect(stale.stdout).toMatch(/^ {2}unchanged retry {2}allowed$/m);
    const internal = explain('internal');
    expect(internal.stdout).toMatch(/^ {2}advice {11}page the on-call engineer\n {2}unchanged retry {2}goes against the advice.*\n {2}retry codes {6}consent-pending\n/m);
    // The message the page quotes for a mark that is no boolean.
    const message = /\(`(codes file team\.json at \/recovery\/stale-element\/noUnchangedRetry: must be a boolean)`\)/.exec(read('docs/config.md'))?.[1];
    writeFileSync(join(dir, 'team.json'), JSON.stringify({ recovery: { 'stale-element': { noUnchangedRetry: 'no' } } }));
    const bad = explain('stale-element');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`mcec-result: ${message}`);
  });
});

describe('docs/ci.md', () => {
  it("the GitHub Actions workflow's commands work as written", () => {
    const commands = workflowCommands('name: MCEC conformance');
    expect(commands).toHaveLength(2);
    const dir = tempFiles({ 'step-summary.md': '' });
    cpSync(join(repoRoot, 'fixtures/transcripts'), join(dir, 'evidence'), { recursive: true });
    const summaryEnv = { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') };

    const check = step(commands[0]!, dir, summaryEnv);
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(/^::error file=evidence\/run-1\/tool-calls\.jsonl,line=4,title=schema::/m);
    expect(check.stdout).toMatch(/^::warning file=evidence\/run-2\/tool-calls\.jsonl,line=20,title=transcript-truncated::/m);

    const sarif = JSON.parse(readFileSync(join(dir, 'mcec-result.sarif'), 'utf8'));
    const schema = JSON.parse(read('test/data/sarif-2.1.0-rtm.5.json'));
    expect(new Validator(schema, '4', false).validate(sarif).valid).toBe(true);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('evidence/run-1/tool-calls.jsonl');

    expect(step(commands[1]!, dir, summaryEnv).status).toBe(0);
    const summary = readFileSync(join(dir, 'step-summary.md'), 'utf8');
    expect(summary).toContain('```mermaid');
    expect(existsSync(join(dir, 'mcec-summary.md'))).toBe(true);
  });

  it("the sharded matrix's commands, each shard then the merge, give the verdict of one run", () => {
    const [shard, merge, summary] = workflowCommands('jobs:\n  shard:');
    expect([shard, merge, summary]).toHaveLength(3);
    const dir = tempFiles({ 'step-summary.md': '' });
    cpSync(join(repoRoot, 'fixtures/transcripts'), join(dir, 'evidence'), { recursive: true });
    mkdirSync(join(dir, 'parts'));
    for (const i of [1, 2, 3, 4]) {
      const run = step(shard!.replaceAll('${{ matrix.shard }}', String(i)), dir);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      // upload-artifact and download-artifact with merge-multiple: the parts in one folder.
      renameSync(join(dir, `part-${i}.json`), join(dir, `parts/part-${i}.json`));
    }
    const merged = step(merge!, dir);
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(1);
    const single = spawnSync(process.execPath, [binary, 'check', 'evidence/', '--format', 'github'], { cwd: dir, env, encoding: 'utf8' });
    expect(merged.stdout).toBe(single.stdout);
    expect(step(summary!, dir, { GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md') }).status).toBe(0);
    expect(readFileSync(join(dir, 'step-summary.md'), 'utf8')).toContain('```mermaid');
  });
});

describe('docs/baseline.md', () => {
  it('every recipe runs as written: a baseline suppresses what it recorded, and shards merge into one', () => {
    const dir = workdir({ evidence: 'fixtures/transcripts' });
    mkdirSync(join(dir, 'out'));
    for (const command of commands(read('docs/baseline.md'))) {
      const run = shell(command, dir);
      expect(run.stderr, command).toBe('');
      expect(run.status, command).toBe(0);
    }
    const merged = JSON.parse(readFileSync(join(dir, 'mcec-baseline.json'), 'utf8'));
    const whole = JSON.parse(shell('mcec-result check evidence/ --write-baseline /dev/stdout --format json=/dev/null', dir).stdout);
    expect(merged.findings).toEqual(whole.findings);
  });
});

describe('docs/report-format.md', () => {
  it('the example is the real report, less the findings it leaves out', () => {
    const page = read('docs/report-format.md');
    const [command] = commands(page);
    const shown = JSON.parse(blocks(page, 'json')[0]!);
    const run = shell(command!, workdir({ 'legacy-server.ndjson': 'fixtures/samples/legacy-server.ndjson' }));
    const real = JSON.parse(run.stdout);
    expect(real.findings).toEqual(expect.arrayContaining(shown.findings));
    expect(real.findings.length - shown.findings.length).toBe(3);
    expect({ ...shown, findings: [] }).toEqual({ ...real, findings: [] });
  });
});

describe('docs/cli.md', () => {
  it('every example runs as written: its exit status, and the inputs it reads', () => {
    const dir = workdir({
      evidence: 'fixtures/field/bundles/evidence',
      'runs/agent-run.jsonl': 'fixtures/samples/agent-run-2026-07-01.jsonl',
      'runs/archive/old.jsonl': 'fixtures/samples/legacy-server.ndjson',
      'nightly.json': 'fixtures/samples/nightly-smoke.json',
    });
    writeFileSync(join(dir, 'old-run.jsonl.gz'), gzipSync(readFileSync(join(repoRoot, 'fixtures/samples/legacy-server.ndjson'))));
    writeFileSync(join(dir, 'team-codes.json'), JSON.stringify({ warningCodes: ['ocr-low-confidence'] }));
    const skipped = 'mcec-result: evidence/20260701-101502-5f19c9c01a3f.zip skipped: the bundle folder evidence/20260701-101502-5f19c9c01a3f beside it holds the same files (name the zip to check it too)\n';
    const expected: [command: string, status: number, verdict: RegExp | undefined][] = [
      ['mcec-result check evidence/', 0, /^✔ no problems in 6 inputs$/m],
      ["mcec-result check 'runs/**/*.jsonl' nightly.json", 1, / in 3 inputs$/m],
      ["mcec-result check runs/ '!runs/archive/**'", 1, / in 1 input$/m],
      ['mcec-result check --format json evidence/ > report.json', 0, undefined],
      ['zcat old-run.jsonl.gz | mcec-result check --stdin-filename old-run.jsonl -', 1, /^old-run\.jsonl:2 /m],
      ['mcec-result check --shard 1/2 -f json=part-1.json evidence/', 0, undefined],
      ['mcec-result check --shard 2/2 -f json=part-2.json evidence/', 0, undefined],
      ['mcec-result merge part-1.json part-2.json -f human -f sarif=mcec.sarif', 0, /^✔ no problems in 6 inputs$/m],
      ['mcec-result explain stale-element', 0, /stale-element/],
      ['mcec-result explain result-on-failure', 0, /result-on-failure/],
      ['mcec-result explain ocr-low-confidence --codes team-codes.json', 0, /ocr-low-confidence/],
      ['mcec-result explain invalid-argument', 0, /^ {2}unchanged retry {2}goes against the advice/m],
      ['mcec-result explain', 0, /^categories \(/m],
    ];
    expect(commands(read('docs/cli.md'))).toEqual(expected.map(([command]) => command));
    for (const [command, status, verdict] of expected) {
      const run = shell(command, dir);
      expect(run.status, command).toBe(status);
      expect(run.stderr, command).toBe(command.includes('evidence/') && command.includes(' check ') ? skipped : '');
      if (verdict) expect(run.stdout, command).toMatch(verdict);
    }
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.inputs).toBe(6);
  });

  it("the category explanation shown is the real one's first section", () => {
    const shown = /```\n(invalid-argument: an error category\n[\s\S]*?)```/.exec(read('docs/cli.md'))?.[1];
    expect(shown).toBeDefined();
    const run = shell('mcec-result explain invalid-argument', workdir());
    expect(run.stdout.split('\n\n')[0]).toBe(shown!.trimEnd());
  });
});

describe('docs/library.md', () => {
  it('the first example compiles in a project that installs mcec-result, runs, and its comment is what checkEnvelope gives', () => {
    const example = blocks(read('docs/library.md'), 'ts')[0]!;
    const dir = tempFiles({
      'package.json': JSON.stringify({ name: 'consumer', type: 'module', private: true }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, skipLibCheck: true, types: [], outDir: 'out' }, files: ['example.ts'] }),
      'example.ts': example,
    });
    cpSync(join(repoRoot, 'fixtures/transcripts'), join(dir, 'evidence'), { recursive: true });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules/mcec-result'));
    const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    const run = spawnSync(process.execPath, ['out/example.js'], { cwd: dir, env, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('6\n');
    expect(checkEnvelope({ ok: false, result: null })[0]).toMatchObject({ rule: 'schema', severity: 'error', message: 'ok is false, so error is required', pointer: '' });
  });
});

// Spec section 8.3: the bundled schemas by version, --schema-version / schemaVersion, the report's
// schema.version and schema.sha256, merge and baselines across versions, explain, the library and
// the Vitest matcher. CLI cases run the built binary on real files.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { check, checkEnvelope, createCheckContext, UsageError } from '../src/index.js';
import { mcecFindings } from '../src/vitest.js';
import { binary, lines, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const fixture = join(repoRoot, 'fixtures/field/schema-versions/ocr-failures.jsonl');
const sha256Of = (path: string) => createHash('sha256').update(readFileSync(join(repoRoot, path))).digest('hex');
const files = { '2026-06': 'data/agent-tool-result.schema.json', '2026-07': 'data/agent-tool-result.schema.2026-07.json' } as const;
const noText = { ok: false, error: { code: 'ocr-no-text', category: 'ocr-no-text', detail: 'OCR found no text in the region' }, sessionId: '5f19c9c01a3f' };
const reportSchema = new Ajv2020({ allErrors: true }).compile(JSON.parse(readFileSync(join(repoRoot, 'schemas/report-v1.schema.json'), 'utf8')));

describe('the bundled schemas', () => {
  it('are byte-for-byte the schemas MCEC published (a released version never changes)', () => {
    // The digests of the spec folder's copies, which the bundled files were copied from.
    expect(sha256Of(files['2026-06'])).toBe('e376f5092c18578ada64323b2797fdf8cdc6c5c9c6e170be14737400bfc2f01f');
    expect(sha256Of(files['2026-07'])).toBe('957b987ac17b8529b45ee175df9c4149bcdbbf7ca72dfbb65e97efac91ccf1ee');
  });
});

describe('--schema-version', () => {
  it("today's MCEC ocr-no-text failure is valid by default, and a schema error under 2026-06 whose message names 2026-07; the report's schema names the version (never latest) and the SHA-256 of the schema file's bytes; --schema has no version", () => {
    // One run per setting, each report read for both: its findings and its schema.
    const latest = runJson(['--no-config', fixture]);
    const named = runJson(['--no-config', '--schema-version', 'latest', fixture]);
    const older = runJson(['--no-config', '--schema-version', '2026-06', fixture]);
    expect(latest.status).toBe(0);
    expect(latest.report.summary).toMatchObject({ records: 2, valid: 2, invalidCategories: {} });
    expect(Object.keys(latest.report.summary.categories)).toHaveLength(12);
    expect(named.report.schema.version).toBe('2026-07');

    expect(older.status).toBe(1);
    expect(older.report.findings.map((f: { rule: string; line: number; pointer: string }) => [f.rule, f.line, f.pointer])).toEqual([
      ['schema', 1, '/error/category'],
      ['schema', 2, '/error/category'],
    ]);
    expect(older.report.findings[0].message).toBe(
      'error.category must be one of: timeout, ambiguous-selector, stale-element, no-target, invalid-argument, capture-blank, focus, elevation, foreground, internal (got "ocr-no-text"): a category of schema version 2026-07, not of 2026-06: check with --schema-version 2026-07',
    );
    expect(older.report.summary.invalidCategories).toEqual({ 'ocr-blank': 1, 'ocr-no-text': 1 });

    for (const [{ report }, version] of [[latest, '2026-07'], [named, '2026-07'], [older, '2026-06']] as const) {
      expect(report.schema).toMatchObject({ source: 'bundled', version, sha256: sha256Of(files[version]) });
      expect(reportSchema(report), JSON.stringify(reportSchema.errors)).toBe(true);
    }
    const own = runJson(['--no-config', '--schema', join(repoRoot, 'test/data/newer.schema.json'), fixture]).report;
    expect(own.schema).toEqual({ id: 'https://example.test/mcec-3.1/agent-tool-result.schema.json', source: join(repoRoot, 'test/data/newer.schema.json'), sha256: sha256Of('test/data/newer.schema.json') });
    expect(reportSchema(own)).toBe(true);
  });

  it('is one setting with --schema: both at one level is a usage error, the command line beats the config', () => {
    const dir = tempFiles({ 'run.jsonl': lines(noText), 'newer.schema.json': readFileSync(join(repoRoot, 'test/data/newer.schema.json')) });
    expect(runCli(['check', '--no-config', '--schema', 'newer.schema.json', '--schema-version', '2026-06', 'run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'mcec-result: --schema newer.schema.json and --schema-version 2026-06 are one setting, the envelope schema (a file, or a bundled version): give one\n',
    });
    expect(runCli(['check', '--no-config', '--schema-version', '2026-05', 'run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: 'mcec-result: --schema-version: unknown schema version "2026-05": choose 2026-06, 2026-07 or latest (latest is the newest bundled, 2026-07)\n',
    });
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ schema: 'newer.schema.json', schemaVersion: '2026-06' }));
    expect(runCli(['check', 'run.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stderr: expect.stringMatching(/^mcec-result: config .*mcec-result\.config\.json: \/schema newer\.schema\.json and \/schemaVersion 2026-06 are one setting/) });
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ schemaVersion: '2026-6' }));
    expect(runCli(['check', 'run.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stderr: expect.stringMatching(/\/schemaVersion must be one of: 2026-06, 2026-07, latest\n$/) });
    // The config's schema file, replaced by a version typed; and its version, by a file typed.
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ schema: 'newer.schema.json' }));
    expect(runJson(['--schema-version', '2026-06', 'run.jsonl'], { cwd: dir }).report.schema).toMatchObject({ source: 'bundled', version: '2026-06' });
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ schemaVersion: '2026-06' }));
    expect(runJson(['run.jsonl'], { cwd: dir })).toMatchObject({ status: 1, report: { schema: { version: '2026-06' } } });
    const typed = runJson(['--schema', 'newer.schema.json', 'run.jsonl'], { cwd: dir });
    expect(typed).toMatchObject({ status: 0, report: { schema: { source: 'newer.schema.json' } } });
    expect(typed.report.schema.version).toBeUndefined();
  });
});

describe('merge across schema versions', () => {
  it('refuses reports of two versions or digests, naming both; a report from before versions is 2026-06', () => {
    const dir = tempFiles({ 'a.jsonl': lines(noText), 'b.jsonl': lines(noText) });
    const checked = (name: string, input: string, ...args: string[]) => {
      runCli(['check', '--no-config', ...args, '-f', `json=${name}`, input], { cwd: dir });
      return name;
    };
    const [latest, older] = [checked('r7.json', 'a.jsonl'), checked('r6.json', 'b.jsonl', '--schema-version', '2026-06')];
    expect(runCli(['merge', '--no-config', latest, older], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: 'mcec-result: merge: r6.json was checked against schema version 2026-06, r7.json against schema version 2026-07: merge reports of one schema version\n',
    });
    // Written before spec section 8.3: no version, no digest.
    const report = JSON.parse(readFileSync(join(dir, older), 'utf8'));
    delete report.schema.version;
    delete report.schema.sha256;
    writeFileSync(join(dir, 'old.json'), JSON.stringify(report));
    expect(runCli(['merge', '--no-config', latest, 'old.json'], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: 'mcec-result: merge: old.json was checked against schema version 2026-06, r7.json against schema version 2026-07: merge reports of one schema version (a report without schema.version was written before versions were recorded, against 2026-06)\n',
    });
    const merged = runCli(['merge', '--no-config', '-f', 'json', 'old.json', checked('r6a.json', 'a.jsonl', '--schema-version', '2026-06')], { cwd: dir });
    expect(merged.status).toBe(1);
    expect(JSON.parse(merged.stdout).schema).toMatchObject({ version: '2026-06', sha256: sha256Of(files['2026-06']) });

    // One --schema path, two files: the digests differ.
    const one = tempFiles({ 'run.jsonl': lines(noText), 's.json': readFileSync(join(repoRoot, 'test/data/newer.schema.json')) });
    const two = tempFiles({ 'run2.jsonl': lines(noText), 's.json': readFileSync(join(repoRoot, 'test/data/newer.schema.json'), 'utf8').replace('"title"', '"$comment": "edited",\n  "title"') });
    runCli(['check', '--no-config', '--schema', 's.json', '-f', `json=${join(dir, 's1.json')}`, 'run.jsonl'], { cwd: one });
    runCli(['check', '--no-config', '--schema', 's.json', '-f', `json=${join(dir, 's2.json')}`, 'run2.jsonl'], { cwd: two });
    const digests = runCli(['merge', '--no-config', 's1.json', 's2.json'], { cwd: dir });
    expect(digests.status).toBe(2);
    expect(digests.stderr).toMatch(/^mcec-result: merge: s2\.json was checked against a schema of SHA-256 [0-9a-f]{64}, s1\.json against one of [0-9a-f]{64} \(s\.json\): the schema file changed between the runs\n$/);
  });
});

describe('baselines and schema versions', () => {
  it('record schemaVersion; a run of another version says so in one stderr line and goes on', () => {
    const dir = tempFiles({ 'run.jsonl': lines(noText, { ok: false, sessionId: 's1' }) });
    expect(runCli(['check', '--no-config', '--write-baseline', 'b.json', 'run.jsonl'], { cwd: dir }).status).toBe(0);
    const baseline = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8'));
    expect(baseline.schemaVersion).toBe('2026-07');
    expect(runCli(['check', '--no-config', '--baseline', 'b.json', 'run.jsonl'], { cwd: dir })).toMatchObject({ status: 0, stderr: '' });

    const other = runCli(['check', '--no-config', '--schema-version', '2026-06', '--baseline', 'b.json', '-f', 'json', 'run.jsonl'], { cwd: dir });
    expect(other.stderr).toBe('mcec-result: baseline b.json was recorded with schema version 2026-07, this run checks against schema version 2026-06: findings of categories only one of them has may show as new or stale\n');
    // It goes on: the category 2026-06 lacks is a new finding.
    expect(other.status).toBe(1);
    expect(JSON.parse(other.stdout).findings.map((f: { rule: string; line: number }) => [f.rule, f.line])).toEqual([['schema', 1]]);

    // A baseline without the field was recorded against 2026-06.
    delete baseline.schemaVersion;
    writeFileSync(join(dir, 'old.json'), JSON.stringify(baseline));
    expect(runCli(['check', '--no-config', '--baseline', 'old.json', 'run.jsonl'], { cwd: dir }).stderr).toBe(
      'mcec-result: baseline old.json was recorded with schema version 2026-06 (it names none), this run checks against schema version 2026-07: findings of categories only one of them has may show as new or stale\n',
    );
    expect(runCli(['check', '--no-config', '--schema-version', '2026-06', '--baseline', 'old.json', 'run.jsonl'], { cwd: dir }).stderr).toBe('');
  });
});

describe('explain', () => {
  it('lists the versions and what each adds; explains ocr-no-text', () => {
    expect(runCli(['explain', '--no-config', 'schema-versions'])).toMatchObject({
      status: 0,
      stdout: [
        "schema-versions: the envelope schemas mcec-result bundles, chosen with --schema-version <name> (or the config's schemaVersion)",
        '  2026-06  10 categories (data/agent-tool-result.schema.json)',
        '  2026-07  adds categories ocr-blank, ocr-no-text (data/agent-tool-result.schema.2026-07.json), in use',
        '  latest   2026-07, the newest bundled: the default',
        '',
      ].join('\n'),
    });
    const noTextCategory = runCli(['explain', '--no-config', 'ocr-no-text']);
    expect(noTextCategory.status).toBe(0);
    expect(noTextCategory.stdout).toMatch(/^ocr-no-text: an error category \(schema version 2026-07; the schema in use, 2026-07, lists it\)\n  when +OCR found no readable text\n/);
    expect(noTextCategory.stdout).toContain('ocr-no-text: an error code, listed under one category');
    expect(runCli(['explain', '--no-config', '--schema-version', '2026-06', 'ocr-blank']).stdout).toMatch(/^ocr-blank: an error category \(schema version 2026-07; the schema in use, 2026-06, does not: check with --schema-version 2026-07\)\n/);
  });
});

describe('a codes file under either version', () => {
  it('may list codes under a category of any bundled version', () => {
    const dir = tempFiles({ 'run.jsonl': lines(noText), 'ocr.json': JSON.stringify({ errorCodes: { 'ocr-blank': ['ocr-frame-empty'] } }) });
    for (const version of ['2026-06', '2026-07']) {
      expect(runCli(['check', '--no-config', '--schema-version', version, '--codes', 'ocr.json', 'run.jsonl'], { cwd: dir }).status).toBe(version === '2026-06' ? 1 : 0);
    }
  });
});

describe('the library and the Vitest matcher', () => {
  it('checkEnvelope, createCheckContext and check take schemaVersion', async () => {
    expect(checkEnvelope(noText)).toEqual([]);
    const [finding] = checkEnvelope(noText, { schemaVersion: '2026-06' });
    expect(finding).toMatchObject({ rule: 'schema', pointer: '/error/category', message: expect.stringContaining('a category of schema version 2026-07') });
    expect(createCheckContext({ schemaVersion: '2026-06' }).schema).toMatchObject({ source: 'bundled', version: '2026-06', sha256: sha256Of(files['2026-06']) });
    expect(() => createCheckContext({ schemaVersion: '2026-05' })).toThrow('check options: schemaVersion: expected a bundled schema version: 2026-06, 2026-07, latest, got "2026-05"');
    expect(() => createCheckContext({ schema: 'test/data/newer.schema.json', schemaVersion: '2026-06' })).toThrow(UsageError);
    const report = await check([fixture], { schemaVersion: '2026-06', jobs: 1 });
    expect(report.schema).toMatchObject({ version: '2026-06' });
    expect(report.summary.invalid).toBe(2);
    // Beside a context of another version, the option is refused, not dropped.
    await expect(check([fixture], { schemaVersion: '2026-06' }, createCheckContext())).rejects.toThrow('check(): schemaVersion differs from the context given');
  });

  it("a context's version decides every byte range on worker threads", async () => {
    // Workers make their own context from what the run posts them: the version must be in it.
    const built = await import('../dist/index.js');
    const line = JSON.stringify({ ...noText, pad: 'x'.repeat(100) });
    const dir = tempFiles({ 'big.jsonl': `${line}\n`.repeat(Math.ceil((18 * 1024 * 1024) / (line.length + 1))) });
    const context = built.createCheckContext({ schemaVersion: '2026-06' });
    const [one, two] = [await built.check([join(dir, 'big.jsonl')], { jobs: 1 }, context), await built.check([join(dir, 'big.jsonl')], { jobs: 2 }, context)];
    expect([one.summary.invalid, two.summary.invalid]).toEqual([one.summary.records, two.summary.records]);
    // Compared as a boolean: a diff of two reports this size takes vitest minutes.
    expect(built.formatReport('json', two) === built.formatReport('json', one)).toBe(true);
  });

  it('toBeMcecResult takes schemaVersion', () => {
    expect(noText).toBeMcecResult();
    expect(noText).not.toBeMcecResult({ schemaVersion: '2026-06' });
    expect(() => expect(noText).toBeMcecResult({ schemaVersion: '2026-06' })).toThrow(/a category of schema version 2026-07, not of 2026-06: check with --schema-version 2026-07 {2}schema$/);
    expect(mcecFindings({ content: [{ type: 'text', text: JSON.stringify(noText) }], isError: true }, { schemaVersion: '2026-06' })).toEqual([expect.objectContaining({ rule: 'schema' })]);
    expect(() => expect(noText).toBeMcecResult({ schemaVersion: 'newest' })).toThrow('toBeMcecResult: schemaVersion: expected a bundled schema version: 2026-06, 2026-07, latest, got "newest"');
  });
});

describe('docs/schema-versions.md', () => {
  const doc = readFileSync(join(repoRoot, 'docs/schema-versions.md'), 'utf8');
  // Each recipe: a ```sh block of one mcec-result command, then a ```text block of (a part of) its output.
  const recipes = [...doc.matchAll(/```sh\n(mcec-result [^\n]+)\n```\n+```text\n([\s\S]*?)```/g)].map((m) => ({ command: m[1]!, output: m[2]! }));

  it('has recipes', () => {
    expect(recipes.length).toBeGreaterThanOrEqual(3);
  });

  for (const { command, output } of recipes) {
    it(`runs as written: ${command}`, () => {
      const result = spawnShell(command);
      for (const line of output.split('\n').filter((text) => text !== '' && text !== '...')) expect(result, command).toContain(line);
    });
  }
});

/** A recipe as a shell runs it from the repository root, `mcec-result` being the built binary: its stdout and stderr. */
function spawnShell(command: string): string {
  const dir = tempFiles({ 'mcec-result': `#!/bin/sh\nexec "${process.execPath}" "${binary}" "$@"\n` });
  chmodSync(join(dir, 'mcec-result'), 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', PATH: `${dir}:${process.env['PATH'] ?? ''}` };
  delete env['FORCE_COLOR'];
  return spawnSync('sh', ['-c', `${command} 2>&1`], { cwd: repoRoot, encoding: 'utf8', env }).stdout;
}

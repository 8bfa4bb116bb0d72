// Config files, baselines and --redact, through the built CLI on real files.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonAsset } from '../src/assets.js';
import { configSchema } from '../src/config.js';
import { ownSchemaValidator } from '../src/lazy.js';
import { ownSchemaName } from '../src/load-json.js';
import { binary, lines, runCli, runJson, tempFiles } from './helpers/cli.js';

const S = '5f19c9c01a3f';
const noError = { ok: false, sessionId: S };
const typo = { ok: false, error: { code: 'window-not-fonud', category: 'no-target', detail: 'd' } };
const ok = { ok: true, result: {} };

describe('config file', () => {
  it('is found from the working directory upward and fills in options', () => {
    const dir = tempFiles({
      'mcec-result.config.json': JSON.stringify({ rules: { 'unknown-code': 'error' }, maxListed: 1, codes: 'codes/extra.json' }),
      'codes/extra.json': JSON.stringify({ errorCodes: { internal: ['custom-fault'] } }),
      'runs/deep/run.jsonl': lines(typo, { ok: false, error: { code: 'custom-fault', category: 'internal', detail: 'd' } }),
    });
    const result = runJson(['run.jsonl'], { cwd: join(dir, 'runs/deep') });
    expect(result.status).toBe(1);
    expect(result.report.findings).toEqual([expect.objectContaining({ rule: 'unknown-code', severity: 'error', line: 1 })]);
  });

  it("a config's true switches are turned off from the command line with --no-...", () => {
    // Was: no --no-redact, --no-strict-codes, --no-quiet, --no-exit-zero, --no-extract: a config's true could not be undone.
    const dir = tempFiles({
      'mcec-result.config.json': JSON.stringify({ redact: true, strictCodes: true, quiet: true, exitZero: true, extract: true }),
      'b.jsonl': lines({ ok: false, error: { code: 'zzz-q', category: 'no-target', detail: 'SECRET-D' } }, 'prefix {"ok":true,"result":{"a":"SECRET-R"},"bad":1}', '{"ok":true,"result":{"text":"SECRET-P" SECRET-P}}'),
    });
    const configured = runJson(['b.jsonl'], { cwd: dir });
    expect(configured.status).toBe(0);
    expect(configured.report.findings.map((f: { rule: string; severity: string }) => [f.rule, f.severity])).toEqual([['unknown-code', 'error'], ['schema', 'error'], ['parse-error', 'error']]);
    expect(JSON.stringify(configured.report)).not.toContain('SECRET');
    const switches = ['--no-redact', '--no-strict-codes', '--no-exit-zero', '--no-extract'];
    const undone = runJson(['b.jsonl', ...switches, '--no-quiet', '-f', 'human=undone.txt'], { cwd: dir });
    expect(undone.status).toBe(1);
    expect(undone.report.findings.map((f: { rule: string; severity: string }) => [f.rule, f.severity])).toEqual([['unknown-code', 'warning'], ['parse-error', 'error'], ['parse-error', 'error']]);
    expect(JSON.stringify(undone.report)).toContain('SECRET-P');
    // Quiet lists errors only: the warning of --no-strict-codes shows with --no-quiet, and only with it.
    expect(runCli(['check', 'b.jsonl', ...switches], { cwd: dir }).stdout).not.toContain('unknown-code');
    expect(readFileSync(join(dir, 'undone.txt'), 'utf8')).toContain('unknown-code');
  });

  it('command-line options win; --rule is merged rule by rule', () => {
    const dir = tempFiles({
      'mcec-result.config.json': JSON.stringify({ rules: { 'unknown-code': 'error', schema: 'off' }, format: 'json' }),
      'run.jsonl': lines(typo, noError),
    });
    const fromConfig = runCli(['check', 'run.jsonl'], { cwd: dir });
    expect(JSON.parse(fromConfig.stdout).findings.map((f: { rule: string }) => f.rule)).toEqual(['unknown-code']);
    const overridden = runJson(['--rule', 'unknown-code=off', 'run.jsonl'], { cwd: dir });
    expect(overridden.report.findings).toEqual([]);
    expect(overridden.status).toBe(0);
    expect(runCli(['check', '-f', 'human', 'run.jsonl'], { cwd: dir }).stdout).toContain('problem');
    // Was: the config's unknown-code setting beat --strict-codes typed on the command line.
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ rules: { 'unknown-code': 'warning', 'unknown-warning-code': 'off', schema: 'off' } }));
    const strict = runJson(['--strict-codes', 'run.jsonl'], { cwd: dir });
    expect(strict).toMatchObject({ status: 1, report: { findings: [{ rule: 'unknown-code', severity: 'error' }] } });
    expect(runJson(['--strict-codes', '--rule', 'unknown-code=warning', 'run.jsonl'], { cwd: dir }).report.findings).toEqual([expect.objectContaining({ rule: 'unknown-code', severity: 'warning' })]);
    expect(runJson(['run.jsonl'], { cwd: dir }).report.findings).toEqual([expect.objectContaining({ rule: 'unknown-code', severity: 'warning' })]);
    // The config's default output goes unused when every format typed names its file: no mistake.
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ output: 'report.txt' }));
    expect(runCli(['check', '-f', 'sarif=out.sarif', 'run.jsonl'], { cwd: dir })).toMatchObject({ status: 1, stdout: '', stderr: '' });
    expect(JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8')).version).toBe('2.1.0');
    expect(existsSync(join(dir, 'report.txt'))).toBe(false);
  });

  it('a config file that is a link to nothing is said so, not passed over for a config further up', () => {
    const dir = tempFiles({ 'mcec-result.config.json': JSON.stringify({ rules: { schema: 'off' } }), 'runs/run.jsonl': lines({ ok: 'yes' }) });
    symlinkSync('gone.json', join(dir, 'runs/mcec-result.config.json'));
    // Was: exit 0, the parent's config (schema off) used as if the link were not there.
    expect(runCli(['check', 'run.jsonl'], { cwd: join(dir, 'runs') })).toMatchObject({
      status: 2,
      stdout: '',
      stderr: `mcec-result: config ${join(dir, 'runs/mcec-result.config.json')}: a link to gone.json, which leads to no file: mend or remove the link, or run with --no-config\n`,
    });
    expect(runCli(['check', '--no-config', 'run.jsonl'], { cwd: join(dir, 'runs') }).status).toBe(1);
  });

  it('a broken package.json: passed over, unless it names "mcec-result", whose config it would hold', () => {
    const dir = tempFiles({ 'package.json': '{"name": "x",}', 'sub/run.jsonl': lines(ok) });
    expect(runCli(['check', 'run.jsonl'], { cwd: join(dir, 'sub') }).status).toBe(0);
    // Was: the config left out without a word, the run as if it had none.
    writeFileSync(join(dir, 'package.json'), '{"name": "x", "mcec-result": {"quiet": true},}');
    expect(runCli(['check', 'run.jsonl'], { cwd: join(dir, 'sub') })).toMatchObject({
      status: 2,
      stderr: `mcec-result: config ${join(dir, 'package.json')}:1:46: property name expected, found "}"\n`,
    });
  });

  it('a "mcec-result" key in package.json; --config FILE; --no-config', () => {
    const dir = tempFiles({
      'package.json': JSON.stringify({ name: 'agent-tests', 'mcec-result': { rules: { schema: 'warning' } } }),
      'strict.json': JSON.stringify({ strictCodes: true }),
      'run.jsonl': lines(noError, typo),
    });
    const pkg = runJson(['run.jsonl'], { cwd: dir });
    expect(pkg.status).toBe(0);
    expect(pkg.report.findings[0]).toMatchObject({ rule: 'schema', severity: 'warning' });
    const named = runJson(['--config', 'strict.json', 'run.jsonl'], { cwd: dir });
    expect(named.report.findings.map((f: { rule: string; severity: string }) => `${f.rule}:${f.severity}`)).toEqual(['schema:error', 'unknown-code:error']);
    const none = runJson(['--no-config', 'run.jsonl'], { cwd: dir });
    expect(none.report.findings.map((f: { rule: string; severity: string }) => `${f.rule}:${f.severity}`)).toEqual(['schema:error', 'unknown-code:warning']);
    // Was read as a package.json for the end of its name: "/mcec-result must be an object (got undefined)".
    writeFileSync(join(dir, 'team-package.json'), JSON.stringify({ strictCodes: true }));
    expect(runJson(['--config', 'team-package.json', 'run.jsonl'], { cwd: dir }).report.findings[1]).toMatchObject({ rule: 'unknown-code', severity: 'error' });
    mkdirSync(join(dir, 'other'));
    writeFileSync(join(dir, 'other/package.json'), JSON.stringify({ name: 'other' }));
    expect(runCli(['check', '--config', 'other/package.json', 'run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: 'mcec-result: config other/package.json: a package.json holds its settings under the key "mcec-result", which this one does not have\n',
    });
  });

  const bad: [string, string, RegExp][] = [
    ['an unknown key', JSON.stringify({ colour: true }), /config .*mcec-result\.config\.json: unknown key "colour" \(did you mean "color"\?\)\n$/],
    ['an option spelled as on the command line', JSON.stringify({ 'max-listed': 3 }), /: unknown key "max-listed" \(did you mean "maxListed"\?\)\n$/],
    ['a key that is no option of the config', JSON.stringify({ speed: 2 }), /: unknown key "speed" \(keys: format, output, schema, schemaVersion, codes, strictCodes, rules, .*jobs, findingsInMemory, progress.*\)\n$/],
    // Was "unknown key": they are options, of one run rather than of every run the config serves.
    ['a shard', JSON.stringify({ shard: '1/2' }), /mcec-result\.config\.json: "shard" is command-line only: --shard i\/n picks one CI job's part of the inputs: give it on that job's command line\n$/],
    ['a baseline to write', JSON.stringify({ writeBaseline: 'b.json' }), /: "writeBaseline" is command-line only: --write-baseline FILE records a baseline/],
    ['another config', JSON.stringify({ config: 'other.json' }), /: "config" is command-line only: --config FILE chooses the config file: give it on the command line\n$/],
    ['--no-config', JSON.stringify({ noConfig: true }), /: "noConfig" is command-line only: /],
    // The option's own words, said of the key: was "must be <= 256".
    ['too many jobs', JSON.stringify({ jobs: 300 }), /mcec-result\.config\.json: \/jobs: expected a whole number from 1 to 256, got "300"\n$/],
    ['a line limit past Node\'s longest string', JSON.stringify({ maxLineBytes: '1G' }), /mcec-result\.config\.json: \/maxLineBytes: at most 536870888 bytes .*got "1G"\n$/],
    ['a line limit that is no size', JSON.stringify({ maxLineBytes: '64 megs' }), /mcec-result\.config\.json: \/maxLineBytes: expected a size in bytes, /],
    ['a line limit of another type', JSON.stringify({ maxLineBytes: true }), /mcec-result\.config\.json: \/maxLineBytes must be a number of bytes or a size such as "64M" \(got boolean\)\n$/],
    ['an unknown rule', JSON.stringify({ rules: { nope: 'off' } }), /\/rules: unknown rule "nope" \(rules: parse-error, /],
    ['a misspelt rule', JSON.stringify({ rules: { 'unknown-cod': 'off' } }), /\/rules: unknown rule "unknown-cod" \(did you mean "unknown-code"\?\)\n$/],
    ['a bad severity', JSON.stringify({ rules: { schema: 'loud' } }), /\/rules\/schema must be one of: off, warning, error\n$/],
    ['a wrong type', JSON.stringify({ maxListed: 'all' }), /\/maxListed must be an integer \(got string\)\n$/],
    ['not an object', '["json"]', /mcec-result\.config\.json: the config must be an object \(got array\)\n$/],
    // An empty path resolved to the config's own folder: "cannot write /project: is a directory".
    ['an empty output path', JSON.stringify({ output: '' }), /mcec-result\.config\.json: \/output is empty: give a file name\n$/],
    ['an empty codes path in a list', JSON.stringify({ codes: ['team.json', ''] }), /mcec-result\.config\.json: \/codes\/1 is empty: give a file name\n$/],
    ['an empty format', JSON.stringify({ format: ['human', ''] }), /\/format\/1 is empty: give a format, as --format takes it\n$/],
    ['a format without its file', JSON.stringify({ format: 'json=' }), /^mcec-result: config .*mcec-result\.config\.json: \/format json=: the file name is missing\n$/],
    ['an unknown format', JSON.stringify({ format: 'sarf' }), /^mcec-result: config .*mcec-result\.config\.json: \/format: unknown format "sarf"/],
    // Was "--format: json and sarif would both go to stdout", the command line blamed for the config.
    ['two documents to stdout', JSON.stringify({ format: ['json', 'sarif'] }), /^mcec-result: config .*mcec-result\.config\.json: \/format: json and sarif would both go to stdout, /],
    // Was "cannot read codes file /abs/nope.json", naming neither the config nor the key.
    ['a codes file that is not there', JSON.stringify({ codes: ['nope.json'] }), /^mcec-result: config .*mcec-result\.config\.json: \/codes: there is no .*nope\.json \(a config's paths are relative to its own folder\)\n$/],
    ['a schema that is not there', JSON.stringify({ schema: 'schemas/nope.json' }), /: \/schema: there is no .*schemas\/nope\.json \(/],
    // The command line refuses `--schema -`; the config found a file named "-" beside it.
    ['- as the schema', JSON.stringify({ schema: '-' }), /mcec-result\.config\.json: \/schema: - would be standard input, which holds the records: name a file\n$/],
    ['- in a list of codes files', JSON.stringify({ codes: ['team.json', '-'] }), /mcec-result\.config\.json: \/codes\/1: - would be standard input, which holds the records: name a file\n$/],
    ['- as the baseline', JSON.stringify({ baseline: '-' }), /mcec-result\.config\.json: \/baseline: - would be standard input, /],
    ['broken JSON', '{"quiet": true,,}', /config .*mcec-result\.config\.json:1:16: property name expected, found ","\n$/],
  ];
  for (const [name, text, message] of bad) {
    it(`names the file and key of ${name}, exit 2`, () => {
      const dir = tempFiles({ 'mcec-result.config.json': text, 'run.jsonl': lines(ok) });
      const result = runCli(['check', 'run.jsonl'], { cwd: dir });
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    });
  }

  it("points into a package.json's \"mcec-result\" key, where its settings are", () => {
    // Was "/format" and "/codes", the pointers of a config file of its own.
    for (const [settings, message] of [
      [{ format: 'jsn' }, /package\.json: \/mcec-result\/format: unknown format "jsn"/],
      [{ codes: ['nope.json'] }, /package\.json: \/mcec-result\/codes: there is no .*nope\.json/],
      [{ maxWarnings: 'x' }, /package\.json: \/mcec-result\/maxWarnings must be an integer/],
    ] as const) {
      const dir = tempFiles({ 'package.json': JSON.stringify({ name: 'x', 'mcec-result': settings }), 'run.jsonl': lines(ok) });
      const result = runCli(['check', 'run.jsonl'], { cwd: dir });
      expect(result).toMatchObject({ status: 2, stdout: '' });
      expect(result.stderr).toMatch(message);
    }
  });

  it('takes every long option of a run: jobs, findingsInMemory, progress, and maxLineBytes as the option writes it', () => {
    const long = JSON.stringify({ ok: true, result: { text: 'x'.repeat(3000) } });
    const dir = tempFiles({ 'run.jsonl': lines(ok, long, typo, noError) });
    const expected = runJson(['--no-config', '--max-line-bytes', '2K', 'run.jsonl'], { cwd: dir }).report;
    expect(expected.findings.map((f: { rule: string }) => f.rule)).toContain('parse-error');
    // Was: "unknown key" for jobs, findingsInMemory and progress, and "must be an integer" for "2K".
    for (const settings of [{ maxLineBytes: '2K' }, { maxLineBytes: 2048, jobs: 2, findingsInMemory: 1, progress: false }, { maxLineBytes: '2KiB', jobs: 1 }]) {
      writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify(settings));
      const result = runJson(['run.jsonl'], { cwd: dir });
      expect(result.stderr).toBe('');
      expect(result.report).toEqual(expected);
    }
    // The command line still wins.
    expect(runJson(['--max-line-bytes', '64M', 'run.jsonl'], { cwd: dir }).report.findings.map((f: { rule: string }) => f.rule)).not.toContain('parse-error');
  });

  it('explain reports a broken config as check does, naming the file and key', () => {
    const team = JSON.stringify({ errorCodes: { internal: ['custom-fault'] } });
    const dir = tempFiles({ 'mcec-result.config.json': JSON.stringify({ codes: 'missing.json' }), 'team.json': team, 'sub/.keep': '', 'run.jsonl': lines(ok) });
    const config = join(dir, 'mcec-result.config.json');
    const said = `mcec-result: config ${config}: /codes: there is no ${join(dir, 'missing.json')} (a config's paths are relative to its own folder)\n`;
    expect(runCli(['check', 'run.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stderr: said });
    // Was "cannot read codes file /abs/missing.json", for every name, a rule's too.
    for (const name of ['schema', 'no-target']) expect(runCli(['explain', name], { cwd: join(dir, 'sub') })).toMatchObject({ status: 2, stdout: '', stderr: said });
    writeFileSync(config, JSON.stringify({ schema: 'nope.json' }));
    expect(runCli(['explain', 'schema'], { cwd: dir })).toMatchObject({ status: 2, stderr: `mcec-result: config ${config}: /schema: there is no ${join(dir, 'nope.json')} (a config's paths are relative to its own folder)\n` });
    writeFileSync(config, JSON.stringify({ jobs: 0 }));
    expect(runCli(['explain', 'schema'], { cwd: dir })).toMatchObject({ status: 2, stderr: `mcec-result: config ${config}: /jobs: expected a whole number from 1 to 256, got "0"\n` });
    // What explain does not read stops only check: a baseline a later step records, codes the command line replaces.
    writeFileSync(config, JSON.stringify({ baseline: 'later.json', codes: 'missing.json' }));
    expect(runCli(['explain', 'custom-fault', '--codes', 'team.json'], { cwd: dir })).toMatchObject({ status: 0, stderr: '' });
    expect(runCli(['explain', 'schema', '--no-config'], { cwd: dir })).toMatchObject({ status: 0, stderr: '' });
  });

  it('a missing --config file: exit 2', () => {
    const dir = tempFiles({ 'run.jsonl': lines(ok) });
    expect(runCli(['check', '--config', 'nope.json', 'run.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stderr: 'mcec-result: cannot read config nope.json: no such file or directory\n' });
  });
});

describe("the package's own schemas", () => {
  // Generated at build time (scripts/build-validator.mjs): a run with a config, codes or baseline
  // file must not load ajv and compile, which cost ~0.12 s a run. Should a schema change without the
  // build following, the validator would be compiled again, correct but slow; this test says so.
  it('are validated by the build-time validators, made from the schemas the run would compile', () => {
    const schemas: [string, object][] = [
      ['config', configSchema()],
      ...['data/codes.schema.json', 'data/baseline.schema.json', 'schemas/report-v1.schema.json'].map((asset): [string, object] => [ownSchemaName(asset), readJsonAsset(asset) as object]),
    ];
    for (const [name, schema] of schemas) {
      const validate = ownSchemaValidator(name, schema) as ReturnType<typeof ownSchemaValidator> & { schemaText?: string };
      expect(validate.schemaText, name).toBe(JSON.stringify(schema));
    }
    // Another schema under a known name is compiled, and validates by itself.
    const other = ownSchemaValidator('config', { type: 'object', required: ['x'] }) as ReturnType<typeof ownSchemaValidator> & { schemaText?: string };
    expect(other.schemaText).toBeUndefined();
    expect(other({})).toBe(false);
    expect(other({ x: 1 })).toBe(true);
  });
});

describe('--schema categories', () => {
  const spec = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'data', 'agent-tool-result.schema.json'), 'utf8'));
  const records = lines({ ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'd' } }, { ok: false, error: { code: 'window-not-found', category: 'no_target', detail: 'd' } });

  it('reads the category enum through $refs inside the schema', () => {
    // Was: no categories, so every category "not a category of the schema" and codes files unchecked.
    const schema = structuredClone(spec);
    schema.$defs.category = { type: 'string', enum: schema.$defs.error.properties.category.enum };
    schema.$defs.error.properties.category = { $ref: '#/$defs/category' };
    const dir = tempFiles({ 'schema.json': JSON.stringify(schema), 'c.jsonl': records, 'codes.json': JSON.stringify({ errorCodes: { timout: ['slow-thing'] } }) });
    const { report } = runJson(['--no-config', '--schema', 'schema.json', 'c.jsonl'], { cwd: dir });
    expect(report.summary.categories['no-target']).toBe(1);
    expect(report.summary.invalidCategories).toEqual({ no_target: 1 });
    const codes = runCli(['check', '--no-config', '--schema', 'schema.json', '--codes', 'codes.json', 'c.jsonl'], { cwd: dir });
    expect(codes.status).toBe(2);
    expect(codes.stderr).toContain('timout');
  });

  it('a schema without a category enum counts every category as its own', () => {
    const schema = structuredClone(spec);
    delete schema.$defs.error.properties.category.enum;
    const dir = tempFiles({ 'schema.json': JSON.stringify(schema), 'c.jsonl': records });
    const { report } = runJson(['--no-config', '--schema', 'schema.json', '-f', 'human=c.txt', 'c.jsonl'], { cwd: dir });
    expect(report.summary.categories).toEqual({ 'no-target': 1, no_target: 1 });
    expect(report.summary.invalidCategories).toEqual({});
    expect(readFileSync(join(dir, 'c.txt'), 'utf8')).not.toContain('not a category of the schema');
  });
});

describe('baselines', () => {
  const original = lines(ok, noError, typo, '{"ok":tru');

  it('a baseline is written in pieces, the bytes of JSON.stringify(baseline, null, 2)', async () => {
    // Was one string: ~1.9M entries passed V8's longest string ("Invalid string length"), nothing written.
    const { baselinePieces } = await import('../src/baseline.js');
    const entry = (i: number) => ({ rule: 'schema' as const, source: `logs/${i}.jsonl`, pointer: '/error', fingerprint: `f${i}`, count: 1 + (i % 3), message: `m "${i}" \u0000 \u2028` });
    for (const findings of [[], [entry(1)], Array.from({ length: 200 }, (_, i) => entry(i))]) {
      const baseline = { baselineVersion: 1 as const, tool: 'mcec-result' as const, sources: 'relative to this file' as const, findings };
      expect([...baselinePieces(baseline)].join('')).toBe(`${JSON.stringify(baseline, null, 2)}\n`);
    }
  });

  it('--write-baseline records the findings and exits 0; --baseline then reports only new ones', () => {
    const dir = tempFiles({ 'run.jsonl': original });
    const write = runCli(['check', '--write-baseline', 'baseline.json', 'run.jsonl'], { cwd: dir });
    expect(write.status).toBe(0);
    const baseline = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8'));
    expect(baseline.baselineVersion).toBe(1);
    expect(baseline.findings.map((f: { rule: string }) => f.rule).sort()).toEqual(['parse-error', 'schema', 'unknown-code']);

    const same = runJson(['--baseline', 'baseline.json', 'run.jsonl'], { cwd: dir });
    expect(same.status).toBe(0);
    expect(same.report.findings).toEqual([]);
    expect(same.report.summary).toMatchObject({ errors: 0, warnings: 0, baseline: { suppressed: 3, stale: 0 } });
  });

  it('matches through a linked folder: "$PWD/logs" spelt through the link and logs spelt physically are one input', () => {
    // Was: the baseline named the file ../link/logs/run.jsonl, which matched nothing (no entry stale either).
    const dir = tempFiles({ 'real/logs/run.jsonl': original });
    symlinkSync('real', join(dir, 'link'));
    const real = join(dir, 'real');
    expect(runCli(['check', join(dir, 'link', 'logs'), '--write-baseline', 'b.json'], { cwd: real }).status).toBe(0);
    expect(readFileSync(join(real, 'b.json'), 'utf8')).toContain('"source": "logs/run.jsonl"');
    expect(runJson(['logs', '--baseline', 'b.json'], { cwd: real })).toMatchObject({ status: 0, report: { findings: [], summary: { baseline: { suppressed: 3, stale: 0 } } } });
    expect(runCli(['check', 'logs', '--write-baseline', 'c.json'], { cwd: real }).status).toBe(0);
    expect(runJson([join(dir, 'link', 'logs'), '--baseline', join(dir, 'link', 'c.json')], { cwd: real })).toMatchObject({ status: 0, report: { findings: [], summary: { baseline: { suppressed: 3, stale: 0 } } } });
  });

  it("a parse error is matched by its line's text: with or without --redact, and after a cut-off last line is followed by more", () => {
    // Was: matched on its message, which quotes the line or not (--redact) and says "cut off" until
    // the next line is written: each made a known parse error new, and its entry stale.
    const dir = tempFiles({
      'run.jsonl': lines(ok, 'not json', '{"ok":tru', ok),
      'live.jsonl': `${lines(ok)}{"ok":false,"error":{"detail":"abc`,
      'doc.json': '[{"ok":true,"result":{}}, nope]',
      'two.jsonl': lines('{"ok":tru', '{"ok":fal'),
    });
    expect(runCli(['check', '--redact', '--write-baseline', 'redacted.json', 'run.jsonl', 'doc.json'], { cwd: dir }).status).toBe(0);
    expect(runJson(['--baseline', 'redacted.json', 'run.jsonl', 'doc.json'], { cwd: dir })).toMatchObject({ status: 0, report: { findings: [], summary: { baseline: { suppressed: 3, stale: 0 } } } });
    // One plain baseline serves the cases below: each run reads only its own inputs, whose entries
    // alone count as suppressed or stale.
    expect(runCli(['check', '--write-baseline', 'plain.json', 'run.jsonl', 'doc.json', 'live.jsonl', 'two.jsonl'], { cwd: dir }).status).toBe(0);
    expect(runJson(['--redact', '--baseline', 'plain.json', 'run.jsonl', 'doc.json'], { cwd: dir })).toMatchObject({ status: 0, report: { summary: { baseline: { suppressed: 3, stale: 0 } } } });
    writeFileSync(join(dir, 'live.jsonl'), `${lines(ok)}{"ok":false,"error":{"detail":"abc\n${lines(ok)}`);
    expect(runJson(['--baseline', 'plain.json', 'live.jsonl'], { cwd: dir })).toMatchObject({ status: 0, report: { findings: [], summary: { baseline: { suppressed: 1, stale: 0 } } } });
    // Two different broken lines with the same message at the same column are two entries, not one.
    writeFileSync(join(dir, 'two.jsonl'), lines('{"ok":fal', '{"ok":fal'));
    expect(runJson(['--baseline', 'plain.json', 'two.jsonl'], { cwd: dir }).report.summary.baseline).toEqual({ suppressed: 1, stale: 1 });
  });

  it('counts as stale only the entries of inputs the run read: shards and partial runs see no stale entries of the rest', () => {
    const dir = tempFiles(Object.fromEntries(['a', 'b', 'c', 'd'].map((name) => [`${name}.jsonl`, lines({ ok: false }, { ok: true, result: {}, extra: 1 })])));
    expect(runCli(['check', '.', '--write-baseline', 'baseline.json'], { cwd: dir }).status).toBe(0);
    const shards = [1, 2].map((i) => {
      runCli(['check', '.', '--baseline', 'baseline.json', '--shard', `${i}/2`, '--format', `json=shard-${i}.json`], { cwd: dir });
      return JSON.parse(readFileSync(join(dir, `shard-${i}.json`), 'utf8')).summary.baseline;
    });
    expect(shards).toEqual([{ suppressed: 4, stale: 0 }, { suppressed: 4, stale: 0 }]);
    expect(JSON.parse(runCli(['merge', '--format', 'json', 'shard-1.json', 'shard-2.json'], { cwd: dir }).stdout).summary.baseline).toEqual({ suppressed: 8, stale: 0 });
    // Recorded as ./b.jsonl (check .), matched when named b.jsonl, .//b.jsonl, with a backslash or
    // absolute: one spelling per input, the four alike, so a spelling that missed would leave its
    // input's two findings new, under its name.
    const spelt = runJson(['b.jsonl', './/c.jsonl', '.\\d.jsonl', join(dir, 'a.jsonl'), '--baseline', 'baseline.json'], { cwd: dir }).report;
    expect(spelt.findings.map((f: { source: string }) => f.source)).toEqual([]);
    expect(spelt.summary.inputs).toBe(4);
    expect(spelt.summary.baseline).toEqual({ suppressed: 8, stale: 0 });
    // A fixed input's entries are stale, and only those.
    writeFileSync(join(dir, 'a.jsonl'), lines({ ok: true, result: {} }));
    expect(runJson(['.', '--baseline', 'baseline.json'], { cwd: dir }).report.summary.baseline).toEqual({ suppressed: 6, stale: 2 });
    // Merged shards add up their stale entries as well (was asserted only where both were 0).
    const inputs = ['a.jsonl', 'b.jsonl', 'c.jsonl', 'd.jsonl'];
    for (const i of [1, 2]) runCli(['check', ...inputs, '--baseline', 'baseline.json', '--shard', `${i}/2`, '--format', `json=fixed-${i}.json`], { cwd: dir });
    const fixed = [1, 2].map((i) => JSON.parse(readFileSync(join(dir, `fixed-${i}.json`), 'utf8')).summary.baseline);
    expect(fixed).toEqual([{ suppressed: 2, stale: 2 }, { suppressed: 4, stale: 0 }]);
    expect(JSON.parse(runCli(['merge', '--format', 'json', 'fixed-1.json', 'fixed-2.json'], { cwd: dir }).stdout).summary.baseline).toEqual({ suppressed: 6, stale: 2 });
    expect(runJson(['a.jsonl', 'missing.jsonl', '--baseline', 'baseline.json'], { cwd: dir }).report.summary.baseline).toEqual({ suppressed: 0, stale: 2 });
  });

  it('recorded from absolute paths (as CI scripts name inputs), holds them relative to the working directory, and matches any spelling', () => {
    const folders = ['logs', 'more', 'other'];
    const dir = tempFiles(Object.fromEntries(folders.map((folder) => [`${folder}/run.jsonl`, lines({ ok: false })])));
    expect(runCli(['check', ...folders.map((folder) => join(dir, folder)), '--write-baseline', 'baseline.json'], { cwd: dir }).status).toBe(0);
    const baseline = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8'));
    expect(baseline.findings.map((f: { source: string }) => f.source)).toEqual(['logs/run.jsonl', 'more/run.jsonl', 'other/run.jsonl']);
    // The same files checked from another clone (another absolute path), named relatively: each
    // folder in one spelling, so a spelling that missed would leave its finding new, under its name.
    const spelt = runJson(['logs', 'more/run.jsonl', join(dir, 'other/run.jsonl'), '--baseline', 'baseline.json'], { cwd: dir }).report;
    expect(spelt.findings.map((f: { source: string }) => f.source)).toEqual([]);
    expect(spelt.summary.inputs).toBe(3);
    expect(spelt.summary.baseline).toEqual({ suppressed: 3, stale: 0 });
  });

  it('is not written from a run that read only part of its inputs, and says why', () => {
    const dir = tempFiles({ 'run.jsonl': original, 'baseline.json': 'last week' });
    const result = runCli(['check', '--write-baseline', 'baseline.json', 'run.jsonl', 'missing.jsonl'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      'mcec-result: cannot read missing.jsonl: no such file or directory\n' +
        'mcec-result: baseline baseline.json not written: an input could not be read, so it would hold only part of the findings\n',
    );
    expect(readFileSync(join(dir, 'baseline.json'), 'utf8')).toBe('last week');
  });

  it('survives inserted lines, catches a new finding, and counts stale entries', () => {
    const dir = tempFiles({ 'run.jsonl': original });
    runCli(['check', '--write-baseline', 'baseline.json', 'run.jsonl'], { cwd: dir });
    // Two lines inserted at the top, one old failure fixed, one new failure added.
    writeFileSync(join(dir, 'run.jsonl'), lines(ok, ok, ok, { ...noError, sessionId: 'other' }, typo, '{"ok":tru'));
    const result = runJson(['--baseline', 'baseline.json', '-f', 'human=run.txt', 'run.jsonl'], { cwd: dir });
    expect(result.status).toBe(1);
    expect(result.report.findings).toEqual([expect.objectContaining({ rule: 'schema', line: 4 })]);
    expect(result.report.summary.baseline).toEqual({ suppressed: 2, stale: 1 });
    expect(readFileSync(join(dir, 'run.txt'), 'utf8')).toMatch(/baseline\s+2 known findings suppressed\s+1 entry no longer found/);
  });

  it('matches identical findings by count', () => {
    const dir = tempFiles({ 'run.jsonl': lines(noError) });
    runCli(['check', '--write-baseline', 'b.json', 'run.jsonl'], { cwd: dir });
    writeFileSync(join(dir, 'run.jsonl'), lines(noError, noError));
    expect(runJson(['--baseline', 'b.json', 'run.jsonl'], { cwd: dir }).report.findings).toHaveLength(1);
    // Two entries of one identity (baselines joined by hand, one source spelt ./run.jsonl) add up.
    const baseline = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8'));
    expect(baseline.findings).toHaveLength(1);
    baseline.findings.push({ ...baseline.findings[0], source: `./${baseline.findings[0].source}` });
    writeFileSync(join(dir, 'b.json'), JSON.stringify(baseline));
    expect(runJson(['--baseline', 'b.json', 'run.jsonl'], { cwd: dir }).report.summary).toMatchObject({ errors: 0, baseline: { suppressed: 2, stale: 0 } });
  });

  it('a baseline read through a pipe (`<(git show main:b.json)`) is relative to the run, as one on standard input', () => {
    // Was: relative to /dev/fd, where the pipe is: no entry matched, every finding was new, and none
    // stale (their inputs were not among those read), so nothing said so.
    if (process.platform === 'win32') return;
    const dir = tempFiles({ 'ev/run.jsonl': original });
    expect(runCli(['check', '--write-baseline', 'b.json', 'ev'], { cwd: dir }).status).toBe(0);
    const piped = spawnSync('bash', ['-c', '"$0" "$1" check ev --baseline <(cat b.json) -f json', process.execPath, binary], { cwd: dir, encoding: 'utf8' });
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout).summary).toMatchObject({ errors: 0, warnings: 0, baseline: { suppressed: 3, stale: 0 } });
    const merged = spawnSync('bash', ['-c', '"$0" "$1" merge <(cat b.json)', process.execPath, binary], { cwd: dir, encoding: 'utf8' });
    expect(JSON.parse(merged.stdout).findings.map((f: { source: string }) => f.source)).toEqual(['ev/run.jsonl', 'ev/run.jsonl', 'ev/run.jsonl']);
  });

  it('an invalid baseline file is a usage error', () => {
    const dir = tempFiles({ 'b.json': JSON.stringify({ findings: [] }), 'run.jsonl': lines(ok) });
    const result = runCli(['check', '--baseline', 'b.json', 'run.jsonl'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^mcec-result: baseline b\.json: must have required property 'baselineVersion' \(write one with --write-baseline\)\n$/);
  });
});

describe('--redact', () => {
  const secret = 'SECRET-4242';
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      ok: { type: 'boolean' },
      result: { type: ['object', 'null'], properties: { mode: { enum: ['fast', 'slow'] } } },
      error: { type: 'object', properties: { detail: { const: 'x' }, partialResult: { const: 'x' } } },
      warnings: { type: 'array', items: { type: 'object', properties: { detail: { enum: ['a', 'b'] } } } },
    },
  };
  const records = lines(
    { ok: true, result: { mode: secret } },
    { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: secret, lastObservation: { text: secret, base64: secret } } },
    `{"ok":true,"result":{"text":"${secret}" ${secret}}}`,
    { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'x', partialResult: secret } },
    { ok: true, result: {}, warnings: [{ code: 'capture-blank', detail: secret }] },
  );

  it('keeps detail, result and observation values out of every message', () => {
    // A .json document's parse error quotes its text as a line's does.
    const dir = tempFiles({ 'run.jsonl': records, 'schema.json': JSON.stringify(schema), 'doc.json': `[{"ok":true,"result":{}} ${secret}]` });
    const inputs = ['run.jsonl', 'doc.json'];
    const plain = runJson(['--schema', 'schema.json', ...inputs], { cwd: dir });
    // Every place is one that quotes the secret without --redact, so that the test below can fail.
    const leaks = plain.report.findings.filter((f: { message: string }) => f.message.includes(secret)).map((f: { source: string; line: number; pointer?: string }) => [f.source, f.line, f.pointer ?? null]);
    expect(leaks).toEqual([
      ['run.jsonl', 1, '/result/mode'],
      ['run.jsonl', 2, '/error/detail'],
      ['run.jsonl', 3, null],
      ['run.jsonl', 4, '/error/partialResult'],
      ['run.jsonl', 5, '/warnings/0/detail'],
      ['doc.json', 1, null],
    ]);
    const { report, stdout, status } = runJson(['--redact', '--schema', 'schema.json', '-f', 'human=redacted.txt', ...inputs], { cwd: dir });
    expect(status).toBe(1);
    expect(stdout).not.toContain(secret);
    expect(readFileSync(join(dir, 'redacted.txt'), 'utf8')).not.toContain(secret);
    expect(report.findings.map((f: { rule: string; line: number; pointer?: string }) => [f.rule, f.line, f.pointer ?? null])).toEqual([
      ['schema', 1, '/result/*'],
      ['inline-image', 2, '/error/lastObservation/*'],
      ['schema', 2, '/error/detail'],
      ['parse-error', 3, null],
      ['schema', 4, '/error/partialResult'],
      ['schema', 5, '/warnings/0/detail'],
      ['parse-error', 1, null],
    ]);
    expect(report.findings[0].message).toBe('result["*"] must be one of: fast, slow (value withheld by --redact)');
  });

  it("keeps the value's own member names out of pointers and messages, and a non-boolean isError's text", () => {
    // Was: the keys below result and lastObservation in every format's pointer (and the structuredContent
    // message), and isError's string quoted whole.
    const keys = ['jane.doe@corp.com', 'acct-4111111111111111', 'token=SECRET-abc123'];
    const dir = tempFiles({
      'r.jsonl': lines(
        { ok: false, error: { code: 'focus-not-set', category: 'focus', detail: 'x', lastObservation: { [keys[0]!]: { base64: 'AAAA' }, list: [{ base64: 'BBBB' }] } } },
        { content: [{ type: 'text', text: JSON.stringify({ ok: true, result: { [keys[1]!]: 1 } }) }], structuredContent: { ok: true, result: { [keys[1]!]: 2 } } },
        { content: [{ type: 'text', text: '{"ok":true,"result":{}}' }], isError: keys[2] },
      ),
      'schema.json': JSON.stringify({ type: 'object', properties: { result: { type: 'object', additionalProperties: false } } }),
    });
    const plain = runCli(['check', '--no-config', '-f', 'json', 'r.jsonl'], { cwd: dir }).stdout;
    for (const key of keys) expect(plain).toContain(key.replaceAll('/', '~1'));
    // One run writes every format: json to stdout, the others to files.
    const others = ['human', 'ndjson', 'sarif', 'junit', 'github', 'markdown'];
    const { report, stdout, status } = runJson(['--no-config', '--redact', ...others.flatMap((format) => ['-f', `${format}=redacted.${format}`]), 'r.jsonl'], { cwd: dir });
    expect(status).toBe(1);
    for (const [format, text] of [['json', stdout], ...others.map((format) => [format, readFileSync(join(dir, `redacted.${format}`), 'utf8')])]) {
      for (const key of keys) expect(text, format).not.toContain(key);
    }
    expect(report.findings.map((f: { pointer?: string }) => f.pointer)).toEqual(['/error/lastObservation/*/*', '/error/lastObservation/*/0/*', '/result/*', '/ok']);
    expect(report.findings[3].message).toBe('isError is a string (value withheld by --redact), not a boolean, but ok is true: the transport flag must be false (isError == !ok)');
    const schema = runJson(['--no-config', '--redact', '--schema', 'schema.json', 'r.jsonl'], { cwd: dir }).report;
    expect(schema.findings.filter((f: { rule: string }) => f.rule === 'schema').map((f: { message: string }) => f.message)).toEqual(['unexpected property (name withheld by --redact) in result']);
    // A baseline written either way matches a run the other way: pointers compare as --redact writes them.
    expect(runCli(['check', '--no-config', 'r.jsonl', '--write-baseline', 'plain.json'], { cwd: dir }).status).toBe(0);
    expect(runJson(['--no-config', '--redact', '--baseline', 'plain.json', 'r.jsonl'], { cwd: dir }).report.summary.baseline).toEqual({ suppressed: 4, stale: 0 });
    expect(runCli(['check', '--no-config', '--redact', 'r.jsonl', '--write-baseline', 'redacted.json'], { cwd: dir }).status).toBe(0);
    for (const key of keys) expect(readFileSync(join(dir, 'redacted.json'), 'utf8')).not.toContain(key);
    expect(runJson(['--no-config', '--baseline', 'redacted.json', 'r.jsonl'], { cwd: dir }).report.summary.baseline).toEqual({ suppressed: 4, stale: 0 });
  });
});

// mcec-result/matchers: each option, the config file found from the working directory as the
// command line finds it, `config: false`, the failure message, `.not`; and checkEnvelope's `config`.
// test/jest.test.ts runs the same matchers under Jest; test/vitest-matcher.test.ts has the values.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkEnvelope } from '../src/index.js';
import { mcecFindings, mcecMatchers } from '../src/matchers.js';
import '../src/vitest.js';
import { repoRoot, tempFiles } from './helpers/cli.js';

const failed = (code: string, category = 'no-target') => ({ ok: false, error: { code, category, detail: 'the window is minimized' } });
const team = failed('team-window-minimized');
const typo = failed('team-window-minimsed');
const teamCodes = JSON.stringify({ errorCodes: { 'no-target': ['team-window-minimized'] } });

/** The bundled schema with one more category: a team's own schema. */
function teamSchema(): string {
  const schema = JSON.parse(readFileSync(join(repoRoot, 'data/agent-tool-result.schema.2026-07.json'), 'utf8')) as { $defs: { error: { properties: { category: { enum: string[] } } } } };
  schema.$defs.error.properties.category.enum.push('team-quota');
  return JSON.stringify(schema);
}

const home = process.cwd();
afterEach(() => process.chdir(home));

/** A project folder with `files`, made the working directory; returns its path. */
function inProject(files: Record<string, string>): string {
  const dir = tempFiles(files);
  process.chdir(dir);
  return dir;
}

describe('toBeMcecResult options', () => {
  it('schema: a file in place of the bundled schema; schemaVersion: a bundled version', () => {
    const dir = tempFiles({ 'team.schema.json': teamSchema() });
    const quota = failed('quota-exceeded', 'team-quota');
    expect(quota).not.toBeMcecResult({ config: false });
    expect(quota).toBeMcecResult({ config: false, schema: join(dir, 'team.schema.json'), rules: { 'unknown-code': 'off' } });
    const noText = failed('ocr-no-text', 'ocr-no-text');
    expect(noText).toBeMcecResult({ config: false, schemaVersion: '2026-07' });
    expect(noText).not.toBeMcecResult({ config: false, schemaVersion: '2026-06' });
    expect(() => expect(noText).toBeMcecResult({ schema: join(dir, 'team.schema.json'), schemaVersion: '2026-06' })).toThrow('toBeMcecResult: schema and schemaVersion are one setting (a file, or a bundled version): give one');
  });

  it('codes: a file or a list of files; rules: off, warning or error per rule', () => {
    const dir = tempFiles({ 'team-codes.json': teamCodes, 'more-codes.json': JSON.stringify({ errorCodes: { 'no-target': ['team-window-gone'] } }) });
    const codes = join(dir, 'team-codes.json');
    expect(mcecFindings(team, { config: false }).map((f) => `${f.rule} ${f.severity}`)).toEqual(['unknown-code warning']);
    expect(team).not.toBeMcecResult({ config: false, strict: true });
    expect(team).toBeMcecResult({ config: false, strict: true, codes });
    expect(failed('team-window-gone')).toBeMcecResult({ config: false, strict: true, codes: [codes, join(dir, 'more-codes.json')] });
    expect(typo).not.toBeMcecResult({ config: false, codes, rules: { 'unknown-code': 'error' } });
    expect(typo).toBeMcecResult({ config: false, strict: true, codes, rules: { 'unknown-code': 'off' } });
    // The wrapper's own rules take the settings too.
    const mismatch = { content: [{ type: 'text', text: JSON.stringify(team) }], isError: false };
    expect(mismatch).not.toBeMcecResult({ config: false, codes });
    expect(mismatch).toBeMcecResult({ config: false, codes, rules: { 'is-error-mismatch': 'warning' } });
    expect(mcecFindings(mismatch, { config: false, codes, rules: { 'is-error-mismatch': 'off' } })).toEqual([]);
  });

  it('a settings file is compiled once per set of options, not on every assertion', () => {
    const dir = tempFiles({ 'team-codes.json': teamCodes });
    const options = { config: false as const, strict: true, codes: join(dir, 'team-codes.json') };
    expect(team).toBeMcecResult(options);
    rmSync(join(dir, 'team-codes.json'));
    expect(team).toBeMcecResult({ ...options });
    // Another set of options reads it afresh, and finds it gone.
    expect(() => expect(team).toBeMcecResult({ ...options, rules: { 'missing-result': 'off' } })).toThrow(/team-codes\.json/);
  });

  it('refuses a misspelt option or a wrong value, naming it', () => {
    expect(() => expect(team).toBeMcecResult({ code: 'x.json' } as object)).toThrow('toBeMcecResult: unknown option "code" (did you mean "codes"?)');
    expect(() => expect(team).toBeMcecResult({ codes: 5 } as unknown as object)).toThrow('toBeMcecResult: codes: expected a path, or an array of paths (files, not -), got 5');
    expect(() => expect(team).toBeMcecResult({ config: true } as unknown as object)).toThrow('toBeMcecResult: config: expected the path of a config file, or false to read none, got true');
    expect(() => expect(team).toBeMcecResult({ rules: { 'unknown-code': 'loud' } } as unknown as object)).toThrow('toBeMcecResult: rules.unknown-code: expected off, warning or error, got "loud"');
    expect(() => expect(team).toBeMcecResult({ rules: { 'unknown-cod': 'off' } } as unknown as object)).toThrow(/^toBeMcecResult: rules: unknown rule "unknown-cod" \(did you mean "unknown-code"\?/);
    expect(() => mcecFindings(team, { strcit: true } as object)).toThrow('mcecFindings: unknown option "strcit" (did you mean "strict"?)');
  });
});

describe('the config file', () => {
  const config = JSON.stringify({ codes: 'codes/team-codes.json', rules: { 'unknown-code': 'error' } });

  it('is found from the working directory upward, as the command line finds it, and its codes and rules apply', () => {
    const dir = inProject({ 'mcec-result.config.json': config, 'codes/team-codes.json': teamCodes, 'packages/app/test/.keep': '' });
    process.chdir(join(dir, 'packages/app/test'));
    expect(team).toBeMcecResult({ strict: true });
    expect(typo).not.toBeMcecResult();
    expect(() => expect(typo).toBeMcecResult()).toThrow(
      'expected value to be a conformant MCEC result, but:\n  /error/code  error    unknown error code "team-window-minimsed" (did you mean "team-window-minimized"?)  unknown-code\n(settings from ../../../mcec-result.config.json)',
    );
    expect(() => expect(team).not.toBeMcecResult()).toThrow(/^expected value not to be a conformant MCEC result, but it has no finding\n\(settings from \.\.\/\.\.\/\.\.\/mcec-result\.config\.json\)$/);
    // Options given win: rules merged rule by rule, codes replacing the config's.
    expect(typo).toBeMcecResult({ rules: { 'unknown-code': 'warning' } });
    expect(team).not.toBeMcecResult({ codes: [] });
    // config: false reads none: the team's code is unknown, a warning.
    expect(team).toBeMcecResult({ config: false });
    expect(team).not.toBeMcecResult({ config: false, strict: true });
  });

  it("is package.json's \"mcec-result\" key too, its schema and strictCodes applied", () => {
    inProject({
      'package.json': JSON.stringify({ name: 'team', 'mcec-result': { schema: 'team.schema.json', strictCodes: true } }),
      'team.schema.json': teamSchema(),
    });
    expect(failed('window-not-found', 'team-quota')).toBeMcecResult();
    // strictCodes: an unknown code is an error.
    expect(failed('quota-exceeded', 'team-quota')).not.toBeMcecResult();
    // A schemaVersion given replaces the config's schema (one setting).
    expect(failed('window-not-found', 'team-quota')).not.toBeMcecResult({ schemaVersion: 'latest' });
  });

  it('config: a path names one, wherever the working directory is; a written config is read again', () => {
    const dir = tempFiles({ 'team/mcec-result.config.json': config, 'team/codes/team-codes.json': teamCodes });
    inProject({});
    const named = { config: join(dir, 'team/mcec-result.config.json') };
    expect(team).toBeMcecResult({ ...named, strict: true });
    expect(typo).not.toBeMcecResult(named);
    expect(typo).toBeMcecResult();
    writeFileSync(join(dir, 'team/mcec-result.config.json'), JSON.stringify({ codes: 'codes/team-codes.json' }));
    expect(typo).toBeMcecResult(named);
    // Found upward too: written into the working directory after a first assertion found none.
    writeFileSync(join(process.cwd(), 'mcec-result.config.json'), JSON.stringify({ rules: { 'unknown-code': 'error' } }));
    expect(typo).not.toBeMcecResult();
  });

  it("a config's mistake is said as the command line says it, naming the file and the key", () => {
    const dir = inProject({ 'mcec-result.config.json': JSON.stringify({ codes: 'missing.json' }) });
    expect(() => expect(team).toBeMcecResult()).toThrow(`config ${join(dir, 'mcec-result.config.json')}: /codes: there is no ${join(dir, 'missing.json')} (a config's paths are relative to its own folder)`);
    // codes given: the config's are not read.
    expect(team).toBeMcecResult({ codes: [] });
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ rule: { 'unknown-code': 'error' } }));
    expect(() => expect(team).toBeMcecResult()).toThrow(/^config .*mcec-result\.config\.json: unknown key "rule" \(did you mean "rules"\?\)/);
    expect(team).toBeMcecResult({ config: false });
  });
});

describe('the failure message and .not', () => {
  it('lists each finding as the human format does, with the pointer for its place', () => {
    const bad = { ok: false, result: { clicked: true }, error: { code: 'window-not-fonud', category: 'no-target', detail: 'd' } };
    const message = mcecMatchers.toBeMcecResult(bad, { config: false }).message();
    expect(message).toBe(
      [
        'expected value to be a conformant MCEC result, but:',
        '  /result      error    ok is false, so result must be omitted or null (a failure keeps its partial payload in error.partialResult)  result-on-failure',
        '  /error/code  warning  unknown error code "window-not-fonud" (did you mean "window-not-found"?)  unknown-code',
      ].join('\n'),
    );
  });

  it('.not passes on a failing value and fails on a passing one, saying what it has', () => {
    expect(typo).not.toBeMcecResult({ config: false, rules: { 'unknown-code': 'error' } });
    expect(() => expect(typo).not.toBeMcecResult({ config: false })).toThrow(
      'expected value not to be a conformant MCEC result, but it has only warnings:\n  /error/code  warning  unknown error code "team-window-minimsed"  unknown-code',
    );
    expect(() => expect(failed('window-not-found')).not.toBeMcecResult({ config: false, strict: true })).toThrow('expected value not to be a conformant MCEC result (strict: warnings fail too), but it has no finding');
  });
});

describe('checkEnvelope', () => {
  it('reads a config only when given config', () => {
    const dir = inProject({ 'mcec-result.config.json': JSON.stringify({ codes: 'team-codes.json', rules: { 'unknown-code': 'error' } }), 'team-codes.json': teamCodes });
    expect(checkEnvelope(typo).map((f) => `${f.rule} ${f.severity}`)).toEqual(['unknown-code warning']);
    expect(checkEnvelope(typo, { config: 'mcec-result.config.json' }).map((f) => `${f.rule} ${f.severity}`)).toEqual(['unknown-code error']);
    expect(checkEnvelope(team, { config: join(dir, 'mcec-result.config.json') })).toEqual([]);
    expect(checkEnvelope(typo, { config: 'mcec-result.config.json', rules: { 'unknown-code': 'off' } })).toEqual([]);
    expect(checkEnvelope(typo, { config: false }).map((f) => f.severity)).toEqual(['warning']);
    // strictCodes given wins over the config's setting of the rules it sets, as --strict-codes does.
    writeFileSync(join(dir, 'strict.json'), JSON.stringify({ rules: { 'unknown-code': 'warning' } }));
    expect(checkEnvelope(typo, { config: 'strict.json' }).map((f) => f.severity)).toEqual(['warning']);
    expect(checkEnvelope(typo, { config: 'strict.json', strictCodes: true }).map((f) => f.severity)).toEqual(['error']);
    expect(checkEnvelope(typo, { config: undefined }).map((f) => f.severity)).toEqual(['warning']);
    expect(() => checkEnvelope(typo, { config: '' })).toThrow('checkEnvelope(): config: expected the path of a config file, or false to read none, got ""');
  });
});

describe('docs/library.md', () => {
  const doc = readFileSync(join(repoRoot, 'docs/library.md'), 'utf8');
  const options = doc.slice(doc.indexOf('### Options'));
  const block = (lang: string, n: number) => [...options.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))][n]?.[1];

  it("the options example passes in a project with the config shown, and its failure message is the one shown", () => {
    const [config, codes, example, message] = [block('json', 0), block('json', 1), block('ts', 0), block('text', 0)];
    const dir = tempFiles({
      'package.json': JSON.stringify({ name: 'consumer', type: 'module', private: true }),
      'mcec-result.config.json': config!,
      'team-codes.json': codes!,
      'team.test.ts': example!,
    });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules/mcec-result'));
    symlinkSync(join(repoRoot, 'node_modules/vitest'), join(dir, 'node_modules/vitest'));
    const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], { cwd: dir, env: { ...process.env, CI: '1', NO_COLOR: '1' }, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toMatch(/Tests\s+1 passed \(1\)/);
    expect(run.status).toBe(0);
    process.chdir(dir);
    expect(() => expect(typo).toBeMcecResult()).toThrow(message!.trimEnd());
  });

  it('the options example type-checks, as does every option, and a wrong one does not', () => {
    const uses = [
      "import 'mcec-result/vitest';",
      "import { mcecFindings, mcecMatchers, type McecResultOptions } from 'mcec-result/matchers';",
      "import { expect } from 'vitest';",
      "const options: McecResultOptions = { schema: 's.json', codes: ['c.json'], rules: { 'unknown-code': 'error', 'missing-result': 'off' }, strict: true, config: false };",
      'expect({ ok: true }).toBeMcecResult(options);',
      "expect({ ok: true }).toBeMcecResult({ schemaVersion: '2026-06', codes: 'c.json', config: 'mcec-result.config.json' });",
      "expect.extend(mcecMatchers);",
      'mcecFindings({ ok: true }).map((finding) => finding.rule);',
      '// @ts-expect-error: a severity no rule takes',
      "expect({ ok: true }).toBeMcecResult({ rules: { 'unknown-code': 'loud' } });",
      '// @ts-expect-error: config is a path or false',
      'expect({ ok: true }).toBeMcecResult({ config: true });',
    ].join('\n');
    const dir = tempFiles({
      'package.json': JSON.stringify({ name: 'consumer', type: 'module', private: true }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['example.ts', 'uses.ts'] }),
      'example.ts': block('ts', 0)!,
      'uses.ts': `${uses}\n`,
    });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules/mcec-result'));
    symlinkSync(join(repoRoot, 'node_modules/vitest'), join(dir, 'node_modules/vitest'));
    const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ruleCatalog, ruleDefinition, ruleIds } from '../src/checks/catalog.js';
import { UsageError } from '../src/errors.js';
import { categoryInfo, explain } from '../src/explain/explain.js';
import { loadRegistry } from '../src/registry/load.js';
import { binary, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const registry = loadRegistry();

async function explainInChild(name: string): Promise<{ status: number; stdout: string }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [binary, 'explain', name], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' } });
    return { status: 0, stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { status: failed.code ?? -1, stdout: failed.stdout ?? '' };
  }
}

describe('explain()', () => {
  it('explains a category: when it happens and what an agent should do', () => {
    expect(explain('no-target', registry)).toBe(
      [
        'no-target: an error category',
        '  when      a selector matched nothing',
        '  recovery  widen the selector, query to discover, or wait for the target',
        '',
      ].join('\n'),
    );
  });

  it('knows all twelve categories of spec section 2, the newer ones marked', () => {
    expect([...categoryInfo().keys()]).toEqual([
      'timeout', 'ambiguous-selector', 'stale-element', 'no-target', 'invalid-argument', 'capture-blank',
      'ocr-blank', 'ocr-no-text', 'focus', 'elevation', 'foreground', 'internal',
    ]);
    // Spec section 8.3: the bundled versions that list it, and whether the schema in use does.
    expect(explain('ocr-no-text', registry)).toMatch(/^ocr-no-text: an error category \(schema version 2026-07\)\n.*OCR found no readable text\n.*enlarge or change the region\n/);
    expect(explain('ocr-no-text', registry, { source: 'bundled', version: '2026-06', categories: ['timeout'] })).toMatch(/^ocr-no-text: an error category \(schema version 2026-07; the schema in use, 2026-06, does not: check with --schema-version 2026-07\)\n/);
    // Was the same advice to a user whose --schema lists it.
    expect(explain('ocr-no-text', registry, { source: 'newer.json', categories: ['timeout', 'ocr-no-text'] })).toMatch(/^ocr-no-text: an error category \(schema version 2026-07; the schema in use, newer.json, lists it\)\n/);
    expect(explain('elevation', registry)).toContain('stop and tell the operator; not recoverable by the agent');
  });

  it('explains a code listed under two categories', () => {
    const text = explain('unknown-command', registry);
    expect(text).toMatch(/^unknown-command: an error code, listed under 2 categories\n/);
    expect(text).toMatch(/^ {2}invalid-argument +the request is malformed or cannot apply$/m);
    expect(text).toMatch(/^ {2}internal +an MCEC-side fault or a policy refusal$/m);
  });

  it('explains a {n} code through its pattern', () => {
    const text = explain('selector-matched-5', registry);
    expect(text).toMatch(/^selector-matched-5: an error code, listed under one category\n/);
    expect(text).toMatch(/^ {2}ambiguous-selector +a selector matched several candidates$/m);
  });

  it('explains a warning code', () => {
    expect(explain('minimized-window', registry)).toMatch(/^minimized-window: a warning code\n/);
  });

  it('explains a rule: what it checks, its default severity and an example', () => {
    expect(explain('missing-result', registry)).toBe(
      [
        'missing-result: a rule, default severity warning',
        `  checks   ${ruleCatalog['missing-result'].description}`,
        `  example  ${ruleDefinition('missing-result').example}`,
        '  setting  --rule missing-result=off|warning|error',
        '',
      ].join('\n'),
    );
    expect(explain('duplicate-response', registry)).toMatch(/^duplicate-response: a rule, default severity error\n/);
  });

  it('shows a multi-line example with every line under the first', () => {
    const lines = explain('duplicate-response', registry).split('\n');
    const start = lines.findIndex((line) => line.startsWith('  example  '));
    expect(lines.slice(start + 1, start + 3).every((line) => line.startsWith(' '.repeat(11) + '{"ts"'))).toBe(true);
  });

  it('shows every meaning of a name that is several things', () => {
    const capture = explain('capture-blank', registry);
    expect(capture).toMatch(/^capture-blank: an error category\n/);
    expect(capture).toMatch(/\n\ncapture-blank: a warning code\n/);
    const invalid = explain('invalid-argument', registry);
    expect(invalid).toMatch(/^invalid-argument: an error category\n/);
    expect(invalid).toMatch(/\n\ninvalid-argument: an error code, listed under one category\n/);
  });

  it('explains every rule of the catalog', () => {
    for (const id of ruleIds) {
      expect(explain(id, registry)).toMatch(new RegExp(`^${id}: a rule, default severity ${ruleCatalog[id].defaultSeverity}\\n {2}checks {3}\\S`));
    }
  });

  it('rejects an unknown name with the nearest known name', () => {
    expect(() => explain('window-not-fonud', registry)).toThrow(new UsageError('unknown name "window-not-fonud" (did you mean "window-not-found"?)'));
    expect(() => explain('no_target', registry)).toThrow(/did you mean "no-target"/);
    expect(() => explain('minimised-window', registry)).toThrow(/did you mean "minimized-window"/);
    expect(() => explain('misisng-result', registry)).toThrow(/did you mean "missing-result"/);
    expect(() => explain('selector-matchd-3', registry)).toThrow(/did you mean "selector-matched-3"/);
  });

  it('says what kinds of names exist when none is near', () => {
    expect(() => explain('xyzzy-plugh', registry)).toThrow(/^unknown name "xyzzy-plugh": name an error category .*, an error or warning code .* or a rule /);
  });
});

describe('mcec-result explain', () => {
  it('prints the explanation and exits 0', () => {
    const result = runCli(['explain', 'no-target']);
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toBe(explain('no-target', registry));
  });

  it('exits 2 on an unknown name, with a suggestion and no stack trace', () => {
    const result = runCli(['explain', 'window-not-fonud']);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('mcec-result: unknown name "window-not-fonud" (did you mean "window-not-found"?)\n');
  });

  it("knows a team's own codes, from --codes or the config file check reads them from", () => {
    const codes = JSON.stringify({ errorCodes: { 'no-target': ['ocr-text-missing-{n}'] }, warningCodes: ['ocr-low-confidence'] });
    const dir = tempFiles({ 'team.json': codes, 'mcec-result.config.json': JSON.stringify({ codes: 'team.json' }), 'sub/.keep': '' });
    const known = ['ocr-text-missing-3: an error code, listed under one category', '  no-target  a selector matched nothing', '  (mcec-result explain <category> tells what an agent should do)', ''].join('\n');
    expect(runCli(['explain', 'ocr-text-missing-3', '--no-config', '--codes', 'team.json'], { cwd: dir })).toMatchObject({ status: 0, stdout: known });
    expect(runCli(['explain', 'ocr-text-missing-3'], { cwd: join(dir, 'sub') })).toMatchObject({ status: 0, stdout: known });
    expect(runCli(['explain', 'ocr-low-confidence'], { cwd: dir }).stdout).toBe('ocr-low-confidence: a warning code\n  a known warnings[].code; warnings are allowed on success and on failure\n');
    expect(runCli(['explain', 'ocr-text-missing-3', '--no-config'], { cwd: dir })).toMatchObject({ status: 2, stdout: '' });
    // The file is held to the schema's categories, as check holds it.
    const typo = tempFiles({ 'typo.json': JSON.stringify({ errorCodes: { 'no-targt': ['x-1'] } }) });
    expect(runCli(['explain', 'x-1', '--codes', 'typo.json'], { cwd: typo }).stderr).toBe('mcec-result: codes file typo.json at /errorCodes/no-targt: "no-targt" is not a category of the schema, nor of a newer MCEC release: did you mean "no-target"?\n');
  });

  it("knows a category only the --schema (or the config's schema) lists, and codes under it", () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'data/agent-tool-result.schema.json'), 'utf8'));
    schema.$defs.error.properties.category.enum.push('vision-failed');
    const dir = tempFiles({
      'team.schema.json': JSON.stringify(schema),
      'team-codes.json': JSON.stringify({ errorCodes: { 'vision-failed': ['vlm-timeout'] } }),
      'project/mcec-result.config.json': JSON.stringify({ schema: '../team.schema.json', codes: '../team-codes.json' }),
    });
    const category = (source: string) => `vision-failed: an error category of the schema ${source}\n  mcec-result ships no description of it: the schema's own documentation says when it applies\n`;
    // Was: unknown name "vision-failed".
    expect(runCli(['explain', 'vision-failed', '--schema', 'team.schema.json'], { cwd: dir })).toMatchObject({ status: 0, stdout: category('team.schema.json') });
    expect(runCli(['explain', 'vision-failed'], { cwd: join(dir, 'project') })).toMatchObject({ status: 0, stdout: category(join(dir, 'team.schema.json')) });
    expect(runCli(['explain', 'vlm-timeout'], { cwd: join(dir, 'project') }).stdout).toBe(
      `vlm-timeout: an error code, listed under one category\n  vision-failed  (a category of the schema ${join(dir, 'team.schema.json')})\n  (mcec-result explain <category> tells what an agent should do)\n`,
    );
    expect(runCli(['explain', 'vision-faild', '--schema', 'team.schema.json'], { cwd: dir }).stderr).toBe('mcec-result: unknown name "vision-faild" (did you mean "vision-failed"?)\n');
    expect(runCli(['explain', 'vision-failed'], { cwd: dir })).toMatchObject({ status: 2, stdout: '' });
  });

  it('cuts a pasted name in its message', () => {
    expect(runCli(['explain', 'x'.repeat(5000)]).stderr).toBe(`mcec-result: unknown name "${'x'.repeat(56)}...: name an error category (timeout, no-target, ...), an error or warning code (window-not-found, minimized-window, ...) or a rule (schema, missing-result, ...)\n`);
  });

  it('exits 2 without a name', () => {
    const result = runCli(['explain']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("missing required argument 'name'");
  });

  it('explains every rule id of the catalog', async () => {
    // One process per rule, run side by side: a sequential loop of spawns is slow.
    const results = await Promise.all(ruleIds.map(async (id) => ({ id, ...(await explainInChild(id)) })));
    for (const { id, status, stdout } of results) {
      expect(status, id).toBe(0);
      expect(stdout, id).toBe(explain(id, registry));
    }
  }, 60_000);
});

/**
 * Rules of a bundle's files (spec section 8.2): their examples describe a bundle, run by
 * test/field-bundles.test.ts. no-tool-results: section 8.5's, built on another branch (this one
 * reports it only for a bundle without a transcript).
 */
const bundleRules = new Set(['bundle-session-mismatch', 'bundle-truncation-mismatch', 'no-tool-results']);

describe('rule examples', () => {
  it.each(ruleIds.filter((id) => !bundleRules.has(id)))('the example of %s triggers it in the real checker', (id) => {
    const { example } = ruleDefinition(id);
    const dir = tempFiles({ 'example.jsonl': example === '' ? '' : `${example}\n` });
    const { report } = runJson([join(dir, 'example.jsonl')]);
    const rules = (report.findings as { rule: string }[]).map((finding) => finding.rule);
    expect(rules).toContain(id);
    // Each example shows its rule alone, except that a code that is not kebab-case is also unknown.
    expect(new Set(rules)).toEqual(new Set(id === 'code-format' ? [id, 'unknown-code'] : [id]));
  });
});

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ruleCatalog, ruleDefinition, ruleIds } from '../src/checks/catalog.js';
import { UsageError } from '../src/errors.js';
import { categoryInfo, explain } from '../src/explain/explain.js';
import { categoriesOfVersion } from '../src/checks/schema-load.js';
import { bundledSchemaVersions } from '../src/checks/schema-versions.js';
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
        '  when             a selector matched nothing',
        '  advice           broaden the selector, query to discover targets, or wait-for the element, which may not have appeared yet',
        '  unchanged retry  allowed',
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
    expect(explain('ocr-no-text', registry)).toMatch(/^ocr-no-text: an error category \(schema version 2026-07\)\n.*OCR found no readable text\n.*enlarge or change the region.*\n/);
    expect(explain('ocr-no-text', registry, { source: 'bundled', version: '2026-06', categories: ['timeout'] })).toMatch(/^ocr-no-text: an error category \(schema version 2026-07; the schema in use, 2026-06, does not: check with --schema-version 2026-07\)\n/);
    // Was the same advice to a user whose --schema lists it.
    expect(explain('ocr-no-text', registry, { source: 'newer.json', categories: ['timeout', 'ocr-no-text'] })).toMatch(/^ocr-no-text: an error category \(schema version 2026-07; the schema in use, newer.json, lists it\)\n/);
    expect(explain('elevation', registry)).toContain('stop and tell the operator; do not retry');
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

  it('lists every rule, category, known code and schema version without a name', () => {
    // Was exit 2, "missing required argument 'name'" (issue 34 item 5).
    const result = runCli(['explain', '--no-config']);
    expect(result).toMatchObject({ status: 0, stderr: '' });
    const text = result.stdout;
    const section = (heading: string) => text.slice(text.indexOf(`\n${heading}`) + 1).split('\n\n')[0]!.trimEnd().split('\n').slice(1);
    expect(section('rules').map((line) => line.trim().split(/\s+/).slice(0, 2))).toEqual(ruleIds.map((id) => [id, ruleCatalog[id].defaultSeverity]));
    for (const id of ruleIds) expect(text).toContain(ruleCatalog[id].description);
    expect(section('categories').map((line) => line.trim().split(/\s+/)[0])).toEqual([...categoryInfo().keys()]);
    for (const [category, info] of categoryInfo()) expect(text, category).toMatch(new RegExp(`^  ${category} +(\\(2026-07\\) )?${info.advice.replace(/[()]/g, '\\$&')}$`, 'm'));
    const codes = section('error codes').join(' ');
    for (const code of ['wait-condition-timeout', 'selector-matched-{n}', 'window-closed', 'consent-pending', 'ocr-unavailable', 'frame-uniform']) expect(codes).toContain(code);
    expect(section('warning codes').join(' ').split(/[,\s]+/).filter(Boolean)).toEqual(['minimized-window', 'tree-truncated', 'region-clamped', 'capture-blank', 'capture-fallback', 'ocr-fallback', 'unfetched-recording-discarded']);
    expect(section('schema versions').map((line) => line.trim().split(/\s+/)[0])).toEqual(['2026-06', '2026-07', 'latest']);
    expect(text).toBe(explain(undefined, registry, { source: 'bundled', version: '2026-07', categories: [] }));
  });

  it("lists a team's codes and its schema's categories, from --codes and --schema", () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'data/agent-tool-result.schema.json'), 'utf8'));
    schema.$defs.error.properties.category.enum.push('vision-failed');
    const dir = tempFiles({
      'team.schema.json': JSON.stringify(schema),
      'team.json': JSON.stringify({ errorCodes: { 'vision-failed': ['vlm-timeout'], 'no-target': ['ocr-text-missing-{n}'] }, warningCodes: ['dpi-scaled'], recovery: { 'vision-failed': { advice: 'capture again at a higher scale' } } }),
    });
    const { status, stdout } = runCli(['explain', '--no-config', '--schema', 'team.schema.json', '--codes', 'team.json'], { cwd: dir });
    expect(status).toBe(0);
    expect(stdout).toMatch(/^ {2}vision-failed +\(the schema team\.schema\.json's\) capture again at a higher scale$/m);
    expect(stdout).toMatch(/^ {2}no-target +window-not-found, element-not-found, ocr-text-missing-\{n\}$/m);
    expect(stdout).toMatch(/^ {2}vision-failed +vlm-timeout$/m);
    expect(stdout).toMatch(/unfetched-recording-discarded,\s+dpi-scaled\n/);
    // A --schema is no bundled version: none is marked in use.
    expect(stdout).toMatch(/^ {2}2026-06 +10 categories \(data\/agent-tool-result\.schema\.json\)$/m);
  });

  it('explains every rule id of the catalog', async () => {
    // One process per rule, run side by side: a sequential loop of spawns is slow.
    const results = await Promise.all(ruleIds.map(async (id) => ({ id, ...(await explainInChild(id)) })));
    for (const { id, status, stdout } of results) {
      expect(status, id).toBe(0);
      expect(stdout, id).toBe(explain(id, registry));
    }
  });
});

describe('recovery advice (spec section 9)', () => {
  const advice = (name: string, args: readonly string[] = [], cwd?: string) => runCli(['explain', name, '--no-config', ...args], cwd === undefined ? {} : { cwd });

  it('every category of both bundled schema versions has advice, worded for the agent', () => {
    for (const { name } of bundledSchemaVersions) {
      for (const category of categoriesOfVersion(name)) {
        const recovery = registry.recovery(category);
        expect(recovery?.advice, `${name} ${category}`).toMatch(/^[a-z].{20,}[^.]$/);
      }
    }
    expect(categoriesOfVersion('2026-07')).toHaveLength(12);
    // The spec's wording, after MCEC's RESULTS paragraph.
    expect(registry.recovery('ambiguous-selector')?.advice).toBe('narrow the selector (prefer automationId, else className or a more specific name); retrying it unchanged cannot help');
    expect(registry.recovery('focus')?.advice).toBe('click the exact control, or drive it with invoke instead of keystrokes');
    expect(registry.recovery('foreground')?.advice).toBe('retry the focus tool after whatever holds the foreground is gone, or ask the operator to click the target');
    const marked = [...categoryInfo().keys()].filter((category) => registry.recovery(category)?.noUnchangedRetry);
    expect(marked).toEqual(['ambiguous-selector', 'stale-element', 'invalid-argument', 'elevation', 'internal']);
    expect(registry.recovery('internal')?.retryCodes).toEqual(['consent-pending', 'consent-timeout', 'command-disabled', 'emergency-stopped', 'command-dropped']);
  });

  it('explain invalid-argument shows the advice and the mark', () => {
    const result = advice('invalid-argument');
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /^invalid-argument: an error category\n {2}when {13}the request is malformed or cannot apply\n {2}advice {11}the request itself is wrong: fix the arguments; do not retry the same call or broaden a selector\n {2}unchanged retry {2}goes against the advice \(rule unchanged-retry\)\n {2}retry codes {6}none: an unchanged retry after any code goes against the advice\n\n/,
    );
    expect(advice('internal').stdout).toContain('  retry codes      consent-pending, consent-timeout, command-disabled, emergency-stopped,\n                   command-dropped\n                   (after one of these an unchanged retry is allowed)\n');
    const timeout = advice('timeout').stdout;
    expect(timeout).toMatch(/^ {2}unchanged retry {2}allowed\n$/m);
    expect(timeout).not.toContain('retry codes');
  });

  it("a codes file replaces only the members it gives, the files applied in order: the config's, or --codes' in place of them", () => {
    const dir = tempFiles({
      'mcec-result.config.json': JSON.stringify({ codes: 'team.json' }),
      'team.json': JSON.stringify({ recovery: { 'stale-element': { noUnchangedRetry: false }, internal: { advice: 'page the on-call engineer' } } }),
      'ci.json': JSON.stringify({ recovery: { 'stale-element': { advice: 'find it again by automationId' }, internal: { retryCodes: ['consent-pending'] } } }),
      'late.json': JSON.stringify({ recovery: { 'stale-element': { noUnchangedRetry: true, retryCodes: ['window-closed'] } } }),
    });
    // The config's codes alone.
    const fromConfig = runCli(['explain', 'stale-element'], { cwd: dir }).stdout;
    expect(fromConfig).toContain('  advice           re-query (query or find) for a fresh handle, then retry with it; the old handle is gone for good\n  unchanged retry  allowed\n');
    expect(runCli(['explain', 'internal'], { cwd: dir }).stdout).toMatch(/ {2}advice {11}page the on-call engineer\n {2}unchanged retry {2}goes against the advice.*\n {2}retry codes {6}consent-pending, consent-timeout,/);
    // --codes replaces the config's list, as for check; files apply in order, each member by member.
    const both = ['--codes', 'team.json', '--codes', 'ci.json'];
    expect(runCli(['explain', 'stale-element', ...both], { cwd: dir }).stdout).toContain('  advice           find it again by automationId\n  unchanged retry  allowed\n');
    expect(runCli(['explain', 'internal', ...both], { cwd: dir }).stdout).toContain('  advice           page the on-call engineer\n  unchanged retry  goes against the advice (rule unchanged-retry)\n  retry codes      consent-pending\n');
    const three = runCli(['explain', 'stale-element', ...both, '--codes', 'late.json'], { cwd: dir }).stdout;
    expect(three).toContain('  advice           find it again by automationId\n  unchanged retry  goes against the advice (rule unchanged-retry)\n  retry codes      window-closed\n');
    // The registry every check reads answers the same.
    const merged = loadRegistry(['team.json', 'ci.json', 'late.json'].map((file) => join(dir, file)), categoriesOfVersion('2026-07'));
    expect(merged.recovery('stale-element')).toEqual({ advice: 'find it again by automationId', noUnchangedRetry: true, retryCodes: ['window-closed'] });
    expect(merged.recovery('timeout')).toEqual(registry.recovery('timeout'));
  });

  it('a malformed recovery entry exits 2, naming the file and the pointer', () => {
    const cases: [unknown, string][] = [
      [{ 'stale-element': { noUnchangedRetry: 'no' } }, 'at /recovery/stale-element/noUnchangedRetry: must be a boolean (got string)'],
      [{ 'stale-element': { advice: 3 } }, 'at /recovery/stale-element/advice: must be a string (got integer)'],
      [{ 'stale-element': { retryCodes: 'element-stale' } }, 'at /recovery/stale-element/retryCodes: must be an array (got string)'],
      [{ internal: { retryCodes: ['consent-pending', null] } }, 'at /recovery/internal/retryCodes/1: must be a string (got null)'],
      [{ 'stale-element': { advise: 'x' } }, 'at /recovery/stale-element: unknown key "advise" (did you mean "advice"?)'],
      [{ 'stale-element': true }, 'at /recovery/stale-element: must be an object (got boolean)'],
      [['stale-element'], 'at /recovery: must be an object (got array)'],
      [{ 'stale-elemnt': { advice: 'x' } }, 'at /recovery/stale-elemnt: "stale-elemnt" is not a category of the schema, nor of a newer MCEC release: did you mean "stale-element"?'],
      [{ 'vision-failed': { advice: 'x' } }, 'at /recovery/vision-failed: "vision-failed" is not a category of the schema, nor of a newer MCEC release (timeout, '],
    ];
    for (const [recovery, message] of cases) {
      const dir = tempFiles({ 'team.json': JSON.stringify({ recovery }) });
      for (const args of [['explain', 'timeout', '--no-config', '--codes', 'team.json'], ['check', '--no-config', '--codes', 'team.json', '-']]) {
        const result = runCli(args, { cwd: dir, input: '{"ok":true,"result":{}}\n' });
        expect(result.status, `${args[0]} ${message}`).toBe(2);
        expect(result.stdout).toBe('');
        expect(result.stderr, message).toContain(`mcec-result: codes file team.json ${message}`);
      }
    }
  });

  it("a newer release's category is allowed under an older schema; a team schema's own category needs its advice", () => {
    const dir = tempFiles({ 'newer.json': JSON.stringify({ recovery: { 'ocr-blank': { noUnchangedRetry: true } } }) });
    expect(runCli(['explain', 'ocr-blank', '--no-config', '--schema-version', '2026-06', '--codes', 'newer.json'], { cwd: dir }).stdout).toContain('  unchanged retry  goes against the advice (rule unchanged-retry)\n');
    const schema = JSON.parse(readFileSync(join(repoRoot, 'data/agent-tool-result.schema.json'), 'utf8'));
    schema.$defs.error.properties.category.enum.push('vision-failed');
    const team = tempFiles({
      'team.schema.json': JSON.stringify(schema),
      'mark.json': JSON.stringify({ recovery: { 'vision-failed': { noUnchangedRetry: true } } }),
      'advice.json': JSON.stringify({ recovery: { 'vision-failed': { advice: 'capture again at a higher scale' } } }),
    });
    const run = (...codes: string[]) => runCli(['explain', 'vision-failed', '--no-config', '--schema', 'team.schema.json', ...codes.flatMap((file) => ['--codes', file])], { cwd: team });
    expect(run('mark.json')).toMatchObject({ status: 2, stderr: 'mcec-result: codes file mark.json at /recovery/vision-failed: mcec-result has no advice for "vision-failed": give its "advice" too\n' });
    expect(run('advice.json', 'mark.json').stdout).toBe(
      [
        'vision-failed: an error category of the schema team.schema.json',
        "  mcec-result ships no description of it: the schema's own documentation says when it applies",
        '  advice           capture again at a higher scale',
        '  unchanged retry  goes against the advice (rule unchanged-retry)',
        '  retry codes      none: an unchanged retry after any code goes against the advice',
        '',
      ].join('\n'),
    );
  });
});

/**
 * Rules of a bundle's files (spec section 8.2): their examples describe a bundle, run by
 * test/field-bundles.test.ts. no-tool-results: section 8.5's, built on another branch (this one
 * reports it only for a bundle without a transcript).
 */
const bundleRules = new Set(['bundle-session-mismatch', 'bundle-truncation-mismatch', 'no-tool-results']);

describe('rule examples', () => {
  it("every rule's example triggers it in the real checker, each example an input of one run", () => {
    // Findings carry their input's path, and a rule reads the records of one input (the recovery
    // checks keep a tracker per input): one run shows each example's findings apart.
    const ids = ruleIds.filter((id) => !bundleRules.has(id));
    const examples = ids.map((id) => {
      const { example } = ruleDefinition(id);
      return [`${id}/example.jsonl`, example === '' ? '' : `${example}\n`] as const;
    });
    const dir = tempFiles(Object.fromEntries(examples));
    const { report } = runJson(ids.map((id) => join(dir, id, 'example.jsonl')));
    expect(report.summary.inputs).toBe(ids.length);
    const findings = report.findings as { rule: string; source: string }[];
    for (const id of ids) {
      const rules = findings.filter((finding) => finding.source === join(dir, id, 'example.jsonl')).map((finding) => finding.rule);
      expect(rules, id).toContain(id);
      // Each example shows its rule alone, except that a code that is not kebab-case is also unknown.
      expect(new Set(rules), id).toEqual(new Set(id === 'code-format' ? [id, 'unknown-code'] : [id]));
    }
  });
});

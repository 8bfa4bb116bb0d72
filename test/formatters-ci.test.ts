// The CI formats (SARIF, JUnit, GitHub, Markdown, ndjson): hand-built reports for the details,
// and the report of real fixtures, run through the built CLI, parsed back by each format's readers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../src/formatters/index.js';
import { ruleCatalog, ruleDefinition, ruleIds } from '../src/checks/catalog.js';
import { relativeSourcePath } from '../src/formatters/paths.js';
import { type SarifLog } from '../src/formatters/sarif.js';
import type { Finding, Report, Summary } from '../src/types.js';
import { repoRoot, runCli, tempFiles } from './helpers/cli.js';
import { sampleSummary } from './helpers/report.js';

const summary = sampleSummary;
const { homepage, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { homepage: string; version: string };

const findings: Finding[] = [
  { rule: 'schema', severity: 'error', message: 'ok is false, so error is required', location: { source: 'a.jsonl', line: 4, pointer: '' }, keyword: 'required', schemaPath: '#/allOf/0/then/required', tool: 'find', wrapping: 'transcript' },
  { rule: 'schema', severity: 'error', message: 'error.category must be one of: timeout, focus (got "no_target")', location: { source: 'a.jsonl', line: 12, pointer: '/error/category' }, suggestion: 'no-target', tool: 'invoke', wrapping: 'transcript' },
  { rule: 'unknown-code', severity: 'warning', message: 'unknown error code "window-not-fonud"', location: { source: 'a.jsonl', line: 12, pointer: '/error/code' }, suggestion: 'window-not-found', tool: 'invoke', wrapping: 'transcript' },
  { rule: 'parse-error', severity: 'error', message: 'unterminated string', location: { source: 'b.jsonl', line: 7, column: 58 } },
];

function report(overrides: Partial<Report> = {}): Report {
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: '0.1.0' },
    schema: { id: 'urn:test', source: 'bundled' },
    summary: summary(),
    findings,
    suggestions: { codes: { 'window-not-fonud': 'window-not-found' }, warningCodes: {} },
    inputFailures: [],
    interrupted: false,
    ...overrides,
  };
}

const plain = { color: false, maxListed: 100, quiet: false, cwd: '/work' };

/** `count` warnings on lines 1..count of `source`. */
function manyFindings(source: string, count: number): Finding[] {
  return Array.from({ length: count }, (_, i): Finding => ({ rule: 'missing-result', severity: 'warning', message: 'ok is true without result', location: { source, line: i + 1, pointer: '' } }));
}

// The report of real inputs, formatted by the built CLI: exit 1, since the samples hold errors. One
// run writes every format: the human report to stdout, each other format to its file, which holds
// the text `--format <name>` alone prints.
const realInputs = ['fixtures/transcripts', 'fixtures/samples'];
const realFormats = ['json', 'sarif', 'junit', 'github', 'markdown', 'ndjson'] as const;

const realRun = (() => {
  const dir = tempFiles({});
  const files = Object.fromEntries(realFormats.map((format) => [format, join(dir, `report.${format}`)]));
  const result = runCli(['check', ...realInputs, '--format', 'human', ...realFormats.flatMap((format) => ['--format', `${format}=${files[format]}`])]);
  const read = (format: (typeof realFormats)[number]) => readFileSync(files[format]!, 'utf8');
  return { ...result, read };
})();

function formatted(format: (typeof realFormats)[number]): string {
  expect(realRun.stderr).toBe('');
  expect(realRun.status).toBe(1);
  return realRun.read(format);
}

const realJson = JSON.parse(realRun.read('json')) as { summary: Summary; findings: { rule: string; source: string; line: number; column?: number }[] };

const sarifSchema = JSON.parse(readFileSync(join(repoRoot, 'test/data/sarif-2.1.0-rtm.5.json'), 'utf8')) as Schema;

function expectValidSarif(log: unknown): void {
  const result = new Validator(sarifSchema, '4', false).validate(log);
  const errors = result.errors.map((e: OutputUnit) => `${e.instanceLocation} ${e.keyword}: ${e.error}`);
  expect(errors, errors.join('\n')).toEqual([]);
  expect(result.valid).toBe(true);
}

const xmlParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', htmlEntities: true, isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name) });

interface JunitCase {
  name: string;
  classname: string;
  failure?: { '#text'?: string; message: string; type: string };
  error?: { '#text'?: string; message: string; type: string };
  'system-out'?: string;
}
interface JunitSuite {
  name: string;
  tests: string;
  failures: string;
  testcase: JunitCase[];
  properties?: { property: { name: string; value: string }[] };
}
interface JunitDocument {
  testsuites: { name: string; tests: string; failures: string; errors: string; testsuite: JunitSuite[] };
}

function parseJunit(xml: string): JunitDocument {
  expect(XMLValidator.validate(xml)).toBe(true);
  return xmlParser.parse(xml) as JunitDocument;
}

describe('relativeSourcePath', () => {
  it('makes absolute paths relative to the working directory, with forward slashes', () => {
    expect(relativeSourcePath('/work/runs/a.jsonl', '/work')).toBe('runs/a.jsonl');
    expect(relativeSourcePath('/elsewhere/a.jsonl', '/work')).toBe('../elsewhere/a.jsonl');
  });

  it("keeps relative paths and stdin as given, Windows' backslashes turned into slashes", () => {
    expect(relativeSourcePath('runs\\run-1\\a.jsonl', '/work', 'win32')).toBe('runs/run-1/a.jsonl');
    // Elsewhere a backslash is part of a file's name (was read as a separator: a/b.jsonl, no such file).
    expect(relativeSourcePath('runs\\a.jsonl', '/work', 'linux')).toBe('runs\\a.jsonl');
    expect(relativeSourcePath('runs/a.jsonl', '/work')).toBe('runs/a.jsonl');
    expect(relativeSourcePath('-', '/work')).toBe('-');
  });

  it('names one file one way, however it was reached', () => {
    // Was: ./runs/a.jsonl (check .) and runs/a.jsonl (check runs/a.jsonl) were two artifacts.
    for (const spelt of ['./runs/a.jsonl', 'runs//a.jsonl', 'runs/../runs/a.jsonl', '/work/./runs/a.jsonl']) expect(relativeSourcePath(spelt, '/work'), spelt).toBe('runs/a.jsonl');
    expect(relativeSourcePath('.\\runs\\a.jsonl', '/work', 'win32')).toBe('runs/a.jsonl');
    expect(relativeSourcePath('../other/a.jsonl', '/work')).toBe('../other/a.jsonl');
    // A UNC path keeps its two slashes (was collapsed to /server/...; found by a reviewer).
    expect(relativeSourcePath('\\\\server\\share\\.\\logs\\a.jsonl', '/work', 'win32')).toBe('//server/share/logs/a.jsonl');
  });
});

describe('formatSarif', () => {
  const log = JSON.parse(formatReport('sarif', report({ findings: [...findings, { ...findings[0]!, location: { source: '/work/logs/my run#1.jsonl', line: 2 } }] }), plain)) as SarifLog;
  const run = log.runs[0];

  it('is valid SARIF 2.1.0 with one run', () => {
    expectValidSarif(log);
    expect(log).toMatchObject({ $schema: 'https://json.schemastore.org/sarif-2.1.0.json', version: '2.1.0' });
    expect(log.runs).toHaveLength(1);
    // The tool's own home (package.json's homepage), not MCEC's.
    expect(run.tool.driver).toMatchObject({ name: 'mcec-result', version: '0.1.0', informationUri: homepage });
  });

  it('declares every rule of the catalog with its default level, whether it fired or not', () => {
    expect(run.tool.driver.rules.map((r) => r.id)).toEqual(ruleIds);
    expect(run.tool.driver.rules.find((r) => r.id === 'empty-input')).toEqual({
      id: 'empty-input',
      helpUri: `${homepage}/blob/v0.1.0/docs/rules/empty-input.md`,
      shortDescription: { text: ruleCatalog['empty-input'].description },
      fullDescription: { text: `mcec-result rule empty-input: ${ruleCatalog['empty-input'].description}.` },
      help: {
        text: `${ruleCatalog['empty-input'].description}.\n\nAn input with no record (an empty file) breaks it.\n\nSetting: --rule empty-input=off|warning|error (default warning). More: mcec-result explain empty-input`,
        markdown: `${ruleCatalog['empty-input'].description}.\n\nAn input with no record (an empty file) breaks it.\n\nSetting: \`--rule empty-input=off|warning|error (default warning)\`. More: \`mcec-result explain empty-input\``,
      },
      defaultConfiguration: { level: 'warning' },
    });
    // Was a short description alone: the alert said what fired, not what breaks the rule.
    const missing = run.tool.driver.rules.find((r) => r.id === 'missing-result')!;
    expect(missing.help.markdown).toContain(`A record that breaks it:\n\n\`\`\`json\n${ruleDefinition('missing-result').example}\n\`\`\``);
  });

  it("links every rule to its page in this release's docs, a page the checkout has", () => {
    for (const rule of run.tool.driver.rules) {
      const prefix = `${homepage}/blob/v${version}/`;
      expect(rule.helpUri.startsWith(prefix), rule.helpUri).toBe(true);
      const path = rule.helpUri.slice(prefix.length);
      expect(path).toBe(`docs/rules/${rule.id}.md`);
      expect(readFileSync(join(repoRoot, path), 'utf8').startsWith(`# ${rule.id}\n`), path).toBe(true);
    }
  });

  it('gives each result its rule index, level, message with suggestion, place and properties', () => {
    const [first, second, warning, parse] = run.results;
    expect(run.tool.driver.rules[first!.ruleIndex]!.id).toBe('schema');
    expect(first).toEqual({
      ruleId: 'schema',
      ruleIndex: ruleIds.indexOf('schema'),
      level: 'error',
      message: { text: 'ok is false, so error is required' },
      locations: [{ physicalLocation: { artifactLocation: { uri: 'a.jsonl' }, region: { startLine: 4 } } }],
      properties: { pointer: '', tool: 'find', wrapping: 'transcript' },
    });
    expect(second!.message.text).toBe('error.category must be one of: timeout, focus (got "no_target") (did you mean "no-target"?)');
    // A warning is uploaded as one: was asserted nowhere, so every result as 'error' passed.
    expect(warning).toMatchObject({ ruleId: 'unknown-code', level: 'warning', message: { text: 'unknown error code "window-not-fonud" (did you mean "window-not-found"?)' } });
    expect(run.results.map((result) => result.level)).toEqual(['error', 'error', 'warning', 'error', 'error']);
    expect(parse!.locations[0]!.physicalLocation.region).toEqual({ startLine: 7, startColumn: 58 });
    expect(parse).not.toHaveProperty('properties');
  });

  it('writes an absolute source relative to cwd, as a URI reference', () => {
    expect(run.results.at(-1)!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('logs/my%20run%231.jsonl');
  });

  it('a file name with a lone surrogate (Windows allows one) is a URI with U+FFFD, not a lost log', () => {
    // Was: "URIError: URI malformed" from encodeURIComponent, and no SARIF at all.
    const odd = [...findings].map((f, i): Finding => ({ ...f, location: { ...f.location, source: ['x\ud800.jsonl', '/work/\udc00y.jsonl', '/elsewhere/z\ud83d.jsonl', 'ok\ud83d\ude00.jsonl'][i]! } }));
    const log = JSON.parse(formatReport('sarif', report({ findings: odd }), plain)) as SarifLog;
    expect(log.runs[0].results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual(['x%EF%BF%BD.jsonl', '%EF%BF%BDy.jsonl', '../elsewhere/z%EF%BF%BD.jsonl', 'ok%F0%9F%98%80.jsonl']);
  });

  it('lists every finding, whatever --max-listed says', () => {
    const many = JSON.parse(formatReport('sarif', report({ findings: manyFindings('a.jsonl', 150) }), { ...plain, maxListed: 1 })) as SarifLog;
    expect(many.runs[0].results).toHaveLength(150);
  });
});

describe('formatJunit', () => {
  const doc = parseJunit(formatReport('junit', report(), plain));
  const [a, b, last] = doc.testsuites.testsuite;

  it('has a suite per input with findings, a test case per line, and a last suite for the valid records', () => {
    expect(doc.testsuites).toMatchObject({ name: 'mcec-result', tests: '4', failures: '3' });
    expect(doc.testsuites.testsuite.map((s) => s.name)).toEqual(['a.jsonl', 'b.jsonl', 'summary']);
    expect(a).toMatchObject({ tests: '2', failures: '2' });
    expect(a!.testcase.map((c) => [c.name, c.classname])).toEqual([
      ['line 4 (find)', 'a.jsonl'],
      ['line 12 (invoke)', 'a.jsonl'],
    ]);
    expect(b!.testcase[0]).toMatchObject({ name: 'line 7', failure: { message: 'unterminated string', type: 'parse-error' } });
    expect(last!.testcase).toEqual([{ name: 'valid records', classname: 'mcec-result', time: '0', 'system-out': '10 of 12 records are valid' }]);
    expect(last!.properties!.property).toContainEqual({ name: 'valid', value: '10' });
  });

  it('lists the errors of a line in its failure and its warnings in system-out', () => {
    const line12 = a!.testcase[1]!;
    expect(line12.failure).toMatchObject({ type: 'schema' });
    expect(line12.failure!['#text']).toContain('error schema (line 12 at /error/category)');
    expect(line12.failure!['#text']).toContain('(did you mean "no-target"?)');
    expect(line12['system-out']).toContain('warning unknown-code (line 12 at /error/code): unknown error code "window-not-fonud"');
  });

  it('passes a line that has warnings only', () => {
    const doc = parseJunit(formatReport('junit', report({ findings: [findings[2]!] }), plain));
    expect(doc.testsuites).toMatchObject({ tests: '2', failures: '0' });
    expect(doc.testsuites.testsuite[0]!.testcase[0]).not.toHaveProperty('failure');
  });

  it('escapes markup and drops characters XML 1.0 forbids, in text and attributes', () => {
    const detail = `detail <&>"' \u0001 \uD800 \uFFFE ok 😀`;
    const nasty: Finding = { rule: 'schema', severity: 'error', message: `got ${detail}`, location: { source: `we<ird>&"'\u0002.jsonl`, line: 3 }, tool: `t<&>"'\u0001` };
    const xml = formatReport('junit', report({ findings: [nasty] }), plain);
    expect(xml).not.toMatch(/[\u0001\u0002\uFFFE]|\uD800(?![\uDC00-\uDFFF])/);
    expect(xml).toContain('detail &lt;&amp;&gt;&quot;&apos;');
    const suite = parseJunit(xml).testsuites.testsuite[0]!;
    // What XML allows of the controls is shown as escapes, as in human output; what it forbids goes,
    // but for a lone surrogate, an escape as in the other formats (dropped, w\ud800.jsonl read as w.jsonl).
    expect(suite.name).toBe(`we<ird>&"'\\u0002.jsonl`);
    expect(suite.testcase[0]).toMatchObject({ name: `line 3 (t<&>"'\\u0001)`, failure: { message: `got detail <&>"' \\u0001 \\ud800  ok 😀` } });
  });

  it('shows ESC, DEL, C1 controls and bidirectional overrides as escapes, and cuts a 200 KB pointer', () => {
    // Was: raw in names, messages and text, which CI pages show to people (found by an audit helper).
    const key = 'k'.repeat(200_000);
    const odd: Finding = { rule: 'schema', severity: 'error', message: 'bad \u001b[2J\u202eevil\u007f\u009b', location: { source: 'r\u001b]0;x\u0007.jsonl', line: 3, pointer: `/${key}` }, tool: '\u202etool' };
    const xml = formatReport('junit', report({ findings: [odd] }), plain);
    expect(xml).not.toMatch(/[\u001b\u0007\u007f\u009b\u202e]/);
    expect(xml.length).toBeLessThan(3000);
    const suite = parseJunit(xml).testsuites.testsuite[0]!;
    expect(suite.name).toBe('r\\u001b]0;x\\u0007.jsonl');
    expect(suite.testcase[0]).toMatchObject({ name: 'line 3 (\\u202etool)', failure: { message: 'bad \\u001b[2J\\u202eevil\\u007f\\u009b' } });
    expect(xml).toContain(`at /${'k'.repeat(198)}…): bad`);
    // A key's line break is an escape in the pointer too, not a new line of the failure text.
    const broken = formatReport('junit', report({ findings: [{ ...odd, location: { source: 'p.jsonl', line: 1, pointer: '/a\r\n::error::x\u2028' } }] }), plain);
    expect(broken).toContain('at /a\\u000d\\u000a::error::x\\u2028): bad');
  });

  it('keeps line breaks of messages', () => {
    const xml = formatReport('junit', report({ findings: [{ ...findings[3]!, message: 'one\r\ntwo' }] }), plain);
    const failure = parseJunit(xml).testsuites.testsuite[0]!.testcase[0]!.failure!;
    expect(xml).toContain('message="one&#13;&#10;two"');
    expect(failure['#text']).toContain('one\r\ntwo');
  });
});

describe('formatGithub', () => {
  it('writes the summary notice, then one workflow command per finding, col only when known', () => {
    expect(formatReport('github', report(), plain).split('\n')).toEqual([
      '::notice title=mcec-result::12 records in 2 inputs: 2 invalid, 1 unparseable, 3 errors, 1 warning',
      '::error file=a.jsonl,line=4,title=schema::ok is false, so error is required',
      '::error file=a.jsonl,line=12,title=schema::error.category must be one of: timeout, focus (got "no_target") (did you mean "no-target"?)',
      '::warning file=a.jsonl,line=12,title=unknown-code::unknown error code "window-not-fonud" (did you mean "window-not-found"?)',
      '::error file=b.jsonl,line=7,col=58,title=parse-error::unterminated string',
      '',
    ]);
  });

  it('puts what GitHub must show first: it shows 10 annotations of each kind per step', () => {
    // Was: the unreadable input's error and the summary after every finding, hidden past the 10th.
    const many = report({ findings: [...manyFindings('a.jsonl', 11)], summary: summary({ warnings: 11, unreadable: [{ source: 'gone.jsonl', message: 'cannot read gone.jsonl: no such file' }] }) });
    const lines = formatReport('github', many, plain).split('\n');
    expect(lines.slice(0, 2)).toEqual([
      '::error title=mcec-result::cannot read gone.jsonl: no such file',
      "::notice title=mcec-result::12 records in 2 inputs: 2 invalid, 1 unparseable, 3 errors, 11 warnings, 1 input not read; GitHub shows 10 annotations of each kind per step, the rest are in this step's log",
    ]);
    expect(lines.filter((l) => l.startsWith('::warning'))).toHaveLength(11);
    expect(formatReport('github', report(), plain)).not.toContain('GitHub shows');
  });

  it('standard input is no file of the repository: no file= property, the place in the message', () => {
    const fromStdin = findings.map((f) => ({ ...f, location: { ...f.location, source: '-' } }));
    const lines = formatReport('github', report({ findings: fromStdin }), { ...plain, maxListed: 3 }).split('\n');
    expect(lines.slice(0, 5)).toEqual([
      '::notice title=mcec-result::12 records in 2 inputs: 2 invalid, 1 unparseable, 3 errors, 1 warning',
      '::error title=schema::standard input, line 4: ok is false, so error is required',
      '::error title=schema::standard input, line 12: error.category must be one of: timeout, focus (got "no_target") (did you mean "no-target"?)',
      '::warning title=unknown-code::standard input, line 12: unknown error code "window-not-fonud" (did you mean "window-not-found"?)',
      '::notice::1 more finding in standard input not annotated (--max-listed 0 lists all)',
    ]);
  });

  it('shows controls and bidirectional overrides of messages, tools and file names as escapes, never raw in the log', () => {
    // Was: ESC ] 0 ; ... BEL retitled the terminal of whoever read the job's log (found by an audit helper).
    const odd: Finding = { rule: 'duplicate-response', severity: 'error', message: 'a second response (\u001b]0;pwned\u0007\u001b[2J\u202eevil\u009b)', location: { source: '/work/r\u001b[31m.jsonl', line: 2 }, tool: 't' };
    const text = formatReport('github', report({ findings: [odd], summary: summary({ unreadable: [{ source: 'x\u001b.jsonl', message: 'cannot read x\u001b.jsonl: gone' }] }) }), { ...plain, maxListed: 1 });
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
    expect(text).toContain('::error file=r\\u001b[31m.jsonl,line=2,title=duplicate-response::a second response (\\u001b]0;pwned\\u0007\\u001b[2J\\u202eevil\\u009b)\n');
    expect(text).toContain('::error title=mcec-result::cannot read x\\u001b.jsonl: gone\n');
  });

  it('escapes %, CR and LF in messages, and : and , in properties too', () => {
    const odd: Finding = { rule: 'schema', severity: 'error', message: '100% wrong:\r\nsee, here', location: { source: '/work/logs/a,b:c%.jsonl', line: 2, column: 3 } };
    const [, line] = formatReport('github', report({ findings: [odd] }), plain).split('\n');
    expect(line).toBe('::error file=logs/a%2Cb%3Ac%25.jsonl,line=2,col=3,title=schema::100%25 wrong:%0D%0Asee, here');
  });

  it('writes paths relative to cwd with forward slashes', () => {
    const nested: Finding = { ...findings[3]!, location: { source: join(plain.cwd, 'runs', 'run-1', 'b.jsonl'), line: 1 } };
    expect(formatReport('github', report({ findings: [nested] }), plain)).toMatch(/\n::error file=runs\/run-1\/b\.jsonl,line=1,/);
  });

  it('annotates at most --max-listed findings per input, then says how many more there are', () => {
    const lines = formatReport('github', report({ findings: [...manyFindings('a.jsonl', 5), ...manyFindings('b.jsonl', 2)] }), { ...plain, maxListed: 2 }).trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('::warning file=a.jsonl'))).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('::warning file=b.jsonl'))).toHaveLength(2);
    expect(lines[3]).toBe('::notice::3 more findings in a.jsonl not annotated (--max-listed 0 lists all)');
    expect(lines.filter((l) => l.startsWith('::notice::'))).toHaveLength(1);
    const all = formatReport('github', report({ findings: manyFindings('a.jsonl', 5) }), { ...plain, maxListed: 0 });
    expect(all.split('\n').filter((l) => l.startsWith('::warning'))).toHaveLength(5);
  });
});

describe('formatMarkdown', () => {
  const text = formatReport('markdown', report({ summary: summary({ tools: { find: { records: 1, ok: 0, failed: 1, unknown: 0 }, invoke: { records: 4, ok: 2, failed: 1, unknown: 1 } } }) }), plain);

  it('starts with a heading that says whether there are errors', () => {
    expect(text).toMatch(/^## ❌ mcec-result: 3 errors, 1 warning in 2 inputs\n/);
    const clean = report({ findings: [], summary: summary({ errors: 0, warnings: 0 }) });
    expect(formatReport('markdown', clean, plain)).toMatch(/^## ✅ mcec-result: no problems in 2 inputs\n/);
  });

  it('has the totals, category, tool and unknown-code tables', () => {
    expect(text).toContain(
      ['| inputs | records | valid | invalid | unparseable | skipped | errors | warnings |', '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |', '| 2 | 12 | 10 | 2 | 1 | 0 | 3 | 1 |'].join('\n'),
    );
    expect(text).toContain(['| category | records |', '| --- | ---: |', '| timeout | 3 |', '| no-target | 6 |', '| focus | 0 |', '| no\\_target (not a category of the schema) | 1 |'].join('\n'));
    expect(text).toContain(['| tool | records | ok | failed | unknown |', '| --- | ---: | ---: | ---: | ---: |', '| find | 1 | 0 | 1 | 0 |', '| invoke | 4 | 2 | 1 | 1 |'].join('\n'));
    expect(text).toContain('| window-not-fonud | error | 1 | window-not-found |');
  });

  it('draws the categories seen as a Mermaid pie, and no chart when none was seen', () => {
    expect(text).toContain(['```mermaid', 'pie title Error categories', '  "timeout" : 3', '  "no-target" : 6', '```'].join('\n'));
    const none = formatReport('markdown', report({ summary: summary({ categories: { timeout: 0, focus: 0 } }) }), plain);
    expect(none).not.toContain('```mermaid');
    expect(none).toContain('| timeout | 0 |');
  });

  it('leaves out the tool table when tools are unknown', () => {
    expect(formatReport('markdown', report(), plain)).not.toContain('| tool |');
  });

  it('lists findings as a table, at most --max-listed per input, with "and N more"', () => {
    expect(text).toContain('| b.jsonl:7:58 | error | parse-error | unterminated string |');
    expect(text).toContain('| a.jsonl:12 | warning | unknown-code | unknown error code "window-not-fonud" (did you mean "window-not-found"?) |');
    const capped = formatReport('markdown', report({ findings: manyFindings('a.jsonl', 4) }), { ...plain, maxListed: 1 });
    expect(capped).toContain('| a.jsonl:1 |');
    expect(capped).not.toContain('| a.jsonl:2 |');
    expect(capped).toContain('| a.jsonl |  |  | … and 3 more (--max-listed 0 lists all) |');
  });

  it("stays under the 1 MiB GitHub takes as a job summary, saying how many findings it left out", () => {
    // Was 1.7 MB for 120 inputs of 100 findings (--max-listed is per input), which GitHub refuses whole.
    const sources = Array.from({ length: 150 }, (_, i) => `runs/run-${String(i).padStart(3, '0')}/tool-calls.jsonl`);
    const many = sources.flatMap((source) => manyFindings(source, 120));
    const big = formatReport('markdown', report({ findings: many }), plain);
    expect(Buffer.byteLength(big)).toBeLessThanOrEqual(1_000_000);
    const rows = big.split('\n').filter((line) => /^\| runs\/run-\d+\/tool-calls\.jsonl:\d+ \|/.test(line)).length;
    const perInput = big.split('\n').filter((line) => / \| … and 20 more \(--max-listed 0 lists all\) \|$/.test(line)).length;
    expect(rows).toBeGreaterThan(5000);
    const left = Number(/\| … \|  \|  \| … and (\d+) more, left out to keep this summary under the 1 MiB GitHub takes: the JSON or SARIF report lists them all \|\n$/.exec(big)?.[1]);
    // Every finding is listed, counted in an input's "and 20 more", or counted as left out.
    expect(rows + perInput * 20 + left).toBe(many.length);
    expect(formatReport('markdown', report({ findings: manyFindings('a.jsonl', 120) }), plain)).not.toContain('left out');
    // A head that fills the budget alone (a --schema of 20k categories) leaves one line for the findings.
    const categories = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`category-${String(i).padStart(50, '0')}`, 0]));
    const full = formatReport('markdown', report({ findings: many, summary: summary({ categories }) }), plain);
    expect(full.endsWith(`\n\n_${many.length} findings, left out to keep this summary under the 1 MiB GitHub takes: the JSON or SARIF report lists them all_\n`)).toBe(true);
  });

  it('cuts long names (unknown codes, invalid categories, tools) and lists at most 100 of each', () => {
    // Was 1.3 MB for 2,000 records each with its own 600-character invalid category.
    const names = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${'x'.repeat(600)}-${i}`, 1]));
    const tools = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`${'t'.repeat(600)}-${i}`, { records: 1, ok: 1, failed: 0, unknown: 0 }]));
    tools['zz-busiest'] = { records: 12, ok: 7, failed: 5, unknown: 0 };
    const text = formatReport('markdown', report({ summary: summary({ unknownCodes: names(150), invalidCategories: names(2000), tools }) }), plain);
    expect(Buffer.byteLength(text)).toBeLessThan(100_000);
    expect(text).toContain(`| ${'x'.repeat(59)}… | error | 1 |  |`);
    expect(text).toContain('| … and 50 more (the JSON report lists them all) |  |  |  |');
    expect(text).toContain(`| ${'x'.repeat(59)}… (not a category of the schema) | 1 |`);
    expect(text).toContain('| … and 1900 more (the JSON report lists them all) |  |');
    expect(text).toContain(`| ${'t'.repeat(59)}… | 1 | 1 | 0 | 0 |`);
    // The busiest tool is listed, though last by name.
    expect(text).toContain('| zz-busiest | 12 | 7 | 5 | 0 |');
  });

  /** The findings table's row of a report holding `finding` alone. */
  const rowOf = (finding: Finding) =>
    formatReport('markdown', report({ findings: [finding] }), plain)
      .split('\n')
      .find((l) => l.startsWith(`| ${finding.location.source}:${finding.location.line} `));

  it('escapes pipes, backslashes, line breaks and HTML in cells', () => {
    const row = rowOf({ rule: 'schema', severity: 'error', message: 'a | b \\ c\nd <script>', location: { source: 'x.jsonl', line: 1 } });
    expect(row).toBe('| x.jsonl:1 | error | schema | a \\| b \\\\ c<br>d &lt;script&gt; |');
    // Every row of the table still has its four cells.
    expect(row!.split(/(?<!\\)\|/).length - 2).toBe(4);
  });

  it('keeps URLs, www. names and e-mail addresses from the data as text, not links (GFM extended autolinks)', () => {
    // Was: a code "https://evil.example/log_in" became a link in the job summary (found by an audit helper).
    const row = rowOf({ rule: 'unknown-code', severity: 'warning', message: 'unknown error code "https://evil.example/x" or www.evil.example or a@evil.example', location: { source: 'x.jsonl', line: 1 } });
    expect(row).toBe('| x.jsonl:1 | warning | unknown-code | unknown error code "https\\://evil.example/x" or www\\.evil.example or a\\@evil.example |');
  });

  it("writes a Mermaid label's #, quotes and angle brackets as entities: no HTML, no entity read from the data", () => {
    const text = formatReport('markdown', report({ summary: summary({ categories: { '<img src=x onerror=alert(1)>': 1, 'a#35;b': 2, 'say "hi"': 3 } }) }), plain);
    expect(text).toContain(['pie title Error categories', '  "#60;img src=x onerror=alert(1)#62;" : 1', '  "a#35;35;b" : 2', '  "say #quot;hi#quot;" : 3'].join('\n'));
  });
});

describe('formatNdjson', () => {
  it('writes one compact line per finding, then the summary', () => {
    const text = formatReport('ndjson', report(), plain);
    expect(text.endsWith('}\n')).toBe(true);
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(findings.length + 1);
    expect(JSON.parse(lines[3]!)).toEqual({ type: 'finding', rule: 'parse-error', severity: 'error', message: 'unterminated string', source: 'b.jsonl', line: 7, column: 58 });
    expect(JSON.parse(lines.at(-1)!)).toEqual({ type: 'summary', ...summary() });
    expect(lines[0]).toBe(JSON.stringify(JSON.parse(lines[0]!)));
  });
});

describe('CI formats of a real report (built CLI)', () => {
  it('sarif: valid, every rule declared, one result per finding, places right', () => {
    const log = JSON.parse(formatted('sarif')) as SarifLog;
    expectValidSarif(log);
    const driver = log.runs[0].tool.driver;
    for (const id of ruleIds) expect(driver.rules.find((r) => r.id === id)?.defaultConfiguration.level).toBe(ruleCatalog[id].defaultSeverity);
    expect(log.runs[0].results).toHaveLength(realJson.findings.length);
    const parse = log.runs[0].results.find((r) => r.ruleId === 'parse-error')!;
    expect(parse.locations[0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'fixtures/transcripts/run-1/tool-calls.jsonl' }, region: { startLine: 7, startColumn: 58 } });
  });

  it('junit: well-formed, failures = invalid records + unparseable entries, tests = test cases', () => {
    const doc = parseJunit(formatted('junit'));
    const { invalid, unparseable, valid } = realJson.summary;
    expect(Number(doc.testsuites.failures)).toBe(invalid + unparseable);
    const suites = doc.testsuites.testsuite;
    expect(Number(doc.testsuites.tests)).toBe(suites.reduce((n, s) => n + s.testcase.length, 0));
    for (const suite of suites) {
      expect(Number(suite.tests)).toBe(suite.testcase.length);
      expect(Number(suite.failures)).toBe(suite.testcase.filter((c) => c.failure !== undefined).length);
    }
    expect(suites.map((s) => s.name)).toEqual([...new Set(realJson.findings.map((f) => f.source)), 'summary']);
    expect(suites.at(-1)!.testcase[0]!['system-out']).toContain(`${valid} of`);
  });

  it('github: the summary notice, then one command per finding', () => {
    const lines = formatted('github').trimEnd().split('\n');
    expect(lines).toHaveLength(realJson.findings.length + 1);
    expect(lines).toContain('::error file=fixtures/transcripts/run-1/tool-calls.jsonl,line=7,col=58,title=parse-error::unterminated string');
    expect(lines[0]).toMatch(/^::notice title=mcec-result::/);
  });

  it('markdown: heading, pie chart and a findings table', () => {
    const text = formatted('markdown');
    expect(text).toMatch(/^## ❌ /);
    expect(text).toContain('pie title Error categories');
    expect(text).toContain('| fixtures/transcripts/run-1/tool-calls.jsonl:7:58 | error | parse-error | unterminated string |');
  });

  it('ndjson: every line parses, one per finding, the summary last', () => {
    const lines = formatted('ndjson').trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(lines.filter((l) => l.type === 'finding')).toHaveLength(realJson.findings.length);
    expect(lines.at(-1)).toEqual({ type: 'summary', ...realJson.summary });
  });

  it('--format human beside --format <name>=<file>: SARIF and the other formats to their files, the human report to stdout', () => {
    expect(realRun.status).toBe(1);
    expect(realRun.stdout).toContain(`✖ ${realJson.findings.length} problems`);
    expect(realRun.stdout).not.toContain('"$schema"');
    expect(realRun.stdout).not.toContain('<testsuites');
    const log = JSON.parse(realRun.read('sarif')) as SarifLog;
    expectValidSarif(log);
    expect(log.runs[0].results).toHaveLength(realJson.findings.length);
  });
});

describe('an input that could not be read, in every format (built CLI)', () => {
  // Was: said on stderr only; the report itself, saved and read later or merged, passed for a
  // check of every input.
  const dir = tempFiles({ 'run.jsonl': '{"ok":false}\n', 'other.jsonl': '{"ok":true,"result":{}}\n' });
  // One run writes every format: JSON to stdout, each other format to its file (outside the inputs'
  // folder), which holds the text `-f <name>` alone prints.
  const out = tempFiles({});
  const fileFormats = ['ndjson', 'sarif', 'junit', 'human', 'markdown', 'github'];
  const json = runCli(['check', '-f', 'json', ...fileFormats.flatMap((format) => ['-f', `${format}=${join(out, format)}`]), 'missing.jsonl', 'run.jsonl'], { cwd: dir });
  const run = (format: string) => readFileSync(join(out, format), 'utf8');
  const said = 'cannot read missing.jsonl: no such file or directory';

  it('json and ndjson: summary.unreadable, which merge keeps and the report schema accepts', () => {
    expect(json.status).toBe(2);
    const report = JSON.parse(json.stdout);
    expect(report.summary.unreadable).toEqual([{ source: 'missing.jsonl', message: said }]);
    expect(JSON.parse(run('ndjson').trim().split('\n').at(-1)!).unreadable).toEqual(report.summary.unreadable);
    // Every shard is told of a missing input it was named: the merge says so once.
    const shards = ['1/2', '2/2'].map((shard) => runCli(['check', '-f', 'json', '--shard', shard, 'missing.jsonl', 'run.jsonl', 'other.jsonl'], { cwd: dir }).stdout);
    const saved = tempFiles({ 'a.json': shards[0]!, 'b.json': shards[1]! });
    const merged = runCli(['merge', '-f', 'json', join(saved, 'a.json'), join(saved, 'b.json')]);
    expect(merged).toMatchObject({ status: 2, stderr: `mcec-result: ${said}\n` });
    expect(JSON.parse(merged.stdout).summary.unreadable).toEqual([{ source: 'missing.jsonl', message: said }]);
    // A run that read every input says nothing of the kind.
    expect(JSON.parse(runCli(['check', '-f', 'json', 'run.jsonl'], { cwd: dir }).stdout).summary).not.toHaveProperty('unreadable');
  });

  it('sarif: a failed invocation with a notification at the file, still a valid log', () => {
    const log = JSON.parse(run('sarif'));
    expectValidSarif(log);
    expect(log.runs[0].invocations).toEqual([
      { executionSuccessful: false, toolExecutionNotifications: [{ level: 'error', message: { text: said }, locations: [{ physicalLocation: { artifactLocation: { uri: 'missing.jsonl' } } }] }] },
    ]);
  });

  it('junit: a test case in error; human, markdown and github say it too', () => {
    const doc = parseJunit(run('junit'));
    expect(doc.testsuites.errors).toBe('1');
    const summary = doc.testsuites.testsuite.at(-1)!;
    expect(summary.testcase.at(-1)).toMatchObject({ name: 'read missing.jsonl', error: { message: said, type: 'unreadable' } });
    expect(run('human')).toContain(`\nunreadable: ${said}\n`);
    expect(run('markdown')).toContain(`\n> **unreadable:** ${said}\n`);
    expect(run('github')).toMatch(new RegExp(`^::error title=mcec-result::${said.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n::notice title=mcec-result::.*, 1 input not read\n`));
  });
});

describe('workflow commands in the data (built CLI)', () => {
  // GitHub's runner takes a log line for a command when it starts with `::` after white space, or,
  // in the legacy form, when it holds `##[` anywhere. Every format may be printed in a CI log.
  const hostile = {
    code: '##[stop-commands]token',
    category: '::error file=src/app.ts,line=1::Forged annotation',
    session: '::add-mask::mcec-result',
    tool: '##[error]forged',
  };
  const envelope = { ok: false, error: { code: hostile.code, category: hostile.category, detail: 'd' }, warnings: [{ code: '::warning::w', detail: 'x' }], sessionId: hostile.session };
  const transcript = [
    { direction: 'request', sessionId: 's', payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: hostile.tool } } },
    { direction: 'response', sessionId: 's', payload: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify(envelope) }] } } },
  ];
  const dir = tempFiles({ '##[error]x.jsonl': `${JSON.stringify(envelope)}\n`, 'tool-calls.jsonl': transcript.map((t) => JSON.stringify(t)).join('\n') + '\n' });
  const opening = (line: string) => /^\s*::/u.test(line) || line.includes('##[');
  // One run writes every format: human to stdout, each other format to its file (outside the folder
  // checked), which holds the text `--format <name>` alone prints.
  const out = tempFiles({});
  const fileFormats = ['json', 'ndjson', 'sarif', 'junit', 'markdown', 'github'];
  const all = runCli(['check', '--no-config', '--format', 'human', ...fileFormats.flatMap((format) => ['--format', `${format}=${join(out, format)}`]), '.'], { cwd: dir });
  const text = (format: string) => (format === 'human' ? all.stdout : readFileSync(join(out, format), 'utf8'));

  it.each(['human', 'json', 'ndjson', 'sarif', 'junit', 'markdown'])('%s: no line opens a command', (format) => {
    expect(all.status).toBe(1);
    expect(text(format).split('\n').filter(opening)).toEqual([]);
    expect(all.stderr).toBe('');
  });

  it('github: every line is its own command, the data inside escaped', () => {
    const lines = text('github').trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^::(error|warning|notice) /);
  });

  it('the JSON family and JUnit still read as the same text', () => {
    const json = JSON.parse(text('json'));
    expect(json.findings.map((f: { source: string }) => f.source)).toContain('./##[error]x.jsonl');
    expect(Object.keys(json.summary.codes)).toContain(hostile.code);
    expect(Object.keys(json.summary.tools)).toEqual([hostile.tool]);
    const junit = parseJunit(text('junit'));
    expect(junit.testsuites.testsuite.map((s) => s.name)).toContain('./##[error]x.jsonl');
    const human = text('human');
    expect(human).toContain('./##\\u005berror]x.jsonl:1');
    expect(human).toContain('  \\u003a:add-mask::mcec-result');
  });

  it('stderr: an unreadable input named with ##[ opens nothing', () => {
    const { stderr, status } = runCli(['check', '--no-config', '##[stop-commands]missing.jsonl'], { cwd: dir });
    expect(status).toBe(2);
    expect(stderr).toContain('##\\u005bstop-commands]missing.jsonl');
    expect(stderr.split('\n').filter(opening)).toEqual([]);
  });
});

describe('a file whose name holds a backslash (built CLI, POSIX)', () => {
  it.skipIf(process.platform === 'win32')('SARIF and GitHub name it, not a file in a folder', () => {
    const dir = tempFiles({ 'c11/a\\b.jsonl': '{"ok":false}\n' });
    // One run: SARIF to stdout, GitHub's commands to a file outside the folder checked.
    const github = join(tempFiles({}), 'github.txt');
    const sarif = JSON.parse(runCli(['check', '--no-config', '-f', 'sarif', '-f', `github=${github}`, 'c11'], { cwd: dir }).stdout) as SarifLog;
    expect(sarif.runs[0].results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe('c11/a%5Cb.jsonl');
    expect(readFileSync(github, 'utf8')).toContain('file=c11/a\\b.jsonl,');
  });
});

describe('findings of one rule on one line (built CLI)', () => {
  it('human, GitHub and Markdown name the pointer where two would read alike, and only there', () => {
    const record = { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'd', lastObservation: { a: { base64: 'AAAA' }, b: [{ base64: 'BBBB' }] } }, warnings: [{ code: 'x_y', detail: 'a' }, { code: 'x_y', detail: 'b' }, { code: 'y_z', detail: 'c' }] };
    const dir = tempFiles({ 'r.jsonl': `${JSON.stringify(record)}\n` });
    // Was: two lines alike for each of code-format, unknown-warning-code and inline-image.
    // One run: human to stdout, GitHub and Markdown to their files.
    const human = runCli(['check', '--no-config', '-f', 'human', '-f', 'github=github.txt', '-f', 'markdown=markdown.md', 'r.jsonl'], { cwd: dir }).stdout;
    const outputs: Record<string, string> = { human, github: readFileSync(join(dir, 'github.txt'), 'utf8'), markdown: readFileSync(join(dir, 'markdown.md'), 'utf8') };
    for (const format of ['human', 'github', 'markdown']) {
      const out = outputs[format]!;
      const findingLines = out.split('\n').filter((line) => /code-format|unknown-warning-code|inline-image/.test(line) && /not kebab|unknown warning|inlines/.test(line));
      expect(findingLines).toHaveLength(8);
      expect(new Set(findingLines).size).toBe(8);
      expect(out).toContain('(at /warnings/1/code)');
      expect(out).toContain('(at /error/lastObservation/b/0/base64)');
      // y_z's findings are one of their kind: no pointer added.
      const alone = findingLines.filter((line) => line.includes('y_z') || line.includes('y\\_z'));
      expect(alone).toHaveLength(2);
      expect(alone.filter((line) => line.includes('(at '))).toEqual([]);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { formatReport } from '../src/formatters/index.js';
import { toJsonReport } from '../src/formatters/json.js';
import type { Finding, Report } from '../src/types.js';
import { sampleSummary } from './helpers/report.js';

function report(overrides: Partial<Report> = {}): Report {
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: '0.1.0' },
    schema: { id: 'urn:test', source: 'bundled' },
    summary: sampleSummary({ errors: 2 }),
    findings: [
      { rule: 'schema', severity: 'error', message: 'ok is false, so error is required', location: { source: 'a.jsonl', line: 4, pointer: '' }, keyword: 'required', schemaPath: '#/allOf/0/then/required', wrapping: 'bare' },
      { rule: 'unknown-code', severity: 'warning', message: 'unknown error code "window-not-fonud"', location: { source: 'a.jsonl', line: 12, pointer: '/error/code' }, suggestion: 'window-not-found', wrapping: 'bare' },
      { rule: 'parse-error', severity: 'error', message: 'unterminated string', location: { source: 'b.jsonl', line: 7, column: 58 } },
    ],
    suggestions: { codes: { 'window-not-fonud': 'window-not-found' }, warningCodes: {} },
    inputFailures: [],
    interrupted: false,
    ...overrides,
  };
}

const plain = { color: false, maxListed: 100, quiet: false, cwd: '/work' };

describe('formatHuman', () => {
  it('lists findings per input, aligned, then the summary (no colour)', () => {
    expect(formatReport('human', report(), plain)).toBe(
      [
        'a.jsonl:4   error    ok is false, so error is required  schema',
        'a.jsonl:12  warning  unknown error code "window-not-fonud" (did you mean "window-not-found"?)  unknown-code',
        '',
        'b.jsonl:7:58  error    unterminated string  parse-error',
        '',
        '✖ 3 problems (2 errors, 1 warning) in 2 inputs',
        'records   12 checked  10 valid  2 invalid  1 unparseable  0 skipped',
        'outcomes  3 ok  9 failed  0 unknown',
        '',
        'categories',
        '  timeout    ████████████ 3',
        '  no-target  ████████████████████████ 6',
        '  focus      · 0',
        '  no_target  ████ 1 (not a category of the schema)',
        '',
        'top codes',
        '  window-not-found           6',
        '  wait-condition-timeout     3',
        '  window-not-fonud           1',
        'unknown error codes',
        '  window-not-fonud     1  did you mean "window-not-found"?',
        '',
      ].join('\n'),
    );
  });

  it('names the JSON-RPC error responses and truncation markers among the skipped', () => {
    const text = formatReport('human', report({ summary: sampleSummary({ skipped: 5, protocolErrors: 2, truncated: 1 }) }), plain);
    expect(text).toContain('records   12 checked  10 valid  2 invalid  1 unparseable  5 skipped (2 JSON-RPC error responses, 1 truncation marker)\n');
    const one = formatReport('human', report({ summary: sampleSummary({ skipped: 1, protocolErrors: 1 }) }), plain);
    expect(one).toContain('1 skipped (1 JSON-RPC error response)\n');
  });

  it('lists codes most frequent first, integer-like ones too (an object puts those first)', () => {
    const counts = { '404': 1, 'window-not-found': 3 };
    const summary = sampleSummary({ codes: counts, unknownCodes: counts, invalidCategories: { '7': 1, no_target: 2 } });
    const text = formatReport('human', report({ summary }), plain);
    expect(text).toMatch(/top codes\n {2}window-not-found +3\n {2}404 +1\n/);
    expect(text).toMatch(/unknown error codes\n {2}window-not-found +3\n {2}404 +1/);
    expect(text).toMatch(/ no_target .* 2 \(not a category of the schema\)\n {2}7 /);
    const markdown = formatReport('markdown', report({ summary }), plain);
    expect(markdown.indexOf('| window-not-found |')).toBeLessThan(markdown.indexOf('| 404 |'));
    expect(markdown.indexOf('no_target (not a category')).toBeLessThan(markdown.indexOf('| 7 (not a category'));
  });

  it('shows the 5 top codes and 10 busiest sessions, and counts the rest', () => {
    const codes = Object.fromEntries(Array.from({ length: 7 }, (_, k) => [`code-${k}`, 10 - k]));
    const sessions = Object.fromEntries(Array.from({ length: 12 }, (_, k) => [`s${String(k).padStart(2, '0')}`, { records: 20 - k, ok: 20 - k, failed: 0, unknown: 0 }]));
    const text = formatReport('human', report({ summary: sampleSummary({ codes, sessions }) }), plain);
    expect(text).toMatch(/top codes\n {2}code-0 +10\n {2}code-1 +9\n {2}code-2 +8\n {2}code-3 +7\n {2}code-4 +6\n {2}… and 2 more\n/);
    const shown = text.slice(text.indexOf('sessions\n')).split('\n').slice(2);
    expect(shown.slice(0, 11).map((row) => row.trim().split(/ +/)[0])).toEqual(['s00', 's01', 's02', 's03', 's04', 's05', 's06', 's07', 's08', 's09', '…']);
    expect(shown[10]).toBe('  … and 2 more');
  });

  it('gives no pass over a report that does not cover every input (unread, interrupted)', () => {
    // Was "✔ no problems in 1 input" (Markdown "## ✅") over runs that exit 2 or 130.
    const clean = { findings: [], summary: sampleSummary({ errors: 0, warnings: 0, inputs: 1 }) };
    const unread = report({ ...clean, summary: { ...clean.summary, unreadable: [{ source: 'gone.jsonl', message: 'cannot read gone.jsonl: no such file' }] } });
    const stopped = report({ ...clean, summary: { ...clean.summary, interrupted: true } });
    const firstLine = (format: 'human' | 'markdown', r: Report) => formatReport(format, r, plain).split('\n')[0];
    expect(firstLine('human', report(clean))).toBe('✔ no problems in 1 input');
    expect(firstLine('human', unread)).toBe('✖ no problems in 1 input (1 input not read)');
    expect(firstLine('human', stopped)).toBe('⚠ no problems in 1 input (interrupted)');
    expect(firstLine('markdown', report(clean))).toBe('## ✅ mcec-result: no problems in 1 input');
    expect(firstLine('markdown', unread)).toBe('## ❌ mcec-result: no problems in 1 input (1 input not read)');
    expect(firstLine('markdown', stopped)).toBe('## ⚠️ mcec-result: no problems in 1 input (interrupted)');
    const warned = report({ ...clean, summary: { ...clean.summary, warnings: 2, interrupted: true } });
    expect(firstLine('markdown', warned)).toBe('## ⚠️ mcec-result: 0 errors, 2 warnings in 1 input (interrupted)');
    const withFindings = report({ summary: { ...sampleSummary({ errors: 2 }), unreadable: unread.summary.unreadable! } });
    expect(formatReport('human', withFindings, plain).split('\n').find((l) => l.startsWith('✖'))).toBe('✖ 3 problems (2 errors, 1 warning) in 2 inputs (1 input not read)');
  });

  it('colours severities when asked, and only then', () => {
    const coloured = formatReport('human', report(), { ...plain, color: true });
    expect(coloured).toContain('\u001b[31merror  \u001b[39m');
    expect(coloured).toContain('\u001b[33mwarning\u001b[39m');
    expect(formatReport('human', report(), plain)).not.toContain('\u001b[');
  });

  it('caps the listing per input and says how many more there are', () => {
    const text = formatReport('human', report(), { ...plain, maxListed: 1 });
    expect(text).toContain('… and 1 more in a.jsonl (--max-listed 0 lists all)');
    expect(text).not.toContain('a.jsonl:12');
  });

  it('150,000 distinct codes, categories and tools, or as many findings listed: a bounded summary, not a stack overflow', () => {
    const names = Array.from({ length: 150_000 }, (_, i) => `name-${i}`);
    const counted = Object.fromEntries(names.map((name) => [name, 1]));
    const summary = sampleSummary({ codes: counted, unknownCodes: counted, unknownWarningCodes: counted, invalidCategories: counted, tools: Object.fromEntries(names.map((name) => [name, { records: 1, ok: 1, failed: 0, unknown: 0 }])) });
    // Was: "Maximum call stack size exceeded" from Math.max(...widths), and no report at all.
    const text = formatReport('human', report({ summary, findings: [] }), plain);
    expect(text.split('\n').length).toBeLessThan(700);
    expect(text.match(/… and 149900 more \(the JSON report lists them all\)/g)).toHaveLength(4);
    const findings = Array.from({ length: 150_000 }, (_, i): Finding => ({ rule: 'schema', severity: 'error', message: 'ok is false, so error is required', location: { source: 'a.jsonl', line: i + 1, pointer: '' } }));
    const all = formatReport('human', report({ findings }), { ...plain, maxListed: 0 });
    expect(all.split('\n').filter((line) => line.startsWith('a.jsonl:'))).toHaveLength(150_000);
    expect(all).toContain('a.jsonl:150000  error    ok is false, so error is required  schema\n');
  });

  it('--quiet keeps errors and the summary', () => {
    const text = formatReport('human', report(), { ...plain, quiet: true });
    expect(text).not.toContain('a.jsonl:12');
    expect(text).toContain('a.jsonl:4');
    expect(text).toContain('✖ 3 problems');
  });

  it('says so when there is nothing to report', () => {
    const clean = report({ findings: [] });
    clean.summary = { ...clean.summary, errors: 0, warnings: 0, invalid: 0, unparseable: 0, codes: {}, unknownCodes: {}, invalidCategories: {} };
    expect(formatReport('human', clean, plain)).toMatch(/^✔ no problems in 2 inputs\n/);
  });
});

describe('report data with control characters, for people', () => {
  // An error code read from a log, a tool name, a session id, a category and a file name, each
  // carrying a terminal escape, a bell, a line break or a right-to-left override.
  const evil = 'x\u001b[2J\u001b[31my\nFAKE\u0007\u202e\ufeff';
  const shown = 'x\\u001b[2J\\u001b[31my\\u000aFAKE\\u0007\\u202e\\ufeff';
  const dirty = report({
    summary: sampleSummary({
      codes: { [evil]: 2 },
      unknownCodes: { [evil]: 2 },
      unknownWarningCodes: { [evil]: 1 },
      invalidCategories: { [evil]: 1 },
      // A --schema's category: its enum is data as much as a record is.
      categories: { timeout: 0, [evil]: 1 },
      tools: { [evil]: { records: 2, ok: 1, failed: 1, unknown: 0 } },
      sessions: { [evil]: { records: 2, ok: 1, failed: 1, unknown: 0 } },
    }),
    findings: [{ rule: 'unknown-code', severity: 'warning', message: `unknown error code ${evil}`, location: { source: `run${evil}.jsonl`, line: 1 }, tool: evil }],
  });

  it('human: every value shown with escapes, nothing raw reaches the terminal', () => {
    const text = formatReport('human', dirty, plain);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\ufeff]/);
    // Every line of the report is one the formatter wrote: none starts with the forged text.
    expect(text.split('\n').filter((line) => line.startsWith('FAKE'))).toEqual([]);
    expect(text).toContain(`run${shown}.jsonl:1  warning  ${shown}: unknown error code ${shown}  unknown-code`);
    for (const section of ['categories', 'top codes', 'unknown error codes', 'unknown warning codes', 'tools', 'sessions']) expect(text).toMatch(new RegExp(`${section}\n(.*\n)?  ${shown.replaceAll('\\', '\\\\').replaceAll('[', '\\[')} `));
  });

  it('human: characters that show as nothing or turn text around are escapes too; two codes never print alike', () => {
    // Was: "ascii\u200b-code" printed as "ascii-code", and U+061C, U+00AD, U+2060 and tags raw.
    const codes = ['ascii-code', 'ascii\u200b-code', 'x\u061cy', 'soft\u00adhyphen', 'w\u2060j', 'tag\udb40\udc41', 'zwj\u200dkept'];
    const text = formatReport('human', report({ summary: sampleSummary({ unknownCodes: Object.fromEntries(codes.map((code) => [code, 1])) }) }), plain);
    const rows = text.slice(text.indexOf('unknown error codes\n')).split('\n').slice(1, 1 + codes.length).map((row) => row.trim().split(/ {2,}/)[0]);
    expect(rows.sort()).toEqual(['ascii-code', 'ascii\\u200b-code', 'x\\u061cy', 'soft\\u00adhyphen', 'w\\u2060j', 'tag\\udb40\\udc41', 'zwj\u200dkept'].sort());
  });

  it('human: a long name is cut by its characters, never inside an escape or a surrogate pair', () => {
    // Was: cut after escaping, 20 ESCs ended in "\u001…"; and half an emoji in JSON messages.
    const escapes = '\u001b'.repeat(20);
    const emoji = `${'a'.repeat(58)}😀tail`;
    const text = formatReport('human', report({ summary: sampleSummary({ unknownCodes: { [escapes]: 1, [emoji]: 1 } }) }), plain);
    expect(text).toContain(`  ${'\\u001b'.repeat(9)}…  `);
    expect(text).toContain(`  ${'a'.repeat(58)}…  `);
    expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('human, Markdown and GitHub: a lone surrogate in a code or a file name is an escape, as in messages', () => {
    // Was raw: text no UTF-8 holds, written out as U+FFFD, which "bad\ufffdcode" is too.
    const odd = 'bad\ud800code';
    const lone = report({
      summary: sampleSummary({ codes: { [odd]: 1 }, unknownCodes: { [odd]: 1 }, tools: { [`t\udc00`]: { records: 1, ok: 0, failed: 1, unknown: 0 } } }),
      findings: [{ rule: 'unknown-code', severity: 'warning', message: 'unknown error code "bad\\ud800code"', location: { source: 'w\ud800.jsonl', line: 1 } }],
      suggestions: { codes: {}, warningCodes: {} },
    });
    for (const format of ['human', 'markdown', 'github'] as const) {
      const text = formatReport(format, lone, plain);
      expect(text, format).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
      expect(text, format).toMatch(format === 'markdown' ? /w\\\\ud800\.jsonl:1/ : /w\\ud800\.jsonl/);
    }
    const human = formatReport('human', lone, plain);
    for (const section of ['top codes', 'unknown error codes']) expect(human, section).toMatch(new RegExp(`${section}\n  bad\\\\ud800code +1`));
    expect(human).toMatch(/tools\n.*\n  t\\udc00 /);
    expect(formatReport('markdown', lone, plain)).toContain('| bad\\\\ud800code | error | 1 |');
  });

  it('human: an empty code or session is a row named "", not a blank one', () => {
    const empty = report({ summary: sampleSummary({ codes: { '': 2, 'window-not-found': 1 }, unknownCodes: { '': 2 }, sessions: { '': { records: 2, ok: 0, failed: 2, unknown: 0 } } }) });
    const text = formatReport('human', empty, plain);
    for (const section of ['top codes', 'unknown error codes', 'sessions']) expect(text).toMatch(new RegExp(`${section}\n(.*\n)?  "" +.*2`));
  });

  it('markdown: a line break in a file name is an escape, not a <br> that makes CR and LF look alike', () => {
    const at = (source: string, line: number): Finding => ({ rule: 'parse-error', severity: 'error', message: 'unterminated string', location: { source, line } });
    const names = report({
      findings: [at('./n\nl.jsonl', 2), at('./c\rr.jsonl', 2), at('./c\rr.jsonl', 3)],
      summary: sampleSummary({ unreadable: [{ source: 'x\r\ny.jsonl', message: 'cannot read x\r\ny.jsonl: permission denied' }] }),
    });
    const text = formatReport('markdown', names, { ...plain, maxListed: 1 });
    // Was: | ./n<br>l.jsonl:2 | and | ./c<br>r.jsonl:2 |, two names that read alike.
    expect(text).toContain('| ./n\\\\u000al.jsonl:2 | error |');
    expect(text).toContain('| ./c\\\\u000dr.jsonl:2 | error |');
    expect(text).toContain('| ./c\\\\u000dr.jsonl |  |  | … and 1 more');
    expect(text).toContain('> **unreadable:** cannot read x\\\\u000d\\\\u000ay.jsonl: permission denied');
    expect(text).not.toContain('<br>');
  });

  it('markdown: the same, a line break inside a cell still a <br>', () => {
    const text = formatReport('markdown', dirty, plain);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\ufeff]/);
    expect(text).toContain('| x\\\\u001b\\[2J\\\\u001b\\[31my<br>FAKE\\\\u0007\\\\u202e\\\\ufeff | error | 2 |  |');
  });
});

describe('formatJson', () => {
  it('flattens locations and omits what does not apply', () => {
    const json = JSON.parse(formatReport('json', report(), plain));
    expect(Object.keys(json)).toEqual(['reportVersion', 'tool', 'schema', 'summary', 'findings']);
    expect(json.findings[2]).toEqual({ rule: 'parse-error', severity: 'error', message: 'unterminated string', source: 'b.jsonl', line: 7, column: 58 });
    expect(json.findings[1]).toEqual({
      rule: 'unknown-code',
      severity: 'warning',
      message: 'unknown error code "window-not-fonud"',
      source: 'a.jsonl',
      line: 12,
      pointer: '/error/code',
      suggestion: 'window-not-found',
      wrapping: 'bare',
    });
  });
});

describe('streamed JSON formats', () => {
  // Findings are stringified a batch at a time; the text must still be JSON.stringify's, byte for
  // byte, for any count of findings around a batch's size (64) and at any nesting of the array.
  const many = (count: number): Report => {
    const base: Finding[] = [...report().findings];
    const findings = Array.from({ length: count }, (_, i): Finding => {
      const finding = base[i % base.length]!;
      return { ...finding, location: { ...finding.location, line: i + 1 } };
    });
    return report({ findings });
  };
  for (const format of ['json', 'sarif'] as const) {
    it.each([0, 1, 63, 64, 65, 700])(`--format ${format} with %i findings is JSON.stringify(report, null, 2)`, (count) => {
      const text = formatReport(format, many(count), plain);
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
      type Sarif = { locations: { physicalLocation: { region: { startLine: number } } }[] };
      const parsed = JSON.parse(text) as { findings?: { line: number }[]; runs?: { results: Sarif[] }[] };
      // Every item once, in order, for either format: a batch lost or repeated changes the lines.
      const lines = parsed.findings ? parsed.findings.map((f) => f.line) : parsed.runs![0]!.results.map((r) => r.locations[0]!.physicalLocation.region.startLine);
      expect(lines).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    });
  }

  it('--format json: findings alike but for one field each, or for their lines, each written as JSON.stringify writes it', () => {
    const base: Finding = { rule: 'schema', severity: 'error', message: 'm "line": -0.5\n\u2028', location: { source: 'a.jsonl', line: 1, column: 3, pointer: '/error' }, keyword: 'not', schemaPath: '#/x', suggestion: 's', tool: 't', wrapping: 'bare' };
    // Each differs from the base in one written field (code and fingerprint are not written).
    const variants: Finding[] = [
      base,
      { ...base, rule: 'code-format' },
      { ...base, severity: 'warning' },
      // Kinds are shared across messages too: each finding's own is put in, escaped as JSON escapes it.
      { ...base, message: 'other "message": "", "source": "" \\ \ud800 \u0000' },
      { ...base, message: '' },
      { ...base, location: { ...base.location, source: 'b.jsonl' } },
      // Kinds are shared across inputs: each finding's own input is put in, quoted as JSON quotes it.
      { ...base, location: { ...base.location, source: 'dir/"quoted" \\ é\u2028.jsonl' } },
      { ...base, location: { ...base.location, column: 4 } },
      { ...base, location: { source: 'a.jsonl', line: 1, pointer: '/error' } },
      { ...base, location: { ...base.location, pointer: '' } },
      { ...base, keyword: undefined },
      { ...base, schemaPath: '#/y' },
      { ...base, suggestion: undefined },
      { ...base, tool: 'u' },
      { ...base, wrapping: 'mcp' },
      { ...base, code: 'c', fingerprint: 'f' },
    ];
    const lines = [1, 7, 2 ** 31, Number.MAX_SAFE_INTEGER];
    const findings = lines.flatMap((line) => variants.map((f): Finding => ({ ...f, location: { ...f.location, line } })));
    const r = report({ findings });
    expect(formatReport('json', r, plain)).toBe(`${JSON.stringify(toJsonReport(r), null, 2)}\n`);
  });

  it('--format json: past 10,000 kinds of finding, each is written whole, the same', () => {
    const findings = Array.from({ length: 10_050 }, (_, i): Finding => ({ rule: 'unknown-code', severity: 'warning', message: `unknown error code "c${i % 10_020}"`, location: { source: 'a.jsonl', line: i + 1, pointer: '/error/code' } }));
    const r = report({ findings });
    expect(formatReport('json', r, plain)).toBe(`${JSON.stringify(toJsonReport(r), null, 2)}\n`);
  });

  it.each(['json', 'sarif'] as const)('--format %s: codes, sessions and files named like the streamed array\'s marker are data like any other', (format) => {
    // Was: the findings were streamed into summary.codes, where a code held the marker, and the report was no JSON.
    const names = ['\u0000items\u0000', '\u0000items 0\u0000', '\u0000items 1\u0000'];
    const summary = sampleSummary({ errors: 2 });
    summary.codes = Object.fromEntries(names.map((name) => [name, 1]));
    summary.sessions = Object.fromEntries(names.map((name) => [name, { records: 1, ok: 0, failed: 1, unknown: 0 }]));
    const findings = [...report().findings].map((f, i): Finding => ({ ...f, location: { ...f.location, source: names[i]! } }));
    const text = formatReport(format, report({ summary, findings }), plain);
    const parsed = JSON.parse(text) as { summary?: typeof summary; findings?: { source: string }[]; runs?: { results: unknown[] }[] };
    expect(text).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    if (format === 'json') {
      expect(parsed.summary!.codes).toEqual(summary.codes);
      expect(parsed.findings!.map((f) => f.source)).toEqual(names);
    } else expect(parsed.runs![0]!.results).toHaveLength(3);
  });
});

describe('formatReport, the library entry', () => {
  it('options left out take their defaults', () => {
    expect(formatReport('human', report())).toBe(formatReport('human', report(), { color: false, maxListed: 100, quiet: false, cwd: '.' }));
    expect(formatReport('human', report(), { maxListed: undefined })).toContain('a.jsonl:12');
  });

  it("a JavaScript caller's slips are said, not rendered: a misspelt option listed no finding at all", () => {
    const cases: [() => string, string][] = [
      [() => formatReport('human', report(), { maxListd: 3 } as object), 'formatReport: unknown option "maxListd" (did you mean "maxListed"?)'],
      [() => formatReport('human', report(), { maxListed: -1 }), 'formatReport: maxListed: expected a whole number (0 lists all), got -1'],
      [() => formatReport('human', report(), { color: 'yes' as unknown as boolean }), 'formatReport: color: expected true or false, got "yes"'],
      [() => formatReport('sarf' as 'sarif', report()), 'formatReport: unknown format "sarf" (did you mean "sarif"?): choose from human, json, ndjson, sarif, junit, github, markdown'],
      [() => formatReport(report() as unknown as 'json', 'json' as unknown as Report), 'formatReport: unknown format'],
      [() => formatReport('json', null as unknown as Report), 'formatReport: expected the report check() or merge gave'],
    ];
    for (const [call, message] of cases) expect(call, message).toThrow(message);
  });
});

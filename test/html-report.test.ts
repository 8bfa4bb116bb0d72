// The HTML report (`--format html`) without a browser: the record text it is given (bounded, the
// pointed-at member's span), its escaping of every value from the data, its size, and what `check`
// and `merge` write. What a browser does with the page is in test-browser/.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordTexts, RecordWindow, cutBytes, prettyPrinted, recordTextLimits } from '../src/findings/record-text.js';
import { check, formatReport } from '../src/index.js';
import type { Finding, Report } from '../src/types.js';
import { binary, repoRoot, runCli, tempFiles } from './helpers/cli.js';
import { injectionFileName, injectionFiles, manyFindings, payload, spreadFindings } from './helpers/html-report.js';
import { sampleSummary } from './helpers/report.js';

/** Every pointer of a JSON value, with what `"key": value` (or the element) reads as at its depth. */
function members(value: unknown): { pointer: string; expected: string }[] {
  const out: { pointer: string; expected: string }[] = [{ pointer: '', expected: JSON.stringify(value, null, 2) }];
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value, pointer: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: item, pointer, depth } = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, child] of Object.entries(item)) {
      const childPointer = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      const text = JSON.stringify(child, null, 2).replaceAll('\n', `\n${'  '.repeat(depth + 1)}`);
      out.push({ pointer: childPointer, expected: Array.isArray(item) ? text : `${JSON.stringify(key)}: ${text}` });
      stack.push({ value: child, pointer: childPointer, depth: depth + 1 });
    }
  }
  return out;
}

describe('record text (findings/record-text.ts)', () => {
  it('prints a value as JSON.stringify(value, null, 2) does, each member spanning its key and value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const value = JSON.parse(JSON.stringify(json)) as unknown;
        const all = members(value);
        const printed = prettyPrinted(value, 1 << 30, new Set(all.map((m) => m.pointer)));
        expect(printed.text).toBe(JSON.stringify(value, null, 2));
        expect(printed.cut).toBe(false);
        for (const { pointer, expected } of all) {
          const span = printed.spans.get(pointer)!;
          expect(printed.text.slice(span[0], span[1]), pointer).toBe(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stops at the limit in UTF-8 bytes, a start of the whole text, marking open members to the cut', () => {
    const value = { ok: false, error: { code: 'x', detail: 'é😀'.repeat(3000) }, sessionId: 's' };
    const printed = prettyPrinted(value, 4096, new Set(['/error', '/error/detail', '/sessionId']));
    expect(printed.cut).toBe(true);
    expect(Buffer.byteLength(printed.text)).toBeLessThanOrEqual(4096);
    expect(Buffer.byteLength(printed.text)).toBeGreaterThan(4090);
    expect(JSON.stringify(value, null, 2).startsWith(printed.text)).toBe(true);
    expect(printed.spans.get('/error')![1]).toBe(printed.text.length);
    expect(printed.text.slice(...printed.spans.get('/error/detail')!)).toMatch(/^"detail": "é😀/);
    // Past the cut: no span.
    expect(printed.spans.has('/sessionId')).toBe(false);
  });

  it('walks a record nested deeper than recursion goes, and cuts a string of megabytes before quoting it', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(prettyPrinted(deep, 4096, new Set()).text.length).toBeGreaterThan(100);
    const huge = prettyPrinted({ detail: 'a'.repeat(50_000_000) }, 4096, new Set(['/detail']));
    expect(Buffer.byteLength(huge.text)).toBe(4096);
  });

  it('cuts text in bytes without parting a surrogate pair', () => {
    expect(cutBytes('ab😀', 5)).toBe('ab');
    expect(cutBytes('ab😀', 6)).toBe('ab😀');
    expect(cutBytes('é'.repeat(10), 5)).toBe('éé');
  });

  it("keeps a thread's share to the first findings, and the formatter's window to the limits", () => {
    const texts = new RecordTexts();
    let kept = 0;
    for (let i = 0; i < 2000; i++) if (texts.value({ ok: false, i }, [{ pointer: '/ok' }]) !== undefined) kept++;
    expect(kept).toBe(recordTextLimits.findings);
    const window = new RecordWindow();
    const big = { text: 'x'.repeat(4096), cut: true };
    let shown = 0;
    for (let i = 0; i < 1000; i++) if (window.shows(big)) shown++;
    expect(shown).toBe(recordTextLimits.bytesAll / 4096);
    // Once full, a smaller one that would fit is not shown either: the window is the report's first findings.
    expect(window.shows({ text: 'x', cut: false })).toBe(false);
  });
});

function report(findings: Finding[], overrides: Partial<Report> = {}): Report {
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: '0.1.0' },
    schema: { id: 'urn:test', source: 'bundled', version: '2026-07' },
    summary: sampleSummary({ errors: findings.filter((f) => f.severity === 'error').length, warnings: findings.filter((f) => f.severity === 'warning').length }),
    findings,
    suggestions: { codes: {}, warningCodes: {} },
    inputFailures: [],
    interrupted: false,
    ...overrides,
  };
}

/** The markup of a page with its style sheet and script taken out: what the data made. */
function markup(page: string): string {
  return page.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<script>[\s\S]*?<\/script>/, '');
}

describe('formatHtml', () => {
  it('writes no tag, attribute or script end from the data: codes, tools, inputs, messages, records, summary keys', () => {
    const bad = payload(1);
    const summary = sampleSummary({ codes: { [bad]: 2 }, unknownCodes: { [bad]: 2 }, invalidCategories: { [bad]: 1 }, tools: { [bad]: { records: 2, ok: 0, failed: 2, unknown: 0 } } });
    (summary as unknown as Record<string, unknown>).recovery = { [bad]: { failures: 2, sameCall: 1, changedArguments: 0, otherTool: 1, end: 0, cutOff: 0, next: { [bad]: 1 } } };
    const record = prettyPrinted({ ok: false, error: { code: bad } }, 4096, new Set(['/error/code']));
    const finding: Finding = {
      rule: 'unknown-code',
      severity: 'warning',
      message: `unknown error code "${bad}"`,
      location: { source: `${bad}.jsonl`, line: 1, pointer: '/error/code' },
      tool: bad,
      suggestion: bad,
      record: { text: record.text, cut: false, at: record.spans.get('/error/code')! },
    };
    const page = formatReport('html', report([finding], { summary, recordText: 'kept' }));
    const made = markup(page);
    expect(made).not.toMatch(/<img|<\/script|<script|onerror="/i);
    expect(made).toContain('&lt;/script&gt;&lt;img src=x onerror=&quot;window.pwned=1;alert(1)&quot;&gt;');
    // One style sheet and one script, the page's own, and a policy that lets nothing else run or load.
    expect(page.match(/<script/g)).toHaveLength(1);
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+='; script-src 'sha256-[A-Za-z0-9+/]+='/);
    expect(page).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('marks the member a finding points at, its offsets moved past the escapes of control characters', () => {
    const value = { ok: false, error: { code: 'a\u0007b', category: 'no-target' } };
    const printed = prettyPrinted(value, 4096, new Set(['/error/category']));
    const finding: Finding = { rule: 'schema', severity: 'error', message: 'm', location: { source: 'a.jsonl', line: 3, pointer: '/error/category' }, record: { text: printed.text, cut: false, at: printed.spans.get('/error/category')! } };
    const page = formatReport('html', report([finding], { recordText: 'kept' }));
    const [, from, to] = /data-at="(\d+),(\d+)"/.exec(page)!;
    const shown = /<pre class="record" id="rec-0" data-cut="false">([^<]*)<\/pre>/.exec(page)![1]!.replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    // JSON.stringify writes the bell as \u0007 already; printable() leaves that text alone.
    expect(shown.slice(Number(from), Number(to))).toBe('"category": "no-target"');
  });

  it('renders summary.recovery as a table beside the category chart, when present', () => {
    const summary = sampleSummary();
    (summary as unknown as Record<string, unknown>).recovery = {
      'ambiguous-selector': { failures: 4, sameCall: 2, changedArguments: 1, otherTool: 1, end: 0, cutOff: 0, next: { click: 3, find: 1, type: 1 } },
    };
    const page = formatReport('html', report([], { summary }));
    expect(page).toContain('<tr data-category="ambiguous-selector"><td>ambiguous-selector</td><td class="n">4</td><td class="n">2</td><td class="n">1</td><td class="n">1</td><td class="n">0</td><td class="n">0</td><td>click (3), find (1), type (1)</td></tr>');
    expect(page.indexOf('data-chart="recovery"')).toBe(page.indexOf('data-chart="categories"') + page.slice(page.indexOf('data-chart="categories"')).indexOf('data-chart="recovery"'));
    expect(formatReport('html', report([]))).not.toContain('data-chart="recovery"');
  });
});

/** Rows of the findings table, and records shown. */
function counts(page: string) {
  return { rows: page.match(/<tr class="(error|warning)"/g)?.length ?? 0, linked: page.match(/ data-record="/g)?.length ?? 0, records: page.match(/<pre class="record" id="rec-\d+"/g)?.length ?? 0 };
}

describe('check() with recordText, for a library caller', () => {
  it('keeps records only when asked, never with redact, and refuses a value that is no flag', async () => {
    const inputs = [join(repoRoot, 'fixtures/samples/legacy-server.ndjson')];
    const kept = formatReport('html', await check(inputs, { recordText: true, jobs: 1 }));
    expect(counts(kept).linked).toBe(6);
    const none = formatReport('html', await check(inputs, { jobs: 1 }));
    expect(counts(none).linked).toBe(0);
    expect(none).toContain('Records are not shown: the run kept no record text.');
    const redacted = formatReport('html', await check(inputs, { recordText: true, redact: true, jobs: 1 }));
    expect(counts(redacted).linked).toBe(0);
    expect(redacted).toContain('Records are not shown: the run used --redact.');
    await expect(check(inputs, { recordText: 'yes' as unknown as boolean })).rejects.toThrow(/recordText/);
  });
});

describe('check -f html and merge -f html', () => {
  it('shows the JSON report counts and each finding with its record, for fixtures/samples', () => {
    const dir = tempFiles({});
    const run = runCli(['check', 'fixtures/samples', '-f', `html=${join(dir, 'r.html')}`, '-f', `json=${join(dir, 'r.json')}`]);
    expect(run.status).toBe(1);
    const page = readFileSync(join(dir, 'r.html'), 'utf8');
    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')) as { summary: Record<string, number>; findings: unknown[] };
    for (const name of ['inputs', 'records', 'valid', 'invalid', 'unparseable', 'skipped', 'errors', 'warnings']) {
      expect(page, name).toContain(`<div data-total="${name}"><dt>${name}</dt><dd>${json.summary[name]}</dd></div>`);
    }
    expect(counts(page).rows).toBe(json.findings.length);
    // Every finding of a record that parsed, and the parse error's line too.
    expect(counts(page).linked).toBe(json.findings.length);
    expect(page).toContain('Each finding links to its record');
  });

  it('shows no record with --redact, and a merged report says it has none', () => {
    const dir = tempFiles({});
    const redacted = runCli(['check', 'fixtures/samples', '--redact', '-f', `html=${join(dir, 'r.html')}`, '-f', `json=${join(dir, 'r.json')}`]);
    expect(redacted.status).toBe(1);
    const page = readFileSync(join(dir, 'r.html'), 'utf8');
    expect(counts(page)).toMatchObject({ linked: 0, records: 0 });
    expect(page).toContain('Records are not shown: the run used --redact.');
    const merged = runCli(['merge', join(dir, 'r.json'), '-f', 'html']);
    expect(merged.status).toBe(1);
    expect(merged.stdout).toContain('Records are not shown: a merged report has none');
    expect(counts(merged.stdout)).toMatchObject({ rows: 11, linked: 0 });
  });

  it('lists 10,000 findings in under 10 MB, says how many more, and shows the records of the first 1,000 at most', () => {
    const dir = tempFiles(manyFindings(12_345));
    const run = runCli(['check', 'nightly.jsonl', '-f', 'html=r.html'], { cwd: dir });
    expect(run.status).toBe(0);
    const page = readFileSync(join(dir, 'r.html'), 'utf8');
    expect(Buffer.byteLength(page)).toBeLessThan(10 * 1024 * 1024);
    expect(counts(page)).toEqual({ rows: 10_000, linked: 1_000, records: 1_000 });
    expect(page).toContain('… and 2345 more findings not listed here (this page lists the first 10,000; the JSON report lists them all)');
    expect(page).toContain('<div data-total="warnings"><dt>warnings</dt><dd>12345</dd></div>');
  });

  it('is the same page for any --jobs and --findings-in-memory: each thread keeps the records of its first findings', () => {
    // Over the 8 MiB from which --jobs 2 checks byte ranges of one file on two threads.
    const dir = tempFiles(spreadFindings(110_000, 40));
    expect(statSync(join(dir, 'big.jsonl')).size).toBeGreaterThan(8 * 1024 * 1024);
    const one = runCli(['check', 'big.jsonl', '-f', 'html', '--jobs', '1'], { cwd: dir });
    const two = runCli(['check', 'big.jsonl', '-f', 'html', '--jobs', '2', '--findings-in-memory', '100'], { cwd: dir });
    expect(counts(one.stdout)).toEqual({ rows: 2_750, linked: 1_000, records: 1_000 });
    expect(two.stdout).toBe(one.stdout);
  });

  it('escapes the payloads of a capture whose tool, code, category, detail, member name and file name are markup', () => {
    const dir = tempFiles(injectionFiles());
    const run = runCli(['check', injectionFileName, '-f', 'html=r.html'], { cwd: dir });
    expect(run.status).toBe(1);
    const page = readFileSync(join(dir, 'r.html'), 'utf8');
    expect(markup(page)).not.toMatch(/<img|<\/script|<script|onerror=["']/i);
    // The payloads are there, as text: in the table and in the record.
    expect(page).toContain('run&lt;img src=x onerror=alert(9)&gt;.jsonl');
    expect(page).toContain('data-tool="&lt;/script&gt;&lt;img src=x onerror=&quot;window.pwned=5;alert(5)&quot;&gt;&lt;script&gt;window.pwned=5&lt;/script&gt;"');
    expect(counts(page).linked).toBeGreaterThan(0);
  });

  it('refuses html beside another report on stdout', () => {
    const run = runCli(['check', 'fixtures/samples', '-f', 'html', '-f', 'human']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--format: html and human would both go to stdout');
  });
});


describe('docs/ci.md, the HTML report as an artifact', () => {
  it("the workflow's command writes the page the upload step names, as written", () => {
    const page = readFileSync(join(repoRoot, 'docs/ci.md'), 'utf8');
    const workflow = /```yaml\n(name: MCEC HTML report\n[\s\S]*?)```/.exec(page)?.[1];
    expect(workflow).toBeDefined();
    const commands = [...workflow!.matchAll(/^\s+(?:- )?run: (.+)$/gm)].map((m) => m[1]!).filter((command) => command !== 'npm ci');
    expect(commands).toHaveLength(1);
    const uploaded = /uses: actions\/upload-artifact@v4\n[\s\S]*?path: (\S+)/.exec(workflow!)?.[1];
    const dir = tempFiles({});
    cpSync(join(repoRoot, 'fixtures/transcripts'), join(dir, 'evidence'), { recursive: true });
    // `npx mcec-result` is the installed package; here it is this checkout's built binary.
    const run = spawnSync('sh', ['-c', commands[0]!.replace('npx mcec-result', `"${process.execPath}" "${binary}"`)], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^::error file=evidence\/run-1\/tool-calls\.jsonl,line=4,title=schema::/m);
    const html = readFileSync(join(dir, uploaded!), 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(counts(html).rows).toBeGreaterThan(0);
    expect(counts(html).linked).toBeGreaterThan(0);
  });
});

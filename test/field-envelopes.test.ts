// Spec sections 8.4-8.6 on the built CLI: JSON that is no envelope, inputs with no tool result, and
// the records of each tool and session by outcome.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEnvelope, ruleCatalog } from '../src/index.js';
import { lines, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';
import { serilogLines } from './helpers/structured-log.js';

interface JsonFinding {
  rule: string;
  severity: string;
  message: string;
  line: number;
  pointer?: string;
  suggestion?: string;
}

const logs = 'fixtures/field/structured-logs';
const rulesOf = (findings: JsonFinding[]) => findings.map((f) => f.rule);

describe('not-an-envelope: a JSON object with no envelope member (spec section 8.4)', () => {
  it('A 4,700-line structured log that holds no envelope gives at most one finding per line', () => {
    const dir = tempFiles({ 'server.jsonl': serilogLines(4_700) });
    const { status, stdout, report } = runJson([join(dir, 'server.jsonl')]);
    expect(status).toBe(1);
    const findings: JsonFinding[] = report.findings;
    expect(findings).toHaveLength(4_700);
    expect(new Set(findings.map((f) => f.line)).size).toBe(4_700);
    expect(new Set(rulesOf(findings))).toEqual(new Set(['not-an-envelope']));
    expect(findings.every((f) => f.pointer === '' && f.severity === 'error')).toBe(true);
    expect(findings[0]!.message).toBe('an object with members @t, @mt, Tool, ArgumentCount, SessionId, …: no ok, result or error, so no tool result envelope');
    expect(report.summary).toMatchObject({ records: 4_700, valid: 0, invalid: 4_700, errors: 4_700, warnings: 0, outcomes: { ok: 0, failed: 0, unknown: 4_700 } });
    // The report was 20 MB: one finding a line keeps it to a few hundred bytes a line.
    expect(stdout.length).toBeLessThan(4_700 * 400);
    // The same with --unwrap none, which reads each line as a bare envelope.
    const bare = runJson(['--unwrap', 'none', join(dir, 'server.jsonl')]).report;
    expect(bare.findings).toHaveLength(4_700);
    expect(new Set(rulesOf(bare.findings))).toEqual(new Set(['not-an-envelope']));
  });

  it('with the rule off, the schema checks such an object as before: one finding per member', () => {
    const { status, report } = runJson(['--rule', 'not-an-envelope=off', `${logs}/serilog-clef.jsonl`]);
    expect(status).toBe(1);
    const first = report.findings.filter((f: JsonFinding) => f.line === 1);
    // Line 1 has 8 members: ok missing, and each of the 8 unexpected.
    expect(first).toHaveLength(9);
    expect(new Set(rulesOf(first))).toEqual(new Set(['schema']));
    expect(first[0].message).toBe('the envelope is missing required property "ok"');
  });

  it('names up to five members; an empty object, a sessionId alone, names spelt in any case', () => {
    const values = [
      { '@t': '2026-07-01T08:15:00.1042385Z', '@mt': 'Starting' },
      {},
      { sessionId: '5f19c9c01a3f' },
      { is_ok: true, level: 30 },
      { 'has space': 1, 'a,b': 2, '': 3 },
    ];
    const dir = tempFiles({ 'values.jsonl': lines(...values) });
    const { report } = runJson([join(dir, 'values.jsonl')]);
    const said = report.findings.map((f: JsonFinding) => [f.rule, f.line, f.pointer, f.message]);
    const tail = ': no ok, result or error, so no tool result envelope';
    expect(said).toEqual([
      ['not-an-envelope', 1, '', `an object with members @t, @mt${tail}`],
      ['not-an-envelope', 2, '', `an empty object${tail}`],
      ['not-an-envelope', 3, '', `an object with member sessionId${tail}`],
      ['not-an-envelope', 4, '', `an object with members is_ok, level${tail}`],
      ['not-an-envelope', 5, '', `an object with members "has space", "a,b", ""${tail}`],
    ]);
    // The sessionId alone still names a session, whose record has no outcome.
    expect(report.summary.sessions).toEqual({ '5f19c9c01a3f': { records: 1, ok: 0, failed: 0, unknown: 1 } });
  });

  it('an object with an envelope member, spelt in any case, is an envelope the schema checks; a non-object too', () => {
    const dir = tempFiles({ 'values.jsonl': lines({ Ok: true, Result: {} }, { ERROR: 'boom' }, { WARNINGS: [] }, [1], 'text') });
    const { report } = runJson([join(dir, 'values.jsonl')]);
    const findings: JsonFinding[] = report.findings;
    expect(findings.some((f) => f.rule === 'not-an-envelope')).toBe(false);
    expect(new Set(findings.map((f) => f.line))).toEqual(new Set([1, 2, 3, 4, 5]));
    // .NET's casing: the schema's findings suggest the envelope's own names.
    const dotNet = findings.filter((f) => f.line === 1 && f.pointer !== '');
    expect(dotNet.map((f) => [f.pointer, f.suggestion])).toEqual([
      ['/Ok', 'ok'],
      ['/Result', 'result'],
    ]);
  });

  it('the library checks a value the same way', () => {
    expect(checkEnvelope({ level: 30, msg: 'listening' }).map((f) => [f.rule, f.pointer])).toEqual([['not-an-envelope', '']]);
    expect(checkEnvelope({ level: 30 }, { rules: { 'not-an-envelope': 'off' } }).map((f) => f.rule)).toEqual(['schema', 'schema']);
    expect(checkEnvelope({ ok: true, result: {} })).toEqual([]);
  });

  it('under --extract an object with no envelope member is noise; an envelope beside it is checked', () => {
    const log = [
      '2026-07-01T10:15:02Z DEBUG server stderr {"@t":"2026-07-01T10:15:02.4087712Z","@mt":"Captured {Width}x{Height}","Width":1920,"Height":1080}',
      '2026-07-01T10:15:02Z INFO agent result {"ok":true,"result":{"artifact":"shots/0001.png"},"sessionId":"c03be5a1f7d2"}',
      '2026-07-01T10:15:03Z INFO agent result {"ok":false,"sessionId":"c03be5a1f7d2"}',
      '2026-07-01T10:15:04Z INFO done',
    ].join('\n');
    const dir = tempFiles({ 'agent.log': `${log}\n` });
    const { status, report } = runJson(['--extract', join(dir, 'agent.log')]);
    expect(status).toBe(1);
    expect(report.summary).toMatchObject({ records: 2, skipped: 2, unparseable: 0 });
    expect(report.findings.map((f: JsonFinding) => [f.rule, f.line])).toEqual([['schema', 3]]);
    // With --unwrap none every extracted object is a record, checked as a bare envelope (section 8.4: both modes).
    expect(runJson(['--extract', '--unwrap', 'none', join(dir, 'agent.log')]).report.findings.map((f: JsonFinding) => [f.rule, f.line])).toEqual([
      ['not-an-envelope', 1],
      ['schema', 3],
    ]);
  });

  it('the catalog describes both kinds', () => {
    expect(ruleCatalog['not-an-envelope'].description).toBe('a tool response whose content holds no JSON envelope, or an object with none of the envelope members ok, result, error, warnings');
  });
});

describe('no-tool-results: an input of skipped entries only (spec section 8.5)', () => {
  it('a log of only requests and noise read with --extract: not "no problems"; exit status by severity', () => {
    const log = `${logs}/requests-and-noise.log`;
    const human = runCli(['check', '--extract', log]);
    expect(human.status).toBe(0);
    expect(human.stdout).not.toContain('no problems');
    expect(human.stdout).not.toContain('✔');
    expect(human.stdout).toContain(`${log}:1  warning  10 lines, none a tool result (10 skipped: requests, other methods, noise)  no-tool-results\n`);
    expect(human.stdout).toContain('✖ 1 problem (0 errors, 1 warning): no tool results found in 1 input\n');
    const { status, report } = runJson(['--extract', '--rule', 'no-tool-results=error', log]);
    expect(status).toBe(1);
    expect(report.findings).toEqual([{ rule: 'no-tool-results', severity: 'error', message: '10 lines, none a tool result (10 skipped: requests, other methods, noise)', source: log, line: 1 }]);
    expect(report.summary).toMatchObject({ records: 0, skipped: 10, errors: 1 });
    // Off: no finding, and still no pass mark, in the human report and the Markdown one of the same run.
    const markdown = join(tempFiles({}), 'report.md');
    const off = runCli(['check', '--extract', '--rule', 'no-tool-results=off', '--format', 'human', '--format', `markdown=${markdown}`, log]);
    expect(off.status).toBe(0);
    expect(off.stdout.split('\n')[0]).toBe('⚠ no tool results found in 1 input');
    expect(readFileSync(markdown, 'utf8').split('\n')[0]).toBe('## ⚠️ mcec-result: no tool results found in 1 input');
  });

  it('sits at the first non-blank line, counts every entry, and comes before the findings known at the end', () => {
    const request = { ts: '2026-07-01T10:15:02.123Z', sessionId: 's1', direction: 'request', method: 'tools/call', payload: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'capture', arguments: {} } } };
    const dir = tempFiles({ 'tool-calls.jsonl': `\n\n${lines(request)}{"cut off\n` });
    const { report } = runJson([join(dir, 'tool-calls.jsonl')]);
    expect(report.findings.map((f: JsonFinding) => [f.rule, f.line])).toEqual([
      ['no-tool-results', 3],
      ['unanswered-request', 3],
      ['parse-error', 4],
    ]);
    expect(report.findings[0].message).toBe('2 lines, none a tool result (1 skipped: requests, other methods, noise)');
  });

  it('not for an empty input, an input of unparseable lines only, or one with a record', () => {
    const dir = tempFiles({ 'empty.jsonl': '\n\n', 'broken.jsonl': '{"ok":\n', 'one.jsonl': lines({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { ok: true, result: {} }) });
    // One run over both: each finding names its input.
    const { report } = runJson([join(dir, 'empty.jsonl'), join(dir, 'broken.jsonl')]);
    const rulesFor = (name: string) => rulesOf(report.findings.filter((f: JsonFinding & { source: string }) => f.source === join(dir, name)));
    expect(rulesFor('empty.jsonl')).toEqual(['empty-input']);
    expect(rulesFor('broken.jsonl')).toEqual(['parse-error']);
    expect(report.findings).toHaveLength(2);
    const one = runCli(['check', join(dir, 'one.jsonl')]);
    expect(one.stdout).toMatch(/^✔ no problems in 1 input\n/);
  });

  it("not for an input of mcec-result's own reports, baselines and ndjson report lines", () => {
    const dir = tempFiles({ 'run.jsonl': lines({ ok: false, sessionId: 's1' }) });
    // One run writes all three: its reports are the same with or without --write-baseline.
    runCli(['check', '--format', `json=${join(dir, 'report.json')}`, '--format', `ndjson=${join(dir, 'report.ndjson')}`, '--write-baseline', join(dir, 'baseline.json'), join(dir, 'run.jsonl')]);
    for (const name of ['report.json', 'report.ndjson', 'baseline.json']) {
      const { report } = runJson([join(dir, name)]);
      expect(report.summary.records, name).toBe(0);
      expect(report.summary.skipped, name).toBeGreaterThan(0);
      expect(report.findings, name).toEqual([]);
    }
  });

  it('an input read in byte ranges gets it once, at its first line, for any --jobs', () => {
    // Over the size a file is split at (src/parallel/plan.ts), of prefixed lines without JSON.
    const text = '2026-07-01T10:15:00Z INFO still waiting for the server to answer, nothing to report yet\n'.repeat(200_000);
    const dir = tempFiles({ 'quiet.log': `\n${text}` });
    const reports = ['1', '2'].map((jobs) => runCli(['check', '--extract', '--jobs', jobs, '--format', 'json', join(dir, 'quiet.log')]).stdout);
    expect(reports[1]).toBe(reports[0]);
    const report = JSON.parse(reports[0]!);
    expect(report.findings).toEqual([{ rule: 'no-tool-results', severity: 'warning', message: '200000 lines, none a tool result (200000 skipped: requests, other methods, noise)', source: join(dir, 'quiet.log'), line: 2 }]);
  });

  it('has a catalog entry, an explain page and a place in the report schema', () => {
    expect(ruleCatalog['no-tool-results']).toMatchObject({ defaultSeverity: 'warning' });
    expect(runCli(['explain', 'no-tool-results']).stdout).toContain('no-tool-results: a rule, default severity warning');
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/report-v1.schema.json'), 'utf8'));
    expect(schema.$defs.finding.properties.rule.enum).toContain('no-tool-results');
  });
});

describe('records of each tool and session by outcome (spec section 8.6)', () => {
  const session = '5f19c9c01a3f';
  const transcript = (direction: string, payload: unknown) => ({ ts: '2026-07-01T10:15:02.123Z', sessionId: session, direction, method: 'tools/call', payload });
  const call = (id: number, tool: string) => transcript('request', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } });
  const answer = (id: number, content: unknown[]) => transcript('response', { jsonrpc: '2.0', id, result: { content, isError: false } });
  const text = (envelope: unknown) => ({ type: 'text', text: JSON.stringify(envelope) });
  const values = [
    call(1, 'capture'),
    answer(1, [text({ ok: true, result: {} })]),
    call(2, 'capture'),
    answer(2, [{ type: 'image', data: '<redacted base64>', mimeType: 'image/png' }]),
    call(3, 'find'),
    answer(3, [text({ ok: false, error: { code: 'element-not-found', category: 'no-target', detail: 'no element matched' } })]),
  ];

  it('count records, ok, failed and unknown, records the sum of the three', () => {
    const dir = tempFiles({ 'tool-calls.jsonl': lines(...values) });
    const { report } = runJson([join(dir, 'tool-calls.jsonl')]);
    expect(report.summary.tools).toEqual({ capture: { records: 2, ok: 1, failed: 0, unknown: 1 }, find: { records: 1, ok: 0, failed: 1, unknown: 0 } });
    expect(report.summary.sessions).toEqual({ [session]: { records: 3, ok: 1, failed: 1, unknown: 1 } });
    for (const counts of [...Object.values(report.summary.tools), ...Object.values(report.summary.sessions)] as { records: number; ok: number; failed: number; unknown: number }[]) {
      expect(counts.records).toBe(counts.ok + counts.failed + counts.unknown);
    }
  });

  it('human and Markdown tables show all four', () => {
    const dir = tempFiles({ 'tool-calls.jsonl': lines(...values) });
    // One run writes both reports.
    const human = runCli(['check', '--format', 'human', '--format', `markdown=${join(dir, 'report.md')}`, join(dir, 'tool-calls.jsonl')]).stdout;
    expect(human).toMatch(/\ntools\n {2}\s+records {2}ok {2}failed {2}unknown\n {2}capture\s+2\s+1\s+0\s+1\n {2}find\s+1\s+0\s+1\s+0\n/);
    expect(human).toMatch(/\nsessions\n {2}\s+records {2}ok {2}failed {2}unknown\n {2}5f19c9c01a3f\s+3\s+1\s+1\s+1\n/);
    const markdown = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(markdown).toContain(['| tool | records | ok | failed | unknown |', '| --- | ---: | ---: | ---: | ---: |', '| capture | 2 | 1 | 0 | 1 |', '| find | 1 | 0 | 1 | 0 |'].join('\n'));
  });

  it('merge reads a report written before tools and sessions counted records and unknown', () => {
    const dir = tempFiles({ 'a/tool-calls.jsonl': lines(...values), 'b/tool-calls.jsonl': lines(...values) });
    runCli(['check', '--format', `json=${join(dir, 'new.json')}`, join(dir, 'a')]);
    runCli(['check', '--format', `json=${join(dir, 'old.json')}`, join(dir, 'b')]);
    // As the checker wrote it before: a tool's ok and failed, a session's records, ok and failed.
    const old = JSON.parse(readFileSync(join(dir, 'old.json'), 'utf8'));
    for (const counts of Object.values(old.summary.tools) as Record<string, number>[]) delete counts['records'], delete counts['unknown'];
    for (const counts of Object.values(old.summary.sessions) as Record<string, number>[]) delete counts['unknown'];
    writeFileSync(join(dir, 'old.json'), JSON.stringify(old, null, 2));
    const merged = runCli(['merge', '--format', 'json', join(dir, 'new.json'), join(dir, 'old.json')]);
    expect(merged.stderr).toBe('');
    const summary = JSON.parse(merged.stdout).summary;
    // The old report's tools: records = ok + failed, unknown 0 (it never counted its unknown ones).
    expect(summary.tools).toEqual({ capture: { records: 3, ok: 2, failed: 0, unknown: 1 }, find: { records: 2, ok: 0, failed: 2, unknown: 0 } });
    // A session's records always held the unknown ones: the rest of them.
    expect(summary.sessions).toEqual({ [session]: { records: 6, ok: 2, failed: 2, unknown: 2 } });
    // Merged alone, an old report reads as it was, with what it lacked derived.
    const alone = JSON.parse(runCli(['merge', '--format', 'json', join(dir, 'old.json')]).stdout).summary;
    expect(alone.tools.capture).toEqual({ records: 1, ok: 1, failed: 0, unknown: 0 });
  });
});

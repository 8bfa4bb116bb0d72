import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FindingStore, LineFindings, SpillBudget, StoredList } from '../src/findings/store.js';
import type { Finding, RuleId } from '../src/types.js';
import { binary, lines, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

interface JsonFinding {
  rule: string;
  line: number;
  column?: number;
  pointer?: string;
  tool?: string;
  wrapping?: string;
  source: string;
}

function nonBlankLines(path: string): number {
  return readFileSync(`${repoRoot}/${path}`, 'utf8').split('\n').filter((l) => l.replace(/[ \t\r]/g, '') !== '').length;
}

const brief = (findings: JsonFinding[]) => findings.map((f) => [f.rule, f.line, f.tool ?? null, f.wrapping ?? null]);

describe('the example of spec section 6', () => {
  const { status, report } = runJson(['fixtures/transcripts/run-1/tool-calls.jsonl']);

  it('gives the summary of the spec, number for number', () => {
    expect(status).toBe(1);
    expect(report.summary).toEqual({
      inputs: 1,
      records: 3,
      valid: 1,
      invalid: 2,
      unparseable: 1,
      skipped: 3,
      errors: 3,
      warnings: 1,
      protocolErrors: 0,
      truncated: 0,
      outcomes: { ok: 1, failed: 2, unknown: 0 },
      categories: { timeout: 0, 'ambiguous-selector': 0, 'stale-element': 0, 'no-target': 0, 'invalid-argument': 0, 'capture-blank': 0, 'ocr-blank': 0, 'ocr-no-text': 0, focus: 0, elevation: 0, foreground: 0, internal: 0 },
      invalidCategories: { 'not-a-category': 1 },
      codes: { 'window-not-fonud': 1 },
      unknownCodes: { 'window-not-fonud': 1 },
      warningCodes: {},
      unknownWarningCodes: {},
      tools: { capture: { records: 1, ok: 1, failed: 0, unknown: 0 }, find: { records: 1, ok: 0, failed: 1, unknown: 0 }, invoke: { records: 1, ok: 0, failed: 1, unknown: 0 } },
      sessions: { '5f19c9c01a3f': { records: 3, ok: 1, failed: 2, unknown: 0 } },
      // Spec section 9: the invoke failure's category is a string (out of the enum), and no call
      // follows it before the input's end (a cut-off line is no truncation marker).
      recovery: { 'not-a-category': { failures: 1, sameCall: 0, changedArguments: 0, otherTool: 0, end: 1, cutOff: 0, next: {} } },
    });
  });

  it('gives the findings of the spec, field for field', () => {
    const source = 'fixtures/transcripts/run-1/tool-calls.jsonl';
    expect(report.findings).toEqual([
      { rule: 'schema', severity: 'error', message: 'ok is false, so error is required', source, line: 4, pointer: '', keyword: 'required', schemaPath: '#/allOf/0/then/required', tool: 'find', wrapping: 'transcript' },
      {
        rule: 'schema',
        severity: 'error',
        message: expect.stringMatching(/^error\.category must be one of: timeout, ambiguous-selector, .* \(got "not-a-category"\)$/),
        source,
        line: 6,
        pointer: '/error/category',
        keyword: 'enum',
        schemaPath: '#/$defs/error/properties/category/enum',
        tool: 'invoke',
        wrapping: 'transcript',
      },
      { rule: 'unknown-code', severity: 'warning', message: 'unknown error code "window-not-fonud"', source, line: 6, pointer: '/error/code', suggestion: 'window-not-found', tool: 'invoke', wrapping: 'transcript' },
      { rule: 'parse-error', severity: 'error', message: 'unterminated string', source, line: 7, column: 58 },
    ]);
  });
});

describe('a folder of evidence bundles', () => {
  // One run: the JSON report to stdout, the human one to a file.
  const humanFile = join(tempFiles({}), 'report.txt');
  const { report } = runJson(['fixtures/transcripts', '--format', `human=${humanFile}`]);

  it('finds every pairing fault with its tool and transcript line', () => {
    const run2 = report.findings.filter((f: JsonFinding) => f.source.includes('run-2'));
    expect(brief(run2)).toEqual([
      ['is-error-mismatch', 10, 'find', 'transcript'],
      ['structured-content-mismatch', 12, 'capture', 'transcript'],
      ['not-an-envelope', 14, 'invoke', 'transcript'],
      ['duplicate-response', 15, 'invoke', 'transcript'],
      ['unpaired-response', 16, null, 'transcript'],
      ['unpaired-response', 17, null, 'transcript'],
      ['transcript-truncated', 20, null, 'transcript'],
    ]);
    expect(run2[1].pointer).toBe('/result/artifact');
  });

  it('adds up: records + unparseable + skipped = non-blank lines', () => {
    const lines = nonBlankLines('fixtures/transcripts/run-1/tool-calls.jsonl') + nonBlankLines('fixtures/transcripts/run-2/tool-calls.jsonl');
    const { records, unparseable, skipped, valid, invalid } = report.summary;
    expect(records + unparseable + skipped).toBe(lines);
    expect(valid + invalid).toBe(records);
    expect(report.summary).toMatchObject({ inputs: 2, records: 10, protocolErrors: 1, truncated: 1, outcomes: { ok: 5, failed: 4, unknown: 1 } });
    expect(report.summary.tools).toEqual({
      capture: { records: 2, ok: 2, failed: 0, unknown: 0 },
      find: { records: 2, ok: 0, failed: 2, unknown: 0 },
      invoke: { records: 3, ok: 1, failed: 1, unknown: 1 },
      'session-start': { records: 1, ok: 1, failed: 0, unknown: 0 },
      'wait-for': { records: 1, ok: 0, failed: 1, unknown: 0 },
    });
    expect(report.summary.categories).toMatchObject({ timeout: 1, 'ambiguous-selector': 1 });
  });

  it('human output has the per-tool and per-session tables', () => {
    const stdout = readFileSync(humanFile, 'utf8');
    expect(stdout).toMatch(/tools\n\s+records\s+ok\s+failed\s+unknown\n\s+capture\s+2\s+2\s+0\s+0\n\s+find\s+2\s+0\s+2\s+0\n\s+invoke\s+3\s+1\s+1\s+1\n\s+session-start\s+1\s+1\s+0\s+0\n\s+wait-for\s+1\s+0\s+1\s+0\n/);
    expect(stdout).toMatch(/sessions\n\s+records\s+ok\s+failed\s+unknown\n\s+a41c07e2d9b8\s+7\s+4\s+2\s+1\n\s+5f19c9c01a3f\s+3\s+1\s+2\s+0\n/);
    expect(stdout).toContain('find: ok is false, so error is required');
  });

  it('--unwrap none checks each line as a bare envelope', () => {
    const raw = runJson(['--unwrap', 'none', 'fixtures/transcripts/run-1/tool-calls.jsonl']).report;
    expect(raw.summary).toMatchObject({ records: 6, skipped: 0, unparseable: 1 });
    // Spec section 8.4: a transcript line has no envelope member, so one not-an-envelope each.
    expect(raw.findings.filter((f: JsonFinding) => f.rule === 'not-an-envelope')).toHaveLength(6);
    expect(raw.findings.filter((f: JsonFinding) => f.rule === 'schema')).toEqual([]);
  });
});

describe('JSON-RPC captures', () => {
  it('checks tools/call responses and bare CallToolResults, skips the rest', () => {
    const { report } = runJson(['fixtures/jsonrpc/capture.jsonl']);
    expect(brief(report.findings)).toEqual([['is-error-mismatch', 9, null, 'mcp']]);
    expect(report.summary).toMatchObject({ records: 5, skipped: 5, protocolErrors: 1, outcomes: { ok: 3, failed: 2, unknown: 0 } });
    expect(report.summary.tools).toEqual({ query: { records: 1, ok: 1, failed: 0, unknown: 0 }, send_command: { records: 1, ok: 0, failed: 1, unknown: 0 } });
    expect(report.summary.warningCodes).toEqual({ 'tree-truncated': 1 });
  });
});

describe('server logs with --extract', () => {
  const expected = [
    ['unknown-warning-code', 8, null, 'log'],
    ['parse-error', 9, null, null],
    ['schema', 10, null, 'log'],
  ];

  it('finds the object after any prefix; noise lines are skipped and counted', () => {
    const { report } = runJson(['--extract', 'fixtures/logs/server.log']);
    expect(brief(report.findings)).toEqual(expected);
    expect(report.findings[1].column).toBe(108);
    const { records, unparseable, skipped } = report.summary;
    expect([records, unparseable, skipped]).toEqual([5, 1, 4]);
    expect(records + unparseable + skipped).toBe(nonBlankLines('fixtures/logs/server.log'));
    expect(report.summary.categories).toMatchObject({ 'no-target': 1, foreground: 1 });
  });

  it('finds an object with blanks after its brace, as a pretty writer puts it, after a prefix too', () => {
    // Was noise after a prefix (skipped, exit 0), though checked when alone on its line.
    const log = [
      '2026-07-01T10:15:02Z INFO agent result { "ok": false, "error": { "code": "window-not-found", "category": "no-target", "detail": "x" } }',
      '{ "ok": false }',
      'INFO {\t"ok": true, "result": {} }',
      'INFO config { worker: 3 }',
    ].join('\n');
    const { report } = runJson(['--extract', '-'], { input: `${log}\n` });
    expect(report.summary).toMatchObject({ records: 3, unparseable: 0, skipped: 1, outcomes: { ok: 1, failed: 2, unknown: 0 }, codes: { 'window-not-found': 1 } });
    // Line 2 is an object alone on its line: bare, not log (spec section 3: a log line has a prefix).
    expect(brief(report.findings)).toEqual([['schema', 2, null, 'bare']]);
  });

  it('without --extract every prefixed line is a parse error', () => {
    const { report } = runJson(['fixtures/logs/server.log']);
    expect(report.summary.unparseable).toBe(nonBlankLines('fixtures/logs/server.log'));
  });

  it('works at the end of a pipe, as the README shows', () => {
    const result = spawnSync('sh', ['-c', `grep 'agent result' fixtures/logs/server.log | "${process.execPath}" "${binary}" check --extract --format json -`], { cwd: repoRoot, encoding: 'utf8' });
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toMatchObject({ records: 5, unparseable: 1, skipped: 0 });
    expect(report.findings.map((f: JsonFinding) => [f.rule, f.source, f.line])).toEqual([
      ['unknown-warning-code', '-', 4],
      ['parse-error', '-', 5],
      ['schema', '-', 6],
    ]);
  });
});

describe('gzip', () => {
  it('a .gz copy gives the same findings as the original, for every framing', () => {
    const strip = (findings: JsonFinding[]) => findings.map(({ source: _source, ...rest }) => rest);
    const pairs: [string, string, string[]][] = [
      ['fixtures/transcripts/run-2/tool-calls.jsonl', 'fixtures/gzip/tool-calls.jsonl.gz', []],
      ['fixtures/logs/server.log', 'fixtures/gzip/server.log.gz', ['--extract']],
    ];
    for (const [plain, gz, flags] of pairs) {
      const a = runJson([...flags, plain]).report;
      const b = runJson([...flags, gz]).report;
      expect(strip(b.findings)).toEqual(strip(a.findings));
      expect(b.summary).toEqual(a.summary);
    }
  });

  it('gzip on stdin is detected by its magic bytes', () => {
    const result = runJson(['-'], { input: readFileSync(`${repoRoot}/fixtures/gzip/tool-calls.jsonl.gz`) });
    expect(result.report.summary.records).toBe(7);
  });
});

describe('pairing faults, end to end', () => {
  const envelope = { ok: true, result: {} };
  const toolResult = { content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: false };
  const rpcRequest = (id: unknown, method: string, name?: string) => ({ jsonrpc: '2.0', id, method, ...(name !== undefined && { params: { name, arguments: {} } }) });
  const rpcResult = (id: unknown, result: unknown) => ({ jsonrpc: '2.0', id, result });
  const rpcError = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -1, message: 'x' } });
  const cancelled = (requestId: unknown) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } });
  const transcript = (direction: 'request' | 'response', payload: unknown) => ({ ts: '2026-07-01T10:15:02.123Z', sessionId: 's1', direction, method: 'tools/call', payload });

  it('a JSON-RPC error as a second response is a record, invalid through duplicate-response, outcome unknown', () => {
    // Was skipped and a protocol error: errors 1 with invalid 0, and JUnit's failures said nothing.
    const cases: [string, unknown[], string | null, string][] = [
      ['tools/list', [rpcRequest(1, 'tools/list'), rpcResult(1, { tools: [] }), rpcError(1)], null, 'jsonrpc'],
      ['tools/call', [rpcRequest(1, 'tools/call', 'capture'), rpcResult(1, toolResult), rpcError(1)], 'capture', 'jsonrpc'],
      ['a transcript', [transcript('request', rpcRequest(1, 'tools/call', 'capture')), transcript('response', rpcResult(1, toolResult)), transcript('response', rpcError(1))], 'capture', 'transcript'],
    ];
    for (const [what, values, tool, wrapping] of cases) {
      // One run: the JSON report to stdout, JUnit to a file.
      const junitFile = join(tempFiles({}), 'report.xml');
      const { status, report } = runJson(['-f', `junit=${junitFile}`, '-'], { input: lines(...values) });
      const firstIsRecord = what !== 'tools/list';
      expect(status, what).toBe(1);
      expect(report.summary, what).toMatchObject({
        records: firstIsRecord ? 2 : 1,
        valid: firstIsRecord ? 1 : 0,
        invalid: 1,
        skipped: firstIsRecord ? 1 : 2,
        errors: 1,
        protocolErrors: 0,
        outcomes: { ok: firstIsRecord ? 1 : 0, failed: 0, unknown: 1 },
      });
      expect(brief(report.findings), what).toEqual([['duplicate-response', 3, tool, wrapping]]);
      const junit = readFileSync(junitFile, 'utf8');
      expect(junit, what).toContain('<property name="invalid" value="1"/>');
      expect(junit, what).toMatch(/<testsuite name="-" tests="\d+" failures="1" /);
    }
  });

  it('a second answer to another method is a duplicate-response and nothing more', () => {
    // Was also not-an-envelope: the tools/list result was unwrapped as a tool response.
    for (const [method, result] of [['tools/list', { tools: [] }], ['initialize', { protocolVersion: '2025-06-18' }]] as const) {
      const values = [transcript('request', rpcRequest(1, method)), transcript('response', rpcResult(1, result)), transcript('response', rpcResult(1, result))];
      const { status, report } = runJson(['-'], { input: lines(...values) });
      expect(status, method).toBe(1);
      expect(report.summary, method).toMatchObject({ records: 1, invalid: 1, skipped: 2, outcomes: { unknown: 1 } });
      expect(brief(report.findings), method).toEqual([['duplicate-response', 3, null, 'transcript']]);
    }
  });

  it('a second response to an id no request had is unpaired as the first, not a duplicate', () => {
    // Was duplicate-response too on the second (spec section 8.9: a duplicate only of an answer to a
    // request the input holds), and before that duplicate-response alone.
    const tool = { content: [{ type: 'text', text: '{"ok":true,"result":{}}' }] };
    const response = transcript('response', rpcResult(2, tool));
    // Three transcripts, line-delimited as standard input is, checked in one run: pairing is per
    // input, and each finding names its input.
    const dir = tempFiles({
      'other-request.jsonl': lines(transcript('request', rpcRequest(1, 'tools/call', 'find')), response, response),
      'no-request.jsonl': lines(response, response),
      'answered.jsonl': lines(response, transcript('request', rpcRequest(2, 'tools/call', 'capture')), response, response),
    });
    const { report } = runJson(['other-request.jsonl', 'no-request.jsonl', 'answered.jsonl'], { cwd: dir });
    const of = (source: string) => report.findings.filter((f: JsonFinding) => f.source === source);
    expect(brief(of('other-request.jsonl'))).toEqual([
      ['unanswered-request', 1, 'find', 'transcript'],
      ['unpaired-response', 2, null, 'transcript'],
      ['unpaired-response', 3, null, 'transcript'],
    ]);
    // With no request on an earlier line, no response is unpaired (spec section 8.9): was unpaired-response on both.
    expect(of('no-request.jsonl')).toEqual([]);
    // Once a request of the id has come and been answered, a later response is a duplicate only.
    expect(brief(of('answered.jsonl')).map((f) => f.slice(0, 2))).toEqual([['duplicate-response', 4]]);
    expect(report.findings).toHaveLength(4);
  });

  it('a truncation marker on the line of the request excuses it: a .json array written on one line', () => {
    // Was unanswered-request too: the request's line was compared with the marker's, both line 1.
    const request = transcript('request', rpcRequest(1, 'tools/call', 'capture'));
    const marker = { truncated: 'tool-call log size cap reached' };
    const dir = tempFiles({ 'cut.json': JSON.stringify([request, marker]), 'after.json': JSON.stringify([marker, request]) });
    // Both in one run: each finding names its input.
    const { report } = runJson([join(dir, 'cut.json'), join(dir, 'after.json')]);
    const of = (name: string) => report.findings.filter((f: JsonFinding) => f.source === join(dir, name));
    // Neither holds a tool result (spec section 8.5).
    expect(brief(of('cut.json'))).toEqual([
      ['no-tool-results', 1, null, null],
      ['transcript-truncated', 1, null, 'transcript'],
    ]);
    // A request after the marker is still reported.
    expect(brief(of('after.json'))).toEqual([
      ['no-tool-results', 1, null, null],
      ['transcript-truncated', 1, null, 'transcript'],
      ['unanswered-request', 1, 'capture', 'transcript'],
    ]);
    expect(report.findings).toHaveLength(5);
  });

  it("a JSON-RPC error answers the open tool call, not the server's ping of the same id", () => {
    // Was: the error went to the ping, and the ping's {} was failed as capture's envelope.
    const values = [
      transcript('request', rpcRequest(1, 'tools/call', 'capture')),
      transcript('request', rpcRequest(1, 'ping')),
      transcript('response', { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'request timed out' } }),
      transcript('response', rpcResult(1, {})),
    ];
    const { status, report } = runJson(['-'], { input: lines(...values) });
    expect(status).toBe(0);
    expect(report.summary).toMatchObject({ records: 0, skipped: 4, protocolErrors: 1 });
    // The error is no tool result (spec section 8.5): a warning, no pairing finding.
    expect(report.findings.map((f: JsonFinding) => f.rule)).toEqual(['no-tool-results']);
  });

  it('a line that could not be read is named where it may hold the answer or the request', () => {
    // Was "never answered" and "no request of that id" as if the unreadable line were not there.
    const request = JSON.stringify(transcript('request', rpcRequest(1, 'tools/call', 'capture')));
    const response = JSON.stringify(transcript('response', rpcResult(1, toolResult)));
    type Said = { findings: (JsonFinding & { message: string; severity: string })[] };
    const said = (report: Said) => report.findings.map((f) => [f.rule, f.severity, f.line, f.message]);
    const unanswered = ['unanswered-request', 'warning', 1, 'capture request is never answered in this transcript, unless line 2, which could not be read, holds its answer'];
    const long = JSON.stringify(transcript('response', rpcResult(1, { ...toolResult, pad: 'x'.repeat(2000) })));
    const tooLong = runJson(['--max-line-bytes', '1K', '-'], { input: lines(request, long) }).report;
    // No record was read, so no tool result either (spec section 8.5), said first at line 1.
    expect(said(tooLong).map((f) => f[0])).toEqual(['no-tool-results', 'unanswered-request', 'parse-error']);
    expect(said(tooLong)[1]).toEqual(unanswered);
    // The cases of the default line limit in one run, as .jsonl files, line-delimited as standard
    // input is: each finding names its input.
    const find = JSON.stringify(transcript('request', rpcRequest(0, 'tools/call', 'find')));
    const dir = tempFiles({
      'trailing-comma.jsonl': lines(request, response.replace(/}$/, ',}')),
      'bad-request.jsonl': lines(request.replace(/}$/, ',}'), response),
      'after-one.jsonl': lines(find, request.replace(/}$/, ',}'), response),
    });
    const { findings } = runJson(['trailing-comma.jsonl', 'bad-request.jsonl', 'after-one.jsonl'], { cwd: dir }).report as Said;
    const of = (source: string): Said => ({ findings: findings.filter((f) => f.source === source) });
    expect(said(of('trailing-comma.jsonl'))[1]).toEqual(unanswered);
    // A response after an unreadable request line: the input has held no request, so no response is
    // unpaired (spec section 8.9). One after a request read is.
    expect(said(of('bad-request.jsonl')).map((f) => f[0])).toEqual(['parse-error']);
    expect(said(of('after-one.jsonl'))[2]).toEqual(['unpaired-response', 'warning', 3, 'response to id 1 has no request of that id before it in this transcript, unless line 2, which could not be read, holds it']);
  });

  it('a cancellation excuses the request pending when it came, not a later one that reuses its id', () => {
    const values = [
      transcript('request', rpcRequest(1, 'tools/call', 'capture')),
      transcript('request', cancelled(1)),
      transcript('response', rpcResult(1, toolResult)),
      transcript('request', rpcRequest(1, 'tools/call', 'find')),
    ];
    const { status, report } = runJson(['-'], { input: lines(...values) });
    expect(status).toBe(0);
    expect(brief(report.findings)).toEqual([['unanswered-request', 4, 'find', 'transcript']]);
    // Cancelled while pending and never answered: not reported (MCP: it need not be answered).
    expect(runJson(['-'], { input: lines(...values.slice(0, 2)) }).report.findings.map((f: JsonFinding) => f.rule)).toEqual(['no-tool-results']);
  });

  it('an answer after a cancelled request id is reused goes to the request not cancelled', () => {
    // Was: counted for capture, the cancelled request, and find was absent from the tools tally.
    const values = [transcript('request', rpcRequest(1, 'tools/call', 'capture')), transcript('request', cancelled(1)), transcript('request', rpcRequest(1, 'tools/call', 'find')), transcript('response', rpcResult(1, toolResult))];
    const { status, report } = runJson(['-'], { input: lines(...values) });
    expect(status).toBe(0);
    expect(report.summary.tools).toEqual({ find: { records: 1, ok: 1, failed: 0, unknown: 0 } });
    expect(report.findings).toEqual([]);
  });

  it('findings on skipped lines carry the wrapping of their line', () => {
    // Was no wrapping at all on unpaired-response to a non-tool response and on the truncation marker.
    // The request first: a response is unpaired only after the input held a request (spec section 8.9).
    const values = [
      transcript('request', rpcRequest(6, 'tools/call', 'find')),
      transcript('response', rpcResult(5, { tools: [] })),
      { truncated: 'tool-call log size cap reached' },
      transcript('request', rpcRequest(7, 'tools/call', 'capture')),
    ];
    const { report } = runJson(['-'], { input: lines(...values) });
    expect(report.summary).toMatchObject({ records: 0, skipped: 4, truncated: 1 });
    expect(brief(report.findings)).toEqual([
      ['no-tool-results', 1, null, null],
      ['unpaired-response', 2, null, 'transcript'],
      ['transcript-truncated', 3, null, 'transcript'],
      ['unanswered-request', 4, 'capture', 'transcript'],
    ]);
  });

  it('a transcript line whose payload is no object is a schema-invalid record of the transcript', () => {
    // Was not-an-envelope (no envelope, nothing checked); spec section 7 recognises the payload in turn.
    // A request line is never a record (spec section 8.1): line 3 was a schema-invalid record too.
    const values = [
      { ts: 't', sessionId: 's1', direction: 'response', method: 'tools/call', payload: 'oops' },
      { ts: 't', sessionId: 's1', direction: 'response', method: 'tools/call', payload: [1] },
      { ts: 't', sessionId: 's1', direction: 'request', method: 'tools/call', payload: 'oops' },
    ];
    const { status, report } = runJson(['-'], { input: lines(...values) });
    expect(status).toBe(1);
    expect(report.summary).toMatchObject({ records: 2, invalid: 2, skipped: 1, outcomes: { ok: 0, failed: 0, unknown: 2 }, sessions: { s1: { records: 2, ok: 0, failed: 0 } } });
    expect(report.findings.map((f: JsonFinding & { keyword?: string }) => [f.rule, f.line, f.pointer, f.keyword, f.wrapping])).toEqual([
      ['schema', 1, '', 'type', 'transcript'],
      ['schema', 2, '', 'type', 'transcript'],
      ['unanswered-request', 3, undefined, undefined, 'transcript'],
    ]);
  });

  it('a transcript response with a null id is unpaired: no request has that id', () => {
    const values = [
      transcript('request', rpcRequest(1, 'tools/call', 'capture')),
      transcript('response', rpcResult(null, toolResult)),
      transcript('response', rpcResult(1, toolResult)),
    ];
    const { status, report } = runJson(['-'], { input: lines(...values) });
    expect(status).toBe(0);
    expect(report.summary).toMatchObject({ records: 2, valid: 2, tools: { capture: { ok: 1, failed: 0 } } });
    expect(brief(report.findings)).toEqual([['unpaired-response', 2, null, 'transcript']]);
  });
});

describe('MCP results under --redact', () => {
  it('a structuredContent that is no envelope is not quoted', () => {
    // Was: structured-content-mismatch quoted it whole, "it is \"token=abc123\"".
    const secret = 'token=abc123';
    const text = { type: 'text', text: JSON.stringify({ ok: true, result: {} }) };
    const input = lines({ content: [text], structuredContent: secret }, { content: [text], structuredContent: 4242 });
    // One run writes every format: JSON to stdout, the others to their files.
    const out = tempFiles({});
    const others = ['human', 'sarif', 'junit'];
    const { status, stdout, report } = runJson(['--redact', ...others.flatMap((format) => ['-f', `${format}=${join(out, format)}`]), '-'], { input });
    expect(status).toBe(1);
    const texts: Record<string, string> = { json: stdout, ...Object.fromEntries(others.map((format) => [format, readFileSync(join(out, format), 'utf8')])) };
    for (const format of ['json', 'human', 'sarif', 'junit']) {
      expect(texts[format], format).not.toContain(secret);
      expect(texts[format], format).not.toContain('4242');
    }
    expect(report.findings.map((f: JsonFinding & { message: string }) => [f.rule, f.line, f.message])).toEqual([
      ['structured-content-mismatch', 1, "structuredContent differs from the text block's envelope: it is a string (value withheld by --redact)"],
      ['structured-content-mismatch', 2, "structuredContent differs from the text block's envelope: it is a number (value withheld by --redact)"],
    ]);
    // Without --redact the value is said, as before.
    expect(runJson(['-'], { input }).report.findings[0].message).toBe(`structuredContent differs from the text block's envelope: it is "${secret}"`);
  });
});

describe('several records on one line', () => {
  it('their findings come in report order, by column then rule id across the records, as merge has them', () => {
    // Was record by record: schema of the first, then code-format and unknown-code of the second.
    const extra = { ok: true, result: {}, x: 1 };
    const badCode = { ok: false, error: { code: 'Bad_Code', category: 'internal', detail: 'd' } };
    const other = { ok: true, result: {}, y: 2 };
    const dir = tempFiles({
      'one-line.json': `${JSON.stringify([extra, badCode, other])}\n`,
      'two-lines.json': `[${JSON.stringify(extra)},\n${JSON.stringify(badCode)}, ${JSON.stringify(other)}]\n`,
    });
    const expected = (line: number) => [
      ['code-format', line, '/error/code'],
      ['schema', line, '/x'],
      ['schema', line, '/y'],
      ['unknown-code', line, '/error/code'],
    ];
    const brief = (findings: JsonFinding[]) => findings.map((f) => [f.rule, f.line, f.pointer]);
    for (const budget of ['1000', '1']) {
      const { report } = runJson(['--findings-in-memory', budget, 'one-line.json', 'two-lines.json'], { cwd: dir });
      const [oneLine, twoLines] = [report.findings.filter((f: JsonFinding) => f.source === 'one-line.json'), report.findings.filter((f: JsonFinding) => f.source === 'two-lines.json')];
      expect(brief(oneLine), budget).toEqual(expected(1));
      // Spread over two lines, the document's findings sit at their members (spec section 8.11), so
      // line 2's come in column order: the second record's code, then the third's y.
      expect(brief(twoLines), budget).toEqual([
        ['schema', 1, '/x'],
        ['code-format', 2, '/error/code'],
        ['unknown-code', 2, '/error/code'],
        ['schema', 2, '/y'],
      ]);
    }
    // The run's own JSON report, saved to a file, and merge's reading of that file.
    expect(runCli(['check', '-f', 'json=report.json', 'one-line.json', 'two-lines.json'], { cwd: dir }).status).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const merged = runCli(['merge', '-f', 'json', 'report.json'], { cwd: dir });
    expect(JSON.parse(merged.stdout).findings).toEqual(report.findings);
  });

  it('a long line of records is ordered the same when its findings pass the memory budget', () => {
    // One line's findings are held against the budget: past it they wait in the spool, one run per
    // rule, so that an array written on one line does not hold all its findings in memory.
    const records = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0 ? { ok: true, result: {}, [`x${i}`]: 1 } : i % 3 === 1 ? { ok: false, error: { code: `Bad_Code_${i}`, category: 'internal', detail: 'd' } } : { ok: 'yes', result: {} },
    );
    const dir = tempFiles({ 'long.json': `${JSON.stringify(records)}\n`, 'after.json': `[${records.map((r) => JSON.stringify(r)).join(',')},\n{"ok":1}]\n` });
    // The run's own JSON report, saved to a file; merge reads that file at the end.
    expect(runCli(['check', '-f', 'json=report.json', 'after.json', 'long.json'], { cwd: dir }).status).toBe(1);
    const inMemory = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    const rules = inMemory.findings.filter((f: JsonFinding) => f.source === 'long.json').map((f: JsonFinding) => f.rule);
    expect(new Set(rules)).toEqual(new Set(['code-format', 'schema', 'unknown-code']));
    expect(rules.length).toBeGreaterThan(300);
    expect(rules).toEqual([...rules].sort());
    // after.json spans two lines, so its findings sit at their members (spec section 8.11): line 1's
    // are long.json's, in column order, then the last record's.
    const after: JsonFinding[] = inMemory.findings.filter((f: JsonFinding) => f.source === 'after.json');
    expect(after.map((f) => [f.rule, f.line]).at(-1)).toEqual(['schema', 2]);
    const first = after.slice(0, -1);
    expect(first.every((f) => f.line === 1 && f.column !== undefined)).toBe(true);
    expect(first.map((f) => f.rule).sort()).toEqual(rules);
    const columnOrder = (a: JsonFinding, b: JsonFinding) => a.column! - b.column! || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
    expect(first).toEqual([...first].sort(columnOrder));
    for (const budget of ['1', '7', '64']) {
      const spooled = runJson(['--findings-in-memory', budget, 'after.json', 'long.json'], { cwd: dir }).report;
      expect(spooled.findings, budget).toEqual(inMemory.findings);
    }
    expect(JSON.parse(runCli(['merge', '-f', 'json', 'report.json'], { cwd: dir }).stdout).findings).toEqual(inMemory.findings);
  });

  it("a line's findings past the budget wait in the spool, not in memory, and come out in report order", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcec-result-line-'));
    try {
      const budget = new SpillBudget(4, () => dir);
      const store = new FindingStore(budget);
      const line = new LineFindings(store, budget);
      const rules: RuleId[] = ['unknown-code', 'schema', 'code-format'];
      const finding = (i: number, at = 1): Finding => ({ rule: rules[i % 3]!, severity: 'warning', message: `m${i}`, location: { source: 's', line: at } });
      for (let i = 0; i < 60; i++) line.startRecord(1), line.add(finding(i));
      const spooled = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
      expect(spooled.map((entry) => statSync(join(entry.parentPath, entry.name)).size).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      line.startRecord(2);
      line.add(finding(60, 2));
      line.flush();
      const messages = [...new StoredList(store.seal())].map((f) => `${f.location.line}:${f.rule}:${f.message}`);
      const of = (k: number) => Array.from({ length: 20 }, (_, j) => `1:${rules[k]}:m${j * 3 + k}`);
      expect(messages).toEqual([...of(2), ...of(1), ...of(0), '2:unknown-code:m60']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

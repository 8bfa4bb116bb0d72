// MCEC transcripts as MCEC's own client writes them (spec section 8.1), and JSON-RPC logs whose
// requests were filtered out (spec section 8.9), run through the built CLI on real files.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binary, lines, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const folder = 'fixtures/field/mcec-transcripts';
const transcriptOf = (name: string) => `${folder}/${name}/tool-calls.jsonl`;

interface JsonFinding {
  rule: string;
  line: number;
  tool?: string;
  message: string;
}
const brief = (findings: JsonFinding[]) => findings.map((f) => [f.rule, f.line, f.tool ?? null]);

describe('MCEC transcripts as Invoke-McecTool writes them (spec section 8.1)', () => {
  it('a passing run (PowerShell 7: no BOM, CRLF, {name, arguments} in either order) has no finding', () => {
    const { status, report } = runJson([transcriptOf('pwsh7-pass')]);
    expect(status).toBe(0);
    // Was 21 schema errors (3 a request line) and 7 unpaired-response warnings.
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({ records: 7, valid: 7, invalid: 0, unparseable: 0, skipped: 7 });
    const tools = report.summary.tools as Record<string, { ok: number; failed: number }>;
    expect(Object.keys(tools).sort()).toEqual(['capture', 'click', 'find', 'invoke', 'query', 'send_command', 'windows']);
    for (const counts of Object.values(tools)) expect(counts).toMatchObject({ ok: 1, failed: 0 });
  });

  it('Windows PowerShell 5.1 (BOM, \\u0027 escapes, a refused tool): the one real fault, each response given its tool', () => {
    const file = transcriptOf('winps51-bom');
    expect(readFileSync(join(repoRoot, file)).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const { status, report } = runJson([file]);
    expect(status).toBe(1);
    expect(brief(report.findings)).toEqual([['is-error-mismatch', 10, 'invoke']]);
    expect(report.summary).toMatchObject({ records: 5, valid: 4, invalid: 1, skipped: 5, protocolErrors: 0, outcomes: { ok: 1, failed: 4, unknown: 0 } });
    expect(report.summary.tools).toMatchObject({ capture: { ok: 1, failed: 0 }, find: { ok: 0, failed: 1 }, wait_for: { ok: 0, failed: 1 }, 'wait-for': { ok: 0, failed: 1 }, invoke: { ok: 0, failed: 1 } });
    expect(report.summary.sessions).toMatchObject({ a3c09e1d77b2: { records: 5, ok: 1, failed: 4 } });
    expect(report.summary.codes).toMatchObject({ 'element-not-found': 2, 'unknown-tool': 1, 'wait-condition-timeout': 1 });
  });

  it('a transcript cut at its size cap: the marker, and no unanswered request before it', () => {
    const { status, report } = runJson([transcriptOf('truncated')]);
    expect(status).toBe(0);
    expect(brief(report.findings)).toEqual([['transcript-truncated', 8, null]]);
    expect(report.summary).toMatchObject({ records: 3, valid: 3, skipped: 5, truncated: 1 });
    expect(Object.keys(report.summary.tools).sort()).toEqual(['capture', 'find', 'query']);
  });

  it('a run killed while writing: the request whose response line is cut off is unanswered, naming that line', () => {
    const { status, report } = runJson([transcriptOf('crashed')]);
    expect(status).toBe(1);
    expect(brief(report.findings)).toEqual([
      ['unanswered-request', 3, 'capture'],
      ['parse-error', 4, null],
    ]);
    expect(report.findings[0].message).toBe('capture request is never answered in this transcript, unless line 4, which could not be read, holds its answer');
    expect(report.summary).toMatchObject({ records: 1, unparseable: 1, skipped: 2, tools: { query: { ok: 1, failed: 0 } } });
  });

  it('the folder: each transcript on its own, the human tables by tool', () => {
    const { status, stdout } = runCli(['check', folder]);
    expect(status).toBe(1);
    expect(stdout).toMatch(/✖ 4 problems \(2 errors, 2 warnings\) in 4 inputs/);
    expect(stdout).toMatch(/^\s+send_command\s+1\s/m);
    expect(stdout).not.toMatch(/unpaired-response|duplicate-response|schema/);
  });

  const S = '5f19c9c01a3f';
  const ts = '2026-07-01T10:15:02.1234567+02:00';
  const request = (name: string, session = S) => ({ ts, sessionId: session, direction: 'request', method: 'tools/call', payload: { name, arguments: {} } });
  const toolResult = (id: number, ok = true) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(ok ? { ok: true, result: {} } : { ok: false, error: { code: 'element-not-found', category: 'no-target', detail: 'no Save button' } }) }], isError: !ok } });
  const response = (id: number, ok = true, session = S) => ({ ts, sessionId: session, direction: 'response', method: 'tools/call', payload: toolResult(id, ok) });

  it('the next line of the same session answers: other sessions may come between', () => {
    const values = [request('capture'), request('find', 'other'), response(7), response(7, false, 'other')];
    const { status, report } = runJson(['-'], { input: lines(...values) });
    expect(status).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report.summary.tools).toMatchObject({ capture: { ok: 1, failed: 0 }, find: { ok: 0, failed: 1 } });
  });

  it('a request its session does not answer on the next line is unanswered, and that response pairs by id', () => {
    // find's next line of its session is a request; capture's is the response, which answers it.
    const twice = runJson(['-'], { input: lines(request('find'), request('capture'), response(3)) }).report;
    expect(brief(twice.findings)).toEqual([['unanswered-request', 1, 'find']]);
    expect(twice.findings[0].message).toBe('find request is never answered in this transcript: the next line of its session, line 2, is no response');
    expect(twice.summary.tools).toEqual({ capture: expect.objectContaining({ ok: 1 }) });
    // A line that could not be read between them: the request is unanswered, and the response, paired
    // by id, has no request of its id (the input held a request before it).
    const cut = runJson(['-'], { input: lines(request('capture'), '{"ts":', response(3)) }).report;
    expect(brief(cut.findings)).toEqual([
      ['unanswered-request', 1, 'capture'],
      ['parse-error', 2, null],
      ['unpaired-response', 3, null],
    ]);
    expect(cut.findings[0].message).toBe('capture request is never answered in this transcript, unless line 2, which could not be read, holds its answer');
  });

  it('JSON-RPC request payloads (other recorders) still pair by id, beside MCEC lines', () => {
    const rpcRequest = { ts, sessionId: S, direction: 'request', method: 'tools/call', payload: { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'invoke', arguments: {} } } };
    const { status, report } = runJson(['-'], { input: lines(rpcRequest, request('capture'), response(10), response(9, false)) });
    expect(status).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report.summary.tools).toMatchObject({ capture: { ok: 1, failed: 0 }, invoke: { ok: 0, failed: 1 } });
  });
});

describe('pairing with requests filtered out (spec section 8.9)', () => {
  // What `grep 'Message from server' mcp.log` leaves of a session that restarted: ids from 0 again,
  // resources/list polls, and no request at all.
  const server = (id: number, result: unknown) => ({ jsonrpc: '2.0', id, result });
  const envelopeText = (envelope: unknown) => ({ content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: false });
  const responses = [
    server(0, { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'MCEC', version: '3.0.0' } }),
    server(1, { tools: [{ name: 'capture', inputSchema: { type: 'object' } }] }),
    server(2, envelopeText({ ok: true, result: { width: 1280, height: 720 } })),
    server(3, { resources: [] }),
    // The server restarted: the same ids again.
    server(0, { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'MCEC', version: '3.0.0' } }),
    server(1, { tools: [{ name: 'capture', inputSchema: { type: 'object' } }] }),
    server(2, { ...envelopeText({ ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'No matching window' } }), isError: true }),
    server(3, { resources: [] }),
    server(3, { resources: [] }),
  ];

  it('repeated ids with no request: each tool result checked, no duplicate-response, nothing else a record', () => {
    const { status, report } = runJson(['-'], { input: lines(...responses) });
    expect(status).toBe(0);
    // Was 5 duplicate-response errors (the second answer to ids 0, 1, 2, 3 and the third to 3), exit 1.
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({ records: 2, valid: 2, skipped: 7, outcomes: { ok: 1, failed: 1, unknown: 0 } });
  });

  it('the grep recipe on a client log: only the tool results are records', () => {
    const log = responses.map((r, i) => `2025-03-27T10:00:0${i}.000Z [info] [mcec] Message from server: ${JSON.stringify(r)}`).join('\n') + '\n';
    const { status, report } = runJson(['--extract', '-'], { input: log });
    expect(status).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({ records: 2, valid: 2, skipped: 7 });
  });

  it('a result with ok is a tool outcome when no request says whose it is; once a request is answered, a second answer is a duplicate', () => {
    // A server that puts the envelope straight into result: checked (no content array), where it was skipped.
    const dir = tempFiles({
      'capture.jsonl': lines({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'capture', arguments: {} } }, responses[2], responses[2]),
    });
    // One run over both inputs: each pairs on its own, and each finding names its source.
    const { report } = runJson(['-', join(dir, 'capture.jsonl')], { input: lines(server(5, { ok: true, result: {} })) });
    const of = (source: string) => (report.findings as (JsonFinding & { source: string })[]).filter((f) => f.source === source);
    expect(brief(of('-'))).toEqual([['not-an-envelope', 1, null]]);
    expect(brief(of(join(dir, 'capture.jsonl')))).toEqual([['duplicate-response', 3, 'capture']]);
    expect(report.findings).toHaveLength(2);
  });
});

describe('docs/transcripts.md', () => {
  const page = readFileSync(join(repoRoot, 'docs/transcripts.md'), 'utf8');
  const commands = [...page.matchAll(/```sh\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
  // `mcec-result` is the installed package; here it is this checkout's built binary.
  const run = (command: string, cwd = repoRoot) => spawnSync('sh', ['-c', command.replaceAll('mcec-result', `"${process.execPath}" "${binary}"`)], { cwd, env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' });

  it('has its three commands', () => {
    expect(commands).toEqual([
      'mcec-result check fixtures/field/mcec-transcripts/winps51-bom/tool-calls.jsonl',
      "grep 'Message from server' mcp.log | mcec-result check --extract -",
      'mcec-result check fixtures/field/mcec-transcripts/crashed/tool-calls.jsonl',
    ]);
  });

  it('the example prints what the page shows', () => {
    const shown = /prints, among its tables \(exit status 1\):\n\n```text\n([\s\S]*?)```/.exec(page)?.[1];
    expect(shown).toBeDefined();
    const result = run(commands[0]!);
    expect(result.status).toBe(1);
    expect(result.stdout.startsWith(shown!)).toBe(true);
  });

  it('the grep recipe checks only the tool results of a client log whose server restarted', () => {
    const at = (k: number) => `2025-03-27T10:00:${String(k).padStart(2, '0')}.000Z [info] [mcec]`;
    const client = (id: number, method: string, params: unknown = {}) => JSON.stringify({ method, params, jsonrpc: '2.0', id });
    const server = (id: number, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });
    const capture = { content: [{ type: 'text', text: '{"ok":true,"result":{"width":1280,"height":720}}' }], isError: false };
    const missing = { content: [{ type: 'text', text: '{"ok":false,"error":{"code":"window-not-found","category":"no-target","detail":"No matching window"}}' }], isError: true };
    const session = (start: number, result: unknown) => [
      `${at(start)} Message from client: ${client(0, 'initialize', { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'claude-ai', version: '0.1.0' } })}`,
      `${at(start)} Message from server: ${server(0, { protocolVersion: '2024-11-05', capabilities: { tools: {} }, serverInfo: { name: 'MCEC', version: '3.0.0' } })}`,
      `${at(start + 1)} Message from client: ${client(1, 'tools/list')}`,
      `${at(start + 1)} Message from server: ${server(1, { tools: [{ name: 'capture', inputSchema: { type: 'object' } }] })}`,
      `${at(start + 2)} Message from client: ${client(2, 'tools/call', { name: 'capture', arguments: { process: 'notepad' } })}`,
      `${at(start + 2)} Message from server: ${server(2, result)}`,
      `${at(start + 3)} Message from client: ${client(3, 'resources/list')}`,
      `${at(start + 3)} Message from server: ${server(3, { resources: [] })}`,
    ];
    const log = [...session(0, capture), `${at(5)} Server transport closed unexpectedly, this is likely due to the process exiting early.`, ...session(10, missing)].join('\n') + '\n';
    const dir = tempFiles({ 'mcp.log': log });
    const result = run(commands[1]!, dir);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/✔ no problems in 1 input/);
    expect(result.stdout).toMatch(/records\s+2 checked\s+2 valid\s+0 invalid\s+0 unparseable\s+6 skipped/);
    expect(result.stdout).not.toMatch(/duplicate-response/);
  });

  it('the crash recipe names the line that could not be read', () => {
    const result = run(commands[2]!);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('capture: capture request is never answered in this transcript, unless line 4, which could not be read, holds its answer  unanswered-request');
  });
});

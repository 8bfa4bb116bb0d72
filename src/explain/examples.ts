// One record per rule that triggers it, shown by `explain <rule>`. Each is what a user would find in
// an input file: a bare envelope, an MCP CallToolResult, or transcript lines (spec section 3).
// Several lines are joined with `\n`. test/explain.test.ts runs every example through the built CLI.
import type { RuleId } from '../types.js';

const sessionId = '5f19c9c01a3f';
const ts = '2026-07-01T10:15:02.123Z';

const line = (value: unknown): string => JSON.stringify(value);

const callToolResult = (envelope: unknown, isError: boolean): Record<string, unknown> => ({
  content: [{ type: 'text', text: JSON.stringify(envelope) }],
  isError,
});

const request = (id: number, tool: string): string =>
  line({ ts, sessionId, direction: 'request', method: 'tools/call', payload: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } } });

const response = (id: number, envelope: unknown): string =>
  line({ ts, sessionId, direction: 'response', method: 'tools/call', payload: { jsonrpc: '2.0', id, result: callToolResult(envelope, false) } });

const captured = { ok: true, result: { artifact: 'capture-0001.png' }, sessionId };

export const ruleExamples = {
  'parse-error': '{"ok":true,"result":{"window":"Untitled - Notepad"}',
  schema: line({ ok: false, sessionId }),
  'result-on-failure': line({ ok: false, result: { clicked: true }, error: { code: 'element-not-found', category: 'no-target', detail: 'no element matched' }, sessionId }),
  'is-error-mismatch': line(callToolResult({ ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'no window matched' }, sessionId }, false)),
  'not-an-envelope': line({ content: [{ type: 'text', text: 'window captured' }], isError: false }),
  'unknown-code': line({ ok: false, error: { code: 'window-not-fonud', category: 'no-target', detail: 'no window matched' }, sessionId }),
  'unknown-warning-code': line({ ok: true, result: {}, warnings: [{ code: 'minimised-window', detail: 'the window was restored first' }], sessionId }),
  'code-category-mismatch': line({ ok: false, error: { code: 'window-not-found', category: 'timeout', detail: 'no window matched' }, sessionId }),
  'code-format': line({ ok: false, error: { code: 'WindowNotFound', category: 'no-target', detail: 'no window matched' }, sessionId }),
  'missing-result': line({ ok: true, sessionId }),
  'inline-image': line({
    ok: false,
    error: { code: 'frame-all-black', category: 'capture-blank', detail: 'the frame is all black', lastObservation: { screenshot: 'data:image/png;base64,iVBORw0KGgo=' } },
    sessionId,
  }),
  // Each after a call answered: a transcript of no tool result would be no-tool-results too.
  'transcript-truncated': [request(7, 'capture'), response(7, captured), line({ truncated: 'tool-call log size cap reached' })].join('\n'),
  // A response is unpaired only once the input has held a request (spec section 8.9).
  'unpaired-response': [request(6, 'capture'), response(6, captured), response(7, captured)].join('\n'),
  // As MCEC's client writes a request: `{name, arguments}`, answered by the next line of its session (spec section 8.1).
  'unanswered-request': [request(7, 'capture'), response(7, captured), line({ ts, sessionId, direction: 'request', method: 'tools/call', payload: { name: 'capture', arguments: { process: 'notepad' } } })].join('\n'),
  'duplicate-response': [request(7, 'capture'), response(7, captured), response(7, captured)].join('\n'),
  'structured-content-mismatch': line({
    content: [{ type: 'text', text: JSON.stringify({ ok: true, result: { title: 'Untitled - Notepad' } }) }],
    structuredContent: { ok: true, result: { title: 'Notepad' } },
    isError: false,
  }),
  'empty-input': '',
  // A session that never called a tool: its handshake only, both lines skipped (spec section 8.5).
  'no-tool-results': [
    line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1.0.0' } } }),
    line({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'mcec', version: '3.0.0' } } }),
  ].join('\n'),
  // A bundle's files (spec section 8.2): no one-file record triggers these, test/field-bundles.test.ts runs them.
  'bundle-session-mismatch': `session.json ${line({ sessionId: '0a1b2c3d4e5f', toolCallLogTruncated: false })} beside a tool-calls.jsonl of session ${sessionId}`,
  'bundle-truncation-mismatch': `session.json ${line({ sessionId, toolCallLogTruncated: true })} beside a tool-calls.jsonl that does not end with ${line({ truncated: 'tool-call log size cap reached' })}`,
} satisfies Record<RuleId, string>;

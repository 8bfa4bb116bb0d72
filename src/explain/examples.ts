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
  'transcript-truncated': line({ truncated: 'tool-call log size cap reached' }),
  'unpaired-response': response(7, captured),
  'unanswered-request': request(7, 'capture'),
  'duplicate-response': [request(7, 'capture'), response(7, captured), response(7, captured)].join('\n'),
  'structured-content-mismatch': line({
    content: [{ type: 'text', text: JSON.stringify({ ok: true, result: { title: 'Untitled - Notepad' } }) }],
    structuredContent: { ok: true, result: { title: 'Notepad' } },
    isError: false,
  }),
  'empty-input': '',
  'no-tool-results': line({ ts, sessionId, direction: 'request', method: 'tools/list', payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }),
  // A bundle's files (spec section 8.2): no one-file record triggers these, test/field-bundles.test.ts runs them.
  'bundle-session-mismatch': `session.json ${line({ sessionId: '0a1b2c3d4e5f', toolCallLogTruncated: false })} beside a tool-calls.jsonl of session ${sessionId}`,
  'bundle-truncation-mismatch': `session.json ${line({ sessionId, toolCallLogTruncated: true })} beside a tool-calls.jsonl that does not end with ${line({ truncated: 'tool-call log size cap reached' })}`,
} satisfies Record<RuleId, string>;

// The pieces rules' examples are made of, so that each reads as what a user would find in an input
// file (spec section 3): a bare envelope, an MCP CallToolResult, or lines of an MCEC transcript.

export const sessionId = '5f19c9c01a3f';
const ts = '2026-07-01T10:15:02.123Z';

export const line = (value: unknown): string => JSON.stringify(value);

export const callToolResult = (envelope: unknown, isError: boolean): Record<string, unknown> => ({
  content: [{ type: 'text', text: JSON.stringify(envelope) }],
  isError,
});

/** A transcript line as MCEC's client writes it, with the session's fields. */
export const transcriptLine = (direction: 'request' | 'response', payload: unknown): string => line({ ts, sessionId, direction, method: 'tools/call', payload });

export const request = (id: number, tool: string): string => transcriptLine('request', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: {} } });

export const response = (id: number, envelope: unknown): string => transcriptLine('response', { jsonrpc: '2.0', id, result: callToolResult(envelope, false) });

/** A success a response answers with. */
export const captured = { ok: true, result: { artifact: 'capture-0001.png' }, sessionId };

export const truncationMarker = line({ truncated: 'tool-call log size cap reached' });

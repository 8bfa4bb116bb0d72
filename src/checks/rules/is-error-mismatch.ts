// Reported by unwrap (`src/unwrap/mcp.ts`), which compares a CallToolResult's flag with its envelope.
import { callToolResult, line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

export const isErrorMismatch = defineRule({
  id: 'is-error-mismatch',
  defaultSeverity: 'error',
  description: 'the MCP isError flag does not equal !ok',
  example: line(callToolResult({ ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'no window matched' }, sessionId }, false)),
});

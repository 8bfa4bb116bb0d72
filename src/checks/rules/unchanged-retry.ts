// Reported by the recovery checks (`src/recovery/tracker.ts`, spec section 9) on the retry's request line.
import { callToolResult, sessionId, transcriptLine } from './example-records.js';
import { defineRule } from './rule.js';

const invoke = { name: 'invoke', arguments: { automationId: 'btnSave', action: 'press' } };
const refused = { ok: false, error: { code: 'action-unknown', category: 'invalid-argument', detail: 'action "press" is not one of click, invoke, toggle' }, sessionId };

export const unchangedRetry = defineRule({
  id: 'unchanged-retry',
  defaultSeverity: 'warning',
  description: "the agent's next call repeated a failed call unchanged where the advice is to change something first",
  // As MCEC's client writes a call: a `{name, arguments}` request, its response on the next line (spec section 8.1).
  example: [7, 8].flatMap((id) => [transcriptLine('request', invoke), transcriptLine('response', { jsonrpc: '2.0', id, result: callToolResult(refused, true) })]).join('\n'),
});

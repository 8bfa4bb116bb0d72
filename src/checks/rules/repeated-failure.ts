// Reported by the recovery checks (`src/recovery/tracker.ts`, spec section 9) on the third call's request line.
import { callToolResult, sessionId, transcriptLine } from './example-records.js';
import { defineRule } from './rule.js';

const find = { name: 'find', arguments: { name: 'Save As', controlType: 'Window' } };
const missing = { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'no window named "Save As"' }, sessionId };
const call = (id: number) => [transcriptLine('request', find), transcriptLine('response', { jsonrpc: '2.0', id, result: callToolResult(missing, true) })];

export const repeatedFailure = defineRule({
  id: 'repeated-failure',
  defaultSeverity: 'warning',
  description: 'the same call failed with the same code three or more times in a row',
  example: [...call(7), ...call(8), ...call(9)].join('\n'),
});

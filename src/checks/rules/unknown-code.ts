import { quote } from '../envelope.js';
import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

// The code set is open (consumers must tolerate unknown codes), so this is a warning by default:
// a typo in a producer is the commonest conformance bug, and the suggestion names the fix.
export const unknownCode = defineRule({
  id: 'unknown-code',
  defaultSeverity: 'warning',
  description: 'error.code is not in the code registry (with the nearest known code when one is close)',
  example: line({ ok: false, error: { code: 'window-not-fonud', category: 'no-target', detail: 'no window matched' }, sessionId }),
  reads: ['error'],
  check({ code }, { registry }, out) {
    if (code === undefined || registry.isKnownErrorCode(code)) return;
    const suggestion = registry.nearestErrorCode(code);
    out.push({ message: `unknown error code ${quote(code)}`, pointer: '/error/code', ...(suggestion && { suggestion }) });
  },
});

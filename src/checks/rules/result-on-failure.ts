import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

// Invariant 3 of spec section 1: the schema allows `ok: false` with a result, the contract does not.
export const resultOnFailure = defineRule({
  id: 'result-on-failure',
  defaultSeverity: 'error',
  description: 'ok is false but result is not null: a call is a success or a failure, never both',
  example: line({ ok: false, result: { clicked: true }, error: { code: 'element-not-found', category: 'no-target', detail: 'no element matched' }, sessionId }),
  reads: ['outcome'],
  check({ ok, hasResult, result }, _context, out) {
    if (ok !== false || !hasResult || result === null) return;
    out.push({
      message: 'ok is false, so result must be omitted or null (a failure keeps its partial payload in error.partialResult)',
      pointer: '/result',
    });
  },
});

import type { EnvelopeRule } from './rule.js';

// Invariant 3 of spec section 1: the schema allows `ok: false` with a result, the contract does not.
export const resultOnFailure: EnvelopeRule = {
  id: 'result-on-failure',
  defaultSeverity: 'error',
  description: 'ok is false but result is not null: a call is a success or a failure, never both',
  reads: ['outcome'],
  check({ ok, hasResult, result }, _context, out) {
    if (ok !== false || !hasResult || result === null) return;
    out.push({
      message: 'ok is false, so result must be omitted or null (a failure keeps its partial payload in error.partialResult)',
      pointer: '/result',
    });
  },
};

import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

export const missingResult = defineRule({
  id: 'missing-result',
  defaultSeverity: 'warning',
  description: 'ok is true but the envelope has no result',
  example: line({ ok: true, sessionId }),
  reads: ['outcome'],
  check({ ok, hasResult }, _context, out) {
    if (ok !== true || hasResult) return;
    out.push({ message: 'ok is true but result is missing (a success is expected to carry its payload)', pointer: '' });
  },
});

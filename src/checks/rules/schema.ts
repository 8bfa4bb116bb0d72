// Reported by `src/checks/schema.ts`, which turns the validator's errors into findings.
import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

export const schema = defineRule({
  id: 'schema',
  defaultSeverity: 'error',
  description: 'a violation of the envelope JSON Schema, ok/error conditionals included',
  example: line({ ok: false, sessionId }),
});

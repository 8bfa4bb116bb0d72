// Reported by `src/bundle-checks.ts`, which reads an evidence bundle's files together (spec section 8.2).
import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

export const bundleSessionMismatch = defineRule({
  id: 'bundle-session-mismatch',
  defaultSeverity: 'error',
  description: "an evidence bundle's session.json names another session than its transcript",
  // No one-file record triggers it: test/field-bundles.test.ts runs bundles.
  example: `session.json ${line({ sessionId: '0a1b2c3d4e5f', toolCallLogTruncated: false })} beside a tool-calls.jsonl of session ${sessionId}`,
});

// Reported by `src/bundle-checks.ts`, which reads an evidence bundle's files together (spec section 8.2).
import { line, sessionId, truncationMarker } from './example-records.js';
import { defineRule } from './rule.js';

export const bundleTruncationMismatch = defineRule({
  id: 'bundle-truncation-mismatch',
  defaultSeverity: 'warning',
  description: "session.json's toolCallLogTruncated disagrees with the transcript's end",
  // No one-file record triggers it: test/field-bundles.test.ts runs bundles.
  example: `session.json ${line({ sessionId, toolCallLogTruncated: true })} beside a tool-calls.jsonl that does not end with ${truncationMarker}`,
});

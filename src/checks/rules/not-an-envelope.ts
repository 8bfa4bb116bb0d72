// Reported by unwrap (`src/unwrap/`) for a tool response it finds no envelope in.
import { line } from './example-records.js';
import { defineRule } from './rule.js';

export const notAnEnvelope = defineRule({
  id: 'not-an-envelope',
  defaultSeverity: 'error',
  description: 'a tool response whose content holds no JSON envelope, or an object with none of the envelope members ok, result, error, warnings',
  example: line({ content: [{ type: 'text', text: 'window captured' }], isError: false }),
});

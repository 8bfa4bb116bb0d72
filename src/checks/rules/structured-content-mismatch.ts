// Reported by unwrap (`src/unwrap/mcp.ts`), which compares structuredContent with the text block's envelope.
import { line } from './example-records.js';
import { defineRule } from './rule.js';

export const structuredContentMismatch = defineRule({
  id: 'structured-content-mismatch',
  defaultSeverity: 'error',
  description: "structuredContent and the text block's envelope differ",
  example: line({
    content: [{ type: 'text', text: JSON.stringify({ ok: true, result: { title: 'Untitled - Notepad' } }) }],
    structuredContent: { ok: true, result: { title: 'Notepad' } },
    isError: false,
  }),
});

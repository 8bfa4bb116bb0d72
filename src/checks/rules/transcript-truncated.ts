// Reported by unwrap (`src/unwrap/auto.ts`) at a transcript's truncation marker.
import { captured, request, response, truncationMarker } from './example-records.js';
import { defineRule } from './rule.js';

export const transcriptTruncated = defineRule({
  id: 'transcript-truncated',
  defaultSeverity: 'warning',
  description: "a transcript's truncation marker: the log was cut off there by its size cap",
  // After a call answered: a transcript of no tool result would be no-tool-results too.
  example: [request(7, 'capture'), response(7, captured), truncationMarker].join('\n'),
});

// Reported by unwrap's pairing of requests and responses (`src/unwrap/auto.ts`).
import { captured, request, response } from './example-records.js';
import { defineRule } from './rule.js';

export const unpairedResponse = defineRule({
  id: 'unpaired-response',
  defaultSeverity: 'warning',
  description: 'a transcript response with no request of the same id before it, once the input has held a request',
  // A response is unpaired only once the input has held a request (spec section 8.9).
  example: [request(6, 'capture'), response(6, captured), response(7, captured)].join('\n'),
});

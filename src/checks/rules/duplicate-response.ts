// Reported by unwrap's pairing of requests and responses (`src/unwrap/auto.ts`).
import { captured, request, response } from './example-records.js';
import { defineRule } from './rule.js';

export const duplicateResponse = defineRule({
  id: 'duplicate-response',
  defaultSeverity: 'error',
  description: 'a second response to a JSON-RPC id whose request an earlier response answered',
  example: [request(7, 'capture'), response(7, captured), response(7, captured)].join('\n'),
});

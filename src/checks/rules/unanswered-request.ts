// Reported by unwrap's pairing of requests and responses (`src/unwrap/auto.ts`).
import { captured, request, response, transcriptLine } from './example-records.js';
import { defineRule } from './rule.js';

export const unansweredRequest = defineRule({
  id: 'unanswered-request',
  defaultSeverity: 'warning',
  description: 'a transcript request that no response answers',
  // As MCEC's client writes a request: `{name, arguments}`, answered by the next line of its session (spec section 8.1).
  example: [request(7, 'capture'), response(7, captured), transcriptLine('request', { name: 'capture', arguments: { process: 'notepad' } })].join('\n'),
});

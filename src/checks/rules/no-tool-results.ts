// Reported by the run (`src/run.ts`, `src/tool-results.ts`) for an input whose every entry unwrap skipped.
import { line } from './example-records.js';
import { defineRule } from './rule.js';

export const noToolResults = defineRule({
  id: 'no-tool-results',
  defaultSeverity: 'warning',
  description: 'an input whose entries are all skipped (requests, other methods, noise): no tool result to check',
  // A session that never called a tool: its handshake only, both lines skipped (spec section 8.5).
  example: [
    line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1.0.0' } } }),
    line({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'mcec', version: '3.0.0' } } }),
  ].join('\n'),
});

// Which framed values the unwrappers need built whole, where the scanner built a line by the
// envelope plan (src/checks/record-plan.ts): a wrapping's envelope is inside it, where that plan
// builds nothing. The framer asks this of each line it scanned (FramingOptions.builtWhole).
import { isBareEnvelope } from './auto.js';

/**
 * Whether a value the envelope plan built must be built whole: `'line'`, this one; `'input'`, this
 * one and the input's next lines. Any object but a bare envelope may be a wrapping (a transcript
 * line, a JSON-RPC message, an MCP result); once a line is one by its own member, the input is a
 * wrapped one. Other values the plan builds whole. A wrapped line is mostly the text block that
 * holds the envelope, a string JSON.parse reads natively faster than the scanner passes over it:
 * the framer gives a wrapped input's lines to the reference path, and the envelope in the text to
 * the scanner (src/framing/scan-text.ts).
 */
export function builtWhole(value: unknown): 'line' | 'input' | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || isBareEnvelope(value)) return undefined;
  return isWrapping(value as Record<string, unknown>) ? 'input' : 'line';
}

/** A transcript line, a JSON-RPC message or an MCP CallToolResult, by its own member. */
function isWrapping(object: Record<string, unknown>): boolean {
  return object['direction'] !== undefined || object['jsonrpc'] !== undefined || object['content'] !== undefined;
}

// Report order (spec section 6): line, then column (none = 0), then rule id. Findings of one input
// are kept in this order from the moment they are made.
import type { Finding } from '../types.js';

export function byPlace(a: Finding, b: Finding): number {
  return a.location.line - b.location.line || (a.location.column ?? 0) - (b.location.column ?? 0) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
}

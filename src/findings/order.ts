// Report order (spec section 6): line, then column (none = 0), then rule id. Findings of one input
// are kept in this order from the moment they are made.
import type { Finding } from '../types.js';

/**
 * Strings in the order of their UTF-16 code units (as `<` compares them; code point order but for
 * characters past U+FFFF), the same on every machine, unlike localeCompare.
 */
export function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function byPlace(a: Finding, b: Finding): number {
  return a.location.line - b.location.line || (a.location.column ?? 0) - (b.location.column ?? 0) || byCodePoint(a.rule, b.rule);
}

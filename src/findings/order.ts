// Report order (spec section 6): line, then column (none = 0), then rule id. Findings of one input
// are kept in this order from the moment they are made.
import type { Finding } from '../types.js';

/**
 * Strings in code point order (spec section 6: files "sorted by path, by code point"), the same on
 * every machine, unlike localeCompare. `<` compares UTF-16 units, which puts a character past
 * U+FFFF (a surrogate pair, from U+D800) before U+E000-U+FFFF (U+FF5E, say); the first differing
 * units are compared with the surrogates moved above that range instead.
 */
export function byCodePoint(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return (x < 0xd800 || y < 0xd800 ? x - y : codePointRank(x) - codePointRank(y)) < 0 ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}

/** A unit at or past U+D800 ranked as its code point sorts: surrogates after U+E000-U+FFFF. */
function codePointRank(unit: number): number {
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}

export function byPlace(a: Finding, b: Finding): number {
  return a.location.line - b.location.line || (a.location.column ?? 0) - (b.location.column ?? 0) || byCodePoint(a.rule, b.rule);
}

/**
 * Whether two findings are written alike in every format but for their lines (and, with
 * `anySource`, their inputs; without `messages`, their messages): all their fields but `code` and `fingerprint`, which baselines read and
 * no format writes. Findings repeat but for their lines; the store holds such a kind once, and the
 * JSON report writes its text once.
 */
export function writtenAlike(a: Finding, b: Finding, anySource = false, messages = true): boolean {
  const x = a.location;
  const y = b.location;
  return (
    (!messages || a.message === b.message) &&
    a.rule === b.rule &&
    a.severity === b.severity &&
    (anySource || x.source === y.source) &&
    x.column === y.column &&
    x.pointer === y.pointer &&
    a.keyword === b.keyword &&
    a.schemaPath === b.schemaPath &&
    a.suggestion === b.suggestion &&
    a.tool === b.tool &&
    a.wrapping === b.wrapping
  );
}

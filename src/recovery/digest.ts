// The digest a call is known by (spec section 9, "Memory"): 128 bits of SHA-256 over its tool and
// canonical arguments. Two calls are the same call exactly when their digests are equal (but for a
// collision no input will meet); baselines match recovery findings on it.
import { loadCrypto } from '../lazy.js';
import { canonicalArguments } from './canonical.js';

let crypto: typeof import('node:crypto') | undefined;

/** `parsed`: the arguments as JSON.parse made them; `text` (from `textAt`) and `path`: the value's source and the way to them in it. */
export function callDigest(tool: string, parsed: unknown, text: string | undefined, path: readonly string[], textAt = 0): string {
  const canonical = canonicalArguments(parsed, text, path, textAt);
  // The tool as a JSON string ends at its closing quote: no tool and arguments run into another's.
  return (crypto ??= loadCrypto()).hash('sha256', `${JSON.stringify(tool)}${canonical}`, 'base64').slice(0, 22);
}

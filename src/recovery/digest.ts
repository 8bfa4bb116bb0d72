// The digest a baseline knows a recovery finding by (spec section 9, "Both"): 128 bits of SHA-256
// over its call's tool and canonical arguments, made only for a call a finding may name. Calls are
// compared by their key (call-key.ts), which is cheaper to make.
import { loadCrypto } from '../lazy.js';

let crypto: typeof import('node:crypto') | undefined;

/** The digest of `tool` and the canonical text of its arguments (canonical.ts). */
export function canonicalDigest(tool: string, canonical: string): string {
  // The tool as a JSON string ends at its closing quote: no tool and arguments run into another's.
  return (crypto ??= loadCrypto()).hash('sha256', `${JSON.stringify(tool)}${canonical}`, 'base64').slice(0, 22);
}

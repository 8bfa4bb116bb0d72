// Whether a JSON value's bytes may hold image bytes as spec section 7 defines them, so that the
// scanner builds a value the `inline-image` rule reads only when the rule could report something
// in it (scan-plan.ts's `'image'`). A superset of what the rule reports: a member named `base64`,
// a string of 200 characters or more (never more characters than bytes), one that starts with d or
// D (a data: URL); a name or string that starts with an escape is taken as possibly any of these.
// The bytes are JSON the grammar passed already.

const quote = 0x22;
const backslash = 0x5c;
const colon = 0x3a;
/** `base64` as a member name is written. */
const base64 = [0x62, 0x61, 0x73, 0x65, 0x36, 0x34];

/** A string of this many bytes or more may be one of 200 characters. */
const longString = 200;

/** Whether bytes [from, to) of `b`, one JSON value, may hold image bytes (see above). */
export function mayHoldImageBytes(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    if (b[i] !== quote) continue;
    // A string: its first byte after the quote, then its closing quote (escapes step over the byte they escape).
    const start = i + 1;
    const first = b[start];
    let k = start;
    while (b[k] !== quote) k += b[k] === backslash ? 2 : 1;
    if (k - start >= longString || first === backslash) return true;
    i = k;
    let next = k + 1;
    while (next < to && (b[next] === 0x20 || b[next] === 0x09 || b[next] === 0x0a || b[next] === 0x0d)) next++;
    if (b[next] === colon) {
      if (k - start === base64.length && isBase64Name(b, start)) return true;
    } else if (first === 0x64 || first === 0x44) return true;
  }
  return false;
}

function isBase64Name(b: Uint8Array, at: number): boolean {
  for (let j = 0; j < base64.length; j++) if (b[at + j] !== base64[j]) return false;
  return true;
}

// The key a call is compared by while its request is open or its failure waits (spec section 9,
// "Memory"): 128 bits of its canonical arguments, never the arguments. MurmurHash3's x86 128-bit
// mixing over the text's UTF-16 code units, two to a 32-bit word: equal texts have equal keys, and
// unequal texts of real inputs never meet (its 128 bits are well mixed, as SHA-256's are; it is no
// defence against a text made to collide, which here could only merge two calls' counts). A
// baseline knows a finding by the SHA-256 digest of digest.ts instead, made only for a finding.

const c1 = 0x239b961b;
const c2 = 0xab0e9789;
const c3 = 0x38b34ae5;
const c4 = 0xa1e38b93;

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** The 32-bit word of the code units at `at` and `at + 1` (0 past the end). */
function word(text: string, at: number, end: number): number {
  return (at < end ? text.charCodeAt(at) : 0) | (at + 1 < end ? text.charCodeAt(at + 1) << 16 : 0);
}

/** The key of a canonical text: 8 UTF-16 code units holding its 128 bits. */
export function callKey(text: string): string {
  const end = text.length;
  let h1 = 0;
  let h2 = 0;
  let h3 = 0;
  let h4 = 0;
  const whole = end - (end % 8);
  let i = 0;
  for (; i < whole; i += 8) {
    let k1 = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    let k2 = text.charCodeAt(i + 2) | (text.charCodeAt(i + 3) << 16);
    let k3 = text.charCodeAt(i + 4) | (text.charCodeAt(i + 5) << 16);
    let k4 = text.charCodeAt(i + 6) | (text.charCodeAt(i + 7) << 16);
    k1 = Math.imul(rotl(Math.imul(k1, c1), 15), c2);
    h1 ^= k1;
    h1 = (Math.imul(rotl(h1, 19) + h2, 5) + 0x561ccd1b) | 0;
    k2 = Math.imul(rotl(Math.imul(k2, c2), 16), c3);
    h2 ^= k2;
    h2 = (Math.imul(rotl(h2, 17) + h3, 5) + 0x0bcaa747) | 0;
    k3 = Math.imul(rotl(Math.imul(k3, c3), 17), c4);
    h3 ^= k3;
    h3 = (Math.imul(rotl(h3, 15) + h4, 5) + 0x96cd1c35) | 0;
    k4 = Math.imul(rotl(Math.imul(k4, c4), 18), c1);
    h4 ^= k4;
    h4 = (Math.imul(rotl(h4, 13) + h1, 5) + 0x32ac3b17) | 0;
  }
  if (i < end) {
    // The tail, zero-padded: the length mixed in below tells it from text with zeros.
    h4 ^= Math.imul(rotl(Math.imul(word(text, i + 6, end), c4), 18), c1);
    h3 ^= Math.imul(rotl(Math.imul(word(text, i + 4, end), c3), 17), c4);
    h2 ^= Math.imul(rotl(Math.imul(word(text, i + 2, end), c2), 16), c3);
    h1 ^= Math.imul(rotl(Math.imul(word(text, i, end), c1), 15), c2);
  }
  const bytes = end * 2;
  h1 ^= bytes;
  h2 ^= bytes;
  h3 ^= bytes;
  h4 ^= bytes;
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  h1 = fmix(h1);
  h2 = fmix(h2);
  h3 = fmix(h3);
  h4 = fmix(h4);
  h1 = (h1 + h2 + h3 + h4) | 0;
  h2 = (h2 + h1) | 0;
  h3 = (h3 + h1) | 0;
  h4 = (h4 + h1) | 0;
  return String.fromCharCode(h1 & 0xffff, h1 >>> 16, h2 & 0xffff, h2 >>> 16, h3 & 0xffff, h3 >>> 16, h4 & 0xffff, h4 >>> 16);
}

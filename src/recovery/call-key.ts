// The key a call is compared by while its request is open or its failure waits (spec section 9,
// "Memory"): 128 bits of its canonical arguments, never the arguments. MurmurHash3's x86 128-bit
// mixing over the text's UTF-16 code units, two to a 32-bit word: equal texts have equal keys, and
// unequal texts of real inputs never meet (its 128 bits are well mixed, as SHA-256's are; it is no
// defence against a text made to collide, which here could only merge two calls' counts). A
// baseline knows a finding by the SHA-256 digest of digest.ts instead, made only for a finding.
import { sortedNames } from '../fingerprint.js';
import { canonicalDouble, canonicalOfValue } from './canonical.js';

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

/**
 * The hash's state while text is fed to it a code unit at a time: the 128 bits, the block being
 * filled (8 code units) and the length. One per process: a key is made at once, never two together.
 */
const state = { h1: 0, h2: 0, h3: 0, h4: 0, block: new Uint16Array(8), filled: 0, length: 0 };

function start(): void {
  state.h1 = state.h2 = state.h3 = state.h4 = 0;
  state.filled = 0;
  state.length = 0;
}

function mixBlock(b: Uint16Array): void {
  const k1 = Math.imul(rotl(Math.imul(b[0]! | (b[1]! << 16), c1), 15), c2);
  state.h1 = (Math.imul(rotl(state.h1 ^ k1, 19) + state.h2, 5) + 0x561ccd1b) | 0;
  const k2 = Math.imul(rotl(Math.imul(b[2]! | (b[3]! << 16), c2), 16), c3);
  state.h2 = (Math.imul(rotl(state.h2 ^ k2, 17) + state.h3, 5) + 0x0bcaa747) | 0;
  const k3 = Math.imul(rotl(Math.imul(b[4]! | (b[5]! << 16), c3), 17), c4);
  state.h3 = (Math.imul(rotl(state.h3 ^ k3, 15) + state.h4, 5) + 0x96cd1c35) | 0;
  const k4 = Math.imul(rotl(Math.imul(b[6]! | (b[7]! << 16), c4), 18), c1);
  state.h4 = (Math.imul(rotl(state.h4 ^ k4, 13) + state.h1, 5) + 0x32ac3b17) | 0;
}

function feedUnit(c: number): void {
  state.block[state.filled++] = c;
  if (state.filled === 8) mixBlock(state.block), (state.filled = 0);
}

function feed(text: string): void {
  for (let i = 0; i < text.length; i++) feedUnit(text.charCodeAt(i));
  state.length += text.length;
}

/** The key of the text fed since start(): the same as callKey of that text. */
function finish(): string {
  const { block, filled } = state;
  if (filled > 0) {
    block.fill(0, filled);
    state.h4 ^= Math.imul(rotl(Math.imul(block[6]! | (block[7]! << 16), c4), 18), c1);
    state.h3 ^= Math.imul(rotl(Math.imul(block[4]! | (block[5]! << 16), c3), 17), c4);
    state.h2 ^= Math.imul(rotl(Math.imul(block[2]! | (block[3]! << 16), c2), 16), c3);
    state.h1 ^= Math.imul(rotl(Math.imul(block[0]! | (block[1]! << 16), c1), 15), c2);
  }
  return final(state.h1, state.h2, state.h3, state.h4, state.length);
}

/** Deeper than this, or past this many values, the key is made from the canonical text instead. */
const maxDepth = 200;
const maxValues = 100_000;

class GiveUp extends Error {}

let valuesLeft = 0;

/** A string as JSON.stringify writes it, fed without being written when it needs no escape. */
function feedString(text: string): void {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) return feed(JSON.stringify(text));
  }
  feedUnit(0x22);
  feed(text);
  feedUnit(0x22);
  state.length += 2;
}

/** Feeds the canonical text of a value JSON.parse made (canonicalOfValue's), piece by piece. */
function feedValue(value: unknown, depth: number): void {
  if (--valuesLeft < 0) throw new GiveUp();
  if (typeof value === 'string') return feedString(value);
  if (typeof value === 'number') return feed(canonicalDouble(value));
  if (typeof value !== 'object' || value === null) return feed(JSON.stringify(value) ?? 'null');
  if (depth === maxDepth) throw new GiveUp();
  if (Array.isArray(value)) {
    feedUnit(0x5b);
    for (let i = 0; i < value.length; i++) {
      if (i > 0) feedUnit(0x2c);
      feedValue(value[i], depth + 1);
    }
    feedUnit(0x5d);
    state.length += value.length > 0 ? value.length + 1 : 2;
    return;
  }
  const names = sortedNames(Object.keys(value));
  feedUnit(0x7b);
  for (let i = 0; i < names.length; i++) {
    if (i > 0) feedUnit(0x2c);
    feedString(names[i]!);
    feedUnit(0x3a);
    feedValue((value as Record<string, unknown>)[names[i]!], depth + 1);
  }
  feedUnit(0x7d);
  state.length += 2 * names.length + (names.length > 0 ? 1 : 2);
}

/**
 * The key of a call's parsed arguments, exact (parsedIsExact): `callKey(canonicalArguments(parsed))`,
 * made without writing the canonical text.
 */
export function argumentsKey(parsed: unknown): string {
  if (parsed === undefined || parsed === null) return callKey('{}');
  start();
  valuesLeft = maxValues;
  try {
    feedValue(parsed, 0);
  } catch (error) {
    if (!(error instanceof GiveUp)) throw error;
    return callKey(canonicalOfValue(parsed));
  }
  return finish();
}

/** The 32-bit word of the code units at `at` and `at + 1` (0 past the end). */
function word(text: string, at: number, end: number): number {
  return (at < end ? text.charCodeAt(at) : 0) | (at + 1 < end ? text.charCodeAt(at + 1) << 16 : 0);
}

/** The 128 bits mixed with the length (in code units), as 8 UTF-16 code units. */
function final(h1: number, h2: number, h3: number, h4: number, units: number): string {
  const bytes = units * 2;
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
  return final(h1, h2, h3, h4, end);
}

// JSON's grammar on bytes (RFC 8259, as JSON.parse reads it), without building a value: a string,
// number or container is passed over and its end returned, or -1 with `fault` set. The loops read
// bytes by table lookup and allocate nothing; containers nest on a byte stack, not the call stack,
// since a line may nest as deep as nesting.ts allows.
//
// UTF-8 is not validated here: a string's byte past ASCII only sets a flag (`lineFlags`), and the
// caller checks the line's UTF-8 once, natively, when one was seen (outside a string such a byte is
// a grammar fault anyway).
import { maxNesting } from './nesting.js';

/** Set by a failed pass: the byte offset where the text stops being JSON (or `end`, when it ran out). */
export let fault = 0;

/** The last string's flags: `escaped` and `nonAscii`, or'ed. */
export let stringFlags = 0;

/** Every string's flags since the last `resetLineFlags()`. */
export let lineFlags = 0;

export const escaped = 1;
export const nonAscii = 2;

export function resetLineFlags(): void {
  lineFlags = 0;
}

/** Records a fault at `at` and returns -1, for callers outside this module. */
export function failAt(at: number): -1 {
  fault = at;
  return -1;
}

// A string's bytes: 0 for a plain one, 1 the closing quote, 2 a backslash, 3 a control character
// (which JSON.parse refuses raw), 4 a byte past ASCII.
const inString = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) inString[c] = 3;
inString[0x22] = 1;
inString[0x5c] = 2;
for (let c = 0x80; c < 0x100; c++) inString[c] = 4;

/** The characters that may follow a backslash, `u` aside. */
const simpleEscape = new Uint8Array(256);
for (const c of '"\\/bfnrt') simpleEscape[c.charCodeAt(0)] = 1;

const hex = new Uint8Array(256);
for (const c of '0123456789abcdefABCDEF') hex[c.charCodeAt(0)] = 1;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The first byte at or after `i` that is not JSON white space, or `end`. */
export function skipSpace(b: Uint8Array, i: number, end: number): number {
  while (i < end) {
    const c = b[i]!;
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
    i++;
  }
  return i;
}

/** Past the string whose opening quote is at `i`; sets `stringFlags`. */
export function scanString(b: Uint8Array, i: number, end: number): number {
  let flags = 0;
  i++;
  for (;;) {
    while (i < end && inString[b[i]!] === 0) i++;
    if (i >= end) return failAt(end);
    const kind = inString[b[i]!];
    if (kind === 1) break;
    if (kind === 4) {
      flags |= nonAscii;
      i++;
    } else if (kind === 3) return failAt(i);
    else {
      flags |= escaped;
      if (i + 1 >= end) return failAt(end);
      const e = b[i + 1]!;
      if (simpleEscape[e] === 1) i += 2;
      else if (e === 0x75) {
        for (let k = 2; k < 6; k++) {
          if (i + k >= end) return failAt(end);
          if (hex[b[i + k]!] !== 1) return failAt(i + k);
        }
        i += 6;
      } else return failAt(i + 1);
    }
  }
  stringFlags = flags;
  lineFlags |= flags;
  return i + 1;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Past the number that starts at `i` (a `-` or a digit). */
export function scanNumber(b: Uint8Array, i: number, end: number): number {
  if (b[i] === 0x2d) i++;
  if (i >= end) return failAt(end);
  const first = b[i]!;
  if (first === 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) for (i++; i < end && isDigit(b[i]!); ) i++;
  else return failAt(i);
  if (i < end && b[i] === 0x2e) {
    i++;
    if (i >= end) return failAt(end);
    if (!isDigit(b[i]!)) return failAt(i);
    for (i++; i < end && isDigit(b[i]!); ) i++;
  }
  if (i < end && (b[i] === 0x65 || b[i] === 0x45)) {
    i++;
    if (i < end && (b[i] === 0x2b || b[i] === 0x2d)) i++;
    if (i >= end) return failAt(end);
    if (!isDigit(b[i]!)) return failAt(i);
    for (i++; i < end && isDigit(b[i]!); ) i++;
  }
  return i;
}

/** Past the literal `true`, `false` or `null` that should start at `i`. */
export function scanLiteral(b: Uint8Array, i: number, end: number): number {
  const c = b[i];
  const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
  for (let k = 1; k < word.length; k++) {
    if (i + k >= end) return failAt(end);
    if (b[i + k] !== word.charCodeAt(k)) return failAt(i + k);
  }
  return i + word.length;
}

/** The open containers of the value being passed over, innermost last: 1 an object, 0 an array. */
let stack = new Uint8Array(64);

function grow(): void {
  const larger = new Uint8Array(stack.length * 2);
  larger.set(stack);
  stack = larger;
}

/** Past a member name and its colon, the name's quote due at `i` (white space skipped). */
export function scanName(b: Uint8Array, i: number, end: number): number {
  if (i >= end) return failAt(end);
  if (b[i] !== 0x22) return failAt(i);
  i = scanString(b, i, end);
  if (i < 0) return -1;
  i = skipSpace(b, i, end);
  if (i >= end) return failAt(end);
  if (b[i] !== 0x3a) return failAt(i);
  return i + 1;
}

/**
 * Past the value at `i` (white space before it skipped here), which sits inside `depth` containers:
 * nesting past maxNesting is refused where it passes the limit, as parseJson refuses it.
 */
export function skipValue(b: Uint8Array, i: number, end: number, depth: number): number {
  let top = 0;
  for (;;) {
    i = skipSpace(b, i, end);
    if (i >= end) return failAt(end);
    let c = b[i]!;
    if (c === 0x7b || c === 0x5b) {
      if (depth + top + 1 > maxNesting) return failAt(i);
      const object = c === 0x7b;
      i = skipSpace(b, i + 1, end);
      if (i < end && b[i] === (object ? 0x7d : 0x5d)) i++;
      else {
        if (top === stack.length) grow();
        stack[top++] = object ? 1 : 0;
        if (object) {
          i = scanName(b, i, end);
          if (i < 0) return -1;
        }
        continue;
      }
    } else if (c === 0x22) {
      i = scanString(b, i, end);
      if (i < 0) return -1;
    } else if (c === 0x2d || isDigit(c)) {
      i = scanNumber(b, i, end);
      if (i < 0) return -1;
    } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
      i = scanLiteral(b, i, end);
      if (i < 0) return -1;
    } else return failAt(i);
    // After a value: close the containers it ends, up to where the next value is due.
    for (;;) {
      if (top === 0) return i;
      i = skipSpace(b, i, end);
      if (i >= end) return failAt(end);
      c = b[i]!;
      const object = stack[top - 1] === 1;
      if (c === 0x2c) {
        i++;
        if (object) {
          i = scanName(b, skipSpace(b, i, end), end);
          if (i < 0) return -1;
        }
        break;
      }
      if (c !== (object ? 0x7d : 0x5d)) return failAt(i);
      i++;
      top--;
    }
  }
}

/**
 * Whether bytes [start, end) are one JSON text by grammar and nesting alone (UTF-8 aside: see
 * `lineFlags`). On false, `fault` is where it stops being one.
 */
export function isJsonText(b: Uint8Array, start: number, end: number): boolean {
  const i = skipValue(b, start, end, 0);
  if (i < 0) return false;
  const after = skipSpace(b, i, end);
  if (after !== end) {
    fault = after;
    return false;
  }
  return true;
}

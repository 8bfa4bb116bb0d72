// Members of JSON text JSON.parse has accepted, found on the text without building values: where a
// member's value starts, where a value ends, a member's name; and its numbers by their exact
// decimal value, which JSON.parse may lose. The text is valid JSON, so nothing here checks the
// grammar; it only has to tell strings, containers and scalars apart. Loops, not recursion: the
// text may nest as deep as JSON.parse was given (nesting.ts).
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, isJsonSpace } from './json-bytes.js';

/** The first offset at or after `i` that is no JSON white space. */
export function skipBlank(text: string, i: number): number {
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++;
  return i;
}

/** One past the closing quote of the string whose opening quote is at `i`: a quote after an odd run of backslashes is escaped. */
export function stringEnd(text: string, i: number): number {
  for (;;) {
    const quote = text.indexOf('"', i + 1);
    if (quote === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    i = quote;
    if (backslashes % 2 === 0) return quote + 1;
  }
}

/** One past the value that starts at `i`. */
export function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c !== OPEN_BRACE && c !== OPEN_BRACKET) {
    // A number or a literal: up to the next delimiter.
    while (i < text.length) {
      const d = text.charCodeAt(i);
      if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isJsonSpace(d)) break;
      i++;
    }
    return i;
  }
  let depth = 0;
  for (; i < text.length; i++) {
    const d = text.charCodeAt(i);
    if (d === QUOTE) i = stringEnd(text, i) - 1;
    else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
    else if ((d === CLOSE_BRACE || d === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  return i;
}

/** The name of the member whose quoted name is `text[from, to)`, unescaped as JSON.parse reads it. */
export function memberName(text: string, from: number, to: number): string {
  const raw = text.slice(from + 1, to - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(from, to)) as string) : raw;
}

/** Whether the quoted name at `text[from, to)` is `name`, without making a string when it is written plainly. */
function isName(text: string, from: number, to: number, name: string): boolean {
  // An escape spells a name in more characters than it has.
  if (to - from - 2 < name.length) return false;
  for (let k = from + 1; k < to - 1; k++) if (text.charCodeAt(k) === BACKSLASH) return memberName(text, from, to) === name;
  return to - from - 2 === name.length && text.startsWith(name, from + 1);
}

/**
 * Calls `each(from, to, valueAt)` for every member of the object whose `{` is at `open`: its quoted
 * name at `text[from, to)` and the offset of its value. `each` returns where its value ends, or -1
 * to have it skipped here. Returns one past the object's `}`.
 */
export function forEachMember(text: string, open: number, each: (from: number, to: number, valueAt: number) => number): number {
  let i = skipBlank(text, open + 1);
  if (text.charCodeAt(i) === CLOSE_BRACE) return i + 1;
  for (;;) {
    const from = i;
    const to = stringEnd(text, from);
    i = skipBlank(text, to);
    if (text.charCodeAt(i) === COLON) i = skipBlank(text, i + 1);
    const ended = each(from, to, i);
    i = skipBlank(text, ended === -1 ? valueEnd(text, i) : ended);
    if (text.charCodeAt(i) !== COMMA) return i + 1;
    i = skipBlank(text, i + 1);
  }
}

/**
 * The offset of the value of the object at `open`'s last member named `name` (the one JSON.parse
 * keeps), or -1 when it has none or `open` is no object.
 */
export function lastMemberValue(text: string, open: number, name: string): number {
  if (text.charCodeAt(open) !== OPEN_BRACE) return -1;
  let found = -1;
  forEachMember(text, open, (from, to, valueAt) => {
    if (isName(text, from, to, name)) found = valueAt;
    return -1;
  });
  return found;
}

/** The offset of the value at `names` (members followed from the value at `at`), or -1. */
export function valueAtPath(text: string, at: number, names: readonly string[]): number {
  let i = skipBlank(text, at);
  for (const name of names) {
    i = lastMemberValue(text, i, name);
    if (i === -1) return -1;
  }
  return i;
}

/**
 * Every number of a JSON text, outside its strings: a run of at most 15 digits (after any sign)
 * that no point, exponent or further digit follows. Strings are passed whole, escapes and all.
 */
const integersOnly = /(?:[^"\d]|"[^"\\]*(?:\\.[^"\\]*)*"|\d{1,15}(?![\d.eE]))*$/y;

/**
 * A text longer than this is not looked at by `numbersExact`: the pattern keeps a backtrack entry
 * per character it passes, and V8 throws a RangeError once that stack outgrows its limit.
 */
const numbersExactChars = 64 * 1024;

/**
 * Whether every number of the JSON text from `at` on is an integer of at most 15 digits, whose
 * double JSON.parse makes exactly (and no other literal's): then every number parsed from it has
 * its exact value, ids and call arguments alike. False when one may not, or the text is too long to
 * look at so (the caller then reads the numbers it needs from the text).
 */
export function numbersExact(text: string, at: number): boolean {
  if (text.length - at > numbersExactChars) return false;
  integersOnly.lastIndex = at;
  return integersOnly.test(text);
}

/** Significant digits a decimal may have for its double's shortest text to name it exactly (IEEE 754 doubles round-trip 15). */
export const exactDigits = 15;

/** Powers of ten within which such a decimal's double is normal, so that it round-trips. */
const exactPower = 300;

/**
 * Exponents longer than this many digits are not added up: a line may hold one of millions of
 * digits, and writing a BigInt out takes time that grows faster than its length. Such an exponent
 * is kept as written, the shift the digits make written after it, so that two spellings of one such
 * value are two values.
 */
const maxExponentDigits = 100_000;

/**
 * A JSON number literal's exact decimal value as text; undefined for a text of no such shape (leading
 * zeros, which JSON has none of, are read as any digits). `1`, `1.0` and `10e-1` are one value, `-0`
 * is `0`, `9007199254740993` is not `9007199254740992`. A value of at most 15 significant digits
 * within 10^±300 is written as JSON.stringify writes its double (which names exactly that decimal),
 * so that a value JSON.parse kept exact has the same form from its text as from the parsed number;
 * any other as `#` digits `e` power, a form no double is written in.
 */
export function canonicalNumber(literal: string): string | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (match === null) return undefined;
  const [, sign, whole, fraction = '', power = '0'] = match;
  let digits = whole! + fraction;
  let start = 0;
  while (start < digits.length && digits.charCodeAt(start) === 0x30) start++;
  if (start === digits.length) return '0';
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  const shift = digits.length - end - fraction.length;
  digits = digits.slice(start, end);
  if (power.replace(/^[+-]?0*/, '').length > maxExponentDigits) return `#${sign}${digits}e${power}${shift >= 0 ? '+' : ''}${shift}`;
  // An exponent of any length is exact as a BigInt; a short one is exact as a number.
  const short = power.length < 15;
  const exponent = short ? Number(power) + shift : BigInt(power) + BigInt(shift);
  const magnitude = short ? (exponent as number) + digits.length : Number((exponent as bigint) + BigInt(digits.length));
  if (digits.length <= exactDigits && Math.abs(magnitude) <= exactPower) return JSON.stringify(Number(literal));
  return `#${sign}${digits}e${exponent}`;
}

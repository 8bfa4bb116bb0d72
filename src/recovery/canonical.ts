// The canonical form of a call's arguments (spec section 9, "the same call"): two values have the
// same canonical text exactly when they are equal JSON values. Numbers compare by exact decimal
// value, which JSON.parse may lose (9007199254740993 reads as 9007199254740992), so a line whose
// numbers may not survive parsing is read from its source text, any other from its parsed value
// (the same form, for less work); objects by member names and values, order ignored, a duplicated
// name counting at its last occurrence; strings by code units after unescaping. Untrusted values
// may nest deep: past a fixed depth the walks keep their own stack, never recursion. A parsed value
// is written by the canonical JSON walk of src/fingerprint.ts, with this module's number writer.
import { canonicalText } from '../fingerprint.js';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

/** The text did not hold the JSON it was said to: the caller falls back to the parsed value. */
class NotJson extends Error {}

function skipBlanks(text: string, at: number): number {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return at;
    at++;
  }
}

/** The end (after its closing quote) of the string that starts at `at`. */
function stringEnd(text: string, at: number): { end: number; escaped: boolean } {
  let escaped = false;
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return { end: i + 1, escaped };
    if (c === BACKSLASH) (escaped = true), i++;
  }
  throw new NotJson();
}

/** The string that starts at `at`, unescaped, and where it ends. */
function readString(text: string, at: number): { value: string; end: number } {
  if (text.charCodeAt(at) !== QUOTE) throw new NotJson();
  const { end, escaped } = stringEnd(text, at);
  if (!escaped) return { value: text.slice(at + 1, end - 1), end };
  try {
    return { value: JSON.parse(text.slice(at, end)) as string, end };
  } catch {
    throw new NotJson();
  }
}

/** Where the scalar (number or literal) that starts at `at` ends. */
function scalarEnd(text: string, at: number): number {
  let i = at;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) break;
  }
  if (i === at) throw new NotJson();
  return i;
}

/** Where the value that starts at `at` ends: containers by counting brackets outside strings. */
function valueEnd(text: string, at: number): number {
  const first = text.charCodeAt(at);
  if (first === QUOTE) return stringEnd(text, at).end;
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return scalarEnd(text, at);
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i).end - 1;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && --depth === 0) return i + 1;
  }
  throw new NotJson();
}

/** Significant digits a decimal may have for its double's shortest text to name it exactly (IEEE 754 doubles round-trip 15). */
const exactDigits = 15;
/** Powers of ten within which such a decimal's double is normal, so that it round-trips. */
const exactPower = 300;

/**
 * A JSON number's exact decimal value as text: `1`, `1.0` and `10e-1` are one value, `-0` is `0`,
 * `9007199254740993` is not `9007199254740992`. A value of at most 15 significant digits within
 * 10^±300 is written as JSON.stringify writes its double (which names exactly that decimal), so
 * that a value JSON.parse kept exact has the same form from its text as from the parsed number;
 * any other as `#` digits `e` power, a form no double is written in.
 */
export function canonicalNumber(text: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) throw new NotJson();
  const [, sign, whole, fraction = '', power = '0'] = match;
  let digits = whole! + fraction;
  let start = 0;
  while (start < digits.length && digits.charCodeAt(start) === 0x30) start++;
  if (start === digits.length) return '0';
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 0x30) end--;
  const trailing = digits.length - end;
  digits = digits.slice(start, end);
  // An exponent of any length is exact as a BigInt; a short one is exact as a number.
  const short = power.length < 15;
  const exponent = short ? Number(power) - fraction.length + trailing : BigInt(power) - BigInt(fraction.length) + BigInt(trailing);
  const magnitude = short ? (exponent as number) + digits.length : Number((exponent as bigint) + BigInt(digits.length));
  if (digits.length <= exactDigits && Math.abs(magnitude) <= exactPower) return JSON.stringify(Number(text));
  return `#${sign}${digits}e${exponent}`;
}

/** Values numberFree looks at before it leaves the answer to the text. */
const numberFreeValues = 64;

/**
 * Whether a parsed value holds no number, within its first 64 values: then it is exactly what was
 * written (strings, booleans and null parse exactly), and no text need be read. False past that.
 */
export function numberFree(value: unknown): boolean {
  return valuesWithoutNumbers(value, numberFreeValues) >= 0;
}

/** What is left of `budget` once `value` is looked at: -1 at a number or when it runs out. */
function valuesWithoutNumbers(value: unknown, budget: number): number {
  if (--budget < 0 || typeof value === 'number') return -1;
  if (typeof value !== 'object' || value === null) return budget;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && budget >= 0; i++) budget = valuesWithoutNumbers(value[i], budget);
    return budget;
  }
  for (const name in value) {
    budget = valuesWithoutNumbers((value as Record<string, unknown>)[name], budget);
    if (budget < 0) return -1;
  }
  return budget;
}

/**
 * Whether the numbers of a line's `arguments` are all exact once parsed: none has more than 15
 * digits (a point counted as one) or an exponent. Looked for in the text after the line's first
 * `"arguments"` (which no string can hold unescaped; a name written with escapes has the whole line
 * looked at), strings skipped, so it may say no where a number outside the arguments is long.
 */
export function parsedIsExact(text: string, textAt = 0): boolean {
  const from = text.indexOf('"arguments"', textAt);
  const end = text.length;
  let i = from < 0 ? textAt : from;
  // From a string's start (the name found) or the value's: a quote seen opens a string.
  let inString = false;
  while (i < end) {
    if (inString) {
      const quote = text.indexOf('"', i);
      if (quote < 0) return true;
      // A quote after an odd number of backslashes is escaped.
      let backslashes = 0;
      while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
      i = quote + 1;
      if (backslashes % 2 === 0) inString = false;
      continue;
    }
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      inString = true;
      i++;
    } else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      // A number: its digits and point, and whether an exponent follows.
      let digits = 0;
      for (i++, digits = c === 0x2d ? 0 : 1; i < end; i++) {
        const d = text.charCodeAt(i);
        if ((d >= 0x30 && d <= 0x39) || d === 0x2e) digits++;
        else if (d === 0x65 || d === 0x45) return false;
        else break;
      }
      if (digits > exactDigits) return false;
    } else i++;
  }
  return true;
}

function canonicalScalar(text: string): string {
  if (text === 'true' || text === 'false' || text === 'null') return text;
  return canonicalNumber(text);
}

/** An open container of the walk over text. */
type Open = { items: string[]; members?: undefined; name?: undefined } | { items?: undefined; members: Map<string, string>; name: string };

function closed(open: Open): string {
  if (open.items) return `[${open.items.join(',')}]`;
  const names = [...open.members.keys()].sort();
  let text = '{';
  for (let k = 0; k < names.length; k++) text += `${k > 0 ? ',' : ''}${JSON.stringify(names[k])}:${open.members.get(names[k]!)!}`;
  return `${text}}`;
}

/** The canonical text of the value that starts at `at`. */
function canonicalFrom(text: string, at: number): string {
  const stack: Open[] = [];
  let i = at;
  for (;;) {
    i = skipBlanks(text, i);
    const c = text.charCodeAt(i);
    let done: string;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const after = skipBlanks(text, i + 1);
      if (text.charCodeAt(after) === (c === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) {
        done = c === OPEN_BRACE ? '{}' : '[]';
        i = after + 1;
      } else if (c === OPEN_BRACKET) {
        stack.push({ items: [] });
        i = after;
        continue;
      } else {
        const name = readString(text, after);
        i = memberValue(text, name.end);
        stack.push({ members: new Map(), name: name.value });
        continue;
      }
    } else if (c === QUOTE) {
      const string = readString(text, i);
      done = JSON.stringify(string.value);
      i = string.end;
    } else {
      const end = scalarEnd(text, i);
      done = canonicalScalar(text.slice(i, end));
      i = end;
    }
    // Hand the value to its container; close every container it completes.
    for (;;) {
      const top = stack.at(-1);
      if (top === undefined) return done;
      if (top.items) top.items.push(done);
      // A name given again counts at its last occurrence, as JSON.parse has it.
      else top.members.set(top.name, done);
      i = skipBlanks(text, i);
      const next = text.charCodeAt(i++);
      if (next === COMMA) {
        if (top.members) {
          const name = readString(text, skipBlanks(text, i));
          top.name = name.value;
          i = memberValue(text, name.end);
        }
        break;
      }
      if (next !== (top.items ? CLOSE_BRACKET : CLOSE_BRACE)) throw new NotJson();
      stack.pop();
      done = closed(top);
    }
  }
}

/** After a member's name: the start of its value. */
function memberValue(text: string, afterName: number): number {
  const colon = skipBlanks(text, afterName);
  if (text.charCodeAt(colon) !== COLON) throw new NotJson();
  return skipBlanks(text, colon + 1);
}

/**
 * Where the value at `path` (member names from the root) starts in the JSON text, or -1 when a
 * container on the way is no object or lacks the member (its last occurrence counts).
 */
function findMember(text: string, path: readonly string[], textAt: number): number {
  let at = skipBlanks(text, textAt);
  for (const wanted of path) {
    if (text.charCodeAt(at) !== OPEN_BRACE) return -1;
    let found = -1;
    let i = skipBlanks(text, at + 1);
    if (text.charCodeAt(i) === CLOSE_BRACE) return -1;
    for (;;) {
      const name = readString(text, i);
      const value = memberValue(text, name.end);
      if (name.value === wanted) found = value;
      i = skipBlanks(text, valueEnd(text, value));
      const next = text.charCodeAt(i);
      if (next === CLOSE_BRACE) break;
      if (next !== COMMA) throw new NotJson();
      i = skipBlanks(text, i + 1);
    }
    if (found < 0) return -1;
    at = found;
  }
  return at;
}

/** A number JSON.parse made, in canonical form: its double's shortest text names the decimal it came from when that is exact. */
export function canonicalDouble(n: number): string {
  // An integer of up to 15 digits is written as it is (-0 as 0), the commonest number of arguments.
  if (Number.isInteger(n) && n < 1e15 && n > -1e15) return `${n}`;
  const text = JSON.stringify(n);
  // Up to 15 digits (a sign and a point are no digits) and no exponent: the form canonicalNumber
  // gives, without its parse; 16 digits are canonicalNumber's to write (test/recovery-canonical.test.ts).
  const digits = text.length - (text.charCodeAt(0) === 0x2d ? 1 : 0) - (text.includes('.') ? 1 : 0);
  return digits <= exactDigits && !text.includes('e') ? text : canonicalNumber(text);
}

/** A value JSON.parse made, in canonical text: its numbers are what parsing left of them. */
export function canonicalOfValue(value: unknown): string {
  return canonicalText(value, canonicalDouble);
}

/** Deeper than this, sameArguments leaves the answer to the canonical forms. */
const maxCompareDepth = 200;

class TooDeep extends Error {}

/** Whether two values JSON.parse made are equal JSON values (numbers compared as parsed). */
function sameValue(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (depth === maxCompareDepth) throw new TooDeep();
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const names = Object.keys(a);
  if (names.length !== Object.keys(b).length) return false;
  for (const name of names) if (!Object.hasOwn(b, name) || !sameValue((a as Record<string, unknown>)[name], (b as Record<string, unknown>)[name], depth + 1)) return false;
  return true;
}

/**
 * Whether two calls' parsed arguments, exact (parsedIsExact), have the same canonical form, found
 * without writing it: doubles JSON.parse kept exact are equal exactly when their decimals are (`===`
 * holds `-0` equal to `0`), and objects by names and values in any order. Absent or `null` read as
 * `{}`. Undefined past a depth: the canonical forms decide.
 */
export function sameArguments(a: unknown, b: unknown): boolean | undefined {
  try {
    return sameValue(a ?? {}, b ?? {}, 0);
  } catch (error) {
    if (error instanceof TooDeep) return undefined;
    throw error;
  }
}

/**
 * The canonical text of the value at `path` in the JSON value that starts at `textAt` in `text`,
 * read from the text: absent or `null` as `{}`; undefined when the text does not hold JSON.
 */
export function canonicalOfText(text: string, path: readonly string[], textAt = 0): string | undefined {
  try {
    const at = findMember(text, path, textAt);
    const canonical = at < 0 ? 'null' : canonicalFrom(text, at);
    return canonical === 'null' ? '{}' : canonical;
  } catch (error) {
    if (!(error instanceof NotJson)) throw error;
    return undefined;
  }
}

/**
 * The canonical text of a call's arguments: from `parsed`, the value JSON.parse made of them, when
 * its numbers are exact (or no source is known); else from the line's source `text`, at `path`.
 * Absent or `null` arguments read as `{}` (spec section 9).
 */
export function canonicalArguments(parsed: unknown, text: string | undefined, path: readonly string[], textAt = 0): string {
  const fromText = text === undefined || parsedIsExact(text, textAt) ? undefined : canonicalOfText(text, path, textAt);
  if (fromText !== undefined) return fromText;
  return parsed === undefined || parsed === null ? '{}' : canonicalOfValue(parsed);
}

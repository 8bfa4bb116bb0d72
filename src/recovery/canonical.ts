// The canonical form of a call's arguments (spec section 9, "the same call"): two values have the
// same canonical text exactly when they are equal JSON values. Numbers compare by exact decimal
// value, which JSON.parse may lose (9007199254740993 reads as 9007199254740992), so a line whose
// numbers may not survive parsing is read from its source text, any other from its parsed value
// (the same form, for less work); objects by member names and values, order ignored, a duplicated
// name counting at its last occurrence; strings by code units after unescaping. Untrusted values
// may nest deep: past a fixed depth the walks keep their own stack, never recursion. A parsed value
// is written by the canonical JSON walk of src/fingerprint.ts, with this module's number writer.
import { canonicalText } from '../fingerprint.js';
import { CLOSE_BRACE, CLOSE_BRACKET, COMMA, COLON, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../framing/json-bytes.js';
import { canonicalNumber, exactDigits, memberName, skipBlank, stringEnd, valueAtPath, valueEnd } from '../framing/member-text.js';

/** The text did not hold the JSON it was said to: the caller falls back to the parsed value. */
class NotJson extends Error {}

/** The string that starts at `at`, unescaped, and where it ends. */
function readString(text: string, at: number): { value: string; end: number } {
  if (text.charCodeAt(at) !== QUOTE) throw new NotJson();
  const end = stringEnd(text, at);
  try {
    return { value: memberName(text, at, end), end };
  } catch {
    throw new NotJson();
  }
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
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = stringEnd(text, i);
    else if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
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
  const canonical = canonicalNumber(text);
  if (canonical === undefined) throw new NotJson();
  return canonical;
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
    i = skipBlank(text, i);
    const c = text.charCodeAt(i);
    let done: string;
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const after = skipBlank(text, i + 1);
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
      const end = valueEnd(text, i);
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
      i = skipBlank(text, i);
      const next = text.charCodeAt(i++);
      if (next === COMMA) {
        if (top.members) {
          const name = readString(text, skipBlank(text, i));
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
  const colon = skipBlank(text, afterName);
  if (text.charCodeAt(colon) !== COLON) throw new NotJson();
  return skipBlank(text, colon + 1);
}

/** A number JSON.parse made, in canonical form: its double's shortest text names the decimal it came from when that is exact. */
export function canonicalDouble(n: number): string {
  // An integer of up to 15 digits is written as it is (-0 as 0), the commonest number of arguments.
  if (Number.isInteger(n) && n < 1e15 && n > -1e15) return `${n}`;
  const text = JSON.stringify(n);
  // Up to 15 digits (a sign and a point are no digits) and no exponent: the form canonicalNumber
  // gives, without its parse; 16 digits are canonicalNumber's to write (test/recovery-canonical.test.ts).
  const digits = text.length - (text.charCodeAt(0) === 0x2d ? 1 : 0) - (text.includes('.') ? 1 : 0);
  return digits <= exactDigits && !text.includes('e') ? text : canonicalNumber(text)!;
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
    const at = valueAtPath(text, textAt, path);
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

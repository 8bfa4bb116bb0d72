// --extract (spec sections 7 and 8.7): the JSON object of a log line. Candidates start at `{"` or
// `{` + blanks + `"` (Python's and PowerShell's pretty writers put blanks there). The record is (1)
// the object at the first candidate from which the rest of the line is exactly one JSON object
// (trailing blanks allowed), so a prefix such as `ctx={"req":7}` does not hide it; else (2) the
// object at the first candidate that begins a complete object after which the line holds no further
// candidate, whatever else it holds (Claude Desktop ends its lines with ` { metadata: undefined }`, a
// log may add ` elapsed=12ms`); else (3) the line is a parse error, located at its first candidate.
// A line without a candidate is noise.
import { parseJson } from './nesting.js';
import { locateParseError, type ParseFailure } from './parse-error.js';

// Each attempt parses the rest of the line; a pathological line full of `{"` must not cost
// quadratic time, so after this many failed starts the line is reported as a parse error.
const maxAttempts = 64;

/**
 * Nor may a long one cost 64 parses of itself: `x {"a":{"a":{"a":...` fails each attempt only at
 * its end, and deep nesting makes V8 parse slowly. So the attempts parse at most this many
 * characters in all: four times the line, and
 * never less than 64 attempts on a 16 KiB line. An attempt counts up to where JSON.parse stopped,
 * so that the early failures of a prefix's fragments (`ctx={"req" user={"id"`) cost little.
 */
function parseBudget(length: number): number {
  return Math.max(4 * length, 64 * 16 * 1024);
}

/** How far JSON.parse read before it failed: V8 names the position, else (its end) the whole text. */
function parsedUpTo(error: unknown, length: number): number {
  const position = error instanceof SyntaxError ? / at position (\d+)/.exec(error.message) : null;
  return position ? Number(position[1]) : length;
}

const objectStart = /\{[ \t]*"/g;

/** Where the next object may start at or after `from`: a `{` before a `"`, blanks between; -1 for none. */
function nextStart(text: string, from: number): number {
  objectStart.lastIndex = from;
  return objectStart.exec(text)?.index ?? -1;
}

/**
 * `prefixed`: text stood before the object (wrapping `log`); a line that is JSON as it stands is a bare
 * record. `at`: where the object starts, so that the prefix can be read for the line's shape.
 */
export type Extracted = { kind: 'value'; value: unknown; prefixed: boolean; at: number } | { kind: 'noise' } | { kind: 'unparseable'; failure: ParseFailure };

/**
 * Where the complete JSON value at the start of a failed text ends, when JSON.parse failed only on
 * what follows it (V8 names that place); undefined otherwise. Rule (2) reads it: the object parsed
 * and only the text after it did not.
 */
function trailingAt(error: unknown): number | undefined {
  const position = error instanceof SyntaxError ? /non-whitespace character after JSON at position (\d+)/.exec(error.message) : null;
  return position ? Number(position[1]) : undefined;
}

function parseObject(text: string): { value: unknown } | { error: unknown } {
  try {
    const value: unknown = parseJson(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? { value } : { error: new SyntaxError('not an object') };
  } catch (error) {
    return { error };
  }
}

export function extractObject(text: string, quote = true): Extracted {
  // A line that is JSON as it stands needs no search (and may have a space after its brace).
  if (text.trimStart().startsWith('{')) {
    const whole = parseObject(text);
    if ('value' in whole) return { kind: 'value', value: whole.value, prefixed: false, at: text.length - text.trimStart().length };
  }
  const first = nextStart(text, 0);
  if (first === -1) return { kind: 'noise' };
  let attempts = 0;
  let budget = parseBudget(text.length);
  for (let at = first; at !== -1 && attempts < maxAttempts && budget > 0; at = nextStart(text, at + 1), attempts++) {
    const found = parseObject(text.slice(at));
    if ('value' in found) return { kind: 'value', value: found.value, prefixed: text.slice(0, at).trim() !== '', at };
    budget -= parsedUpTo(found.error, text.length - at);
    // Rule (2): a complete object with no candidate after it. A later candidate lies inside that
    // object, where the rest of the line, which ends past the object's own closing brace, is one
    // object only if it began inside one of the object's strings: this candidate is the record.
    const end = trailingAt(found.error);
    if (end === undefined || nextStart(text, at + end) !== -1) continue;
    const object = parseObject(text.slice(at, at + end));
    if ('value' in object) return { kind: 'value', value: object.value, prefixed: text.slice(0, at).trim() !== '', at };
    budget -= end;
  }
  const rest = text.slice(first);
  let failure: ParseFailure;
  try {
    parseJson(rest);
    failure = { offset: 0, message: 'the JSON value after the prefix is not an object', atEnd: false };
  } catch (error) {
    failure = locateParseError(rest, error, quote);
  }
  return { kind: 'unparseable', failure: { ...failure, offset: failure.offset + first } };
}

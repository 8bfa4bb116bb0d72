// Rule duplicate-member (spec section 5): a member name written twice in the envelope object, its
// `error` object or a warning object. JSON.parse keeps the last one and says nothing, while other
// parsers keep the first or refuse the text, so such a record means different things to different
// readers. Found on the envelope's JSON text, which JSON.parse has accepted: an exact pre-check
// first (nearly every record passes it), and a scan of those three objects' names only when it
// cannot rule a duplicate out. Not inside `result`, `lastObservation` or `partialResult`, nor in
// the wrappings around the envelope.
import { LineIndex } from '../framing/line-index.js';
import { forEachMember, memberName, skipBlank, valueAtPath, valueEnd } from '../framing/member-text.js';
import type { RecordFinding, TextPlace, ValuePlace } from '../types.js';
import { maxFindingsPerRule, type CheckContext } from './check-envelope.js';
import { CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from '../framing/json-bytes.js';
import { isObject, quote, type JsonObject } from './envelope.js';

export interface DuplicateMember {
  /** The object that holds it: `''` (the envelope), `/error`, `/warnings/<i>`. */
  pointer: string;
  name: string;
  /** How many times the object holds it. */
  count: number;
  /** The offset in the text of its second occurrence's quoted name. */
  offset: number;
}

/** The objects a pre-check looks at hold at most this many distinct names; past it, the scan decides. */
const maxNamesMatched = 64;

/** What the pre-check matches for one list of names: each name before a colon. */
interface NamePattern {
  regex: RegExp;
  /** Every character of the names: an escape of one of them may spell a name. */
  chars: string;
}

/** Patterns by their names joined with NUL: records of one producer share a few shapes. */
const patterns = new Map<string, NamePattern>();
const maxPatterns = 256;

/** The names of the last pattern asked for: records of one shape in a row ask for the same one. */
const lastNames: string[] = [];
let lastPattern: NamePattern | null = null;

function sameAsLast(names: readonly string[]): boolean {
  if (names.length !== lastNames.length) return false;
  for (let n = 0; n < names.length; n++) if (names[n] !== lastNames[n]) return false;
  return true;
}

/** The pattern for `names`; null when one of them may be written otherwise than plainly (plainName). */
function patternFor(names: readonly string[]): NamePattern | null {
  if (lastNames.length > 0 && sameAsLast(names)) return lastPattern;
  lastNames.length = 0;
  lastNames.push(...names);
  return (lastPattern = names.every((name) => plainName.test(name)) ? patternNamed(names) : null);
}

function patternNamed(names: readonly string[]): NamePattern {
  const key = names.join('\u0000');
  let pattern = patterns.get(key);
  if (pattern === undefined) {
    if (patterns.size >= maxPatterns) patterns.clear();
    const alternatives = names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    pattern = { regex: new RegExp(`"(?:${alternatives})"[ \\t\\n\\r]*:`, 'g'), chars: names.join('') };
    patterns.set(key, pattern);
  }
  return pattern;
}

/**
 * A name only ever written `"name"` unless with a `\u` escape: no quote, backslash or slash (`\/`),
 * no control character (`\n`), no surrogate (which a text may hold unpaired).
 */
const plainName = /^[^"\\/\u0000-\u001f\ud800-\udfff]*$/;

/**
 * The names of the objects the pre-check looks at, each once, and how many of them hold it: kept
 * between records (a pre-check runs on every record and makes nothing it can avoid).
 */
const names: string[] = [];
const holders: number[] = [];
const counts: number[] = [];

/** Adds the names of `object`; false once there are more than the pre-check matches (then the scan decides). */
function addNames(object: JsonObject): boolean {
  for (const key in object) {
    if (names.length > maxNamesMatched) return false;
    const index = names.indexOf(key);
    if (index === -1) names.push(key), holders.push(1);
    else holders[index]!++;
  }
  return names.length <= maxNamesMatched;
}

function hexValue(text: string, from: number): number {
  return Number.parseInt(text.slice(from, from + 4), 16);
}

/**
 * False only when `text` cannot hold a duplicate member where the rule looks, given the envelope
 * JSON.parse made of it. Exact: every occurrence of a name the objects hold is written `"name"`
 * before its colon, or spelled with a `\u` escape of one of its characters (plainName). Each object
 * that holds a name writes it at least once, so a name matched more often than it is held, or such
 * an escape, may be a duplicate; a text with neither holds none.
 */
export function mayHoldDuplicates(text: string, envelope: JsonObject): boolean {
  names.length = 0;
  holders.length = 0;
  if (!addNames(envelope)) return true;
  const error = envelope['error'];
  if (isObject(error) && !addNames(error)) return true;
  const warnings = envelope['warnings'];
  if (Array.isArray(warnings)) for (let i = 0; i < warnings.length; i++) if (isObject(warnings[i]) && !addNames(warnings[i] as JsonObject)) return true;
  if (names.length === 0) return false;
  const pattern = patternFor(names);
  if (pattern === null) return true;
  const { regex, chars } = pattern;
  // Escapes are rare, and found natively, apart from the names (one pattern for both costs more).
  for (let at = text.indexOf('\\u'); at !== -1; at = text.indexOf('\\u', at + 2)) if (chars.includes(String.fromCharCode(hexValue(text, at + 2)))) return true;
  counts.length = 0;
  for (let n = 0; n < names.length; n++) counts.push(0);
  regex.lastIndex = 0;
  while (regex.test(text)) {
    const end = regex.lastIndex;
    let close = end - 2;
    while (text.charCodeAt(close) !== QUOTE) close--;
    const open = text.lastIndexOf('"', close - 1);
    const length = close - open - 1;
    for (let n = 0; n < names.length; n++) {
      const name = names[n]!;
      if (name.length === length && text.startsWith(name, open + 1)) {
        if (++counts[n]! > holders[n]!) return true;
        break;
      }
    }
  }
  return false;
}

/** The names the object at `open` holds more than once, into `found`; `each` sees every member, in order. */
function duplicatesIn(text: string, open: number, pointer: string, found: DuplicateMember[], each?: (name: string, valueAt: number) => void): void {
  const seen = new Map<string, DuplicateMember | null>();
  forEachMember(text, open, (from, to, valueAt) => {
    const name = memberName(text, from, to);
    each?.(name, valueAt);
    const before = seen.get(name);
    if (before === undefined) seen.set(name, null);
    else if (before === null) {
      const duplicate: DuplicateMember = { pointer, name, count: 2, offset: from };
      found.push(duplicate);
      seen.set(name, duplicate);
    } else before.count++;
    return -1;
  });
}

/**
 * The duplicate members of the envelope whose text starts at `at` (blanks allowed): in the
 * envelope, in its `error` object and in each warning object, those JSON.parse kept (the last
 * `error`, the last `warnings`). None when the value there is no object.
 */
export function duplicateMembers(text: string, at: number): DuplicateMember[] {
  const found: DuplicateMember[] = [];
  const open = skipBlank(text, at);
  if (text.charCodeAt(open) !== OPEN_BRACE) return found;
  let errorAt = -1;
  let warningsAt = -1;
  duplicatesIn(text, open, '', found, (name, valueAt) => {
    if (name === 'error') errorAt = valueAt;
    else if (name === 'warnings') warningsAt = valueAt;
  });
  if (errorAt !== -1 && text.charCodeAt(errorAt) === OPEN_BRACE) duplicatesIn(text, errorAt, '/error', found);
  if (warningsAt !== -1 && text.charCodeAt(warningsAt) === OPEN_BRACKET) {
    let i = skipBlank(text, warningsAt + 1);
    for (let index = 0; text.charCodeAt(i) !== CLOSE_BRACKET; index++) {
      if (text.charCodeAt(i) === OPEN_BRACE) duplicatesIn(text, i, `/warnings/${index}`, found);
      i = skipBlank(text, valueEnd(text, i));
      if (text.charCodeAt(i) !== COMMA) break;
      i = skipBlank(text, i + 1);
    }
  }
  return found;
}

function holderOf(pointer: string): string {
  if (pointer === '') return 'the envelope';
  if (pointer === '/error') return 'its error object';
  return `warnings[${pointer.slice('/warnings/'.length)}]`;
}

/** The finding's message: which object, which name, how often, and which occurrence is checked. */
export function duplicateMessage({ pointer, name, count }: DuplicateMember): string {
  const times = count === 2 ? 'twice' : `${count} times`;
  return `${holderOf(pointer)} holds member ${quote(name)} ${times}: the last one is the one checked, and parsers disagree on which one counts`;
}

/** Members followed, at most, from the framed value to the envelope: a transcript line's payload.result.structuredContent. */
const maxDepth = 3;

/**
 * The members followed from the framed value to the envelope (found by identity, breadth first, as
 * findings/value-place.ts finds its pointer); undefined when it is in no member: an envelope parsed
 * from a text block.
 */
function pathTo(value: unknown, envelope: unknown): string[] | undefined {
  if (value === envelope) return [];
  let level: { node: JsonObject; path: string[] }[] = isObject(value) ? [{ node: value, path: [] }] : [];
  for (let depth = 1; depth <= maxDepth && level.length > 0; depth++) {
    const deeper: typeof level = [];
    for (const { node, path } of level) {
      for (const key of Object.keys(node)) {
        const member = node[key];
        if (!isObject(member)) continue;
        if (member === envelope) return [...path, key];
        deeper.push({ node: member, path: [...path, key] });
      }
    }
    level = deeper;
  }
  return undefined;
}

/** A framed value as this check reads it (the `value` entry of `Framed`). */
export interface FramedText {
  line: number;
  value: unknown;
  text?: string;
  textAt?: number;
  textPlace?: TextPlace;
}

export interface DuplicateFindings {
  findings: RecordFinding[];
  /** Each finding's place in the input, where its text is one (undefined: the record's line). */
  places: (ValuePlace | undefined)[];
}

/**
 * The duplicate-member findings of one record, per input. `envelopeText`: the text block the
 * envelope was parsed from, when it was (its offsets are no place in the input, spec section 8.11).
 */
export class DuplicateMemberCheck {
  /** The last document's line starts: its records' findings are placed in it one after another. */
  private lines: { document: string; index: LineIndex } | undefined;

  constructor(private readonly context: CheckContext) {}

  findings(framed: FramedText, envelope: unknown, envelopeText: string | undefined): DuplicateFindings | undefined {
    const severity = this.context.severities['duplicate-member'];
    if (severity === 'off' || !isObject(envelope)) return undefined;
    let text = envelopeText;
    let at = 0;
    if (text === undefined) {
      if (framed.text === undefined) return undefined;
      text = framed.text;
      const path = pathTo(framed.value, envelope);
      if (path === undefined) return undefined;
      at = path.length === 0 ? (framed.textAt ?? 0) : valueAtPath(text, framed.textAt ?? 0, path);
      if (at === -1) return undefined;
    }
    if (!mayHoldDuplicates(text, envelope)) return undefined;
    const duplicates = duplicateMembers(text, at);
    if (duplicates.length === 0) return undefined;
    const findings: RecordFinding[] = [];
    const places: (ValuePlace | undefined)[] = [];
    const listed = Math.min(duplicates.length, maxFindingsPerRule);
    for (let k = 0; k < listed; k++) {
      const duplicate = duplicates[k]!;
      findings.push({ rule: 'duplicate-member', severity, message: duplicateMessage(duplicate), pointer: duplicate.pointer });
      places.push(envelopeText === undefined ? this.place(framed, duplicate.offset) : undefined);
    }
    // As check-envelope.ts does for every rule: a line can hold a million names twice.
    if (duplicates.length > listed) {
      findings.push({ rule: 'duplicate-member', severity, message: `and ${duplicates.length - listed} more duplicate-member findings in this record, not listed (a record lists at most ${maxFindingsPerRule} findings of one rule)` });
      places.push(undefined);
    }
    return { findings, places };
  }

  /** The place of offset `offset` of the framed value's text, when findings are placed there. */
  private place(framed: FramedText, offset: number): ValuePlace | undefined {
    const where = framed.textPlace;
    if (where === undefined) return { line: framed.line, column: offset + 1 };
    if (where === false) return undefined;
    if (this.lines?.document !== where.document) this.lines = { document: where.document, index: new LineIndex(where.document) };
    return this.lines.index.position(where.at + offset);
  }
}

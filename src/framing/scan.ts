// A line's verdict and the parts of its value a check reads, from its bytes, without building the
// rest (the approach of simdjson's On-Demand API). The verdict is JSON.parse's on the text
// the framer decodes (ndjson.ts): bytes that are no UTF-8, grammar faults and nesting past
// nesting.ts's limits are rejections. What the plan (scan-plan.ts) asks to build is what JSON.parse
// would give wherever a rule looks: a value built whole is JSON.parse's own of its text, and an
// object built member by member takes members as JSON.parse does (last one wins, `__proto__` an own
// member, first position kept).
import { maxElements, maxNesting, checkNesting } from './nesting.js';
import { escaped, fault, isJsonText, lineFlags, nonAscii, resetLineFlags, scanLiteral, scanNumber, scanString, skipSpace, skipValue, stringFlags } from './scan-grammar.js';
import { typeOnly, type Compiled, type CompiledNode, type NamedMember, type ScanPlan } from './scan-plan.js';
import { objectMaker } from './scan-shape.js';
import { mayHoldImageBytes } from './scan-image.js';
import { describeLine, type ScanOptions, type ScanReject } from './scan-reject.js';
import { isUtf8 } from './utf8.js';
import { childPointer } from '../json-pointer.js';

export type { ScanOptions, ScanReject } from './scan-reject.js';
export { compilePlan, isTypeOnly, typeOnly, wholePlan, type PlanNode, type PlanSpec, type ScanPlan } from './scan-plan.js';

/** A member name an object holds more than once: the repeated occurrence. */
export interface DuplicateMember {
  /** JSON Pointer of the object that holds the member ('' for the line's value). */
  pointer: string;
  name: string;
  /** Byte offset of the repeated name's opening quote, from the line's start. */
  offset: number;
}

/** A number the plan keeps the source text of. */
export interface NumberText {
  pointer: string;
  text: string;
}

/** A line that is JSON, with what the plan asked for. */
export interface ScanAccept {
  ok: true;
  /** The value as the plan builds it. */
  value: unknown;
  /** In order of appearance; a shared empty array when none. */
  duplicates: readonly DuplicateMember[];
  /**
   * Of an object whose plan node asks for them (the top level): where each member's value starts,
   * as a byte offset from the line's start; of a repeated name, its last occurrence (the one the
   * value holds). Undefined when the plan asks for none, or the line is no such object.
   */
  valueOffsets: ReadonlyMap<string, number> | undefined;
  /** In order of appearance; a shared empty array when none. */
  numberTexts: readonly NumberText[];
}

export type ScanResult = ScanAccept | ScanReject;

const none: readonly never[] = Object.freeze([]);

/** Buffer's own decoders, which take offsets and make no view object (Node's, undocumented but stable). */
interface Slicing extends Buffer {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** Thrown (never an Error: no stack is captured) where the grammar fails, caught by scan. */
const rejected = Object.freeze({ rejected: true });

// The line being scanned. scan is not re-entrant (nothing it calls calls back), so its state lives
// here rather than in an object made per line.
let b: Slicing;
let lineStart = 0;
let lineEnd = 0;
let pos = 0;
let duplicates: DuplicateMember[] | undefined;
let numberTexts: NumberText[] | undefined;
let valueOffsets: Map<string, number> | undefined;
/** The line's text when the caller decoded it already (an ASCII line: a character a byte), else undefined. */
let lineText: string | undefined;
/** lineText's index of the byte at offset 0 of `b`: a byte's character is at its offset plus this. */
let textShift = 0;

function asSlicing(bytes: Uint8Array): Slicing {
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)) as Slicing;
}

/**
 * Decides bytes [start, end) of `bytes` (one line, its line break and a CR before it excluded) as
 * today's path does (decode, then JSON.parse), and builds of its value what `plan` asks.
 */
export function scan(bytes: Uint8Array, start: number, end: number, plan: ScanPlan, options?: ScanOptions, text?: string, textStart = 0): ScanResult {
  b = asSlicing(bytes);
  lineText = text;
  textShift = textStart - start;
  lineStart = start;
  lineEnd = end;
  duplicates = undefined;
  numberTexts = undefined;
  valueOffsets = undefined;
  membersTop = 0;
  resetLineFlags();
  let value: unknown;
  try {
    value = build(plan.root, skipSpace(b, start, end), 0, '');
    if (skipSpace(b, pos, end) !== end) throw rejected;
  } catch (error) {
    // A SyntaxError is JSON.parse's, of a value the grammar passed: today's path has the last word.
    if (error !== rejected && !(error instanceof SyntaxError)) throw error;
    return rejection(options);
  }
  // A byte past ASCII outside a string failed the grammar; inside one it is checked here, once, natively.
  if ((lineFlags & nonAscii) !== 0 && !isUtf8(b.subarray(start, end))) return rejection(options);
  // Only a text this long can hold a container of more than maxElements members (nesting.ts).
  if (end - start > 2 * maxElements && tooManyMembers()) return rejection(options);
  const accepted: ScanAccept = { ok: true, value, duplicates: duplicates ?? none, valueOffsets, numberTexts: numberTexts ?? none };
  b = undefined as unknown as Slicing;
  lineText = undefined;
  return accepted;
}

/**
 * Whether bytes [start, end) are a JSON text as today's path decides (UTF-8, grammar, nesting),
 * building nothing: the verdict the tests and the fuzz script hold against JSON.parse, before any
 * confirmation by it.
 */
export function isJsonLine(bytes: Uint8Array, start: number, end: number): boolean {
  resetLineFlags();
  if (!isJsonText(bytes, start, end)) return false;
  if ((lineFlags & nonAscii) !== 0 && !isUtf8(bytes.subarray(start, end))) return false;
  if (end - start > 2 * maxElements) {
    b = asSlicing(bytes);
    lineStart = start;
    lineEnd = end;
    const many = tooManyMembers();
    b = undefined as unknown as Slicing;
    return !many;
  }
  return true;
}

/** The byte offset where the last failed isJsonLine found the text stop being JSON (grammar only). */
export function lastFault(): number {
  return fault;
}

function tooManyMembers(): boolean {
  const text = b.utf8Slice(lineStart, lineEnd);
  try {
    if (text.length > maxNesting) checkNesting(text);
    return false;
  } catch {
    return true;
  }
}

/**
 * Today's words for a line the grammar refused. Should JSON.parse take the text after all, its
 * value is what the line holds (whole, with nothing located): a disagreement the tests hold never
 * to happen costs speed, never a verdict.
 */
function rejection(options: ScanOptions | undefined): ScanResult {
  memberValues.fill(undefined);
  const described = describeLine(b, lineStart, lineEnd, options);
  b = undefined as unknown as Slicing;
  lineText = undefined;
  if (!described.ok) return described;
  return { ok: true, value: described.value, duplicates: none, valueOffsets: undefined, numberTexts: none };
}

/** Builds the value at `i` (not white space) inside `depth` containers as `plan` says; `pos` ends up past it. */
function build(plan: Compiled, i: number, depth: number, pointer: string): unknown {
  if (plan === 'whole') return whole(i, depth);
  if (plan === 'type') return standIn(i, depth);
  if (plan === 'image') return imageOrStandIn(i, depth);
  if (i >= lineEnd) throw rejected;
  const c = b[i];
  if (c === 0x7b) return buildObject(plan, i, depth, pointer);
  if (c === 0x5b) return buildArray(plan, i, depth, pointer);
  if (plan.numberText && (c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39))) {
    const value = whole(i, depth);
    (numberTexts ??= []).push({ pointer, text: latin1(i, pos) });
    return value;
  }
  return whole(i, depth);
}

/** Past the value at `i`, validated; throws `rejected` where it is no JSON. */
function pass(i: number, depth: number): number {
  if (i >= lineEnd) throw rejected;
  // A scalar is read by its own scanner, without skipValue's container loop around it.
  const c = b[i]!;
  const after = c === 0x22 ? scanString(b, i, lineEnd) : c === 0x74 || c === 0x66 || c === 0x6e ? scanLiteral(b, i, lineEnd) : c === 0x2d || (c >= 0x30 && c <= 0x39) ? scanNumber(b, i, lineEnd) : skipValue(b, i, lineEnd, depth);
  if (after < 0) throw rejected;
  pos = after;
  return after;
}

/** The value at `i` exactly as JSON.parse gives it. */
function whole(i: number, depth: number): unknown {
  const after = pass(i, depth);
  switch (b[i]) {
    case 0x22:
      return stringAt(i, after);
    case 0x74:
      return true;
    case 0x66:
      return false;
    case 0x6e:
      return null;
    case 0x7b:
    case 0x5b:
      return JSON.parse(transient(i, after));
    default:
      // JSON's number grammar is a subset of Number's, and both round the same way (-0 stays -0).
      return Number(transient(i, after));
  }
}

/**
 * The stand-in of the object or array at `i` (scan-plan.ts's typeOnly); any other value is built
 * whole, since a schema error's words may quote it (a string holding JSON, a wrong enum value).
 */
function standIn(i: number, depth: number): unknown {
  const c = b[i];
  if (c !== 0x7b && c !== 0x5b) return whole(i, depth);
  pass(i, depth);
  return c === 0x7b ? typeOnly.object : typeOnly.array;
}

/**
 * A slice of a text up to this long is kept as it is, though it keeps the whole text alive: a value
 * may be kept for the run (a tally's key, a finding's message), and then holds at most this much.
 */
const sharedTextChars = 1024;

/**
 * Bytes [from, to) as Latin-1 text, a string of its own: from the line's text when the caller gave
 * it (work within the engine, not a call out to Buffer's decoder per string), else decoded. A slice
 * of 13 characters or more is a view that keeps the caller's whole text alive (a window of lines, a
 * text block): of a text longer than sharedTextChars, such a slice is copied (a slice of a
 * concatenation is one of its flattened copy).
 */
function latin1(from: number, to: number): string {
  if (lineText === undefined) return b.latin1Slice(from, to);
  const text = lineText.slice(from + textShift, to + textShift);
  return to - from < 13 || lineText.length <= sharedTextChars ? text : (text + ' ').slice(0, -1);
}

/** Bytes [from, to) as UTF-8 text for JSON.parse or Number, which keep no part of it. */
function transient(from: number, to: number): string {
  return lineText !== undefined ? lineText.slice(from + textShift, to + textShift) : b.utf8Slice(from, to);
}

/** The object or array at `i` built whole when it may hold image bytes (scan-image.ts), else its stand-in. */
function imageOrStandIn(i: number, depth: number): unknown {
  const c = b[i];
  if (c !== 0x7b && c !== 0x5b) return whole(i, depth);
  const after = pass(i, depth);
  if (mayHoldImageBytes(b, i, after)) return JSON.parse(transient(i, after));
  return c === 0x7b ? typeOnly.object : typeOnly.array;
}

/**
 * The string whose quotes are at `from` and `to - 1`, as scanned last (stringFlags): a plain one is
 * its bytes; an escaped one is JSON.parse's reading of it, which V8 makes natively in one pass
 * (joining the runs between escapes here costs a string per run and more).
 */
function stringAt(from: number, to: number): string {
  if ((stringFlags & escaped) !== 0) return JSON.parse(transient(from, to)) as string;
  return (stringFlags & nonAscii) !== 0 ? b.utf8Slice(from + 1, to - 1) : latin1(from + 1, to - 1);
}

/**
 * The plan's member whose name is written, with no escape, in the string whose quote is at `i`: its
 * bytes (plain printable ASCII, scan-plan.ts) and a closing quote after them are the whole string.
 */
function namedAt(named: readonly NamedMember[], i: number): NamedMember | undefined {
  const from = i + 1;
  for (let k = 0; k < named.length; k++) {
    const candidate = named[k]!;
    const bytes = candidate.bytes;
    const length = bytes.length;
    if (from + length >= lineEnd || b[from + length] !== 0x22) continue;
    let same = true;
    for (let j = 0; j < length; j++) {
      if (b[from + j] !== bytes[j]) {
        same = false;
        break;
      }
    }
    if (same) return candidate;
  }
  return undefined;
}

function open(i: number, depth: number): number {
  if (depth + 1 > maxNesting) throw rejected;
  return skipSpace(b, i + 1, lineEnd);
}

// The members of the objects being built, innermost last: an object is made once its `}` is read.
const memberNames: string[] = [];
const memberValues: unknown[] = [];
const memberOrder: number[] = [];
let membersTop = 0;

/**
 * An object whose members are the plan's named ones, each once, is made by its shape's maker
 * (scan-shape.ts); met a name of no shape (another, a repeated one, `__proto__`), the object is
 * made of the members read so far and filled on member by member.
 */
function buildObject(plan: CompiledNode, i: number, depth: number, pointer: string): Record<string, unknown> {
  i = open(i, depth);
  const offsets = plan.valueOffsets ? (valueOffsets = new Map()) : undefined;
  if (i < lineEnd && b[i] === 0x7d) {
    pos = i + 1;
    return {};
  }
  const base = membersTop;
  let object: Record<string, unknown> | undefined;
  let seen = 0;
  let key = 0;
  for (;;) {
    const nameStart = i;
    if (i >= lineEnd || b[i] !== 0x22) throw rejected;
    const known = namedAt(plan.named, i);
    let nameEnd: number;
    if (known) nameEnd = i + known.bytes.length + 2;
    else if ((nameEnd = scanString(b, i, lineEnd)) < 0) throw rejected;
    const name = known ? known.name : stringAt(nameStart, nameEnd);
    i = skipSpace(b, nameEnd, lineEnd);
    if (i >= lineEnd || b[i] !== 0x3a) throw rejected;
    i = skipSpace(b, i + 1, lineEnd);
    if (i >= lineEnd) throw rejected;
    const member = known ? known.plan : (plan.members.get(name) ?? plan.rest);
    offsets?.set(name, i - lineStart);
    // Decided before the value is built: a repeat is reported before any inside its value.
    const shaped = object === undefined && known !== undefined && (seen & (1 << known.index)) === 0 && membersTop - base < 13;
    if (!shaped) {
      object ??= unshaped(base);
      if (plan.duplicates && Object.hasOwn(object, name)) (duplicates ??= []).push({ pointer, name, offset: nameStart - lineStart });
    }
    const value = build(member, i, depth + 1, typeof member !== 'object' ? '' : known ? `${pointer}/${known.token}` : childPointer(pointer, name));
    if (shaped) {
      seen |= 1 << known!.index;
      key = key * 16 + known!.index + 1;
      memberNames[membersTop] = name;
      memberValues[membersTop] = value;
      memberOrder[membersTop] = known!.index;
      membersTop++;
    } else if (name === '__proto__') {
      // An assignment to `__proto__` would set the prototype; JSON.parse makes an own member of it.
      Object.defineProperty(object, name, { value, writable: true, enumerable: true, configurable: true });
    } else object![name] = value;
    i = skipSpace(b, pos, lineEnd);
    if (i >= lineEnd) throw rejected;
    const c = b[i];
    if (c === 0x7d) {
      pos = i + 1;
      if (object === undefined) {
        const maker = plan.shapes.get(key) ?? objectMaker(plan.shapes, plan.named, key, memberOrder.slice(base, membersTop));
        object = maker ? maker(memberValues, base) : unshaped(base);
      }
      for (let k = base; k < membersTop; k++) memberValues[k] = undefined;
      membersTop = base;
      return object;
    }
    if (c !== 0x2c) throw rejected;
    i = skipSpace(b, i + 1, lineEnd);
  }
}

/** The object of the members held from `base` on, made member by member; they are held no more. */
function unshaped(base: number): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let k = base; k < membersTop; k++) {
    object[memberNames[k]!] = memberValues[k];
    memberValues[k] = undefined;
  }
  membersTop = base;
  return object;
}

function buildArray(plan: CompiledNode, i: number, depth: number, pointer: string): unknown[] {
  const array: unknown[] = [];
  i = open(i, depth);
  if (b[i] === 0x5d && i < lineEnd) {
    pos = i + 1;
    return array;
  }
  const items = plan.items;
  const pointed = typeof items === 'object';
  for (let index = 0; ; index++) {
    if (i >= lineEnd) throw rejected;
    array.push(build(items, i, depth + 1, pointed ? `${pointer}/${index}` : ''));
    i = skipSpace(b, pos, lineEnd);
    if (i >= lineEnd) throw rejected;
    const c = b[i];
    if (c === 0x5d) {
      pos = i + 1;
      return array;
    }
    if (c !== 0x2c) throw rejected;
    i = skipSpace(b, i + 1, lineEnd);
  }
}

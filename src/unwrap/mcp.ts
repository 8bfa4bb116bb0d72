// Wrapping 2 of spec section 3: an MCP CallToolResult. The envelope is the last `text` content block
// that parses as an object with `ok`; failing that, `structuredContent` when it has `ok`. When both
// exist they must be equal (member order ignored), and `isError` (missing = false) must equal !ok.
import { childPointer, has, holdsJsonObject, isObject, quote, type JsonObject } from '../checks/envelope.js';
import type { RuleReport } from '../checks/rules/rule.js';
import { redactPointer, withheld } from '../redact.js';
import { LineIndex } from '../framing/line-index.js';
import { NestingError, parseJson } from '../framing/nesting.js';
import { locateParseError } from '../framing/parse-error.js';
import type { ScanPlan } from '../framing/scan.js';
import { scanText } from '../framing/scan-text.js';
import type { RuleId } from '../types.js';

export interface McpFinding extends RuleReport {
  rule: RuleId;
}

/**
 * `text`: the text block the envelope was parsed from; absent for structuredContent's.
 * `noDuplicates`: the scanner read that text and saw no member name twice where duplicate-member looks.
 */
export type McpUnwrapped = { found: true; envelope: JsonObject; text: string | undefined; noDuplicates: boolean; findings: McpFinding[] } | { found: false; findings: McpFinding[] };

export function isCallToolResult(value: unknown): value is JsonObject {
  return isObject(value) && !has(value, 'ok') && (Array.isArray(value['content']) || has(value, 'structuredContent'));
}

interface TextSearch {
  envelope?: JsonObject;
  /** The block's text the envelope was parsed from. */
  text?: string;
  noDuplicates?: boolean;
  /** What the content held instead, for not-an-envelope's message. */
  instead: string;
}

/**
 * Why a text block is not JSON and where in its text (spec section 8.12): the block's own place, as
 * a line's parse error names its column. Its text quoted only without --redact (a tool's output).
 */
function notJson(text: string, error: unknown, redact: boolean): string {
  const failure = locateParseError(text, error, !redact);
  const { line, column } = new LineIndex(text).position(failure.offset);
  return `its text block is not JSON (${failure.message}, at ${line === 1 ? '' : `line ${line}, `}column ${column} of its text)`;
}

/** `plan`: what the scanner builds of a block's text (scan-text.ts); undefined: JSON.parse builds it whole. */
function envelopeFromText(content: unknown, redact: boolean, plan: ScanPlan | undefined): TextSearch {
  if (!Array.isArray(content)) return { instead: 'it has no content array' };
  let instead: string | undefined;
  // Backwards: the last text block that holds an envelope wins (spec section 7).
  for (let i = content.length - 1; i >= 0; i--) {
    const block: unknown = content[i];
    if (!isObject(block) || block['type'] !== 'text') continue;
    const text = block['text'];
    if (typeof text !== 'string') {
      // Not "is not JSON", which would say the text was read: there is none to read.
      instead ??= `its text block has no text string (text is ${has(block, 'text') ? withArticle(kindOf(text)) : 'missing'})`;
      continue;
    }
    let parsed: unknown;
    const scanned = plan === undefined ? undefined : scanText(text, plan);
    if (scanned !== undefined) parsed = scanned.value;
    else try {
      parsed = parseJson(text);
    } catch (error) {
      // Refused before it was read (nesting.ts): it may be JSON, only too deep or too large to read.
      if (error instanceof NestingError) instead = `its text block is ${error.message}`;
      else instead ??= notJson(text, error, redact);
      continue;
    }
    if (isObject(parsed) && has(parsed, 'ok')) return { envelope: parsed, text, noDuplicates: scanned?.noDuplicates ?? false, instead: '' };
    if (isObject(parsed)) instead = 'its text block is JSON without ok';
    else if (holdsJsonObject(parsed)) instead = 'its text block is a JSON string holding an object: the envelope encoded twice?';
    else instead = `its text block is JSON but not an object (${kindOf(parsed)})`;
  }
  if (instead !== undefined) return { instead };
  return { instead: content.length === 0 ? 'its content is empty' : `its content has no text block (${content.length} block${content.length === 1 ? '' : 's'}: ${describeBlocks(content)})` };
}

function describeBlocks(content: unknown[]): string {
  const types = content.map((block) => (isObject(block) && typeof block['type'] === 'string' ? block['type'] : kindOf(block)));
  return [...new Set(types)].join(', ');
}

/** A JSON value's kind as a message names it: typeof called null and arrays "object". */
function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

function withArticle(kind: string): string {
  return kind === 'null' ? kind : /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}

/** Two containers being compared, member by member: `keys` for objects, undefined for arrays. */
interface OpenPair {
  x: unknown;
  y: unknown;
  keys: string[] | undefined;
  next: number;
  pointer: string;
}

/** The pointer of the first place where `a` and `b` differ, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown): string | undefined {
  // An explicit stack: envelopes come from untrusted producers and may nest deeply. An entry per open
  // pair of containers, not per member (a huge array would hold one per item, each with its pointer
  // written); a member's pointer is written only for a container or a difference.
  const stack: OpenPair[] = [];
  let x = a;
  let y = b;
  let pointer = '';
  for (;;) {
    if (x !== y) {
      if (Array.isArray(x) && Array.isArray(y)) {
        if (x.length !== y.length) return pointer;
        stack.push({ x, y, keys: undefined, next: 0, pointer });
      } else if (isObject(x) && isObject(y)) {
        const keys = Object.keys(x);
        const others = Object.keys(y);
        // The member only one side has, not the object that holds it: returning the parent as soon as
        // the counts differ would point at the root for one extra member anywhere in the envelope.
        const odd = keys.find((key) => !has(y as JsonObject, key)) ?? (keys.length === others.length ? undefined : others.find((key) => !has(x as JsonObject, key)));
        if (odd !== undefined) return childPointer(pointer, odd);
        stack.push({ x, y, keys, next: 0, pointer });
      } else {
        return pointer;
      }
    }
    // The next pair of members that are not the same value, in the innermost open pair with one left.
    let found = false;
    while (!found && stack.length > 0) {
      const top = stack.at(-1)!;
      const count = top.keys === undefined ? (top.x as unknown[]).length : top.keys.length;
      while (top.next < count) {
        const index = top.next++;
        const member = top.keys === undefined ? index : top.keys[index]!;
        const p = top.keys === undefined ? (top.x as unknown[])[index] : (top.x as JsonObject)[member];
        const q = top.keys === undefined ? (top.y as unknown[])[index] : (top.y as JsonObject)[member];
        if (p === q) continue;
        x = p;
        y = q;
        pointer = childPointer(top.pointer, member);
        found = true;
        break;
      }
      if (!found) stack.pop();
    }
    if (!found) return undefined;
  }
}

/**
 * What a structuredContent that is no envelope is, for a message. It stands where the envelope
 * would be, so under --redact no value of it is shown: a string there quoted a token verbatim.
 */
function describeStructured(structured: unknown, redact: boolean): string {
  if (isObject(structured)) return 'an object without ok';
  if (redact && structured !== null && !Array.isArray(structured)) return `a ${typeof structured} ${withheld}`;
  return quote(structured);
}

/**
 * `redact`: keep values of the result out of messages (--redact). `plan`: what the scanner builds
 * of the envelope in a text block, the envelope plan of bare lines; undefined: JSON.parse builds it whole.
 */
export function unwrapCallToolResult(result: unknown, redact = false, plan?: ScanPlan): McpUnwrapped {
  if (!isObject(result)) {
    return { found: false, findings: [{ rule: 'not-an-envelope', message: `the tool response holds no envelope: its result is ${withArticle(kindOf(result))}, not a CallToolResult` }] };
  }
  const structured = has(result, 'structuredContent') ? result['structuredContent'] : undefined;
  const structuredEnvelope = isObject(structured) && has(structured, 'ok') ? structured : undefined;
  // Compared with an envelope in structuredContent, the text's is built whole.
  const fromText = envelopeFromText(result['content'], redact, structuredEnvelope ? undefined : plan);
  const envelope = fromText.envelope ?? structuredEnvelope;
  if (!envelope) {
    const instead = structured !== undefined ? `${fromText.instead}, and its structuredContent has no ok` : fromText.instead;
    return { found: false, findings: [{ rule: 'not-an-envelope', message: `the tool response holds no JSON envelope: ${instead}` }] };
  }
  const findings: McpFinding[] = [];
  if (fromText.envelope && structured !== undefined && !structuredEnvelope) {
    // Spec section 3: "when both are there they must agree": a structuredContent of any other
    // shape beside the text envelope disagrees with it.
    findings.push({ rule: 'structured-content-mismatch', message: `structuredContent differs from the text block's envelope: it is ${describeStructured(structured, redact)}`, pointer: '' });
  } else if (fromText.envelope && structuredEnvelope) {
    const where = firstDifference(fromText.envelope, structuredEnvelope);
    if (where !== undefined) {
      const shown = redact ? redactPointer(where) : where;
      findings.push({ rule: 'structured-content-mismatch', message: `structuredContent differs from the text block's envelope at ${shown === '' ? 'its root' : shown}`, pointer: shown });
    }
  }
  const isError = has(result, 'isError') ? result['isError'] : false;
  const ok = envelope['ok'];
  if (typeof ok === 'boolean' && typeof isError === 'boolean' && isError !== !ok) {
    findings.push({ rule: 'is-error-mismatch', message: `isError is ${isError}${has(result, 'isError') ? '' : ' (missing)'} but ok is ${ok}: the transport flag must mirror the envelope (isError == !ok)`, pointer: '/ok' });
  } else if (typeof ok === 'boolean' && typeof isError !== 'boolean') {
    // "false" as a string is true to a client that tests it: a flag that is no boolean mirrors nothing.
    // Under --redact its kind only: a string there is data (it quoted a token verbatim).
    const shown = redact && isError !== null && typeof isError !== 'undefined' ? `a ${Array.isArray(isError) ? 'array' : typeof isError} ${withheld}` : quote(isError);
    findings.push({ rule: 'is-error-mismatch', message: `isError is ${shown}, not a boolean, but ok is ${ok}: the transport flag must be ${!ok} (isError == !ok)`, pointer: '/ok' });
  }
  return { found: true, envelope, text: fromText.text, noDuplicates: fromText.noDuplicates ?? false, findings };
}

// Small accessors shared by the rules and the tally: an envelope is untrusted data of any shape.
import { cutText } from '../text.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function has(object: JsonObject, key: string): boolean {
  return Object.hasOwn(object, key);
}

/** The envelope's `error` member when it is an object. */
export function errorObject(envelope: unknown): JsonObject | undefined {
  if (!isObject(envelope) || !has(envelope, 'error')) return undefined;
  const error = envelope['error'];
  return isObject(error) ? error : undefined;
}

const none: readonly unknown[] = [];

/** The envelope's `warnings` array (items unchecked), or an empty one. A plain array, not a
 * generator: this runs on every record, and a generator object a record is a visible share of GC time. */
export function warningList(envelope: unknown): readonly unknown[] {
  if (!isObject(envelope) || !has(envelope, 'warnings')) return none;
  const warnings = envelope['warnings'];
  return Array.isArray(warnings) ? warnings : none;
}

export function stringMember(object: JsonObject, key: string): string | undefined {
  if (!has(object, key)) return undefined;
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

/** `^[a-z0-9]+(?:-[a-z0-9]+)*$`, by hand: it runs on every code of every record, and a regex call
 * costs more than the loop. */
export function isKebabCase(code: string): boolean {
  if (code.length === 0) return false;
  let afterHyphen = true;
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 0x2d) {
      if (afterHyphen) return false;
      afterHyphen = true;
    } else if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) {
      afterHyphen = false;
    } else {
      return false;
    }
  }
  return !afterHyphen;
}

export { childPointer } from '../json-pointer.js';

/** `warnings[0].code` for `/warnings/0/code`; `the envelope` for the root. */
export function pointerName(pointer: string): string {
  if (pointer === '') return 'the envelope';
  let name = '';
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (/^\d+$/.test(key)) name += `[${key}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(key)) name += name === '' ? key : `.${key}`;
    else name += `[${JSON.stringify(key)}]`;
  }
  return name;
}

/**
 * What the rules and the tally read of an envelope, read once. Envelopes come in many shapes (each
 * a different hidden class to V8), so every member access is slow-ish; one pass beats ten.
 */
export interface EnvelopeFacts {
  /** The envelope itself, as checked. */
  value: unknown;
  /** `ok` when the envelope is an object (undefined when absent). */
  ok: unknown;
  hasResult: boolean;
  result: unknown;
  /** The `error` member when it is an object. */
  error: JsonObject | undefined;
  /** `error.code` and `error.category` when they are strings. */
  code: string | undefined;
  category: string | undefined;
  /** The `warnings` array (items unchecked), or an empty one. */
  warnings: readonly unknown[];
  /** `sessionId` when it is a string. */
  sessionId: string | undefined;
}

function factsOfAnyObject(value: JsonObject): EnvelopeFacts {
  const error = errorObject(value);
  // A member holding undefined is absent, as in JSON (and as the schema's `required` reads it).
  const hasResult = has(value, 'result') && value['result'] !== undefined;
  return {
    value,
    ok: has(value, 'ok') ? value['ok'] : undefined,
    hasResult,
    result: hasResult ? value['result'] : undefined,
    error,
    code: error && stringMember(error, 'code'),
    category: error && stringMember(error, 'category'),
    warnings: warningList(value),
    sessionId: stringMember(value, 'sessionId'),
  };
}

/**
 * Whether `object` inherits nothing an envelope member could be read from: JSON.parse makes only
 * such objects, and on them a plain read is an own read. (Object.prototype holds none of the
 * members read here; a polluted prototype would have to add `ok` or `error` to it.)
 */
function isPlain(object: object): boolean {
  return Object.getPrototypeOf(object) === Object.prototype;
}

/** `code` of a `warnings` item when the item is an object and its code a string. */
export function warningCode(warning: unknown): string | undefined {
  if (!isObject(warning)) return undefined;
  if (!isPlain(warning)) return stringMember(warning, 'code');
  const code = warning['code'];
  return typeof code === 'string' ? code : undefined;
}

function noFacts(value: unknown): EnvelopeFacts {
  return { value, ok: undefined, hasResult: false, result: undefined, error: undefined, code: undefined, category: undefined, warnings: none, sessionId: undefined };
}

/**
 * `fromJson`: the value is JSON.parse's, as every record the pipeline frames is, so its objects are
 * plain, and need no check for it (a call into V8's runtime for every record).
 */
export function factsOf(value: unknown, fromJson = false): EnvelopeFacts {
  if (!isObject(value)) return noFacts(value);
  // The common case reads each member once: Object.hasOwn and a read per member would double the
  // lookups (envelopes come in many shapes, so every access is a megamorphic lookup).
  if (!fromJson && !isPlain(value)) return factsOfAnyObject(value);
  const member = value['error'];
  const error = isObject(member) ? member : undefined;
  let code: string | undefined;
  let category: string | undefined;
  if (error !== undefined) {
    if (!fromJson && !isPlain(error)) return factsOfAnyObject(value);
    const errorCode = error['code'];
    const errorCategory = error['category'];
    code = typeof errorCode === 'string' ? errorCode : undefined;
    category = typeof errorCategory === 'string' ? errorCategory : undefined;
  }
  const result = value['result'];
  const warnings = value['warnings'];
  const sessionId = value['sessionId'];
  return {
    value,
    ok: value['ok'],
    // A member holding undefined (never from JSON, possible from a caller's object) is absent, as
    // JSON.stringify and the schema's `required` take it: `result: maybe` in code that builds envelopes.
    hasResult: result !== undefined,
    result,
    error,
    code,
    category,
    warnings: Array.isArray(warnings) ? warnings : none,
    sessionId: typeof sessionId === 'string' ? sessionId : undefined,
  };
}

/** A string whose text parses to a JSON object: what serializing an envelope twice leaves. */
export function holdsJsonObject(data: unknown): boolean {
  if (typeof data !== 'string' || !data.trimStart().startsWith('{')) return false;
  try {
    return isObject(JSON.parse(data));
  } catch {
    return false;
  }
}

/** An array whose first element is a JSON-RPC message: a batch (JSON-RPC 2.0), which spec section 7 does not unwrap. */
export function isJsonRpcBatch(data: unknown): boolean {
  return Array.isArray(data) && data.length > 0 && isObject(data[0]) && Object.hasOwn(data[0], 'jsonrpc');
}

/** `[{"ok":true,...},...]` as one record: a .json list piped in (`jq -c`), read one a line. */
export function isEnvelopeList(data: unknown): boolean {
  return Array.isArray(data) && data.length > 0 && isObject(data[0]) && Object.hasOwn(data[0], 'ok');
}

/**
 * A value from a record, for a message: JSON, cut to 60 characters. Containers are named, not
 * printed: they may be huge, or nest deeper than JSON.stringify's stack (robustness.test.ts, 'a
 * 100k-deep truncation marker is named, not printed'); and a long code would make a message a
 * screen long.
 */
export function quote(value: unknown): string {
  if (typeof value === 'object' && value !== null) return Array.isArray(value) ? 'an array' : 'an object';
  return shorten(JSON.stringify(value) ?? String(value));
}

/** Text from a record, cut to 60 characters for a message. */
export function shorten(text: string): string {
  return text.length > 60 ? `${cutText(text, 57)}...` : text;
}

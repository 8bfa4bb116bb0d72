// Small accessors shared by the rules and the tally: an envelope is untrusted data of any shape.

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
 * generator: this runs on every record, and generator objects were a visible share of GC time. */
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

const kebabCase = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function isKebabCase(code: string): boolean {
  return kebabCase.test(code);
}

/** JSON Pointer (RFC 6901) of one more step below `base`. */
export function childPointer(base: string, key: string | number): string {
  return `${base}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
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

export function factsOf(value: unknown): EnvelopeFacts {
  if (!isObject(value)) {
    return { value, ok: undefined, hasResult: false, result: undefined, error: undefined, code: undefined, category: undefined, warnings: none, sessionId: undefined };
  }
  const error = errorObject(value);
  const hasResult = has(value, 'result');
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

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

// Where a schema path and a JSON Pointer lead, and how a type error reads: shared by the envelope's
// schema findings (schema.ts) and the messages about the tool's own settings files (load-json.ts),
// and a leaf, so that neither reaches the other through it.
import type { AnySchemaObject } from 'ajv';

/** A value's JSON type as a schema's `type` names it, `integer` apart from other numbers. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function article(type: string): string {
  return /^[aeio]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A `type` keyword's value in words: `["string", "null"]` -> "a string or null". */
export function listTypes(types: unknown): string {
  const list = Array.isArray(types) ? types.map(String) : String(types).split(',');
  return list.map((type) => (type === 'null' ? 'null' : article(type))).join(' or ');
}

/** Follows a `#/a/b` schema path inside the schema document, if it stays inside it. */
export function schemaAt(document: AnySchemaObject, schemaPath: string): unknown {
  if (!schemaPath.startsWith('#')) return undefined;
  let node: unknown = document;
  for (const raw of schemaPath.slice(2).split('/')) {
    if (raw === '') continue;
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** "must be an object (got array)": a type error of a settings file, as the envelope's read. */
export function typeMismatch(types: unknown, root: unknown, pointer: string): string {
  return `must be ${listTypes(types)} (got ${typeOf(valueAt(root, pointer))})`;
}

/** The value at a JSON Pointer (RFC 6901) inside `root`. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  if (pointer === '') return node;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

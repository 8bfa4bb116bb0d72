// ajv's raw errors -> findings a person understands (spec section 7, Schema findings): one finding per
// (pointer, keyword); `if` errors dropped; an ok/error conditional reported as the invariant it
// encodes ("ok is false, so error is required"), not as "must match then schema".
import type { AnySchemaObject, ErrorObject } from 'ajv';
import { isRedactedPointer, redactPointer, withheld } from '../redact.js';
import { editDistance, nearestName, normalizeName } from '../registry/nearest.js';
import { childPointer, holdsJsonObject, isEnvelopeList, isJsonRpcBatch, isObject, pointerName, quote } from './envelope.js';
import { errorCount, errorsUnlisted, otherVersionsWith, type EnvelopeSchema } from './schema-load.js';
import { listTypes, schemaAt, typeOf, valueAt } from './schema-lookup.js';

export interface SchemaFinding {
  message: string;
  pointer: string;
  keyword: string;
  schemaPath: string;
  suggestion?: string;
}

/**
 * The allowed member an unexpected one was probably meant to be: not one the object has already
 * (`{"ok":true,"result":{},"id":7}` was asked "did you mean ok?"), and nearer than a whole rename
 * (within two edits, any two-letter name is any other: `id` -> `ok`, `ts` -> `ok`).
 */
function memberSuggestion(property: string, allowed: readonly string[], object: unknown): string | undefined {
  const absent = isObject(object) ? allowed.filter((name) => !Object.hasOwn(object, name)) : allowed;
  const near = nearestName(property, absent);
  return near !== undefined && editDistance(normalizeName(property), normalizeName(near)) < Math.min(property.length, near.length) ? near : undefined;
}

/** "ok is false" for `if: {properties: {ok: {const: false}}, required: [ok]}`. */
function describeCondition(ifSchema: unknown, negated: boolean): string | undefined {
  if (!isObject(ifSchema) || !isObject(ifSchema['properties'])) return undefined;
  const parts: string[] = [];
  for (const [name, sub] of Object.entries(ifSchema['properties'])) {
    if (!isObject(sub) || !Object.hasOwn(sub, 'const')) return undefined;
    parts.push(`${name} is ${negated ? 'not ' : ''}${JSON.stringify(sub['const'])}`);
  }
  return parts.length > 0 ? parts.join(' and ') : undefined;
}

/** The properties a `not` schema forbids: `required` of the schema or of each anyOf branch. */
function forbiddenProperties(notSchema: unknown): string[] {
  if (!isObject(notSchema)) return [];
  const branches = Array.isArray(notSchema['anyOf']) ? (notSchema['anyOf'] as unknown[]) : [notSchema];
  const names: string[] = [];
  for (const branch of branches) {
    if (isObject(branch) && Array.isArray(branch['required'])) names.push(...branch['required'].map(String));
  }
  return names;
}

interface Conditional {
  condition: string;
  /** The error is at the instance the `if` read, not at a member below it. */
  atIf: boolean;
}

// Keywords of a then/else branch that apply their subschema to a member (or item) of the instance;
// the first three are followed by the member's name or index.
const namedDescents = new Set(['properties', 'patternProperties', 'prefixItems']);
const descents = new Set(['items', 'additionalProperties', 'additionalItems', 'contains', 'unevaluatedProperties', 'unevaluatedItems']);

/** Whether the rest of a schema path after `then/` or `else/` applies a subschema below the `if`'s instance. */
function descendsBelow(rest: string): boolean {
  const parts = rest.split('/');
  for (let i = 0; i < parts.length; i++) {
    if (namedDescents.has(parts[i]!) && i + 1 < parts.length - 1) return true;
    if (descents.has(parts[i]!) && i < parts.length - 1) return true;
  }
  return false;
}

/** When the error comes from a then/else branch whose `if` reads as a sentence, that sentence. */
// A producer repeats its mistakes: the same schema paths fail on thousands of records.
const conditionals = new WeakMap<AnySchemaObject, Map<string, Conditional | undefined>>();

function conditionalOf(document: AnySchemaObject, schemaPath: string): Conditional | undefined {
  let cache = conditionals.get(document);
  if (!cache) conditionals.set(document, (cache = new Map()));
  if (cache.has(schemaPath)) return cache.get(schemaPath);
  const match = /^(.*)\/(then|else)\/(.*)$/.exec(schemaPath);
  const condition = match ? describeCondition(schemaAt(document, `${match[1]}/if`), match[2] === 'else') : undefined;
  const conditional = condition === undefined ? undefined : { condition, atIf: !descendsBelow(match![3]!) };
  cache.set(schemaPath, conditional);
  return conditional;
}

/**
 * The MCEC schema's prose says `error` is "omitted or null on success" while its type forbids null
 * (spec section 1, note). When a member's own description allows null that its type does not,
 * the message says so, so that nobody "fixes" the producer the wrong way.
 */
function proseAllowsNull(schema: EnvelopeSchema, instancePath: string, root: unknown): string {
  const match = /^\/([^/]+)$/.exec(instancePath);
  if (!match || !isObject(root)) return '';
  const description = nullProseOf(schema.document, match[1]!);
  if (description === undefined) return '';
  // "Omit it" is advice only where the record may go without it: `error: null` on a failure, where
  // error is required, was told to omit it too. Copied key by key: `delete` on a spread copy made
  // it a slow dictionary object, on every record of a producer that sends `error: null`.
  const member = match[1]!.replaceAll('~1', '/').replaceAll('~0', '~');
  const without: Record<string, unknown> = {};
  for (const key of Object.keys(root)) if (key !== member) without[key] = root[key];
  const { validate } = schema;
  const errors = validate.errors;
  const omittable = validate(without) || !(validate.errors ?? []).some((e) => e.keyword === 'required' && e.params['missingProperty'] === member);
  validate.errors = errors;
  return omittable ? `; the schema's description allows null ("${description}") but its type does not: omit the member instead` : '';
}

// Per schema and top-level member: the description when it allows null, looked up once, not on
// every record that sends the null.
const nullProse = new WeakMap<AnySchemaObject, Map<string, string | undefined>>();

function nullProseOf(document: AnySchemaObject, member: string): string | undefined {
  let cache = nullProse.get(document);
  if (!cache) nullProse.set(document, (cache = new Map()));
  if (cache.has(member)) return cache.get(member);
  const property = schemaAt(document, `#/properties/${member}`);
  const description = isObject(property) ? property['description'] : undefined;
  const allowing = typeof description === 'string' && /\bnull\b/i.test(description) ? description : undefined;
  cache.set(member, allowing);
  return allowing;
}

function wantsObject(type: unknown): boolean {
  return type === 'object' || (Array.isArray(type) && type.includes('object'));
}

// ajv runs without `verbose` (the bundled schema's validator is generated at build time), so the
// failing data (`data`, at the error's instancePath) and subschemas are looked up from the instance
// and the schema document.
/**
 * What a type error adds about the value itself, when it points at the cause: a JSON-RPC batch or a
 * list of envelopes where an envelope belongs, a string holding a JSON object (an envelope
 * serialized twice), or a null the schema's prose allows where the member could be omitted.
 * Worked out once per error: the description cache keys on it, and describe() words it.
 */
function typeHint(error: ErrorObject, data: unknown, schema: EnvelopeSchema, root: unknown): string {
  if (error.keyword !== 'type') return '';
  if (data === null) return proseAllowsNull(schema, error.instancePath, root);
  if (error.instancePath === '' && isJsonRpcBatch(data)) return ': a JSON-RPC batch? Messages are read one a line; a batch is not unwrapped';
  if (error.instancePath === '' && isEnvelopeList(data)) return ': a list of envelopes? An array is a list of records only as a whole document (a .json file, or --input json), its elements not flattened further; here it is one record';
  if (wantsObject(error.params['type']) && holdsJsonObject(data)) return ': a string holding a JSON object, encoded twice?';
  return '';
}

/**
 * Spec section 8.3: a category this schema lacks but another bundled version has (`ocr-no-text`
 * under 2026-06) is a newer or older MCEC's, not a typo: the message names that version.
 */
function otherVersionNote(instancePath: string, data: unknown, schema: EnvelopeSchema, redact: boolean): string {
  if (instancePath !== '/error/category' || typeof data !== 'string' || (redact && isRedactedPointer(instancePath))) return '';
  const versions = otherVersionsWith(data, schema);
  if (versions.length === 0) return '';
  const newest = versions.at(-1)!;
  const what = versions.length === 1 ? `schema version ${newest}` : `schema versions ${versions.join(', ')}`;
  return `: a category of ${what}, not of ${schema.version === undefined ? 'the schema in use' : schema.version}: check with --schema-version ${newest}`;
}

function describe(error: ErrorObject, schema: EnvelopeSchema, data: unknown, redact: boolean, hint: string, vacuous = true): SchemaFinding | undefined {
  const { keyword, instancePath, schemaPath, params } = error;
  const got = () => (redact && isRedactedPointer(instancePath) ? withheld : `(got ${quote(data)})`);
  const base = { pointer: instancePath, keyword, schemaPath };
  // The member names below a withheld member are the value's own keys (check-envelope.ts withholds them from the pointer too).
  const name = pointerName(redact && isRedactedPointer(instancePath) ? redactPointer(instancePath) : instancePath);
  const conditional = conditionalOf(schema.document, schemaPath);
  // `properties`/`required` in an `if` hold vacuously for a non-object, so the conditionals fire on
  // `[1]` or `"x"`; the type error already says what is wrong there. Only there: a then-branch's
  // constraint on a member (`sessionId` too short) was dropped too, and the record passed.
  if (conditional?.atIf && !isObject(data)) {
    if (vacuous) return undefined;
    return { ...base, message: `${name} fails ${keyword} at ${schemaPath}: the schema's if holds for any value that is not an object (got ${typeOf(data)})` };
  }
  switch (keyword) {
    case 'required': {
      const missing = String(params['missingProperty']);
      if (conditional) return { ...base, message: `${conditional.condition}, so ${pointerName(childPointer(instancePath, missing))} is required` };
      return { ...base, message: `${name} is missing required property ${JSON.stringify(missing)}` };
    }
    case 'not': {
      const forbidden = forbiddenProperties(schemaAt(schema.document, schemaPath));
      if (conditional && forbidden.length > 0) {
        const pointer = childPointer(instancePath, forbidden[0]!);
        return { ...base, pointer, message: `${conditional.condition}, so ${forbidden.map((p) => pointerName(childPointer(instancePath, p))).join(' and ')} must be absent` };
      }
      return { ...base, message: `${conditional ? `${conditional.condition}, so ` : ''}${name} must not match the schema at ${schemaPath}` };
    }
    // A --schema's unevaluatedProperties names its member as additionalProperties does: one finding
    // each (was one for the envelope, "must NOT have unevaluated properties", naming none).
    case 'unevaluatedProperties':
    case 'additionalProperties': {
      const property = String(params['additionalProperty'] ?? params['unevaluatedProperty']);
      const parent = schemaAt(schema.document, schemaPath.replace(/\/(?:additional|unevaluated)Properties$/, ''));
      const allowed = isObject(parent) && isObject(parent['properties']) ? Object.keys(parent['properties']) : [];
      const where = instancePath === '' ? 'the envelope' : name;
      const hint = allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : '';
      const suggestion = memberSuggestion(property, allowed, data);
      return {
        ...base,
        pointer: childPointer(instancePath, property),
        message: `unexpected property ${redact && isRedactedPointer(childPointer(instancePath, property)) ? '(name withheld by --redact)' : quote(property)} in ${where}${hint}`,
        ...(suggestion && { suggestion }),
      };
    }
    case 'type': {
      const message = `${name} must be ${listTypes(params['type'])} (got ${typeOf(data)})`;
      return { ...base, message: message + hint };
    }
    case 'enum': {
      const allowed = Array.isArray(params['allowedValues']) ? (params['allowedValues'] as unknown[]) : [];
      const suggestion = typeof data === 'string' ? nearestName(data, allowed.filter((v): v is string => typeof v === 'string')) : undefined;
      return {
        ...base,
        message: `${name} must be one of: ${allowed.map((v) => (typeof v === 'string' ? v : quote(v))).join(', ')} ${got()}${otherVersionNote(instancePath, data, schema, redact)}`,
        ...(suggestion && { suggestion }),
      };
    }
    case 'const':
      return { ...base, message: `${conditional ? `${conditional.condition}, so ` : ''}${name} must be ${quote(params['allowedValue'])} ${got()}` };
    case 'format':
      // ajv says `must match format "uuid"`; which value did not is what a person looks for.
      return { ...base, message: `${name} must be a valid ${String(params['format'])} ${got()}` };
    case 'false schema':
      return { ...base, message: `${name} is not allowed here` };
    default:
      return { ...base, message: `${conditional ? `${conditional.condition}, so ` : ''}${name} ${error.message ?? `fails ${keyword}`}` };
  }
}

// A producer repeats its mistakes: the same error at the same place reads the same on thousands of
// records, and describing one (schema lookups, suggestions) costs far more than validating it.
const descriptions = new WeakMap<AnySchemaObject, Map<string, SchemaFinding | null>>();
/** Bounds the cache whatever places and values a corpus invents; past it, errors are described anew. */
const maxDescriptions = 10_000;
/** Longer strings are not kept as part of a key (a value may be megabytes). */
const maxKeyedString = 200;

// ajv's params hold names from the data (short strings) or values from the schema (the same
// object on every call), so an object is keyed by its identity, not printed. (One made afresh per
// error, as oneOf's passingSchemas, only misses the cache.)
const identities = new WeakMap<object, number>();
let nextIdentity = 0;

function paramsKey(params: Record<string, unknown>): string | undefined {
  let key = '';
  for (const name in params) {
    const value = params[name];
    let part: string;
    if (typeof value === 'object' && value !== null) {
      let identity = identities.get(value);
      if (identity === undefined) identities.set(value, (identity = nextIdentity++));
      part = `#${identity}`;
    } else {
      part = typeof value === 'string' ? `"${value}` : String(value);
    }
    key += `${name}=${part}\u0001`;
  }
  return key.length > maxKeyedString ? undefined : key;
}

/**
 * Everything describe() reads, as a string, or undefined when the error is not worth keeping.
 * The data enters through its type and the type error's hint, except for enum, const and format,
 * whose messages quote it.
 */
function descriptionKey(error: ErrorObject, data: unknown, redact: boolean, hint: string): string | undefined {
  let value = `${typeOf(data)}${hint}`;
  if ((error.keyword === 'enum' || error.keyword === 'const' || error.keyword === 'format') && typeof data !== 'object') {
    const text = typeof data === 'string' ? data : String(data);
    if (text.length > maxKeyedString) return undefined;
    value += `:${text}`;
  }
  const params = paramsKey(error.params);
  if (params === undefined || error.instancePath.length > maxKeyedString) return undefined;
  return `${redact ? 1 : 0}\0${error.keyword}\0${error.schemaPath}\0${error.instancePath}\0${params}\0${error.message ?? ''}\0${value}`;
}

function describeCached(error: ErrorObject, schema: EnvelopeSchema, root: unknown, redact: boolean): SchemaFinding | undefined {
  const data = valueAt(root, error.instancePath);
  const hint = typeHint(error, data, schema, root);
  const key = descriptionKey(error, data, redact, hint);
  if (key === undefined) return describe(error, schema, data, redact, hint);
  let cache = descriptions.get(schema.document);
  if (!cache) descriptions.set(schema.document, (cache = new Map()));
  const known = cache.get(key);
  if (known !== undefined) return known ?? undefined;
  const finding = describe(error, schema, data, redact, hint);
  // Shared by every record that makes the same error, so nobody may change it.
  if (cache.size < maxDescriptions) cache.set(key, finding ? Object.freeze(finding) : null);
  return finding;
}

/** One finding per (pointer, keyword), spec section 7. */
const placeKey = (finding: SchemaFinding): string => `${finding.pointer}\0${finding.keyword}`;

export interface DescribedErrors {
  findings: SchemaFinding[];
  /** The validator's errors not described: those past `limit` findings, and those it did not list. */
  omitted: number;
  /** Only the first error of a large record was asked for (a schema compiled at run time): the rest are not counted. */
  unlisted: boolean;
}

/**
 * The findings of `value`, which `schema.validate` has just rejected (its errors are read): at most
 * `limit` of them, in the validator's order. Describing stops there, so that a record of a million
 * errors costs no more than one of a hundred; `omitted` says how many errors were left.
 */
export function describeSchemaErrors(schema: EnvelopeSchema, value: unknown, redact = false, limit = Number.POSITIVE_INFINITY): DescribedErrors {
  const errors = schema.validate.errors ?? [];
  const byPlace = new Map<string, SchemaFinding>();
  let next = 0;
  for (; next < errors.length; next++) {
    const error = errors[next]!;
    // `if` errors only say that a then/else failed; that failure is reported on its own.
    if (error.keyword === 'if') continue;
    const finding = describeCached(error, schema, value, redact);
    if (!finding) continue;
    const key = placeKey(finding);
    const earlier = byPlace.get(key);
    if (!earlier) {
      if (byPlace.size === limit) break;
      byPlace.set(key, finding);
    } else if (finding.keyword === 'required' && !earlier.message.includes(finding.message)) {
      byPlace.set(key, { ...earlier, message: `${earlier.message}; ${finding.message}` });
    }
  }
  // A record the schema rejects is never left without a finding (it would count as valid): when
  // every error was one dropped as vacuous (a schema with no type to say it), they are said as they are.
  if (byPlace.size === 0) {
    for (next = 0; next < errors.length; next++) {
      const error = errors[next]!;
      if (error.keyword === 'if') continue;
      const finding = describe(error, schema, valueAt(value, error.instancePath), redact, '', false);
      if (!finding || byPlace.has(placeKey(finding))) continue;
      if (byPlace.size === limit) break;
      byPlace.set(placeKey(finding), finding);
    }
  }
  let omitted = errorCount(schema.validate) - errors.length;
  for (; next < errors.length; next++) if (errors[next]!.keyword !== 'if') omitted++;
  return { findings: [...byPlace.values()], omitted, unlisted: errorsUnlisted(schema.validate) };
}

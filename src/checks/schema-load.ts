// The envelope schema, ready to validate, once per run: the bundled copy of the MCEC schema, or
// `--schema FILE`. The bundled schema's validator is generated at build time by ajv's standalone
// mode (scripts/build-validator.mjs), so a run on the bundled schema loads neither ajv nor its
// compiler. Nothing is fetched, ever: a remote $ref is a usage error.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AnySchemaObject, Options, ValidateFunction } from 'ajv';
import { bundledSchemaPath } from '../assets.js';
import { UsageError, describeError } from '../errors.js';
import { loadAjv, loadAjv2019, loadAjv2020, loadAjvFormats, loadCrypto, packageRequire } from '../lazy.js';
import { parseJsonFile, readFileBytes, readJsonFile } from '../load-json.js';
import { bundledSchemaVersions, resolveSchemaVersion } from './schema-versions.js';

export interface EnvelopeSchema {
  /** The schema's `$id`, when it has one. */
  id?: string;
  /** `bundled`, or the path given to --schema. */
  source: string;
  /** The bundled schema's version name (`2026-07`, never `latest`); absent for --schema. */
  version?: string;
  /** Hex SHA-256 of the schema file's bytes; absent for a schema given as a value (no file). */
  sha256?: string;
  document: AnySchemaObject;
  validate: ValidateFunction;
  /** The closed category set: the enum of error.category (categoriesOf); empty when the schema closes none. */
  categories: string[];
  /** Files read for its `$ref`s: the run's own, which a folder walk leaves out as it does the schema. */
  referencedFiles?: string[];
  /**
   * A bundled version with the bytes the package was built from (its build-time validator matched):
   * it reads of an envelope no more than the checks do, so the scanner's plan is theirs, with no walk
   * of the schema (src/checks/record-plan.ts; schema-plan.test.ts holds it for every bundled version).
   */
  asBuilt?: boolean;
}

/**
 * The bundled schema's validator lists at most this many errors of a record, and counts the rest as
 * `errorCount` (scripts/build-validator.mjs): ajv's allErrors list has no end of its own, and one
 * line of a million bad array items would exhaust the heap. Enough for the findings a record lists
 * (maxFindingsPerRule in src/checks/check-envelope.ts) and the errors that merge into them.
 */
export const maxListedErrors = 1000;

/**
 * A record a validator ajv compiles at run time (`--schema`, or the bundled schema before a build)
 * rejects has all its errors listed only while it holds at most this many values. Such a validator's
 * list has no end, and cannot be cut as the bundled one's is (an edit of its generated code, which a
 * schema with `$ref`s to itself or to other files does not allow): a line of millions of bad items
 * would exhaust the heap. A larger record lists the first error found, and says the rest are not listed.
 */
export const maxValuesListedAtRunTime = 20_000;

/** Whether `value` holds more than `limit` values, itself and all inside it (an explicit stack: any depth). */
export function holdsMoreThan(value: unknown, limit: number): boolean {
  let count = 0;
  const open: unknown[] = [value];
  while (open.length > 0) {
    const next = open.pop();
    if (++count > limit) return true;
    if (typeof next !== 'object' || next === null) continue;
    const members = Array.isArray(next) ? next : Object.values(next);
    // Counted before they are stacked: a flat array of millions is refused without a stack of millions.
    if (count + members.length > limit) return true;
    for (const member of members) open.push(member);
  }
  return false;
}

/**
 * The validator of a schema ajv compiled at run time: `firstOnly` (ajv's allErrors off, which stops
 * at the first error) gives every verdict; a record it rejects is validated again by `listAll` when
 * it is small enough to list its errors (maxValuesListedAtRunTime), else keeps that first error and
 * is marked `unlisted`. The verdicts are ajv's either way, which allErrors does not change. `listAll`
 * is compiled when a record first needs it: compiling a schema twice would double a `--schema`
 * run's start-up, and a run of valid records never needs it.
 */
function boundedAtRunTime(compileListAll: () => ValidateFunction, firstOnly: ValidateFunction): ValidateFunction {
  let listAll: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    validate.unlisted = false;
    if (firstOnly(data)) {
      validate.errors = null;
      return true;
    }
    if (holdsMoreThan(data, maxValuesListedAtRunTime)) {
      validate.errors = firstOnly.errors;
      validate.unlisted = true;
      return false;
    }
    listAll ??= compileListAll();
    const valid = listAll(data) as boolean;
    validate.errors = listAll.errors;
    // Never valid here (allErrors changes no verdict); were it, the record is still rejected as the
    // first validator said, with its error.
    if (valid) validate.errors = firstOnly.errors;
    return false;
  }) as ValidateFunction & { unlisted: boolean };
  validate.unlisted = false;
  validate.schema = firstOnly.schema;
  return validate;
}

/** Whether `validate` lists a record's errors by how many values it holds (boundedAtRunTime). */
export function listsAtRunTime(validate: ValidateFunction): boolean {
  return typeof (validate as { unlisted?: unknown }).unlisted === 'boolean';
}

/** Whether the last validation listed only the first of a large record's errors (boundedAtRunTime). */
export function errorsUnlisted(validate: ValidateFunction): boolean {
  return (validate as { unlisted?: unknown }).unlisted === true;
}

/** How many errors the last validation found: all of them, also those past a bounded list. */
export function errorCount(validate: ValidateFunction): number {
  const listed = validate.errors?.length ?? 0;
  // A validator ajv compiled at run time lists every error, and has no count of its own.
  const counted = (validate as { errorCount?: unknown }).errorCount;
  return typeof counted === 'number' && counted > listed ? counted : listed;
}

/** Shared with scripts/build-validator.mjs, which must generate the same code. */
export const ajvOptions: Options = {
  allErrors: true,
  // The MCEC schema uses union types (["object", "null"]); user schemas may use keywords ajv's
  // strict mode frowns on. Meta-schema validation still rejects schemas that are invalid.
  strict: false,
  allowUnionTypes: true,
  logger: false,
};

const drafts = /^https?:\/\/json-schema\.org\/(?:(draft-0[67])\/schema|draft\/(2019-09|2020-12)\/schema)#?$/;

/**
 * An ajv for the draft the schema names (none: 2020-12), with ajv-formats: left to itself ajv skips
 * a `format` it does not know, so `"format": "uuid"` would pass any string, without a word.
 */
/** Each draft's meta-schema as ajv knows it: `http://...` for 2020-12, or `https://` for draft-07, read as theirs. */
const canonical: Record<string, string> = {
  'draft-06': 'http://json-schema.org/draft-06/schema#',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
};

function ajvFor(metaSchema: unknown, label: string, options: Options = ajvOptions) {
  const draft = metaSchema === undefined ? '2020-12' : typeof metaSchema === 'string' ? drafts.exec(metaSchema)?.slice(1).find(Boolean) : undefined;
  if (draft === undefined) {
    throw new UsageError(`${label}: $schema ${JSON.stringify(metaSchema)} is not a draft mcec-result reads: use draft-06, draft-07, 2019-09 or 2020-12 (https://json-schema.org/draft/2020-12/schema)`);
  }
  let ajv;
  if (draft === '2019-09') ajv = new (loadAjv2019().Ajv2019)(options);
  else if (draft === '2020-12') ajv = new (loadAjv2020().Ajv2020)(options);
  else {
    ajv = new (loadAjv().Ajv)(options);
    // ajv's default meta-schema is draft-07's; draft-06's ships beside it.
    if (draft === 'draft-06') ajv.addMetaSchema(packageRequire('ajv/dist/refs/json-schema-draft-06.json') as AnySchemaObject);
  }
  return { ajv: loadAjvFormats()(ajv), metaSchema: canonical[draft]! };
}

function member(node: unknown, key: string): unknown {
  return typeof node === 'object' && node !== null && !Array.isArray(node) && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
}

/**
 * A subschema with the `$ref`s it is (a chain of them) followed, when they point into this document
 * (`#/$defs/category`); another document's, or an anchor, is left unresolved (undefined).
 */
function followed(document: AnySchemaObject, node: unknown): unknown {
  for (let hops = 0; hops < 32; hops++) {
    const ref = member(node, '$ref');
    if (typeof ref !== 'string') return node;
    if (!ref.startsWith('#/') && ref !== '#') return undefined;
    node = document;
    for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
      let step = raw;
      try {
        step = decodeURIComponent(raw);
      } catch {
        // Not percent-encoded: the step as written.
      }
      node = member(node, step.replaceAll('~1', '/').replaceAll('~0', '~'));
    }
  }
  return undefined;
}

/**
 * The schema's closed set of categories: the enum of error.category, found at
 * /$defs/error/properties/category as in the bundled schema, or through the envelope's `error`
 * property, each `$ref` on the way followed (a category enum in a $defs of its own is the schema's
 * set, so that records' categories and codes files are held to it). Empty when the schema closes no set.
 */
export function categoriesOf(document: AnySchemaObject): string[] {
  const defs = member(document, '$defs') ?? member(document, 'definitions');
  for (const error of [member(defs, 'error'), member(member(document, 'properties'), 'error')]) {
    const category = followed(document, member(member(followed(document, error), 'properties'), 'category'));
    const enumValues = member(category, 'enum');
    if (Array.isArray(enumValues)) return enumValues.filter((v): v is string => typeof v === 'string');
  }
  return [];
}

function asSchema(document: unknown, label: string): AnySchemaObject {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new UsageError(`${label}: a JSON Schema must be an object`);
  }
  return document as AnySchemaObject;
}

function described(schema: AnySchemaObject, source: string, validate: ValidateFunction): EnvelopeSchema {
  const id = typeof schema['$id'] === 'string' ? schema['$id'] : undefined;
  return { ...(id !== undefined && { id }), source, document: schema, validate, categories: categoriesOf(schema) };
}

/**
 * A `$ref` to a file beside the schema (`common.json#/$defs/x`, `file:///...`): read, never fetched.
 * A schema published with an absolute `$id` (`https://example.com/s/envelope.json`) refers to its
 * parts by URL (`https://example.com/s/common.json`): the copy beside it, when there is one, is read.
 */
function localSchemaPath(missingSchema: string, folder: string | undefined, baseId: unknown): { path?: string; tried?: string } {
  if (missingSchema.startsWith('file:')) return { path: fileURLToPath(missingSchema) };
  if (folder === undefined || missingSchema === '') return {};
  // A URI reference: `my defs.json` reaches here as `my%20defs.json`, a name no file has.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(missingSchema)) return { path: resolve(folder, decodedPath(missingSchema)) };
  const base = typeof baseId === 'string' ? baseId.slice(0, baseId.lastIndexOf('/') + 1) : '';
  if (base === '' || !missingSchema.startsWith(base)) return {};
  const beside = resolve(folder, decodedPath(missingSchema.slice(base.length)));
  // Beside it, not above it: `../` in the URL does not lead out of the schema's folder.
  if (!beside.startsWith(folder + sep)) return {};
  return existsSync(beside) ? { path: beside } : { tried: beside };
}

/** A URI path as a file name; one with a malformed escape (`100%.json`) is taken as written. */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Reads and adds the schema file `path` under `key`; returns what was added, for another ajv to add too. */
function addReferenced(ajv: { addSchema(schema: AnySchemaObject, key: string): unknown }, key: string, path: string, label: string): AnySchemaObject {
  let document: unknown;
  try {
    document = readJsonFile(path, 'file');
  } catch (error) {
    throw new UsageError(`${label}: ${describeError(error)}`);
  }
  const schema = asSchema(document, `${label}: ${path}`);
  try {
    // Its own refs resolve against its own place: without an `$id`, ajv resolves `../d.json` in
    // a/b/c.json, reached through `#/$defs/...`, against the first schema's folder, a different file.
    const added = Object.hasOwn(schema, '$id') ? schema : { ...schema, $id: key };
    ajv.addSchema(added, key);
    return added;
  } catch (error) {
    throw new UsageError(`${label}: ${path} is not a valid JSON Schema: ${describeError(error)}`);
  }
}

/**
 * A `$ref` into a schema that is there, to a place that is not (`#/$defs/nope`, a typo): what it
 * names, JSON Pointer or `$anchor`, said as such ("remote $ref not fetched" would send people
 * looking for a network problem).
 */
function missingPlace(missingRef: string): string {
  const hash = missingRef.indexOf('#');
  // ajv refuses a malformed escape (`#/%zz`) before it looks for the place, so this decodes.
  const fragment = hash === -1 ? '' : decodeURIComponent(missingRef.slice(hash + 1));
  return fragment.startsWith('/') ? fragment : `$anchor ${JSON.stringify(fragment)}`;
}

/** Schema files a schema may pull in through `$ref`s: enough for any split of one schema, not a loop. */
const maxReferencedFiles = 100;

/**
 * `folder` is where the schema file is: a `$ref` to a file beside it (`"$ref":
 * "common.json#/$defs/obj"` in a schema split over files) is read from there, as many as are
 * referenced. An http(s) `$ref` is never fetched.
 */
export function compileEnvelopeSchema(document: unknown, source: string, folder?: string): EnvelopeSchema {
  const label = source === 'bundled' ? 'the bundled schema' : `schema ${source}`;
  const schema = asSchema(document, label);
  // allErrors off: this one gives every verdict (boundedAtRunTime).
  const { ajv, metaSchema } = ajvFor(schema['$schema'], label, { ...ajvOptions, allErrors: false });
  // ajv reads a number here as a string, and fails as "id.replace is not a function".
  if (Object.hasOwn(schema, '$id') && typeof schema['$id'] !== 'string') throw new UsageError(`${label}: $id must be a string (got ${JSON.stringify(schema['$id'])})`);
  // `http://` for `https://` names the draft all the same; ajv knows only its own spelling ("no schema with key or ref").
  const compiling = schema['$schema'] === undefined || schema['$schema'] === metaSchema ? schema : { ...schema, $schema: metaSchema };
  // Each `$ref`'s schema part: the file read for it, and the schema added from it.
  const added = new Map<string, { path: string; schema: AnySchemaObject }>();
  const ownId = typeof schema['$id'] === 'string' ? schema['$id'].replace(/#$/, '') : '';
  for (;;) {
    try {
      const firstOnly = ajv.compile(compiling);
      refuseEndlessLoop(firstOnly, label);
      // The same schema and files (as read now, not again) with allErrors on: it compiles as the
      // first did. It may loop where the first did not (`allOf: [{type: string}, {$ref: '#'}]`
      // stops at `type` with allErrors off): refused then, at the first record it is asked for.
      const compileListAll = () => {
        const all = ajvFor(schema['$schema'], label, ajvOptions).ajv;
        for (const [key, referenced] of added) all.addSchema(referenced.schema, key);
        const listAll = all.compile(compiling);
        refuseEndlessLoop(listAll, label);
        return listAll;
      };
      const compiled = described(schema, source, boundedAtRunTime(compileListAll, firstOnly));
      return added.size > 0 ? { ...compiled, referencedFiles: [...added.values()].map(({ path }) => path) } : compiled;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      if (!(error instanceof loadAjv().MissingRefError)) throw new UsageError(`${label} is not a valid JSON Schema: ${describeError(error)}`);
      const { missingRef, missingSchema } = error;
      if (missingSchema === ownId) throw new UsageError(`${label}: $ref ${missingRef}: the schema has no ${missingPlace(missingRef)}`);
      // ajv files a schema added under a key there whatever its own `$id`: still missing, the place is.
      const read = added.get(missingSchema);
      if (read !== undefined) throw new UsageError(`${label}: $ref ${missingRef}: ${read.path} has no ${missingPlace(missingRef)}`);
      const { path: local, tried } = localSchemaPath(missingSchema, folder, schema['$id']);
      if (local === undefined) throw new UsageError(`${label}: remote $ref not fetched: ${missingRef}${tried === undefined ? '' : ` (no copy beside the schema at ${tried})`}`);
      if (added.size >= maxReferencedFiles) throw new UsageError(`${label}: more than ${maxReferencedFiles} schema files referenced through $ref`);
      added.set(missingSchema, { path: local, schema: addReferenced(ajv, missingSchema, local, `${label}: $ref ${missingRef}`) });
    }
  }
}

/**
 * `x.json` -> `y.json` -> `x.json`, or a `$dynamicRef` with no anchor, compiles, then validates
 * without end on any value: the stack would overflow on every record. One value tried at load time
 * finds such a loop before anything is read.
 */
function refuseEndlessLoop(validate: ValidateFunction, label: string): void {
  try {
    validate({});
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(`${label}: its $refs loop back without end (validating {} overflowed the stack): a $ref, or $dynamicRef, that leads back to itself?`);
    throw error;
  }
}

interface Precompiled {
  (data: unknown): boolean;
  /** The schema it was generated from: compared whole, which is cheaper at start-up than loading node:crypto to hash it. */
  schemaText?: string;
  /** Hex SHA-256 of the schema file's bytes, worked out at build time for the same reason. */
  sha256?: string;
}

/** The build-time validator of a bundled version (scripts/build-validator.mjs), if it was generated from exactly these bytes. */
function precompiled(text: string, version: string): Precompiled | undefined {
  try {
    const validate = packageRequire(`./dist/generated/envelope-validator-${version}.cjs`) as Precompiled;
    return validate.schemaText === text ? validate : undefined;
  } catch {
    // Not built yet (tests running from source before a build): compile instead.
    return undefined;
  }
}

export const sha256Hex = (bytes: Uint8Array | string): string => loadCrypto().createHash('sha256').update(bytes).digest('hex');

/**
 * `--schema FILE`, else the bundled schema of `version` (`latest`, or none: the newest bundled).
 * The two are one setting: the callers refuse both at once before they get here.
 */
export function loadEnvelopeSchema(path?: string, version?: string): EnvelopeSchema {
  if (path !== undefined) {
    const bytes = readFileBytes(path, 'schema');
    const compiled = compileEnvelopeSchema(parseJsonFile(bytes, path, 'schema'), path, dirname(resolve(path)));
    return { ...compiled, sha256: sha256Hex(bytes) };
  }
  const { name, file } = resolveSchemaVersion(version);
  const text = readFileSync(bundledSchemaPath(file), 'utf8');
  const document = asSchema(JSON.parse(text), 'the bundled schema');
  const generated = precompiled(text, name);
  const schema = generated ? described(document, 'bundled', generated as unknown as ValidateFunction) : compileEnvelopeSchema(document, 'bundled');
  return { ...schema, version: name, sha256: generated?.sha256 ?? sha256Hex(text), ...(generated && { asBuilt: true }) };
}

const bundledCategories = new Map<string, readonly string[]>();

/** The category set of a bundled version, read from its schema once (only when a message needs it). */
export function categoriesOfVersion(version: string): readonly string[] {
  let categories = bundledCategories.get(version);
  if (categories === undefined) {
    const { file } = resolveSchemaVersion(version);
    categories = categoriesOf(asSchema(JSON.parse(readFileSync(bundledSchemaPath(file), 'utf8')), 'the bundled schema'));
    bundledCategories.set(version, categories);
  }
  return categories;
}

/** The bundled versions, other than `schema`'s own, whose category set holds `category`, oldest first. */
export function otherVersionsWith(category: string, schema: Pick<EnvelopeSchema, 'version'>): string[] {
  return bundledSchemaVersions.map(({ name }) => name).filter((name) => name !== schema.version && categoriesOfVersion(name).includes(category));
}

/** Every category of every bundled version: a codes file may list codes under any of them. */
export function bundledVersionCategories(): string[] {
  return [...new Set(bundledSchemaVersions.flatMap(({ name }) => categoriesOfVersion(name)))];
}

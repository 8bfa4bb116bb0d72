// Reads a JSON file the user named (schema, codes, config). Any failure is a UsageError whose one
// line names the file, and for bad JSON the line and column: these end the run with exit 2.
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { readJsonAsset } from './assets.js';
import { ownSchemaValidator } from './lazy.js';
import { UsageError, describeError } from './errors.js';
import { LineIndex } from './framing/line-index.js';
import { parseJson } from './framing/nesting.js';
import { locateParseError } from './framing/parse-error.js';
import { isObject } from './checks/envelope.js';
import { schemaAt, typeMismatch } from './checks/schema-lookup.js';
import { didYouMean, nearestName } from './registry/nearest.js';
import { decodeWhole } from './sources/decode.js';

/** `fromStdin`: `path` is only the name standard input goes by (`merge -`). */
/** `hint`: said after a parse error, for a file kind that is often confused with another (an ndjson report given to merge). */
export function readJsonFile(path: string, what: string, fromStdin = false, hint?: string): unknown {
  return parseJsonFile(readFileBytes(path, what, fromStdin), path, what, hint);
}

/** The bytes of a file the user named, for a reader that needs them as well as the value (a schema's digest). */
export function readFileBytes(path: string, what: string, fromStdin = false): Buffer {
  try {
    return readFileSync(fromStdin ? 0 : path);
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${describeError(error)}`);
  }
}

/** The JSON value of a file's bytes, as readJsonFile reads them. */
export function parseJsonFile(bytes: Buffer, path: string, what: string, hint?: string): unknown {
  let text: string;
  try {
    text = decodeWhole(bytes);
  } catch (error) {
    // V8's "Cannot create a string longer than 0x1fffffe8 characters" says nothing of what to do.
    const tooLong = error instanceof Error && /string longer than/.test(error.message);
    throw new UsageError(`cannot read ${what} ${path}: ${tooLong ? `it is over 512 MiB, more than one string holds, and a ${what} is read whole` : describeError(error)}`);
  }
  try {
    return parseJson(text);
  } catch (error) {
    const failure = locateParseError(text, error);
    const { line, column } = new LineIndex(text).position(failure.offset);
    throw new UsageError(`${what} ${path}:${line}:${column}: ${failure.message}${hint === undefined ? '' : ` (${hint})`}`);
  }
}

const validators = new Map<string, ValidateFunction>();

/** `data/codes.schema.json` -> `codes`: the name its build-time validator goes by. */
export function ownSchemaName(schemaAsset: string): string {
  return schemaAsset.replace(/^.*\//, '').replace(/\.schema\.json$/, '');
}

/**
 * Reads one of the package's own file kinds (codes, baseline, report), validated by the schema the
 * package ships for it; the first problem names the file and the place, and `hint` says what fits.
 */
export function readValidatedJsonFile<T>(path: string, what: string, schemaAsset: string, hint: Hint): T {
  return validatedJson<T>(readJsonFile(path, what), path, what, schemaAsset, hint);
}

/** What fits, said after a problem: one text, or one for the part of the file at the problem's pointer. */
export type Hint = string | ((pointer: string) => string);

/** `data`, read from `path`, held to one of the package's own schemas (see readValidatedJsonFile). */
export function validatedJson<T>(data: unknown, path: string, what: string, schemaAsset: string, hint: Hint): T {
  let validate = validators.get(schemaAsset);
  if (!validate) validators.set(schemaAsset, (validate = ownSchemaValidator(ownSchemaName(schemaAsset), readJsonAsset(schemaAsset) as object)));
  if (validate(data)) return data as T;
  const first = validate.errors?.[0];
  const problem = first ? describeFileError(first, readJsonAsset(schemaAsset) as object, data) : 'invalid';
  throw new UsageError(`${what} ${path}${first?.instancePath ? ` at ${first.instancePath}` : ''}: ${problem} (${typeof hint === 'string' ? hint : hint(first?.instancePath ?? '')})`);
}

/**
 * One finding of a JSON report, by the report schema's own definition: merge checks a large
 * report's findings one at a time (src/report-reader.ts). A function of the report schema, so that
 * the build generates its validator from the same text (scripts/build-validator.mjs).
 */
export function reportFindingSchema(report: { $schema?: unknown; $defs?: unknown }): object {
  return { $schema: report.$schema, $defs: report.$defs, $ref: '#/$defs/finding' };
}

/**
 * ajv's `must NOT have additional properties` does not say which, and `must be equal to one of the
 * allowed values` not which values: the property (and the nearest the schema has there) and the
 * values are what a person fixing the file needs.
 */
export function describeFileError(error: ErrorObject, schema: object, data: unknown): string {
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params['additionalProperty']);
    const near = nearestName(key, Object.keys(propertiesAt(schema, error.schemaPath)));
    return `unknown key ${JSON.stringify(key)}${didYouMean(near)}`;
  }
  if (error.keyword === 'enum') return `must be one of: ${(error.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return `must be ${JSON.stringify(error.params['allowedValue'])}`;
  if (error.keyword === 'type') return typeMismatch(error.params['type'], data, error.instancePath);
  return error.message ?? 'is invalid';
}

/** The `properties` beside the keyword at `schemaPath` (`#/properties/summary/additionalProperties`). */
function propertiesAt(schema: object, schemaPath: string): object {
  const parent = schemaAt(schema, schemaPath.replace(/\/[^/]*$/, ''));
  const properties = isObject(parent) ? parent['properties'] : undefined;
  return isObject(properties) ? properties : {};
}

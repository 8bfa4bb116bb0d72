// Compiles the envelope schema once per run: the bundled copy of the MCEC schema, or `--schema FILE`.
// Nothing is fetched, ever: a remote $ref is a usage error.
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Ajv, MissingRefError, type AnySchemaObject, type Options, type ValidateFunction } from 'ajv';
import { bundledSchemaPath } from '../assets.js';
import { UsageError } from '../errors.js';
import { readJsonFile } from '../load-json.js';

export interface EnvelopeSchema {
  /** The schema's `$id`, when it has one. */
  id?: string;
  /** `bundled`, or the path given to --schema. */
  source: string;
  document: AnySchemaObject;
  validate: ValidateFunction;
  /** The closed category set: the enum at /$defs/error/properties/category/enum. */
  categories: string[];
}

const ajvOptions: Options = {
  allErrors: true,
  // verbose keeps the failing subschema and data on each error, which the messages quote.
  verbose: true,
  // The MCEC schema uses union types (["object", "null"]); user schemas may use keywords ajv's
  // strict mode frowns on. Meta-schema validation still rejects schemas that are invalid.
  strict: false,
  allowUnionTypes: true,
  logger: false,
};

function ajvFor(metaSchema: unknown) {
  const uri = typeof metaSchema === 'string' ? metaSchema : '';
  if (/draft-0[67]\/schema/.test(uri)) return new Ajv(ajvOptions);
  if (/draft\/2019-09\/schema/.test(uri)) return new Ajv2019(ajvOptions);
  return new Ajv2020(ajvOptions);
}

function categoriesOf(document: AnySchemaObject): string[] {
  const defs = (document['$defs'] ?? document['definitions']) as AnySchemaObject | undefined;
  const enumValues: unknown = defs?.['error']?.properties?.category?.enum;
  return Array.isArray(enumValues) ? enumValues.filter((v): v is string => typeof v === 'string') : [];
}

export function compileEnvelopeSchema(document: unknown, source: string): EnvelopeSchema {
  const label = source === 'bundled' ? 'the bundled schema' : `schema ${source}`;
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new UsageError(`${label}: a JSON Schema must be an object`);
  }
  const schema = document as AnySchemaObject;
  const ajv = ajvFor(schema['$schema']);
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    if (error instanceof MissingRefError) throw new UsageError(`${label}: remote $ref not fetched: ${error.missingRef}`);
    throw new UsageError(`${label} is not a valid JSON Schema: ${(error as Error).message}`);
  }
  const id = typeof schema['$id'] === 'string' ? schema['$id'] : undefined;
  return { ...(id !== undefined && { id }), source, document: schema, validate, categories: categoriesOf(schema) };
}

export function loadEnvelopeSchema(path?: string): EnvelopeSchema {
  if (path === undefined) return compileEnvelopeSchema(readJsonFile(bundledSchemaPath, 'schema'), 'bundled');
  return compileEnvelopeSchema(readJsonFile(path, 'schema'), path);
}

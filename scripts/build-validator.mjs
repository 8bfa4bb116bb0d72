// Build step: generates ajv standalone validators into dist/generated/, so that runs neither load
// ajv nor compile a schema at start:
//  - envelope-validator-<version>.cjs, for each bundled envelope schema version. It carries the
//    schema's text and the SHA-256 of its bytes; src/checks/schema-load.ts uses it only when the
//    shipped schema is the same.
//  - <name>-validator.cjs for the package's own file kinds (config, codes, baseline, report-v1, and
//    report-v1-finding, one finding of a report, which merge checks one at a time),
//    each carrying JSON.stringify of its schema; src/lazy.ts (ownSchemaValidator) uses it only when
//    the schema it would compile is the same (the config's has the rule ids filled in from the
//    catalog, so it is taken from dist/config.js, not from the file).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { ajvOptions, maxListedErrors } from '../dist/checks/schema-load.js';
import { bundledSchemaVersions } from '../dist/checks/schema-versions.js';
import { configSchema } from '../dist/config.js';
import { ownSchemaName, reportFindingSchema } from '../dist/load-json.js';
import { ownSchemaOptions } from '../dist/lazy.js';
import { boundedList, countOnly, sharedDefaults, untrackedProps } from '../dist/checks/validator-edits.js';

const require = createRequire(import.meta.url);
const { Ajv2020 } = require('ajv/dist/2020');
const standaloneCode = require('ajv/dist/standalone').default;

const out = new URL('../dist/generated/', import.meta.url);
mkdirSync(out, { recursive: true });

function generate(file, options, schema, schemaText, edit = (code) => code) {
  const ajv = new Ajv2020({ ...options, code: { source: true } });
  const validate = ajv.compile(schema);
  writeFileSync(new URL(file, out), `${edit(standaloneCode(ajv, validate))}\nmodule.exports.schemaText = ${JSON.stringify(schemaText)};\n`);
}

// One per bundled schema version, each with its file's SHA-256 (the report's schema.sha256), so
// that a run on any of them loads neither ajv nor node:crypto.
for (const { name, file } of bundledSchemaVersions) {
  const bytes = readFileSync(new URL(`../${file}`, import.meta.url));
  const text = bytes.toString('utf8');
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  // Edited as src/checks/validator-edits.ts says: no throwaway error objects or property notes, and a bounded list.
  const edit = (code) => `${sharedDefaults(boundedList(untrackedProps(countOnly(code)), maxListedErrors))}\nmodule.exports.sha256 = ${JSON.stringify(sha256)};`;
  generate(`envelope-validator-${name}.cjs`, ajvOptions, JSON.parse(text), text, edit);
}

const asset = (path) => JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8'));
const own = [['config', configSchema()], ...['data/codes.schema.json', 'data/baseline.schema.json', 'schemas/report-v1.schema.json'].map((path) => [ownSchemaName(path), asset(path)]), ['report-v1-finding', reportFindingSchema(asset('schemas/report-v1.schema.json'))]];
for (const [name, schema] of own) generate(`${name}-validator.cjs`, ownSchemaOptions, schema, JSON.stringify(schema));

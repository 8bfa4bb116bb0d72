// Build step: generates dist/generated/envelope-validator.cjs, ajv's standalone validator for the
// bundled envelope schema, so that runs on the bundled schema neither load ajv nor compile at start.
// It carries the schema's text; src/checks/schema-load.ts uses it only when the shipped schema is the same.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ajvOptions } from '../dist/checks/schema-load.js';

const require = createRequire(import.meta.url);
const { Ajv2020 } = require('ajv/dist/2020');
const standaloneCode = require('ajv/dist/standalone').default;

const text = readFileSync(new URL('../data/agent-tool-result.schema.json', import.meta.url), 'utf8');
const ajv = new Ajv2020({ ...ajvOptions, code: { source: true } });
const validate = ajv.compile(JSON.parse(text));
const code = `${standaloneCode(ajv, validate)}\nmodule.exports.schemaText = ${JSON.stringify(text)};\n`;
mkdirSync(new URL('../dist/generated/', import.meta.url), { recursive: true });
writeFileSync(new URL('../dist/generated/envelope-validator.cjs', import.meta.url), code);

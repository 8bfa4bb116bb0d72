// Libraries that only some runs need, loaded on first use: start-up time is part of the product
// (a CI step checking one small file should cost little more than `node -e 0`). ajv is needed only
// for a --schema, codes, config or baseline file (the bundled schema is precompiled at build time);
// jsonc-parser only to word a syntax error.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const loadAjv = (): typeof import('ajv') => require('ajv');
export const loadAjv2019 = (): typeof import('ajv/dist/2019.js') => require('ajv/dist/2019.js');
export const loadAjv2020 = (): typeof import('ajv/dist/2020.js') => require('ajv/dist/2020.js');
export const loadJsoncParser = (): typeof import('jsonc-parser') => require('jsonc-parser');

/** A validator for one of the package's own JSON files (codes, config, baseline), compiled once. */
export function compileOwnSchema(schema: object, options: { allErrors?: boolean } = {}) {
  const { Ajv2020 } = loadAjv2020();
  return new Ajv2020({ allErrors: options.allErrors ?? false }).compile(schema);
}

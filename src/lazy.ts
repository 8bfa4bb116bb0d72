// Libraries that only some runs need, loaded on first use: start-up time is part of the product
// (a CI step checking one small file should cost little more than `node -e 0`). ajv is needed only
// for a --schema, codes, config or baseline file (the bundled schema is precompiled at build time);
// jsonc-parser only to word a syntax error; node:crypto (about 9 ms to load) only for fingerprints,
// node:zlib only for gzip inputs, globby only for folders and globs.
import { createRequire } from 'node:module';
import { assetPath } from './assets.js';

let requireFromRoot: NodeJS.Require | undefined;

/** Resolves from the package root, the same from tsc's output and from the CLI bundle. */
export function packageRequire(id: string): unknown {
  return (requireFromRoot ??= createRequire(assetPath('package.json')))(id);
}

export const loadAjv = (): typeof import('ajv') => packageRequire('ajv') as typeof import('ajv');
export const loadAjv2019 = (): typeof import('ajv/dist/2019.js') => packageRequire('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js');
export const loadAjv2020 = (): typeof import('ajv/dist/2020.js') => packageRequire('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
export const loadZlib = (): typeof import('node:zlib') => packageRequire('node:zlib') as typeof import('node:zlib');
export const loadCrypto = (): typeof import('node:crypto') => packageRequire('node:crypto') as typeof import('node:crypto');
export const loadJsoncParser = (): typeof import('jsonc-parser') => packageRequire('jsonc-parser') as typeof import('jsonc-parser');

/**
 * globby is ESM only, so it is imported, not required. The CLI bundle holds it (a dynamic import
 * there is code that runs on first use): loaded from node_modules it was ~100 CommonJS modules,
 * 0.3 s on a slow file system before the first folder was read.
 */
export const loadGlobby = () => import('globby');

/** A validator for one of the package's own JSON files (codes, config, baseline), compiled once. */
export function compileOwnSchema(schema: object, options: { allErrors?: boolean } = {}) {
  const { Ajv2020 } = loadAjv2020();
  return new Ajv2020({ allErrors: options.allErrors ?? false }).compile(schema);
}

// Libraries that only some runs need, loaded on first use: start-up time is part of the product
// (a CI step checking one small file should cost little more than `node -e 0`). ajv is needed only
// for a --schema file (every schema the package ships has a validator generated at build time);
// jsonc-parser only to word a syntax error; node:crypto (slow to load) only for fingerprints,
// node:zlib only for gzip inputs, fast-glob only for folders, globby only for globs, micromatch only for `!` exclusions,
// node:stream only for inputs read as streams (stdin, gzip, a file past one chunk), node:tty only to ask a character device.
import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { assetPath } from './assets.js';

let requireFromRoot: NodeJS.Require | undefined;

/** Resolves from the package root, the same from tsc's output and from the CLI bundle. */
export function packageRequire(id: string): unknown {
  return (requireFromRoot ??= createRequire(assetPath('package.json')))(id);
}

export const loadAjv = (): typeof import('ajv') => packageRequire('ajv') as typeof import('ajv');
export const loadAjv2019 = (): typeof import('ajv/dist/2019.js') => packageRequire('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js');
export const loadAjv2020 = (): typeof import('ajv/dist/2020.js') => packageRequire('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
export const loadAjvFormats = (): typeof import('ajv-formats').default => (packageRequire('ajv-formats') as { default: typeof import('ajv-formats').default }).default;
/** node:stream for inputs read as streams: a small file is read whole. */
export const loadStream = (): typeof import('node:stream') => packageRequire('node:stream') as typeof import('node:stream');
/** node:tty (which loads node:net and node:stream) only to ask whether a character device is a terminal (cli/stdio.ts). */
export const loadTty = (): typeof import('node:tty') => packageRequire('node:tty') as typeof import('node:tty');
export const loadZlib = (): typeof import('node:zlib') => packageRequire('node:zlib') as typeof import('node:zlib');
/** node:net only to read a FIFO named as an input (sources/special.ts). */
export const loadNet = (): typeof import('node:net') => packageRequire('node:net') as typeof import('node:net');
export const loadCrypto = (): typeof import('node:crypto') => packageRequire('node:crypto') as typeof import('node:crypto');
/** node:v8 only when the CLI raises V8's shape limit for its run (src/v8-tuning.ts). */
export const loadV8 = (): typeof import('node:v8') => packageRequire('node:v8') as typeof import('node:v8');
export const loadJsoncParser = (): typeof import('jsonc-parser') => packageRequire('jsonc-parser') as typeof import('jsonc-parser');

/**
 * globby is ESM only, so it is imported, not required. The CLI bundle holds it (a dynamic import
 * there is code that runs on first use): loaded from node_modules it is many CommonJS modules,
 * each a file to find and read before the first folder is.
 */
export const loadGlobby = () => import('globby');
/** fast-glob (globby's own walker) only for a folder's walk: src/sources/expand.ts says why. */
export const loadFastGlob = (): Promise<{ default: typeof import('fast-glob') }> => import('fast-glob');
/** micromatch (globby's own matcher) only for `!` exclusions. */
export const loadMicromatch = (): Promise<{ default: typeof import('micromatch') }> => import('micromatch');

/** ajv's options for the package's own schemas, at build time (scripts/build-validator.mjs) and here. */
export const ownSchemaOptions = { allErrors: false } as const;

interface Generated extends ValidateFunction {
  /** JSON.stringify of the schema it was generated from. */
  schemaText?: string;
}

/**
 * The validator of one of the package's own file kinds (config, codes, baseline, report): the one
 * generated at build time (dist/generated/<name>-validator.cjs) when it was made from this very
 * schema, else one compiled now: loading ajv and compiling would cost every run with a config file
 * more than the rest of a small run's start-up.
 */
export function ownSchemaValidator(name: string, schema: object): ValidateFunction {
  try {
    const generated = packageRequire(`./dist/generated/${name}-validator.cjs`) as Generated;
    if (generated.schemaText === JSON.stringify(schema)) return generated;
  } catch {
    // Not built (tests running from source before a build): compiled below.
  }
  const { Ajv2020 } = loadAjv2020();
  return new Ajv2020(ownSchemaOptions).compile(schema);
}

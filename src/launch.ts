// Starts the CLI bundle (dist/cli/cli.cjs, made by scripts/build-cli.mjs) with V8's code cache
// (dist/cli/cli.cjs.cache, made at build time by running the CLI once): V8 then neither parses nor
// compiles what the cache holds, about a fifth of a small run's start-up (issue 5). Node 20 has no
// module compile cache of its own, and vm.Script is the one API that takes one.
//
// The cache is only ever a hint: V8 checks it against its own version, its flags and the source,
// and compiles as usual when it does not fit (another Node, a rebuilt bundle, a missing file).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

export interface Cli {
  main(argv: readonly string[]): Promise<number>;
}

export const bundleUrl = new URL('./cli/cli.cjs', import.meta.url);
export const codeCacheUrl = new URL('./cli/cli.cjs.cache', import.meta.url);

function readCache(): Buffer | undefined {
  try {
    return readFileSync(codeCacheUrl);
  } catch {
    return undefined;
  }
}

/** The bundle, run as CommonJS is; the build defines its `import.meta.url` as the last parameter. */
export function loadCli(): { cli: Cli; script: Script } {
  const filename = fileURLToPath(bundleUrl);
  const cachedData = readCache();
  // One line, as Node's own CommonJS wrapper, so that stack traces keep the bundle's line numbers.
  const source = `(function (exports, require, module, __filename, __dirname, __mcecModuleUrl) {${readFileSync(filename, 'utf8')}\n})`;
  const script = new Script(source, { filename, ...(cachedData && { cachedData }) });
  const module = { exports: {} as Cli };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(filename), module, filename, dirname(filename), bundleUrl.href);
  return { cli: module.exports, script };
}

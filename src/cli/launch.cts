// Starts the CLI bundle (dist/cli/cli.cjs, made by scripts/build-cli.mjs) with V8's code cache
// (dist/cli/cli.cjs.cache, made at build time by running the CLI once): V8 then neither parses nor
// compiles what the cache holds, a large part of a small run's start-up (issue 5). Node 20 has no
// module compile cache of its own, and vm.Script is the one API that takes one.
//
// The cache is only ever a hint: V8 checks it against its own version, its flags and the source,
// and compiles as usual when it does not fit (another Node, a rebuilt bundle, a missing file).
//
// CommonJS, as bin/mcec-result.js is: an ES module entry costs Node more to start.
import fs = require('node:fs');
import nodeModule = require('node:module');
import path = require('node:path');
import url = require('node:url');
import vm = require('node:vm');

const { readFileSync } = fs;
const { join } = path;

type Cli = { main(argv: readonly string[]): Promise<number> };

const bundlePath = join(__dirname, 'cli.cjs');
const codeCachePath = `${bundlePath}.cache`;

function readCache(): Buffer | undefined {
  try {
    return readFileSync(codeCachePath);
  } catch {
    return undefined;
  }
}

/** The bundle, run as CommonJS is; the build defines its `import.meta.url` as the last parameter. */
function loadCli(): { cli: Cli; script: vm.Script } {
  const cachedData = readCache();
  // One line, as Node's own CommonJS wrapper, so that stack traces keep the bundle's line numbers.
  const source = `(function (exports, require, module, __filename, __dirname, __mcecModuleUrl) {${readFileSync(bundlePath, 'utf8')}\n})`;
  const script = new vm.Script(source, { filename: bundlePath, ...(cachedData && { cachedData }) });
  // Filled in by the bundle's `module.exports`, as for any CommonJS module.
  const module = { exports: {} as Cli };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, nodeModule.createRequire(bundlePath), module, bundlePath, __dirname, url.pathToFileURL(bundlePath).href);
  return { cli: module.exports, script };
}

export = { bundlePath, codeCachePath, loadCli };

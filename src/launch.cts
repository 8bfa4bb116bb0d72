// Starts the CLI bundle (dist/cli/cli.cjs, made by scripts/build-cli.mjs) with V8's code cache
// (dist/cli/cli.cjs.cache, made at build time by running the CLI once): V8 then neither parses nor
// compiles what the cache holds, about a fifth of a small run's start-up (issue 5). Node 20 has no
// module compile cache of its own, and vm.Script is the one API that takes one.
//
// The cache is only ever a hint: V8 checks it against its own version, its flags and the source,
// and compiles as usual when it does not fit (another Node, a rebuilt bundle, a missing file).
//
// CommonJS, as bin/mcec-result.js is: an ES module entry costs Node ~10 ms more to start.
import fs = require('node:fs');
import nodeModule = require('node:module');
import path = require('node:path');
import url = require('node:url');
import v8 = require('node:v8');
import vm = require('node:vm');

const { readFileSync } = fs;
const { join } = path;

type Cli = { main(argv: readonly string[]): Promise<number> };

const bundlePath = join(__dirname, 'cli', 'cli.cjs');
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
  run(module.exports, nodeModule.createRequire(bundlePath), module, bundlePath, join(__dirname, 'cli'), url.pathToFileURL(bundlePath).href);
  return { cli: module.exports, script };
}

/**
 * V8 keeps at most four object shapes (hidden classes) per property read site in its inline caches;
 * past that, every read there takes the generic, hashed lookup. Envelopes parsed from JSON have a
 * shape per member order: a log's valid records have four, its invalid ones bring more, and from
 * the first of those on, every member read of the validator, the rules and the tally was generic
 * (~4 % of a 1M-line run; with the invalid lines moved to the end, that lookup was gone). Sixteen
 * shapes a site: a 1M-line run ~2.5 % faster, the same report.
 *
 * For this process, by the command line only (the library leaves its caller's V8 alone), after the
 * bundle has run: V8 checks a code cache against the flags it was made with, Node's own modules'
 * cache too, and a change before them cost every start ~3 ms (1.28x -> 1.33x `node -e 0`) in
 * Node modules compiled afresh. The build's warm-up, which writes the cache, does not call this.
 */
function tuneV8(): void {
  // Made first, under the flags Node's cache was made with: stderr's stream brings most of the Node
  // modules a run loads later (a tty's or a pipe's, as stdout's), and every check run makes it.
  void process.stderr;
  v8.setFlagsFromString('--max-valid-polymorphic-map-count=16');
}

export = { bundlePath, codeCachePath, loadCli, tuneV8 };

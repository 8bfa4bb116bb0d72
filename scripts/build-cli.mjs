// Build step: bundles the CLI (tsc's output in dist/) into dist/cli/, so that `mcec-result check`
// starts with one file instead of ~30 modules resolved one by one by Node's ESM loader, and writes
// V8's code cache for it (issue 5: start-up within 1.4x `node -e 0`). src/cli/launch.cts runs the bundle
// with the cache; the library entry points stay tsc's output.
//
// - dist/cli/cli.cjs is CommonJS because it runs as a vm.Script, the API that takes a code cache.
//   Its `import.meta.url` comes from the launcher. A vm.Script cannot `import()` without an
//   experimental flag, so nothing it imports may stay outside: dynamic imports become code in the
//   bundle that runs on first use (the formatters, explain, merge, baselines, the worker pool, and
//   globby with its ~100 CommonJS modules).
// - ajv and jsonc-parser stay outside, required lazily from node_modules as before; bundling ajv
//   in made every start slower.
// - dist/cli/worker.js is the worker threads' own bundle: src/parallel/pool.ts starts `./worker.js`
//   next to its own module, which holds for dist/parallel/ and dist/cli/ alike.
// - The cache is written after a warm-up run on two sample files, so that it holds the functions a
//   check compiles, not only the top level. Not on a folder: globby's functions made the cache 60 %
//   larger, and every start reads and deserializes it.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const outdir = `${root}dist/cli`;
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: ['ajv', 'ajv/*', 'jsonc-parser', 'yauzl'],
  logLevel: 'warning',
  // Every start reads the bundle and hands it to V8 (page faults make that ~10 us a KiB here): a
  // third less text was ~4 ms less start-up. Names are kept, for stack traces and profiles.
  minifyWhitespace: true,
};

/**
 * Dependencies that require a Node module as they load, for work this CLI never asks of them:
 * commander node:child_process (executable subcommands, which this CLI has none of: ~4 ms of every
 * start here, with net, dgram and the streams behind it), and, in a glob's walk, globby's
 * unicorn-magic node:child_process (it promisifies execFile for helpers globby does not use) and
 * globby node:fs/promises (for .gitignore files, which no walk here reads: readline and the file
 * watchers behind it). In the bundle each gets a stand-in that requires the module on first use.
 */
const lazyBuiltins = [
  { module: 'child_process', importers: ['/node_modules/commander/', '/node_modules/unicorn-magic/'], functions: ['spawn', 'execFile', 'execFileSync'] },
  { module: 'fs/promises', importers: ['/node_modules/globby/'], functions: ['readFile'] },
];
/**
 * chalk works out at load whether stdout and stderr take colour, for its default instances, and
 * loads node:tty for it (with node:net and node:stream behind it), at every start that writes the
 * human report. The CLI uses none of those instances: it decides colour itself
 * (decideColor in src/cli/cli-options.ts, from --color, the environment and src/cli/stdio.ts's
 * isTerminal) and makes its own `new Chalk({ level })`. In the bundle chalk's `#supports-color`
 * import is the variant chalk ships for platforms without a terminal, which reads none.
 */
const chalkReadsNoTerminal = {
  name: 'chalk-reads-no-terminal',
  setup(builder) {
    builder.onResolve({ filter: /^#supports-color$/ }, ({ importer }) =>
      importer.includes('/node_modules/chalk/') ? { path: `${root}node_modules/chalk/source/vendor/supports-color/browser.js` } : undefined,
    );
  },
};

const lazyBuiltin = {
  name: 'lazy-builtin',
  setup(builder) {
    for (const { module, importers } of lazyBuiltins) {
      const filter = new RegExp(`^(node:)?${module.replace('/', '\\/')}$`);
      builder.onResolve({ filter }, ({ importer }) => (importers.some((part) => importer.includes(part)) ? { path: module, namespace: 'lazy-builtin' } : undefined));
    }
    // The functions those importers use, each requiring the module when called: a stand-in with
    // every member would have to list the module's names, which are known only once it is loaded.
    builder.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => ({
      contents: `let loaded;\nconst real = () => (loaded ??= require(${JSON.stringify(path)}));\n${lazyBuiltins
        .find(({ module }) => module === path)
        .functions.map((name) => `exports.${name} = (...args) => real().${name}(...args);`)
        .join('\n')}`,
      loader: 'js',
    }));
  },
};

// Only the bundle's own files: dist/cli/ also holds tsc's output of src/cli/, the bundle's entry.
for (const file of ['cli.cjs', 'cli.cjs.cache', 'worker.js']) rmSync(`${outdir}/${file}`, { force: true });
await build({
  ...common,
  entryPoints: ['dist/cli/cli.js'],
  outfile: `${outdir}/cli.cjs`,
  format: 'cjs',
  define: { 'import.meta.url': '__mcecModuleUrl' },
  plugins: [lazyBuiltin, chalkReadsNoTerminal],
});
await build({
  ...common,
  entryPoints: ['dist/parallel/worker.js'],
  outfile: `${outdir}/worker.js`,
  format: 'esm',
  // commander is not in the worker, but a bundled CommonJS dependency would need a real `require`.
  banner: { js: "import { createRequire as __mcecCreateRequire } from 'node:module';\nconst require = __mcecCreateRequire(import.meta.url);" },
});

const warmUp = `
import { writeFileSync } from 'node:fs';
import { codeCachePath, loadCli } from './dist/cli/launch.cjs';
const { cli, script } = loadCli();
for (const format of ['human', 'json']) await cli.main(['node', 'mcec-result', 'check', '--no-config', '--exit-zero', '-f', format, 'fixtures/samples/agent-run-2026-07-01.jsonl', 'fixtures/samples/nightly-smoke.json']);
writeFileSync(codeCachePath, script.createCachedData());
`;
execFileSync(process.execPath, ['--input-type=module', '-e', warmUp], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });

#!/usr/bin/env node
// `npm test`: builds, checks the import graph and type-checks the sources and the tests, then runs
// vitest with any arguments given (`npm test -- test/cli.test.ts`). The build compiles without
// checking types (`tsc --noCheck`), so tsconfig.test.json's check, whose program holds src/ with
// the build's options, is the one that finds a type error. The two read only sources and each keeps
// one core busy, so they run side by side; vitest starts when both succeed, because its CLI tests
// run the built binary. Exits with the first failing step's status.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/${name}`, import.meta.url));

/** Runs one command with this terminal; resolves to its exit status (1 when a signal ended it). */
function run(file, args, shell = false) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: root, stdio: 'inherit', shell });
    child.on('error', (error) => {
      process.stderr.write(`npm test: could not run ${file}: ${error.message}\n`);
      resolve(1);
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const node = process.execPath;
// npm_execpath is the npm running this script; `npm` on PATH needs a shell (npm.cmd on Windows).
const build = process.env.npm_execpath
  ? run(node, [process.env.npm_execpath, 'run', 'build', '--silent'])
  : run('npm', ['run', 'build', '--silent'], true);
const steps = await Promise.all([
  build,
  run(node, ['scripts/import-cycles.mjs']).then((status) =>
    status === 0 ? run(node, [bin('typescript/bin/tsc'), '-p', 'tsconfig.test.json']) : status,
  ),
]);
const failed = steps.find((status) => status !== 0);
if (failed !== undefined) process.exit(failed);
process.exit(await run(node, [bin('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)]));

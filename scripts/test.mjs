#!/usr/bin/env node
// `npm test`: builds, checks the import graph and type-checks the sources and the tests, and runs
// vitest with any arguments given (`npm test -- test/cli.test.ts`). The build compiles without
// checking types (`tsc --noCheck`), so tsconfig.test.json's check, whose program holds src/ with
// the build's options, is the one that finds a type error.
//
// Vitest starts once the build and the import graph's check succeed, because its CLI tests run the
// built binary. The type check reads only sources, so it runs from the start beside the build and
// then beside vitest: it keeps a core busy that the build alone leaves idle. Its output is held and
// printed after vitest's, so that it does not break into vitest's report. Exits with the first
// failing step's status, in the order build, import graph, vitest, type check.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => fileURLToPath(new URL(`../node_modules/${name}`, import.meta.url));

/**
 * Runs one command; resolves to its exit status (1 when a signal ended it) and, when `held`, to
 * its output (stdout and stderr in the order written) for the caller to print.
 */
function run(file, args, { shell = false, held = false } = {}) {
  return new Promise((resolve) => {
    const output = [];
    const child = spawn(file, args, { cwd: root, stdio: held ? ['inherit', 'pipe', 'pipe'] : 'inherit', shell });
    if (held) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => {
      output.push(Buffer.from(`npm test: could not run ${file}: ${error.message}\n`));
      if (!held) process.stderr.write(Buffer.concat(output));
      resolve({ status: 1, output: Buffer.concat(output) });
    });
    child.on('close', (code) => resolve({ status: code ?? 1, output: Buffer.concat(output) }));
  });
}

const node = process.execPath;
const typecheck = run(node, [bin('typescript/bin/tsc'), '-p', 'tsconfig.test.json'], { held: true });
// npm_execpath is the npm running this script; `npm` on PATH needs a shell (npm.cmd on Windows).
const build = process.env.npm_execpath
  ? run(node, [process.env.npm_execpath, 'run', 'build', '--silent'])
  : run('npm', ['run', 'build', '--silent'], { shell: true });
const steps = await Promise.all([build, run(node, ['scripts/import-cycles.mjs'])]);
let failed = steps.find(({ status }) => status !== 0)?.status;
if (failed === undefined) {
  const vitest = await run(node, [bin('vitest/vitest.mjs'), 'run', ...process.argv.slice(2)]);
  if (vitest.status !== 0) failed = vitest.status;
}
const checked = await typecheck;
process.stdout.write(checked.output);
if (checked.status !== 0) process.stderr.write(`npm test: the type check (tsc -p tsconfig.test.json) failed, status ${checked.status}\n`);
process.exit(failed ?? checked.status);

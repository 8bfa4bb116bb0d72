#!/usr/bin/env node
// Writes the report of every fixture in every format into one folder, so that two builds can be
// compared file by file (`diff -r before after`): a change that claims to keep behaviour shows it
// there. Usage: node scripts/fixture-reports.mjs <out-folder> [fixtures-folder]
// Each fixture is checked alone, from the repository root, with colours off; the exit status is
// written beside the reports as `<fixture>.exit`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const [outArg, fixturesArg = 'fixtures'] = process.argv.slice(2);
if (!outArg) {
  process.stderr.write('usage: node scripts/fixture-reports.mjs <out-folder> [fixtures-folder]\n');
  process.exit(2);
}
const out = resolve(outArg);
const formats = ['human', 'json', 'ndjson', 'sarif', 'junit', 'github', 'markdown'];
const binary = join(root, 'bin/mcec-result.js');

/** Every file below `dir`, sorted by code point; README.md files describe fixtures and are none. */
function files(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...files(path));
    else if (name !== 'README.md') found.push(path);
  }
  return found;
}

const env = { ...process.env, NO_COLOR: '1' };
delete env.FORCE_COLOR;
let count = 0;
for (const file of files(resolve(root, fixturesArg))) {
  const name = relative(root, file);
  const args = ['check', name, ...formats.flatMap((format) => ['-f', `${format}=${join(out, name)}.${format}`])];
  mkdirSync(dirname(join(out, name)), { recursive: true });
  const run = spawnSync(process.execPath, [binary, ...args], { cwd: root, env, encoding: 'utf8' });
  writeFileSync(`${join(out, name)}.exit`, `${run.status}\n${run.stderr}`);
  count++;
}
process.stdout.write(`${count} fixtures, ${formats.length} formats each, in ${out}\n`);

#!/usr/bin/env node
// Prints every import cycle among the TypeScript modules of a folder (`src/` unless one is named) and
// exits 1 when there is one, 0 otherwise: the pipeline's layering holds only while no module reaches
// back to one that imports it. Type-only imports count, as do `export ... from`, `import x = require()`
// and `import('...')` with a literal path (a call or a type), so that a module that needs only a type
// from another still takes part. TypeScript's own pre-processor reads the imports (comments and
// strings are no imports to it); only relative specifiers are followed, `./x.js` standing for `./x.ts`
// or `./x.cts`. Usage: node scripts/import-cycles.mjs [folder] (exit 2 when the folder is none)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const folder = process.argv[2] === undefined ? resolve(import.meta.dirname, '../src') : resolve(process.argv[2]);
if (!existsSync(folder) || !statSync(folder).isDirectory()) {
  process.stderr.write(`import-cycles: ${folder} is no folder; usage: node scripts/import-cycles.mjs [folder]\n`);
  process.exit(2);
}

/** Every `.ts`/`.cts` file below `dir` (declaration files hold no imports of ours), sorted by code point. */
function modules(dir) {
  const found = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...modules(path));
    else if (/\.c?ts$/.test(name) && !/\.d\.c?ts$/.test(name)) found.push(path);
  }
  return found;
}

/** The module a relative specifier names, or undefined when it names none of the folder's modules. */
function resolveSpecifier(from, specifier, known) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const target = resolve(dirname(from), specifier);
  const stem = target.replace(/\.(c|m)?js$/, '');
  const candidates = [target, `${stem}.ts`, `${stem}.cts`, join(target, 'index.ts')];
  return candidates.find((candidate) => known.has(candidate));
}

const files = modules(folder);
const known = new Set(files);
/** @type {Map<string, string[]>} each module's imports among the folder's modules, in source order */
const graph = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = importedFiles.map(({ fileName }) => resolveSpecifier(file, fileName, known)).filter((target) => target !== undefined);
  graph.set(file, [...new Set(targets)]);
}

/** Tarjan's strongly connected components: each of more than one module, or one importing itself, holds a cycle. */
function components() {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (node) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node)) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node), index.get(target)));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node).includes(node)) found.push(component);
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return found;
}

/** A shortest cycle through `start` inside `members` (breadth first), as a path that ends where it starts. */
function cycleThrough(start, members) {
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let step = node; step !== start; step = previous.get(step)) path.splice(1, 0, step);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

const name = (file) => relative(folder, file).split('\\').join('/');
const cycles = components()
  .map((component) => component.sort())
  .sort((a, b) => (a[0] < b[0] ? -1 : 1));
if (cycles.length === 0) {
  process.stdout.write(`no import cycle in ${files.length} modules\n`);
  process.exit(0);
}
// Components in order of their first module, each named whole (its modules sorted), then a shortest
// cycle through each of its modules, each cycle once however rotated: a component of several loops
// shows every loop, since one fix may not end them all.
for (const component of cycles) {
  const members = new Set(component);
  process.stdout.write(`import cycle among ${component.length} modules: ${component.map(name).join(', ')}\n`);
  const printed = new Set();
  for (const start of component) {
    const loop = cycleThrough(start, members).slice(0, -1).map(name);
    const first = loop.indexOf([...loop].sort()[0]);
    const rotated = [...loop.slice(first), ...loop.slice(0, first)];
    const path = [...rotated, rotated[0]].join(' -> ');
    if (printed.has(path)) continue;
    printed.add(path);
    process.stdout.write(`  ${path}\n`);
  }
}
process.stdout.write(`${cycles.length} import cycle${cycles.length === 1 ? '' : 's'} in ${files.length} modules\n`);
process.exit(1);

// Command-line inputs -> the list of sources to read, in the order given (spec section 7, Paths):
// `-` is stdin; an argument that exists on disk is a file or a folder (searched recursively);
// anything else is a glob. Files found under a folder or glob are sorted by code point.
import { statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { describeError } from '../errors.js';
// globby (with fast-glob and micromatch) is loaded only when a folder or glob is given: a run on
// named files should not pay for it at start-up.
import { loadGlobby } from '../lazy.js';
import type { InputFailure } from '../types.js';

export interface InputSource {
  /** The name used in reports. */
  name: string;
  /** Path to open; undefined for standard input. */
  path?: string;
}

export const searchedExtensions = ['json', 'jsonl', 'ndjson', 'log'];
const folderPattern = `**/*.{${searchedExtensions.join(',')}}{,.gz}`;

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toSlashes(path: string): string {
  return path.replaceAll('\\', '/');
}

// Synchronous: one stat per argument, and node:fs/promises need not be loaded for it.
function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}


/** A source, and the resolved path that tells whether another argument named the same file. */
interface Found {
  source: InputSource;
  key: string;
}

function found(name: string, path = name): Found {
  return { source: { name, path }, key: resolve(path) };
}

async function expandOne(arg: string, stdinName: string): Promise<Found[] | InputFailure> {
  if (arg === '-') return [{ source: { name: stdinName }, key: '\0stdin' }];
  const asGiven = toSlashes(arg);
  let info;
  let path = arg;
  try {
    info = statOrUndefined(arg) ?? (asGiven !== arg ? statOrUndefined((path = asGiven)) : undefined);
  } catch (error) {
    return { source: asGiven, message: `cannot read ${asGiven}: ${describeError(error)}` };
  }
  if (info?.isDirectory()) {
    const { globby } = await loadGlobby();
    const files = await globby(folderPattern, { cwd: path, onlyFiles: true, followSymbolicLinks: false });
    if (files.length === 0) return { source: asGiven, message: `no input files in ${asGiven}` };
    const base = asGiven.replace(/\/+$/, '');
    // globby's paths are normalised already: the folder is resolved once, not each of its 10k files.
    const folder = resolve(path);
    return files.sort(byCodePoint).map((relative) => {
      const name = `${base}/${relative}`;
      return { source: { name, path: name }, key: `${folder}${sep}${sep === '/' ? relative : relative.replaceAll('/', sep)}` };
    });
  }
  if (info) return [found(asGiven, path)];
  const { globby, isDynamicPattern } = await loadGlobby();
  if (!isDynamicPattern(asGiven)) return { source: asGiven, message: `cannot read ${asGiven}: no such file or directory` };
  const files = await globby(asGiven, { onlyFiles: true });
  if (files.length === 0) return { source: asGiven, message: `no input files in ${asGiven}` };
  return files.sort(byCodePoint).map((name) => found(name));
}

export async function expandInputs(args: readonly string[], stdinName = '-'): Promise<{ sources: InputSource[]; failures: InputFailure[] }> {
  const sources: InputSource[] = [];
  const failures: InputFailure[] = [];
  const seen = new Set<string>();
  for (const arg of args) {
    const result = await expandOne(arg, stdinName);
    if (!Array.isArray(result)) {
      failures.push(result);
      continue;
    }
    for (const { source, key } of result) {
      if (seen.has(key)) continue;
      seen.add(key);
      sources.push(source);
    }
  }
  return { sources, failures };
}

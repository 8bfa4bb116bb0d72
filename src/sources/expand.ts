// Command-line inputs -> the list of sources to read, in the order given (spec section 7, Paths):
// `-` is stdin; an argument that exists on disk is a file or a folder (searched recursively);
// anything else is a glob. Files found under a folder or glob are sorted by code point.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
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


async function expandOne(arg: string, stdinName: string): Promise<InputSource[] | InputFailure> {
  if (arg === '-') return [{ name: stdinName }];
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
    const found = await globby(folderPattern, { cwd: path, onlyFiles: true, followSymbolicLinks: false });
    if (found.length === 0) return { source: asGiven, message: `no input files in ${asGiven}` };
    const base = asGiven.replace(/\/+$/, '');
    return found.sort(byCodePoint).map((relative) => {
      const name = `${base}/${relative}`;
      return { name, path: name };
    });
  }
  if (info) return [{ name: asGiven, path }];
  const { globby, isDynamicPattern } = await loadGlobby();
  if (!isDynamicPattern(asGiven)) return { source: asGiven, message: `cannot read ${asGiven}: no such file or directory` };
  const found = await globby(asGiven, { onlyFiles: true });
  if (found.length === 0) return { source: asGiven, message: `no input files in ${asGiven}` };
  return found.sort(byCodePoint).map((name) => ({ name, path: name }));
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
    for (const source of result) {
      const key = source.path === undefined ? '\0stdin' : resolve(source.path);
      if (seen.has(key)) continue;
      seen.add(key);
      sources.push(source);
    }
  }
  return { sources, failures };
}

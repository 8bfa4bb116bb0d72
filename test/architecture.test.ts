// ARCHITECTURE.md is the map a newcomer reads in minutes (issue 33, item 3): short lines, few of
// them, and true of the tree: every `src/` path it names exists, and every folder and top-level
// module of `src/` is on it, so that a module added or moved without updating the map fails here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const page = readFileSync(join(repoRoot, 'ARCHITECTURE.md'), 'utf8');
const lines = page.replace(/\n$/, '').split('\n');

/** Every folder under `src/`, as a path relative to `src/` (`checks`, `checks/rules`, ...). */
function folders(relative = ''): string[] {
  return readdirSync(join(repoRoot, 'src', relative), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const path = relative === '' ? entry.name : `${relative}/${entry.name}`;
      return [path, ...folders(path)];
    });
}

describe('ARCHITECTURE.md', () => {
  it('has at most 150 lines, none over 300 characters', () => {
    expect(lines.length).toBeLessThanOrEqual(150);
    const long = lines.map((line, index) => ({ line: index + 1, length: [...line].length })).filter(({ length }) => length > 300);
    expect(long).toEqual([]);
  });

  it('names only src/ paths that exist', () => {
    // `src/checks/rules/<id>.ts` is a pattern: the folder before the placeholder must exist.
    const named = [...page.matchAll(/\bsrc\/[\w./-]*/g)].map((m) => m[0].replace(/\.+$/, ''));
    expect(named.length).toBeGreaterThan(20);
    const missing = [...new Set(named)].filter((path) => !existsSync(join(repoRoot, path)));
    expect(missing).toEqual([]);
  });

  it('names every folder under src/ and every module directly in src/', () => {
    // A nested folder may be named from its stage's folder (`checks/rules/`), as the page does for files.
    const unnamedFolders = folders().filter((path) => !page.includes(`src/${path}/`) && !page.includes(`${path}/`));
    const modules = readdirSync(join(repoRoot, 'src')).filter((name) => /\.c?ts$/.test(name));
    expect(modules).toContain('run.ts');
    const unnamedModules = modules.filter((name) => !page.includes(`src/${name}`));
    expect({ unnamedFolders, unnamedModules }).toEqual({ unnamedFolders: [], unnamedModules: [] });
  });

  it('links only docs that exist', () => {
    const links = [...page.matchAll(/\]\(([^)#\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/.test(target));
    const missing = links.filter((target) => !existsSync(join(dirname(join(repoRoot, 'ARCHITECTURE.md')), target)));
    expect(missing).toEqual([]);
  });
});

// scripts/import-cycles.mjs (issue 33, item 5): `src/` holds no import cycle, type-only imports
// included, and the script finds one made of each kind of import it reads.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempFiles } from './helpers/cli.js';

const script = join(repoRoot, 'scripts/import-cycles.mjs');

function importCycles(args: string[] = []) {
  return spawnSync(process.execPath, [script, ...args], { cwd: repoRoot, encoding: 'utf8' });
}

describe('scripts/import-cycles.mjs', () => {
  it('finds no import cycle in src/', () => {
    const result = importCycles();
    expect(result.stdout, result.stderr).toMatch(/^no import cycle in \d+ modules\n$/);
    expect(result.status).toBe(0);
  });

  it('finds a cycle of two modules importing each other, and exits 1', () => {
    const dir = tempFiles({
      'a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
      'b.ts': "import { a } from './a.js';\nexport const b = () => a;\n",
    });
    const result = importCycles([dir]);
    expect(result.stdout).toBe('import cycle among 2 modules: a.ts, b.ts\n  a.ts -> b.ts -> a.ts\n1 import cycle in 2 modules\n');
    expect(result.status).toBe(1);
  });

  it('reads type-only imports, export-from, import(), import = require() and .cts files; not comments or strings', () => {
    const dir = tempFiles({
      'type-only/a.ts': "import type { B } from './b.js';\nexport const a: B = 1;\n",
      'type-only/b.ts': "export { a } from './a.js';\nexport type B = 1;\n",
      'dynamic/c.ts': "export const load = () => import('./d.cjs');\n",
      'dynamic/d.cts': "import c = require('./c.js');\nexport = c;\n",
      'in-a-type/e.ts': "export type E = import('./f.js').F;\n",
      'in-a-type/f.ts': "import { g } from '../none/g.js';\nimport type { E } from './e.js';\nexport type F = E | typeof g;\n",
      'none/g.ts': "// import { h } from './h.js';\nexport const g = \"import('./h.js')\";\n",
      'none/h.ts': "import { g } from './g.js';\nimport { readFileSync } from 'node:fs';\nexport const h = [g, readFileSync];\n",
    });
    const result = importCycles([dir]);
    expect(result.stdout).toBe(
      [
        'import cycle among 2 modules: dynamic/c.ts, dynamic/d.cts',
        '  dynamic/c.ts -> dynamic/d.cts -> dynamic/c.ts',
        'import cycle among 2 modules: in-a-type/e.ts, in-a-type/f.ts',
        '  in-a-type/e.ts -> in-a-type/f.ts -> in-a-type/e.ts',
        'import cycle among 2 modules: type-only/a.ts, type-only/b.ts',
        '  type-only/a.ts -> type-only/b.ts -> type-only/a.ts',
        '3 import cycles in 8 modules',
        '',
      ].join('\n'),
    );
    expect(result.status).toBe(1);
  });

  it('prints each loop of a component of several, each once', () => {
    const dir = tempFiles({
      'a.ts': "import './b.js';\nimport './c.js';\n",
      'b.ts': "import './a.js';\n",
      'c.ts': "import './a.js';\n",
    });
    const result = importCycles([dir]);
    expect(result.stdout).toBe('import cycle among 3 modules: a.ts, b.ts, c.ts\n  a.ts -> b.ts -> a.ts\n  a.ts -> c.ts -> a.ts\n1 import cycle in 3 modules\n');
    expect(result.status).toBe(1);
  });

  it('refuses a folder that is none with exit 2', () => {
    const result = importCycles([join(repoRoot, 'no-such-folder')]);
    expect(result.stderr).toMatch(/no-such-folder is no folder; usage: node scripts\/import-cycles\.mjs \[folder\]/);
    expect(result.status).toBe(2);
  });
});

// ARCHITECTURE.md: framing "may not know what an envelope is". What the checks read of a record
// reaches it as a plan (src/checks/record-plan.ts), and which values the unwrappers need whole as a
// function (src/unwrap/built-whole.ts), both handed in by src/check-unit.ts.
describe('the layering of src/framing/', () => {
  it('imports no module of a later stage', () => {
    const folder = join(repoRoot, 'src/framing');
    const imported = new Set<string>();
    for (const name of readdirSync(folder).filter((file) => file.endsWith('.ts'))) {
      for (const match of readFileSync(join(folder, name), 'utf8').matchAll(/(?:from|import\()\s*'(\.\.\/[^']+)'/g)) imported.add(match[1]!);
    }
    expect(imported.size).toBeGreaterThan(0);
    const later = [...imported].filter((specifier) => /^\.\.\/(checks|unwrap|recovery|findings|formatters|registry|explain|cli)\//.test(specifier) || /^\.\.\/(tally|run|check-unit|report-reader|merge)\.js$/.test(specifier));
    expect(later).toEqual([]);
  });
});

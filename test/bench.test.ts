// Smoke test of `npm run bench` (scripts/bench.mjs): the script runs and prints its tables. Timings
// on a shared machine prove nothing, so no value is asserted, only the shape of the output.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

const script = join(repoRoot, 'scripts/bench.mjs');

function bench(args: string[], timeout: number) {
  return spawnSync(process.execPath, [script, ...args], { cwd: repoRoot, encoding: 'utf8', timeout, env: { ...process.env, NO_COLOR: '1' } });
}

describe('scripts/bench.mjs', () => {
  it('--help lists the flags', () => {
    const result = bench(['--help'], 30_000);
    expect(result.status).toBe(0);
    for (const flag of ['--quick', '--memory', '--all', '--runs', '--only']) expect(result.stdout).toContain(flag);
  });

  it(
    'a quick start-up run exits 0 and prints the targets table with the start-up row',
    () => {
      // A folder of its own, so that the smoke run never overwrites the results of a real run in .bench/.
      const dir = mkdtempSync(join(tmpdir(), 'mcec-result-bench-'));
      try {
        const result = bench(['--quick', '--only', 'startup', '--runs', '1', '--dir', dir], 115_000);
        expect(result.error).toBeUndefined();
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^machine: .+ cores.+Node v\d+/m);
        expect(result.stdout).toMatch(/^startup\s+node -e 0\s/m);
        expect(result.stdout).toMatch(/^targets$/m);
        expect(result.stdout).toMatch(/^startup: one small file vs node -e 0\s.*\b(PASS|MISS)$/m);
        expect(result.stdout).toMatch(/^10k small \.json files.*\bnot run$/m);
        const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
        expect(results.targets.map((t: { target: string }) => t.target)).toContain('startup: one small file vs node -e 0');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      expect(existsSync(dir)).toBe(false);
    },
    120_000,
  );
});

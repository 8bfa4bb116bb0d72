// Jest users register `mcec-result/matchers` themselves: Jest, in ESM mode, runs test/jest/*.jest.mjs
// and the Jest example of docs/library.md in a temporary project that imports the built package as
// an installed one (node_modules/mcec-result links to this repository, resolved through its exports).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempFiles } from './helpers/cli.js';

const doc = readFileSync(join(repoRoot, 'docs/library.md'), 'utf8');
const jestSection = /### Jest\n([\s\S]*?)\n### /.exec(doc)?.[1] ?? '';
const jestExample = /```js\n([\s\S]*?)```/.exec(jestSection)?.[1];
const jestTypes = /```ts\n([\s\S]*?)```/.exec(jestSection)?.[1];

interface JestResults {
  success: boolean;
  numTotalTests: number;
  numPassedTests: number;
  testResults: { name: string; status: string; message: string; assertionResults: { title: string; status: string }[] }[];
}

// Each test starts Jest or tsc, whose start-up a loaded machine slows: a minute or two, not the default 30 s.
describe('mcec-result/matchers under Jest (ESM)', () => {
  it('Jest registers the matchers with expect.extend, and its tests pass: the package’s own and the docs example', () => {
    expect(jestExample).toBeDefined();
    const dir = tempFiles({
      'package.json': JSON.stringify({ name: 'consumer', type: 'module', private: true }),
      // `transform: {}`: the tests are plain ESM, run as Node runs them.
      'jest.config.json': JSON.stringify({ testEnvironment: 'node', transform: {}, roots: ['<rootDir>/tests'], testMatch: ['**/*.jest.mjs'], cacheDirectory: '<rootDir>/.jest-cache' }),
      'mcec-result.config.json': JSON.stringify({ codes: 'team-codes.json', rules: { 'unknown-code': 'error' } }),
      'team-codes.json': JSON.stringify({ errorCodes: { 'no-target': ['team-window-minimized'] } }),
      'tests/docs-example.jest.mjs': jestExample!,
    });
    const own = readdirSync(join(repoRoot, 'test/jest')).filter((name) => name.endsWith('.jest.mjs'));
    for (const name of own) copyFileSync(join(repoRoot, 'test/jest', name), join(dir, 'tests', name));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(repoRoot, join(dir, 'node_modules/mcec-result'));
    const jest = join(repoRoot, 'node_modules/jest/bin/jest.js');
    const run = spawnSync(process.execPath, ['--experimental-vm-modules', jest, '--ci', '--runInBand', '--json', '--outputFile=results.json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: undefined, NO_COLOR: '1' } });
    // Jest writes no results when it cannot start: its stderr says why.
    expect(existsSync(join(dir, 'results.json')), run.stderr).toBe(true);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as JestResults;
    const failures = results.testResults.filter((file) => file.status !== 'passed').map((file) => `${file.name}: ${file.message}`);
    expect(failures).toEqual([]);
    expect(run.status).toBe(0);
    const titles = results.testResults.flatMap((file) => file.assertionResults.map((test) => `${test.status}: ${test.title}`)).sort();
    expect(titles).toEqual([
      'passed: .not, with the inverse message',
      'passed: a failed capture is a conformant result',
      'passed: fails, listing each finding as the command line does',
      'passed: passes a conformant bare envelope and CallToolResult',
      "passed: reads the project's config: its team code passes, a typo of it is an error",
      'passed: takes schemaVersion and refuses a misspelt option',
      'passed: works as an asymmetric matcher',
    ]);
    expect(results.success).toBe(true);
  });

  it("the docs' TypeScript declaration gives Jest's expect the matcher and its options' types", () => {
    expect(jestTypes).toBeDefined();
    const uses = [
      "import { expect } from '@jest/globals';",
      "import { mcecMatchers } from 'mcec-result/matchers';",
      'expect.extend(mcecMatchers);',
      "expect({ ok: true, result: {} }).toBeMcecResult({ config: false, rules: { 'missing-result': 'off' } });",
      '// @ts-expect-error: config is a path or false',
      'expect({ ok: true, result: {} }).toBeMcecResult({ config: true });',
    ].join('\n');
    const dir = tempFiles({
      'package.json': JSON.stringify({ name: 'consumer', type: 'module', private: true }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['jest-matchers.d.ts', 'uses.ts'] }),
      'jest-matchers.d.ts': jestTypes!,
      'uses.ts': `${uses}\n`,
    });
    mkdirSync(join(dir, 'node_modules/@jest'), { recursive: true });
    symlinkSync(repoRoot, join(dir, 'node_modules/mcec-result'));
    for (const name of ['expect', '@jest/globals']) symlinkSync(join(repoRoot, 'node_modules', name), join(dir, 'node_modules', name));
    const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});

// The package as a team installs it before it is published: packed on a fresh clone (a copy of the
// tracked files, node_modules linked in, so the build `prepack` runs there leaves alone the dist/
// the other tests run) and installed into an empty project from the tarball, with README's Install
// commands as written, and globally from git as pre-commit installs a hook's repository. npm takes the dependencies from its cache (`npm ci` put them there) and asks the
// registry only for what the cache lacks.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, tempFiles } from './helpers/cli.js';

const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** README's Install commands for today, without their trailing comments. */
const installCommands = () => {
  const section = readme.slice(readme.indexOf('## Install'), readme.indexOf('## Quick start'));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.split('\n'))
    .map((line) => line.replace(/\s+# .*$/, ''))
    .filter((line) => line !== '');
};

/**
 * The environment of an npm run by a user: none of the npm_* variables of the `npm test` this suite
 * may run under (npm reads npm_config_* as its settings), no colour, the cache preferred, and the
 * CA certificates the registry may need, which helpers/setup.ts keeps from the suite's other processes.
 */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  const certificates = process.env['MCEC_TEST_NODE_EXTRA_CA_CERTS'];
  return { ...env, ...(certificates !== undefined && { NODE_EXTRA_CA_CERTS: certificates }), NO_COLOR: '1', FORCE_COLOR: undefined, CI: '1', npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
}

function sh(command: string, cwd: string) {
  const run = spawnSync('sh', ['-c', command], { cwd, env: npmEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`${command} exited ${run.status} in ${cwd}:\n${run.stdout}\n${run.stderr}`);
  return run;
}

/** A fresh clone: the tracked files, in a folder named as the repository is. */
function freshClone(parent: string): string {
  const clone = join(parent, 'mcec-result');
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: repoRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const path of tracked) if (existsSync(join(repoRoot, path))) cpSync(join(repoRoot, path), join(clone, path));
  return clone;
}

/**
 * A folder for one test, removed when it ends: its copies and installs are larger than the setup's
 * hook removes in its time limit. `rmSync` unlinks the node_modules link, never what it points at.
 */
function inTempFolder(test: (parent: string) => void): void {
  const parent = tempFiles({});
  try {
    test(parent);
  } finally {
    rmSync(parent, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** A fresh clone that is a git repository, for a git+file:// URL. */
function gitRepository(parent: string): string {
  const clone = freshClone(parent);
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: clone, stdio: 'pipe' });
  git('init', '--quiet');
  git('add', '--all');
  git('commit', '--quiet', '--message', 'tracked files');
  return clone;
}

/** An empty project of a team. */
function emptyProject(parent: string): string {
  const project = join(parent, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'team-project', version: '1.0.0', private: true, type: 'module' }));
  cpSync(join(repoRoot, 'fixtures/invalid/schema-error-required.jsonl'), join(project, 'run.jsonl'));
  cpSync(join(repoRoot, 'fixtures/valid/single-object.json'), join(project, 'clean.json'));
  return project;
}

/** What a project that installed the package runs: the CLI, the library, and the Vitest matcher. */
function expectInstalledPackageRuns(project: string): void {
  const installed = join(project, 'node_modules/mcec-result');
  expect(existsSync(join(installed, 'dist/cli/cli.cjs'))).toBe(true);

  const bad = spawnSync('sh', ['-c', 'npx mcec-result check run.jsonl'], { cwd: project, env: npmEnv(), encoding: 'utf8' });
  expect(bad.stderr).toBe('');
  expect(bad.status).toBe(1);
  expect(bad.stdout).toMatch(/^run\.jsonl:2 {2}error {4}error is missing required property "category" {2}schema$/m);
  expect(bad.stdout).toMatch(/^✖ 4 problems \(4 errors, 0 warnings\) in 1 input$/m);
  const clean = spawnSync('sh', ['-c', 'npx mcec-result check clean.json'], { cwd: project, env: npmEnv(), encoding: 'utf8' });
  expect(clean.stdout).toMatch(/^✔ no problems in 1 input$/m);
  expect(clean.status).toBe(0);

  const library = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "import { checkEnvelope } from 'mcec-result'; console.log(JSON.stringify(checkEnvelope({ ok: false, result: null }).map((f) => [f.rule, f.message])));"],
    { cwd: project, env: npmEnv(), encoding: 'utf8' },
  );
  expect(library.stderr).toBe('');
  expect(JSON.parse(library.stdout)).toContainEqual(['schema', 'ok is false, so error is required']);

  // vitest is an optional peer: the project brings its own (here, this repository's).
  symlinkSync(join(repoRoot, 'node_modules/vitest'), join(project, 'node_modules/vitest'));
  writeFileSync(
    join(project, 'conformance.test.js'),
    [
      "import 'mcec-result/vitest';",
      "import { expect, it } from 'vitest';",
      "it('passes a conformant envelope and fails a bad one', () => {",
      "  expect({ ok: true, result: { window: 'Notepad' } }).toBeMcecResult();",
      "  expect(() => expect({ ok: false }).toBeMcecResult()).toThrow(/ok is false, so error is required/);",
      '});',
    ].join('\n'),
  );
  const vitest = spawnSync(process.execPath, [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--root', project], { cwd: project, env: npmEnv(), encoding: 'utf8' });
  expect(vitest.stdout + vitest.stderr).toMatch(/Tests\s+1 passed \(1\)/);
  expect(vitest.status).toBe(0);
}

describe('installing the package from a fresh clone', () => {
  it('README shows how to install today, with the tarball npm pack makes of this version', () => {
    expect(installCommands()).toEqual([
      'npm install --save-dev mcec-result',
      'npm ci && npm link',
      'npm pack',
      `npm install --save-dev ../mcec-result/mcec-result-${version}.tgz`,
      'npm install --save-dev git+https://github.com/mcec-result/mcec-result.git',
    ]);
  });

  it('npm pack builds dist/ from nothing; the tarball installs into an empty project, where the CLI, the library and the matcher run', { timeout: 1_200_000 }, () => inTempFolder((parent) => {
    const clone = freshClone(parent);
    symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'));
    // A file an older build wrote, which this build no longer does.
    mkdirSync(join(clone, 'dist'));
    writeFileSync(join(clone, 'dist/cli.js'), '// stale\n');

    const [, , pack, install] = installCommands();
    // pre-commit's node language installs a hook's repository with `npm install -g <npm pack's stdout>`.
    expect(sh(pack!, clone).stdout).toBe(`mcec-result-${version}.tgz\n`);
    const tarball = join(clone, `mcec-result-${version}.tgz`);
    const listed = sh(`tar -tzf ${tarball}`, clone).stdout.split('\n');
    expect(listed).toContain('package/dist/cli/cli.cjs');
    expect(listed).toContain('package/docs/ci.md');
    expect(listed).not.toContain('package/dist/cli.js');
    expect(listed.filter((path) => /^package\/(src|test|fixtures|scripts)\//.test(path))).toEqual([]);

    const project = emptyProject(parent);
    sh(install!, project);
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies['mcec-result']).toBe(`file:../mcec-result/mcec-result-${version}.tgz`);
    expectInstalledPackageRuns(project);
  }));

  // README's git URL install takes the same path as this one: npm clones the repository, installs
  // its dependencies and runs `prepare` in the clone, then installs what `npm pack` gives there, the
  // tarball the test above installs into a project.
  it("pre-commit's install of a node hook's repository (npm install --global from git) builds it, and the hook's entry runs from PATH", { timeout: 1_200_000 }, () => inTempFolder((parent) => {
    const clone = gitRepository(parent);
    const prefix = join(parent, 'node_env');
    // pre-commit 4's languages/node.py: npm install --allow-git=root --install-links -g git+file://<the hook repository>,
    // with npm_config_prefix its environment. npm prepares the clone with --global inherited (npm/cli#8440).
    sh(`npm_config_prefix=${prefix} npm install --allow-git=root --install-links -g git+file://${clone}`, parent);
    const project = emptyProject(parent);
    const [command, ...args] = (parse(readFileSync(join(repoRoot, '.pre-commit-hooks.yaml'), 'utf8')) as { entry: string }[])[0]!.entry.split(' ');
    const run = spawnSync(join(prefix, 'bin', command!), [...args, 'run.jsonl', 'clean.json'], { cwd: project, env: npmEnv(), encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^✖ 4 problems \(4 errors, 0 warnings\) in 2 inputs$/m);
    expect(run.status).toBe(1);
  }));
});

// .pre-commit-hooks.yaml: the hook pre-commit installs from this repository. pre-commit selects the
// staged files whose path `files` matches (Python's re.search; this pattern means the same in
// JavaScript), and runs `entry` with them appended; here the entry's `mcec-result` is the built
// binary, which `language: node` puts on PATH by installing this repository as a package.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { binary, repoRoot, tempFiles } from './helpers/cli.js';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; repository: { url: string } };

interface Hook {
  id: string;
  name: string;
  entry: string;
  language: string;
  files: string;
  pass_filenames: boolean;
  args?: string[];
}
const hooks = parse(read('.pre-commit-hooks.yaml')) as Hook[];
const hook = hooks.find((h) => h.id === 'mcec-result')!;

/** The `.pre-commit-config.yaml` examples of docs/ci.md, parsed. */
const documentedConfigs = () =>
  [...read('docs/ci.md').matchAll(/```yaml\n(repos:[\s\S]*?)```/g)].map((m) => parse(m[1]!) as { repos: { repo: string; rev: string; hooks: (Partial<Hook> & { id: string })[] }[] });

/** A repository's files, as `git diff --cached --name-only` lists them. */
const staged = {
  'captures/every-category.jsonl': 'fixtures/valid/every-category.jsonl',
  'captures/blank-lines.ndjson': 'fixtures/valid/blank-lines.ndjson',
  'captures/recording.jsonl.gz': 'fixtures/valid/recording.jsonl.gz',
  'captures/single-object.json': 'fixtures/valid/single-object.json',
  'logs/server.log': 'fixtures/valid/server.log',
  'evidence/20260702-093344-c41f0a9e2d17.zip': 'fixtures/field/bundles/evidence/20260702-093344-c41f0a9e2d17.zip',
  'package.json': 'package.json',
  'tsconfig.json': 'tsconfig.json',
  'src/index.ts': 'src/index.ts',
  'README.md': 'README.md',
  'bad/schema-error-required.jsonl': 'fixtures/invalid/schema-error-required.jsonl',
};

function repository(): string {
  const dir = tempFiles({});
  for (const [to, from] of Object.entries(staged)) cpSync(join(repoRoot, from), join(dir, to));
  return dir;
}

/** Runs the hook as pre-commit does on the staged files `files` selects. */
function runHook(dir: string, files: string, paths: string[], args = hook.args ?? []) {
  const selected = paths.filter((path) => new RegExp(files).test(path));
  const [command, ...entryArgs] = hook.entry.split(/\s+/);
  expect(command).toBe('mcec-result');
  const run = spawnSync(process.execPath, [binary, ...entryArgs, ...args, ...selected], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined } });
  return { ...run, selected };
}

describe('.pre-commit-hooks.yaml', () => {
  it('defines the mcec-result hook: node, check, the files of captures, logs and bundles, file names passed', () => {
    expect(hooks.map((h) => h.id)).toEqual(['mcec-result']);
    expect(hook).toMatchObject({ name: 'mcec-result', entry: 'mcec-result check', language: 'node', files: '\\.(jsonl|ndjson|log)(\\.gz)?$|\\.zip$', pass_filenames: true });
    // language: node installs the repository as a package: its bin must be the entry's command.
    expect(Object.keys((JSON.parse(read('package.json')) as { bin: Record<string, string> }).bin)).toContain(hook.entry.split(' ')[0]);
  });

  it('selects captures, logs and zips (not package.json or tsconfig.json), passes clean ones, fails a bad one with exit 1', () => {
    const dir = repository();
    const clean = Object.keys(staged).filter((path) => !path.startsWith('bad/'));
    const passed = runHook(dir, hook.files, clean);
    expect(passed.selected).toEqual(['captures/every-category.jsonl', 'captures/blank-lines.ndjson', 'captures/recording.jsonl.gz', 'logs/server.log', 'evidence/20260702-093344-c41f0a9e2d17.zip']);
    expect(passed.stderr).toBe('');
    // The bundle zip is two inputs: its transcript and its session.json.
    expect(passed.stdout).toMatch(/^✔ no problems in 6 inputs$/m);
    expect(passed.status).toBe(0);

    const failed = runHook(dir, hook.files, Object.keys(staged));
    expect(failed.selected).toContain('bad/schema-error-required.jsonl');
    expect(failed.stdout).toMatch(/^bad\/schema-error-required\.jsonl:2 {2}error {4}error is missing required property "category" {2}schema$/m);
    expect(failed.stdout).toMatch(/^✖ 4 problems \(4 errors, 0 warnings\) in 7 inputs$/m);
    expect(failed.status).toBe(1);
  });

  it("docs/ci.md's configs name this repository at its release tag; the widened files add the .json captures under captures/ only", () => {
    const configs = documentedConfigs();
    expect(configs).toHaveLength(2);
    for (const config of configs) {
      expect(config.repos).toHaveLength(1);
      expect(pkg.repository.url).toBe(`git+${config.repos[0]!.repo}.git`);
      expect(config.repos[0]!.rev).toBe(`v${pkg.version}`);
      expect(config.repos[0]!.hooks.map((h) => h.id)).toEqual([hook.id]);
    }
    const widened = configs[1]!.repos[0]!.hooks[0]!.files!;
    const dir = repository();
    writeFileSync(join(dir, 'settings.json'), '{"ok": "not an envelope"}');
    const run = runHook(dir, widened, [...Object.keys(staged).filter((path) => !path.startsWith('bad/')), 'settings.json']);
    expect(run.selected).toEqual(['captures/every-category.jsonl', 'captures/blank-lines.ndjson', 'captures/recording.jsonl.gz', 'captures/single-object.json', 'logs/server.log', 'evidence/20260702-093344-c41f0a9e2d17.zip']);
    expect(run.stdout).toMatch(/^✔ no problems in 7 inputs$/m);
    expect(run.status).toBe(0);
  });

  it("docs/ci.md's args example goes before the file names: --max-warnings 0 fails a capture with a warning", () => {
    const args = parse(/`args: (\[.*?\])`/.exec(read('docs/ci.md'))![1]!) as string[];
    expect(args).toEqual(['--max-warnings', '0']);
    const dir = tempFiles({});
    cpSync(join(repoRoot, 'fixtures/invalid/code-format.jsonl'), join(dir, 'captures/code-format.jsonl'));
    expect(runHook(dir, hook.files, ['captures/code-format.jsonl']).status).toBe(0);
    const strict = runHook(dir, hook.files, ['captures/code-format.jsonl'], args);
    expect(strict.stdout).toMatch(/^✖ 6 problems \(0 errors, 6 warnings, more than --max-warnings 0\) in 1 input$/m);
    expect(strict.stderr).toContain('6 warnings, more than --max-warnings 0: exit 1');
    expect(strict.status).toBe(1);
  });
});

// action.yml, the composite GitHub Action: its metadata checked against the rules GitHub applies
// that hold offline, and its check step run as the runner runs it (bash -eo pipefail on the step's
// script, the inputs reaching it through env), with this checkout standing in for the action's own,
// built, one. The setup and install steps are checked for their shape only.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot, tempFiles } from './helpers/cli.js';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; engines: { node: string }; repository: { url: string } };

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  with?: Record<string, string | number>;
  env?: Record<string, string>;
  'working-directory'?: string;
  if?: string;
}
interface Action {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(read('action.yml')) as Action;
const checkStep = action.runs.steps.find((step) => step.id === 'check')!;

/** The `${{ ... }}` expressions in a value, trimmed. */
const expressions = (text: string) => [...text.matchAll(/\$\{\{\s*(.*?)\s*\}\}/g)].map((m) => m[1]!);

/** Every string value in a parsed YAML tree. */
const strings = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];

/** The workflow of docs/ci.md that uses the action. */
function documentedWorkflow() {
  const blocks = [...read('docs/ci.md').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1]!) as { jobs?: Record<string, { steps: Step[] }> });
  const workflow = blocks.find((block) => Object.values(block.jobs ?? {}).some((job) => job.steps.some((step) => step.uses?.startsWith('mcec-result/mcec-result@'))));
  if (!workflow) throw new Error('docs/ci.md shows no workflow that uses the action');
  return Object.values(workflow.jobs!)[0]!.steps;
}

/**
 * Runs the check step as the runner does: its `${{ }}` expressions filled in (inputs, or their
 * defaults), GITHUB_ACTION_PATH this checkout, a job summary file and a runner temp folder of its own.
 */
function runCheckStep(workspace: string, given: Record<string, string | number> = {}) {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) inputs[name] = input.default ?? '';
  for (const [name, value] of Object.entries(given)) {
    expect(action.inputs, `input ${name}`).toHaveProperty(name);
    inputs[name] = String(value);
  }
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
      const input = /^inputs\.([\w-]+)$/.exec(expression);
      if (input) return inputs[input[1]!]!;
      throw new Error(`no value for \${{ ${expression} }} in a test run`);
    });
  const runner = tempFiles({ 'summary.md': '', 'temp/.keep': '' });
  const stepEnv = Object.fromEntries(Object.entries(checkStep.env ?? {}).map(([name, value]) => [name, fill(value)]));
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, CI: 'true', GITHUB_ACTIONS: 'true' };
  const script = join(runner, 'step.sh');
  writeFileSync(script, checkStep.run!);
  const run = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], {
    cwd: resolve(workspace, fill(checkStep['working-directory'] ?? '.')),
    env: { ...env, ...stepEnv, GITHUB_ACTION_PATH: repoRoot, GITHUB_STEP_SUMMARY: join(runner, 'summary.md'), RUNNER_TEMP: join(runner, 'temp') },
    encoding: 'utf8',
  });
  return { ...run, summary: readFileSync(join(runner, 'summary.md'), 'utf8') };
}

/** A checkout with the transcripts under evidence/: 7 errors and 4 warnings. */
const checkout = (files: Record<string, string> = {}) => {
  const dir = tempFiles(files);
  cpSync(join(repoRoot, 'fixtures/transcripts'), join(dir, 'evidence'), { recursive: true });
  return dir;
};

describe('action.yml', () => {
  it('has the keys GitHub requires, a composite run whose every run step names its shell, and each input described', () => {
    expect(typeof action.name).toBe('string');
    expect(typeof action.description).toBe('string');
    expect(action.runs.using).toBe('composite');
    expect(action.runs.steps.length).toBeGreaterThan(0);
    for (const step of action.runs.steps) {
      expect(Boolean(step.uses) !== Boolean(step.run), JSON.stringify(step)).toBe(true);
      if (step.run) expect(step.shell, step.name).toBe('bash');
    }
    for (const [name, input] of Object.entries(action.inputs)) {
      expect(input.description, name).toMatch(/\w/);
      // Every input is optional: a default is its value when a workflow leaves it out.
      expect(typeof input.default, name).toBe('string');
    }
  });

  it('uses every input it declares, declares every input it uses, and never expands one inside a script', () => {
    const used = new Set(strings(action.runs).flatMap(expressions).map((expression) => /^inputs\.([\w-]+)$/.exec(expression)?.[1] ?? expression));
    expect([...used].filter((name) => !name.startsWith('github.')).sort()).toEqual(Object.keys(action.inputs).sort());
    // An expression in a script's text is expanded before the shell reads it: an input would run as code.
    for (const step of action.runs.steps) if (step.run) expect(expressions(step.run), step.name).toEqual([]);
    expect(Object.keys(checkStep.env!).length).toBeGreaterThan(0);
  });

  it("sets up the Node.js package.json asks for, then installs and builds in the action's own folder", () => {
    const [setup, install] = action.runs.steps;
    expect(setup!.uses).toBe('actions/setup-node@v4');
    expect(`>=${setup!.with!['node-version']}`).toBe(pkg.engines.node);
    expect(install!['working-directory']).toBe('${{ github.action_path }}');
    expect(install!.run).toMatch(/^npm ci\b.* && npm run build\b/);
    expect(action.runs.steps.indexOf(checkStep)).toBe(2);
  });

  it("docs/ci.md's workflow, run as written: annotations, the SARIF file upload-sarif reads, the job summary, exit 1", () => {
    const steps = documentedWorkflow();
    const uses = steps.find((step) => step.uses?.startsWith('mcec-result/mcec-result@'))!;
    // The repository package.json names, at the release tag of its version.
    expect(pkg.repository.url).toContain(`github.com/${uses.uses!.split('@')[0]}.git`);
    expect(uses.uses!.split('@')[1]).toBe(`v${pkg.version}`);
    const dir = checkout();
    const run = runCheckStep(dir, uses.with);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^::error file=evidence\/run-1\/tool-calls\.jsonl,line=4,title=schema::ok is false, so error is required$/m);
    expect(run.stdout).toMatch(/^::warning file=evidence\/run-2\/tool-calls\.jsonl,line=20,title=transcript-truncated::/m);
    expect(run.summary).toMatch(/^## ❌ mcec-result: 7 errors, 4 warnings in 2 inputs$/m);
    expect(run.summary).toContain('```mermaid');

    const upload = steps.find((step) => step.uses?.startsWith('github/codeql-action/upload-sarif@'))!;
    expect(upload.if).toBe('always()');
    const sarif = JSON.parse(readFileSync(join(dir, String(upload.with!['sarif_file'])), 'utf8'));
    expect(new Validator(JSON.parse(read('test/data/sarif-2.1.0-rtm.5.json')), '4', false).validate(sarif).valid).toBe(true);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('evidence/run-1/tool-calls.jsonl');
  });

  it('by default checks the working directory, annotates, and writes the summary of a clean run, exit 0', () => {
    const dir = tempFiles({});
    cpSync(join(repoRoot, 'fixtures/valid'), join(dir, 'captures'), { recursive: true });
    const run = runCheckStep(dir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^::notice title=mcec-result::124 records in 17 inputs: 0 invalid, 0 unparseable, 0 errors, 0 warnings$/m);
    expect(run.summary).toMatch(/^## ✅ mcec-result: no problems in 17 inputs$/m);
    expect(readdirSync(dir)).toEqual(['captures']);
  });

  it('passes config, several paths, a working directory and extra args to check; summary false writes none', () => {
    const dir = checkout({ 'ci/mcec.json': JSON.stringify({ rules: { 'unknown-code': 'off' } }) });
    const run = runCheckStep(dir, { paths: 'evidence/run-1\nevidence/run-2', config: 'ci/mcec.json', args: '--rule parse-error=warning  --max-warnings 0' });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('title=unknown-code');
    expect(run.stdout).toMatch(/^::warning file=evidence\/run-1\/tool-calls\.jsonl,line=7,col=58,title=parse-error::/m);
    // Globs reach the checker unexpanded, `!` patterns included; the working directory is the root of their paths.
    const sub = runCheckStep(join(dir, '..'), { 'working-directory': dir.split('/').pop()!, paths: 'evidence/**/*.jsonl !evidence/run-2/**', summary: 'false', format: ' github , json=report.json ' });
    expect(sub.stderr).toBe('');
    expect(sub.summary).toBe('');
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.inputs).toBe(1);
    expect(sub.stdout).toMatch(/^::error file=evidence\/run-1\/tool-calls\.jsonl,line=4,/m);
  });

  it('an input holding shell code is data: nothing runs, and the checker names what it cannot read', () => {
    const dir = checkout();
    const pwned = () => readdirSync(dir).filter((name) => name.startsWith('pwned'));
    const paths = runCheckStep(dir, { paths: 'evidence/ $(touch pwned-paths) `touch pwned-tick`', args: '; touch pwned-args' });
    expect(pwned()).toEqual([]);
    expect(paths.status).toBe(2);
    expect(paths.stderr).toContain('$(touch');
    const config = runCheckStep(dir, { config: '"; touch pwned-config; "' });
    expect(pwned()).toEqual([]);
    expect(config.status).toBe(2);
    expect(config.stderr).toContain('cannot read config "; touch pwned-config; "');
    const format = runCheckStep(dir, { format: 'github;touch pwned-format' });
    expect(pwned()).toEqual([]);
    expect(format.status).toBe(2);
    expect(format.stderr).toContain('github;touch pwned-format');
  });
});

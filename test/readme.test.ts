// The README is part of the interface: its GitHub Actions workflow runs here, command for command.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { binary, repoRoot, tempFiles } from './helpers/cli.js';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

/** The `run:` commands of the README's workflow, in order, without the npm ci step. */
function workflowCommands(): string[] {
  const workflow = /```yaml\n(name: MCEC conformance[\s\S]*?)```/.exec(readme)?.[1];
  if (!workflow) throw new Error('README has no MCEC conformance workflow');
  return [...workflow.matchAll(/^\s+(?:- )?run: (.+)$/gm)].map((m) => m[1]!).filter((command) => command !== 'npm ci');
}

describe('README', () => {
  it('shows the two fresh-clone commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    expect(pkg.scripts.start).toContain('fixtures/samples');
    expect(pkg.scripts.test).toContain('vitest run');
  });

  it('the config file example is a valid config that takes effect', () => {
    const config = /### Config file[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(config).toBeDefined();
    const dir = tempFiles({ 'mcec-result.config.json': config!, 'mcec-codes.json': JSON.stringify({ errorCodes: {} }), 'reports/.keep': '' });
    cpSync(join(repoRoot, 'fixtures/samples/legacy-server.ndjson'), join(dir, 'run.ndjson'));
    const result = spawnSync(process.execPath, [binary, 'check', 'run.ndjson'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    // "unknown-code": "error" in the example turns the typo'd code into an error.
    expect(result.stdout).toMatch(/error\s+unknown error code "window-not-fonud"/);
    expect(JSON.parse(readFileSync(join(dir, 'reports/mcec.sarif'), 'utf8')).version).toBe('2.1.0');
  });

  it("the GitHub Actions workflow's commands work as written", () => {
    const commands = workflowCommands();
    expect(commands).toHaveLength(2);
    const dir = tempFiles({ 'step-summary.md': '' });
    cpSync(join(repoRoot, 'fixtures/transcripts'), join(dir, 'evidence'), { recursive: true });
    const env = { ...process.env, GITHUB_STEP_SUMMARY: join(dir, 'step-summary.md'), NO_COLOR: '1' };
    // `npx mcec-result` is the installed package; here it is this checkout's built binary.
    const run = (command: string) => spawnSync('sh', ['-c', command.replace('npx mcec-result', `"${process.execPath}" "${binary}"`)], { cwd: dir, env, encoding: 'utf8' });

    const check = run(commands[0]!);
    expect(check.status).toBe(1);
    expect(check.stdout).toMatch(/^::error file=evidence\/run-1\/tool-calls\.jsonl,line=4,title=schema::/m);
    expect(check.stdout).toMatch(/^::warning file=evidence\/run-2\/tool-calls\.jsonl,line=20,title=transcript-truncated::/m);

    const sarif = JSON.parse(readFileSync(join(dir, 'mcec-result.sarif'), 'utf8'));
    const schema = JSON.parse(readFileSync(join(repoRoot, 'test/data/sarif-2.1.0-rtm.5.json'), 'utf8'));
    expect(new Validator(schema, '4', false).validate(sarif).valid).toBe(true);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('evidence/run-1/tool-calls.jsonl');

    expect(run(commands[1]!).status).toBe(0);
    const summary = readFileSync(join(dir, 'step-summary.md'), 'utf8');
    expect(summary).toContain('```mermaid');
    expect(existsSync(join(dir, 'mcec-summary.md'))).toBe(true);
  });
});

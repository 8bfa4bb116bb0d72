// `check --help`'s examples and `check --print-config` (issue 34 item 5), run through the built binary.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ruleCatalog, ruleIds } from '../src/checks/catalog.js';
import { installedWorkdir as workdir, repoRoot, runCli, tempFiles } from './helpers/cli.js';

const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined } as NodeJS.ProcessEnv;
delete env['FORCE_COLOR'];

const pathEnv = (dir: string) => ({ ...env, PATH: `${join(dir, '.bin')}:${env['PATH']}` });
const shell = (command: string, cwd: string) => spawnSync('sh', ['-c', command], { cwd, env: pathEnv(cwd), encoding: 'utf8' });

/** The examples `check --help` prints: the commands between "Examples:" and the docs line, without their comments. */
function helpExamples(): { help: string; commands: string[] } {
  const help = runCli(['check', '--help']).stdout;
  const block = help.slice(help.indexOf('\nExamples:\n') + '\nExamples:\n'.length, help.lastIndexOf('\nDocs: '));
  return { help, commands: block.split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')) };
}

/**
 * The examples `check --help` ends with, in its order, each with its exit status on the files
 * `every example runs` copies in and what its output shows; the first test holds the help to this list.
 */
const examples: [command: string, status: number, check: (stdout: string) => void][] = [
  ['mcec-result check runs/', 1, (out) => expect(out).toMatch(/ in 3 inputs$/m)],
  ['mcec-result check evidence/20260701-101502-5f19c9c01a3f.zip', 0, (out) => expect(out).toMatch(/^✔ no problems in \d+ inputs?$/m)],
  ["grep 'agent result' server.log | mcec-result check --extract -", 1, (out) => expect(out).toMatch(/^-:\d+ /m)],
  ['mcec-result check runs/ -f github -f sarif=mcec.sarif', 1, (out) => expect(out).toMatch(/^::error file=runs\//m)],
  ['mcec-result check runs/ --baseline mcec-baseline.json', 0, (out) => expect(out).toMatch(/^✔ no problems in 3 inputs$/m)],
  ['mcec-result check --follow --extract server.log', 1, () => undefined],
  ['mcec-result check --schema-version 2026-06 runs/', 1, (out) => expect(out).toMatch(/ in 3 inputs$/m)],
  ['mcec-result check --print-config', 0, (out) => expect(JSON.parse(out).schemaVersion).toBe('2026-07')],
];

/** A bad envelope, as a server's log writes it. */
const badLogLine = '2026-07-01T10:16:00Z INFO agent result {"ok":false,"error":{"code":"element-not-found","category":"no-target"},"result":{}}\n';

describe('check --help', () => {
  it('ends with the 5 to 8 examples listed here, each under a comment, then the docs line', () => {
    const { help, commands } = helpExamples();
    expect(commands.length).toBeGreaterThanOrEqual(5);
    expect(commands.length).toBeLessThanOrEqual(8);
    expect(help).toMatch(/\n\nExamples:\n( {2}# .+\n {2}.*mcec-result check .+\n)+\nDocs: https:\/\/\S+\/docs\/cli\.md\n$/);
    expect(commands).toEqual(examples.map(([command]) => command));
  });

  it('every example runs as written, on real files', () => {
    const dir = workdir({ runs: 'fixtures/samples', 'server.log': 'fixtures/logs/server.log', 'evidence/20260701-101502-5f19c9c01a3f.zip': 'fixtures/field/bundles/evidence/20260701-101502-5f19c9c01a3f.zip' });
    expect(shell('mcec-result check runs/ --write-baseline mcec-baseline.json', dir).status).toBe(0);
    for (const [command, status, check] of examples) {
      // A followed file runs until it is stopped: the next test runs it.
      if (command.includes('--follow')) continue;
      const run = shell(command, dir);
      expect(run.stderr, command).toBe('');
      expect(run.status, command).toBe(status);
      check(run.stdout);
    }
    expect(JSON.parse(readFileSync(join(dir, 'mcec.sarif'), 'utf8')).version).toBe('2.1.0');
  });

  it('the --follow example checks what is appended, and SIGTERM ends it with the report', async () => {
    const [command] = examples.find(([line]) => line.includes('--follow'))!;
    const dir = workdir({ 'server.log': 'fixtures/logs/server.log' });
    // exec: the signal goes to mcec-result itself, not to the shell.
    const child = spawn('sh', ['-c', `exec ${command}`], { cwd: dir, env: pathEnv(dir) });
    let stdout = '';
    let stderr = '';
    const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    const until = (test: () => boolean) =>
      new Promise<void>((done, fail) => {
        const look = () => {
          if (!test()) return;
          child.stdout.off('data', look);
          child.stderr.off('data', look);
          done();
        };
        child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), look()));
        child.stderr.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), look()));
        child.on('close', () => fail(new Error(`exited before the output came:\n${stdout}\n${stderr}`)));
      });
    await until(() => stderr.includes('following server.log from line'));
    appendFileSync(join(dir, 'server.log'), badLogLine);
    await until(() => /server\.log:\d+ +error/.test(stdout));
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(stdout).toMatch(/result-on-failure/);
  });
});

describe('check --print-config', () => {
  it('prints the defaults, every rule at its default severity, and exits 0 without reading inputs', () => {
    const dir = tempFiles({});
    // An input that does not exist, and standard input that would not parse: neither is read.
    const result = runCli(['check', '--no-config', '--print-config', 'missing.jsonl', '-'], { cwd: dir, input: 'not json\n' });
    expect(result).toMatchObject({ status: 0, stderr: '' });
    const settings = JSON.parse(result.stdout);
    expect(settings).toMatchObject({ config: null, schema: null, schemaVersion: '2026-07', codes: [], strictCodes: false, format: [{ format: 'human', file: null }], extract: false, redact: false, jobs: null, maxLineBytes: 64 * 1024 * 1024 });
    expect(settings.rules).toEqual(Object.fromEntries(ruleIds.map((id) => [id, ruleCatalog[id].defaultSeverity])));
  });

  it("merges the config file found upward with the options typed: the config's path, its files resolved, --rule and --strict-codes applied", () => {
    const dir = tempFiles({
      'mcec-result.config.json': JSON.stringify({
        format: ['human', 'sarif=reports/mcec.sarif'],
        codes: 'team-codes.json',
        rules: { 'missing-result': 'off', 'code-format': 'error' },
        schemaVersion: '2026-06',
        extract: true,
        maxWarnings: 0,
        jobs: 2,
        maxLineBytes: '1M',
      }),
      'team-codes.json': JSON.stringify({ warningCodes: ['dpi-scaled'] }),
      'sub/.keep': '',
    });
    const cwd = join(dir, 'sub');
    const print = (...args: string[]) => {
      const result = runCli(['check', '--print-config', ...args], { cwd });
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      return JSON.parse(result.stdout);
    };
    const fromConfig = print();
    expect(fromConfig).toMatchObject({
      config: resolve(dir, 'mcec-result.config.json'),
      schemaVersion: '2026-06',
      codes: [resolve(dir, 'team-codes.json')],
      format: [{ format: 'human', file: null }, { format: 'sarif', file: resolve(dir, 'reports/mcec.sarif') }],
      extract: true,
      maxWarnings: 0,
      jobs: 2,
      maxLineBytes: 1024 * 1024,
    });
    expect(fromConfig.rules).toMatchObject({ 'missing-result': 'off', 'code-format': 'error', 'unknown-code': 'warning', schema: 'error' });
    expect(Object.keys(fromConfig.rules)).toEqual([...ruleIds]);
    // The command line wins: --rule over the config's rules, --strict-codes on the unknown-code rules, a typed schema over its version.
    const typed = print('--rule', 'missing-result=warning', '--strict-codes', '--no-extract', '--schema', join(repoRoot, 'data/agent-tool-result.schema.json'), '-f', 'json', '--jobs', '1');
    expect(typed).toMatchObject({ schema: join(repoRoot, 'data/agent-tool-result.schema.json'), schemaVersion: null, strictCodes: true, extract: false, format: [{ format: 'json', file: null }], jobs: 1 });
    expect(typed.rules).toMatchObject({ 'missing-result': 'warning', 'code-format': 'error', 'unknown-code': 'error', 'unknown-warning-code': 'error' });
    // --no-config: none of it.
    expect(print('--no-config')).toMatchObject({ config: null, codes: [], schemaVersion: '2026-07', extract: false, maxWarnings: null });
    expect(existsSync(join(dir, 'reports'))).toBe(false);
  });

  it("refuses a config check would refuse, in check's words: exit 2", () => {
    const dir = tempFiles({ 'mcec-result.config.json': JSON.stringify({ rules: { 'misisng-result': 'off' } }) });
    const result = runCli(['check', '--print-config'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^mcec-result: config .*mcec-result\.config\.json: .*did you mean "missing-result"/);
  });
});

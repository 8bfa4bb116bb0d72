// The bad-input matrix of issue 5: each case runs the built CLI and asserts the exit status and
// what the user sees. No stack trace, ever.
import { spawn } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binary, lines, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |Error:/);

describe('bad inputs', () => {
  it('a binary file: parse errors at their lines, at most 100 listed, all counted', () => {
    // Bytes that are never valid UTF-8 in any position, with line breaks among them.
    const bytes = Buffer.alloc(40_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 150 === 149 ? 0x0a : 0xff;
    const dir = tempFiles({ 'blob.jsonl': bytes });
    const human = runCli(['check', 'blob.jsonl'], { cwd: dir });
    expect(human.status).toBe(1);
    expect(human.stdout.match(/invalid UTF-8/g)).toHaveLength(100);
    const lineCount = bytes.filter((b) => b === 0x0a).length + 1;
    expect(human.stdout).toContain(`… and ${lineCount - 100} more in blob.jsonl`);
    const { report } = runJson(['blob.jsonl'], { cwd: dir });
    expect(report.summary.unparseable).toBe(lineCount);
    expect(report.findings[0]).toMatchObject({ rule: 'parse-error', line: 1, column: 1, message: 'invalid UTF-8 (byte 0xff)' });
  });

  it('a line over --max-line-bytes: a parse error at that line, the next lines still checked', () => {
    const dir = tempFiles({ 'long.jsonl': lines({ ok: true, result: {} }, { ok: true, result: { blob: 'x'.repeat(5000) } }, { ok: false }) });
    const { status, report } = runJson(['--max-line-bytes', '1000', 'long.jsonl'], { cwd: dir });
    expect(status).toBe(1);
    expect(report.findings.map((f: { rule: string; line: number }) => [f.rule, f.line])).toEqual([
      ['parse-error', 2],
      ['schema', 3],
    ]);
    expect(report.findings[0].message).toBe('line is longer than --max-line-bytes (1000 bytes)');
  });

  it('100k-deep nesting in result: one schema finding, no stack overflow', () => {
    const depth = 100_000;
    const dir = tempFiles({
      'deep.jsonl': [
        `{"ok":true,"result":${'['.repeat(depth)}${']'.repeat(depth)}}`,
        `{"ok":false,"error":{"code":"uia-faulted","category":"internal","detail":"d","lastObservation":{"tree":${'['.repeat(depth)}{"base64":"x"}${']'.repeat(depth)}}}}`,
        `{"ok":true,"result":{"tree":${'{"c":'.repeat(depth)}1${'}'.repeat(depth)}}}`,
      ].join('\n'),
    });
    const { status, stderr, report } = runJson(['deep.jsonl'], { cwd: dir });
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(report.findings.map((f: { rule: string; line: number; message: string }) => [f.rule, f.line])).toEqual([
      ['schema', 1],
      ['inline-image', 2],
    ]);
    expect(report.findings[0].message).toBe('result must be an object or null (got array)');
    expect(report.summary.records).toBe(3);
  });

  it('__proto__ and constructor: findings at the top level, valid inside result, nothing polluted', () => {
    const dir = tempFiles({
      'proto.jsonl': [
        '{"ok":true,"result":{},"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}',
        '{"ok":true,"result":{"__proto__":{"polluted":1},"constructor":{"prototype":{}}}}',
        '{"ok":true,"result":{}}',
      ].join('\n'),
    });
    const { status, report } = runJson(['proto.jsonl'], { cwd: dir });
    expect(status).toBe(1);
    expect(report.findings.map((f: { line: number; pointer: string }) => [f.line, f.pointer])).toEqual([
      [1, '/__proto__'],
      [1, '/constructor'],
    ]);
    expect(report.findings[0].message).toContain('unexpected property "__proto__"');
    expect(report.summary).toMatchObject({ records: 3, valid: 2, invalid: 1 });
  });

  it('an unknown option, or a bad value: exit 2, one line naming it', () => {
    for (const args of [['check', '--jobz', '2'], ['check', '--max-line-bytes', '0', 'x']]) {
      const result = runCli(args);
      expect(result.status).toBe(2);
      noStack(result.stderr);
    }
  });
});

describe('interrupted runs', () => {
  it('Ctrl-C stops reading, prints the report of what was read, and exits 130', async () => {
    const child = spawn(process.execPath, [binary, 'check', '--format', 'json', '-'], { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.write(lines({ ok: true, result: {} }, { ok: false }));
    // The pipe stays open, as a `tail -f` would leave it; wait until the two lines are read.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stderr).toBe('mcec-result: interrupted: the report covers only what was read before Ctrl-C (2 records)\n');
    const report = JSON.parse(stdout);
    expect(report.summary).toMatchObject({ records: 2, invalid: 1 });
    child.stdin.destroy();
  });
});

describe('unreadable inputs', () => {
  it('a file that cannot be read: exit 2, "cannot read PATH: reason", the rest still checked', () => {
    const dir = tempFiles({ 'secret.jsonl': lines({ ok: true }), 'ok.jsonl': lines({ ok: false }) });
    // root reads any file whatever its mode; /proc/self/mem fails to read for root too (EIO).
    const root = process.getuid?.() === 0;
    const unreadable = root ? '/proc/self/mem' : 'secret.jsonl';
    if (!root) chmodSync(join(dir, 'secret.jsonl'), 0);
    const result = runJson([unreadable, 'ok.jsonl'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(root ? 'mcec-result: cannot read /proc/self/mem: EIO: i/o error, read\n' : 'mcec-result: cannot read secret.jsonl: permission denied\n');
    expect(result.report.summary.invalid).toBe(1);
  });
});

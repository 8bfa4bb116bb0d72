// The bad-input matrix of issue 5: each case runs the built CLI and asserts the exit status and
// what the user sees. No stack trace, ever.
import { constants } from 'node:buffer';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, lstatSync, mkdirSync, openSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants as osConstants } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { check } from '../src/index.js';
import { binary, lines, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at |Error:/);

describe('bad inputs', () => {
  it('a binary file: parse errors at their lines, at most 100 listed, all counted', () => {
    // Bytes that are never valid UTF-8 in any position, with line breaks among them.
    const bytes = Buffer.alloc(40_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 150 === 149 ? 0x0a : 0xff;
    const dir = tempFiles({ 'blob.jsonl': bytes });
    // One run writes both reports: the human one to stdout, the JSON one beside the input.
    const human = runCli(['check', 'blob.jsonl', '-f', 'human', '-f', 'json=report.json'], { cwd: dir });
    expect(human.status).toBe(1);
    expect(human.stdout.match(/invalid UTF-8/g)).toHaveLength(100);
    const lineCount = bytes.filter((b) => b === 0x0a).length + 1;
    expect(human.stdout).toContain(`… and ${lineCount - 100} more in blob.jsonl`);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
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
    expect(report.findings[0].message).toBe('line is longer than --max-line-bytes (1000 bytes): raise it to read the line');
  });

  it('--max-line-bytes takes sizes as people write them, and no more than a string can hold', async () => {
    const dir = tempFiles({ 'long.jsonl': lines({ ok: true, result: { blob: 'x'.repeat(3000) } }, { ok: true, result: {} }) });
    const findings = (args: string[]) => runJson([...args, 'long.jsonl'], { cwd: dir }).report.findings;
    const over = (args: string[]) => findings(args).map((f: { rule: string; line: number }) => [f.rule, f.line]);
    const twoK = findings(['--max-line-bytes', '2K']);
    expect(twoK.map((f: { rule: string; line: number }) => [f.rule, f.line])).toEqual([['parse-error', 1]]);
    expect(over(['--max-line-bytes', '2KiB'])).toEqual([['parse-error', 1]]);
    expect(over(['--max-line-bytes', '4k'])).toEqual([]);
    expect(twoK[0].message).toBe('line is longer than --max-line-bytes (2048 bytes): raise it to read the line');
    // A limit past V8's longest string let a longer line fail its whole input, the records after it unchecked.
    expect(runCli(['check', '--max-line-bytes', '1G', 'long.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: `mcec-result: --max-line-bytes: at most ${constants.MAX_STRING_LENGTH} bytes (512M less 24 bytes), the longest line Node can hold as one string, so 511M is the most in M; got "1G"\n`,
    });
    expect(runCli(['check', '--max-line-bytes', '64MB', 'long.jsonl'], { cwd: dir }).stderr).toMatch(/^mcec-result: --max-line-bytes: expected a size in bytes, a whole number with K or M \(KiB or MiB\) after it if you like, got "64MB"\n$/);
    const config = tempFiles({ 'mcec-result.config.json': JSON.stringify({ maxLineBytes: constants.MAX_STRING_LENGTH + 1 }), 'run.jsonl': lines({ ok: true, result: {} }) });
    // The option's own words, said of the key (was "must be <= ...").
    const fromConfig = runCli(['check', 'run.jsonl'], { cwd: config });
    expect(fromConfig).toMatchObject({ status: 2, stdout: '' });
    expect(fromConfig.stderr.startsWith(`mcec-result: config ${join(config, 'mcec-result.config.json')}: /maxLineBytes: at most ${constants.MAX_STRING_LENGTH} bytes (`)).toBe(true);
    expect(fromConfig.stderr.endsWith(`got "${constants.MAX_STRING_LENGTH + 1}"\n`)).toBe(true);
    await expect(check([join(dir, 'long.jsonl')], { maxLineBytes: constants.MAX_STRING_LENGTH + 1 })).rejects.toThrow(/maxLineBytes: at most \d+, the longest line Node can hold as one string/);
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

  it('100k-deep nesting that is not JSON: a parse error at its line and column, the input read on', () => {
    // Was: the syntax error's locator recursed, the stack overflowed, and the whole input failed
    // (exit 2, "Maximum call stack size exceeded"), every record after the line unread.
    const deep = '['.repeat(100_000);
    const dir = tempFiles({
      'deep.jsonl': lines({ ok: true, result: {} }, `${deep}x`, `{"a":${deep}`, { ok: false }),
      'deep.json': `[\n{"ok":true,"result":{}},\n${deep}}`,
      'deep.log': `2026-07-01 INFO {"ok":true,"result":${deep}\n`,
    });
    const { status, stderr, report } = runJson(['deep.jsonl', 'deep.json', '--input', 'auto'], { cwd: dir });
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(report.findings.map((f: { source: string; rule: string; line: number; column?: number; message: string }) => [f.source, f.line, f.column ?? null, f.message])).toEqual([
      ['deep.jsonl', 2, 100_001, 'unexpected "x"'],
      ['deep.jsonl', 3, 100_006, 'unexpected end of input: closing bracket expected (a JSON value spread over several lines? check the file with --input json; several of them one after another: make them one a line with jq -c .)'],
      ['deep.jsonl', 4, null, 'ok is false, so error is required'],
      ['deep.json', 3, 100_001, 'value expected, found "}"'],
    ]);
    expect(report.summary).toMatchObject({ records: 2, unparseable: 3 });
    const extracted = runJson(['--extract', 'deep.log'], { cwd: dir });
    expect(extracted).toMatchObject({ status: 1, stderr: '' });
    expect(extracted.report.findings).toMatchObject([{ rule: 'parse-error', line: 1, message: 'unexpected end of input: closing bracket expected' }]);
  });

  it('nesting past 1,000,000 levels: a parse error where it passes them, not gigabytes of JSON.parse, in every place JSON is read', () => {
    // Was: a 64 MiB line of `[` took 2.9 GB and 10 s for one parse error (and the same closed again
    // 3.3 GB to parse), once per worker; 113M of them in a .json or a settings file ended the
    // process with V8's fatal error (found by a QA helper). 1,000,000 deep is refused from 1,000,001.
    const limit = 1_000_000;
    const over = '['.repeat(limit + 1);
    const at = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const text = (value: string) => JSON.stringify({ content: [{ type: 'text', text: value }] });
    const dir = tempFiles({
      'deep.jsonl': [`{"ok":true,"result":{"a":${at(limit - 2)}}}`, `{"ok":true,"result":{"a":${at(limit - 1)}}}`, over, text(`{"ok":true,"result":{"a":${at(limit)}}}`), '{"ok":true,"result":{}}'].join('\n'),
      'deep.json': `[{"ok":true,"result":{}},\n${over}]`,
      'one.json': `[{"ok":true,"result":{}},${over}]`,
      'codes.json': `{"errorCodes":{"timeout":${over}`,
    });
    const { status, stderr, report } = runJson(['deep.jsonl', 'deep.json', 'one.json'], { cwd: dir });
    expect(stderr).toBe('');
    expect(status).toBe(1);
    const message = 'nested more than 1,000,000 levels deep: too deep to read';
    expect(report.findings.map((f: { source: string; rule: string; line: number; column?: number; message: string }) => [f.source, f.line, f.column ?? null, f.rule, f.message])).toEqual([
      // The bracket that passes the limit: after `{"ok":true,"result":{"a":` (25 characters, 2 deep).
      ['deep.jsonl', 2, 25 + (limit - 2) + 1, 'parse-error', message],
      ['deep.jsonl', 3, limit + 1, 'parse-error', message],
      ['deep.jsonl', 4, null, 'not-an-envelope', `the tool response holds no JSON envelope: its text block is ${message}`],
      // Inside the document's own array: the line's millionth bracket passes the limit.
      ['deep.json', 2, limit, 'parse-error', message],
      // On one line (no pass for the lines elements start on): the scan before JSON.parse finds it.
      ['one.json', 1, '[{"ok":true,"result":{}},'.length + limit, 'parse-error', message],
    ]);
    expect(report.summary).toMatchObject({ records: 3, valid: 2, unparseable: 4 });
    const codes = runCli(['check', '--codes', 'codes.json', 'deep.json'], { cwd: dir });
    expect(codes.status).toBe(2);
    expect(codes.stderr).toBe(`mcec-result: codes file codes.json:1:${limit + 24}: ${message}\n`);
  });

  it('one line of 300k bad warnings and 300k unknown members: 100 findings of each rule, then one that counts the rest', () => {
    // Such a line (5 MB) held 900k findings in memory at once (680 MB for 400k); one of 64 MiB ran
    // the heap out, and the process ended with no report.
    const members = Array.from({ length: 300_000 }, (_, i) => `"m${i}":0`).join(',');
    const warnings = Array.from({ length: 300_000 }, (_, i) => (i % 2 === 0 ? '1' : `{"code":"made-up-${i % 7}","detail":"d"}`)).join(',');
    const dir = tempFiles({ 'wide.jsonl': `{"ok":true,"result":{},"warnings":[${warnings}],${members}}\n{"ok":false}\n` });
    const { status, stderr, report } = runJson(['wide.jsonl'], { cwd: dir });
    expect({ status, stderr }).toEqual({ status: 1, stderr: '' });
    const first = report.findings.filter((f: { line: number }) => f.line === 1);
    const counted = (rule: string) => first.filter((f: { rule: string; pointer?: string }) => f.rule === rule && f.pointer === undefined).map((f: { message: string }) => f.message);
    expect(first).toHaveLength(202);
    expect(counted('schema')).toEqual(['and 449900 more schema errors in this record, not listed (a record lists at most 100 findings of one rule)']);
    expect(counted('unknown-warning-code')).toEqual(['and 149900 more unknown-warning-code findings in this record, not listed (a record lists at most 100 findings of one rule)']);
    // The record after it is checked as any other.
    expect(report.findings.at(-1)).toMatchObject({ line: 2, rule: 'schema', message: 'ok is false, so error is required' });
    expect(report.summary).toMatchObject({ records: 2, invalid: 2, errors: 102, warnings: 101 });
  });

  it('with --schema, a line of 3M bad warnings lists its first schema error and says so; a smaller record lists them all', () => {
    // A schema compiled at run time lists every error: 3M of them were 660 MB here (a 60 MB line of
    // them ran the heap out). Past 20,000 values a record keeps the first error found.
    const dir = tempFiles({
      'schema.json': readFileSync(join(repoRoot, 'data/agent-tool-result.schema.json'), 'utf8'),
      'wide.jsonl': `{"ok":true,"result":{},"warnings":[${'1,'.repeat(3_000_000)}1]}\n{"ok":true,"result":{},"warnings":[${'1,'.repeat(4_999)}1]}\n`,
    });
    const { status, stderr, report } = runJson(['--schema', 'schema.json', 'wide.jsonl'], { cwd: dir });
    expect({ status, stderr }).toEqual({ status: 1, stderr: '' });
    const said = (line: number) => report.findings.filter((f: { line: number }) => f.line === line).map((f: { pointer?: string; message: string }) => `${f.pointer ?? '-'} ${f.message}`);
    expect(said(1)).toEqual([
      '/warnings/0 warnings[0] must be an object (got integer)',
      '- only the first schema error of this record is listed: it holds more than 20,000 values, and a schema compiled at run time (not the bundled one) is not asked for every error of so large a record',
    ]);
    expect(said(2)).toHaveLength(101);
    expect(said(2).at(-1)).toBe('- and 4900 more schema errors in this record, not listed (a record lists at most 100 findings of one rule)');
    expect(report.summary).toMatchObject({ records: 2, invalid: 2 });
  });

  it('a 100k-digit error code: an unknown-code warning with its suggestion, in linear time', () => {
    const digits = '4'.repeat(100_000);
    const dir = tempFiles({ 'long.jsonl': lines({ ok: false, error: { code: `selector-matched-${digits}x`, category: 'ambiguous-selector', detail: 'd' } }) });
    // Before the banded edit distance this ran for minutes (a 100k x 100k table).
    const result = runCli(['check', '--format', 'json', 'long.jsonl'], { cwd: dir, timeoutMs: 300_000 });
    expect(result.status).toBe(0);
    const [finding] = JSON.parse(result.stdout).findings;
    expect(finding).toMatchObject({ rule: 'unknown-code', suggestion: `selector-matched-${digits}` });
  });

  it('values from the records are cut in messages and in the human tables; a 100k-deep truncation marker is named, not printed', () => {
    const depth = 100_000;
    const long = 'x-'.repeat(2500) + 'x';
    const dir = tempFiles({
      'long.jsonl': lines({ ok: false, error: { code: long, category: 'timeout', detail: 'd' }, sessionId: long }, { ok: false, error: { code: 'late-x', category: 'timeout', detail: 'd' } }, { ok: true, result: {}, [long]: 1 }),
      'cut.jsonl': `{"truncated":${'['.repeat(depth)}${']'.repeat(depth)}}\n${JSON.stringify({ truncated: long })}\n`,
    });
    // The human report of the same run goes to a file: cut.jsonl adds its own lines, the tables are long.jsonl's.
    const { status, stderr, report } = runJson(['long.jsonl', 'cut.jsonl', '-f', 'human=human.txt'], { cwd: dir });
    expect(stderr).toBe('');
    expect(status).toBe(1);
    const quoted = `"${long.slice(0, 56)}...`;
    expect(report.findings.map((f: { rule: string; line: number; message: string }) => `${f.line} ${f.rule}: ${f.message}`)).toEqual([
      `1 unknown-code: unknown error code ${quoted}`,
      '2 unknown-code: unknown error code "late-x"',
      `3 schema: unexpected property ${quoted} in the envelope (allowed: sessionId, ok, result, warnings, error)`,
      // Markers only: no tool result in cut.jsonl (spec section 8.5).
      '1 no-tool-results: 2 lines, none a tool result (2 skipped: requests, other methods, noise)',
      '1 transcript-truncated: the transcript was cut off here: an array; later tool calls are missing',
      `2 transcript-truncated: the transcript was cut off here: ${quoted}; later tool calls are missing`,
    ]);
    // The exact value stays where machines read it: the pointer, and the summary's distributions.
    expect(report.findings[2].pointer).toBe(`/${long}`);
    expect(report.summary.codes[long]).toBe(1);
    const human = readFileSync(join(dir, 'human.txt'), 'utf8');
    expect(Math.max(...human.split('\n').map((line) => line.length))).toBeLessThan(200);
    expect(human).toMatch(new RegExp(`\n  late-x {55,}1\n  ${long.slice(0, 59)}… +1\n`));
  });

  it('codes, categories, sessions and tools named like Object.prototype members: counted exactly, in every output', () => {
    const names = ['__proto__', 'constructor', 'toString', 'hasOwnProperty'];
    const records = names.flatMap((name, i) => [
      { ok: false, error: { code: name, category: name, detail: 'd' }, sessionId: name },
      { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name, arguments: {} } },
      { jsonrpc: '2.0', id: i + 1, result: { content: [{ type: 'text', text: JSON.stringify({ ok: true, result: {} }) }], isError: false } },
    ]);
    const dir = tempFiles({ 'proto.jsonl': lines(...records) });
    // The people's formats of the same run go to files, read at the end.
    const { report } = runJson(['proto.jsonl', '-f', 'human=report.txt', '-f', 'markdown=report.md'], { cwd: dir });
    const each = Object.fromEntries(names.map((name) => [name, 1]));
    expect(report.summary).toMatchObject({ codes: each, unknownCodes: each, invalidCategories: each });
    expect(report.summary.sessions).toEqual(Object.fromEntries(names.map((name) => [name, { records: 1, ok: 0, failed: 1, unknown: 0 }])));
    expect(report.summary.tools).toEqual(Object.fromEntries(names.map((name) => [name, { records: 1, ok: 1, failed: 0, unknown: 0 }])));
    // The report is one merge accepts (a string count failed its schema), and merging sums it.
    writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    writeFileSync(join(dir, 'again.json'), JSON.stringify(report));
    const merged = runCli(['merge', '--format', 'json', 'report.json', 'again.json'], { cwd: dir });
    expect(merged.status, merged.stderr).toBe(1);
    expect(JSON.parse(merged.stdout).summary.codes).toEqual(Object.fromEntries(names.map((name) => [name, 2])));
    // People's formats suggest nothing for them (a lookup once found Object's own members).
    for (const file of ['report.txt', 'report.md']) expect(readFileSync(join(dir, file), 'utf8'), file).not.toMatch(/native code|object Object/);
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

  it('a file whose name starts with -: the unknown option says how to name it', () => {
    const dir = tempFiles({ '-run.jsonl': lines({ ok: true, result: {} }) });
    expect(runCli(['check', '-run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: "mcec-result: unknown option '-run.jsonl': -run.jsonl is a file? Name it after --, or as ./-run.jsonl\n(run with --help for usage)\n",
    });
    expect(runCli(['check', '--', '-run.jsonl'], { cwd: dir }).status).toBe(0);
    expect(runCli(['check', '--frob'], { cwd: dir }).stderr).toBe("mcec-result: unknown option '--frob'\n(run with --help for usage)\n");
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
  it('Ctrl-C stops reading, prints the report of what was read, and exits 130 (--exit-zero too)', async () => {
    const out = tempFiles({});
    // --exit-zero passes findings, not a run cut short.
    const child = spawn(process.execPath, [binary, 'check', '--exit-zero', '--format', 'json', '--write-baseline', 'b.json', '-'], { cwd: out, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.write(lines({ ok: true, result: {} }, { ok: false }));
    // The pipe stays open, as a `tail -f` would leave it; wait until the two lines are read.
    await idleOnInput(child.pid!);
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(stderr).toBe(
      'mcec-result: interrupted: the report covers only what was read before Ctrl-C (2 records)\n' +
        'mcec-result: baseline b.json not written: the run was interrupted, so it would hold only part of the findings\n',
    );
    expect(existsSync(join(out, 'b.json'))).toBe(false);
    const report = JSON.parse(stdout);
    expect(report.summary).toMatchObject({ records: 2, invalid: 1, interrupted: true });
    child.stdin.destroy();
    // The report says so itself, for whoever reads the file later; merge keeps saying it, and the
    // package's report schema (which merge holds reports to) accepts it.
    const dir = tempFiles({ 'stopped.json': stdout, 'whole.json': runCli(['check', '--format', 'json', '-'], { input: lines({ ok: true, result: {} }) }).stdout });
    // The merge of it is no pass either (was exit 1 here, 0 without an error finding).
    const merged = runCli(['merge', '--format', 'json', 'stopped.json', 'whole.json'], { cwd: dir });
    expect(merged).toMatchObject({ status: 130, stderr: 'mcec-result: interrupted: a merged report covers only what its run read before Ctrl-C\n' });
    // A complete run says nothing of the kind: its merge passes, its JSON and SARIF reports written by one run.
    const whole = runCli(['merge', '--format', 'json', '--format', 'sarif=whole.sarif', 'whole.json'], { cwd: dir });
    expect(whole.status).toBe(0);
    expect(JSON.parse(merged.stdout).summary).toMatchObject({ records: 3, interrupted: true });
    // Every format says it, each written by one merge of the stopped report (human on stdout).
    const said = "interrupted: Ctrl-C (or the caller's signal) stopped the run, so this report covers only what was read before it";
    const stopped = runCli(['merge', 'stopped.json', '-f', 'human', '-f', 'github=s.github', '-f', 'markdown=s.md', '-f', 'junit=s.xml', '-f', 'sarif=s.sarif'], { cwd: dir });
    const written = (file: string) => readFileSync(join(dir, file), 'utf8');
    expect(stopped.stdout).toContain(`\n${said}\n`);
    expect(written('s.github')).toContain(`(${said})`);
    expect(written('s.md')).toContain(`> **${said}**`);
    expect(written('s.xml')).toContain('<property name="interrupted" value="true"/>');
    expect(JSON.parse(written('s.sarif')).runs[0].invocations).toEqual([{ executionSuccessful: false, exitSignalName: 'SIGINT' }]);
    expect(JSON.parse(whole.stdout).summary).not.toHaveProperty('interrupted');
    expect(JSON.parse(written('whole.sarif')).runs[0]).not.toHaveProperty('invocations');
  });
});

describe('terminated runs', () => {
  // The default action of SIGTERM (timeout, docker stop) and SIGHUP skipped the exit handlers, and a
  // spooled run's folder of temporary findings stayed in TMPDIR.
  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
    // Ctrl-\ too (its default action, as SIGTERM's, left the folder behind).
    ['SIGQUIT', 131],
  ] as const)('%s: the temporary findings are removed, exit %i, and stderr says no report was written', async (signal, status) => {
    const tmp = tempFiles({});
    const child = spawn(process.execPath, [binary, 'check', '--format', 'json', '--findings-in-memory', '1', '-'], { env: { ...process.env, TMPDIR: tmp } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdin.write(lines({ ok: false }, { ok: false }, { ok: false }, { ok: false }));
    // The pipe stays open; wait until the findings past the budget are in the spool file.
    const spooled = () => readdirSync(tmp, { recursive: true }).some((name) => String(name).endsWith('.ndjson'));
    for (let waited = 0; !spooled() && waited < 120_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(spooled()).toBe(true);
    child.kill(signal);
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stdout, stderr }).toEqual({ code: status, stdout: '', stderr: `mcec-result: stopped by ${signal}: no report written\n` });
    expect(readdirSync(tmp)).toEqual([]);
    child.stdin.destroy();
  });
});

describe('SIGTERM or SIGHUP while the report is written', () => {
  // process.exit() skipped the catch that removes the temporary report: it stayed beside the target.
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s: the temporary report goes, the old one stays', async (signal) => {
    const dir = tempFiles({ 'many.jsonl': `${JSON.stringify({ ok: true })}\n`.repeat(100_000), 'many.json': 'last week' });
    const child = spawn(process.execPath, [binary, 'check', '--jobs', '1', '-f', 'json=many.json', 'many.jsonl'], { cwd: dir });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise((resolve) => child.on('close', resolve));
    const writing = () => readdirSync(dir).some((name) => name.startsWith('.many.json.') && (statSync(join(dir, name), { throwIfNoEntry: false })?.size ?? 0) > 0);
    for (let waited = 0; !writing() && waited < 120_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(writing()).toBe(true);
    child.kill(signal);
    expect(await closed).toBe(signal === 'SIGTERM' ? 143 : 129);
    expect(stderr).toBe(`mcec-result: stopped by ${signal}: no report written\n`);
    expect(readdirSync(dir).sort()).toEqual(['many.json', 'many.jsonl']);
    expect(readFileSync(join(dir, 'many.json'), 'utf8')).toBe('last week');
  });
});

describe('SIGTERM while the report goes to standard output', () => {
  it('says the report there is cut short (was "no report written" after megabytes of it)', async () => {
    const dir = tempFiles({ 'many.jsonl': `${JSON.stringify({ ok: true })}\n`.repeat(100_000) });
    const child = spawn(process.execPath, [binary, 'check', '--jobs', '1', '-f', 'json', 'many.jsonl'], { cwd: dir });
    let stderr = '';
    let seen = 0;
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const closed = new Promise((resolve) => child.on('close', resolve));
    // Read slowly enough that the writer waits on the pipe, and stop it once part of the report came.
    await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => ((seen += chunk.length) > 64 * 1024 ? resolve() : undefined)));
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
    expect(stderr).toBe('mcec-result: stopped by SIGTERM: the report on standard output is cut short\n');
  });
});

describe('Ctrl-C while merge reads its reports', () => {
  it('exits 130 and leaves no temporary findings behind (the default action did)', async () => {
    // 20k distinct findings: past the 1,000 kinds a store holds, so merge spools them.
    const dir = tempFiles({ 'many.jsonl': Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ ok: true, result: {}, [`x${i}`]: 1 })).join('\n') + '\n' });
    expect(runCli(['check', '--no-config', 'many.jsonl', '-f', 'json=r.json'], { cwd: dir }).status).toBe(1);
    const reports = Array.from({ length: 40 }, (_, i) => `r${i}.json`);
    const text = readFileSync(join(dir, 'r.json'), 'utf8');
    for (const [i, name] of reports.entries()) writeFileSync(join(dir, name), text.replaceAll('"many.jsonl"', `"many-${i}.jsonl"`));
    const tmp = tempFiles({});
    const child = spawn(process.execPath, [binary, 'merge', '--no-config', '-f', 'json', ...reports], { cwd: dir, env: { ...process.env, TMPDIR: tmp } });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.resume();
    const closed = new Promise((resolve) => child.on('close', resolve));
    const spooled = () => readdirSync(tmp, { recursive: true }).some((name) => String(name).endsWith('.ndjson'));
    for (let waited = 0; !spooled() && waited < 120_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(spooled()).toBe(true);
    child.kill('SIGINT');
    const code = await closed;
    // Ctrl-C while the reports were read, or (on a fast machine) while the report was written.
    expect([130]).toContain(code);
    expect(stderr).toMatch(/^mcec-result: (stopped by Ctrl-C while the reports were read: no report written|interrupted by Ctrl-C while the report was written: .*)\n$/);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('Ctrl-C while the report is written', () => {
  // Ctrl-C's listener was gone once reading ended, and SIGINT's default action killed the writer:
  // it left the spooled findings in TMPDIR and a partial temporary report beside the target.
  it('stops the writing: exit 130, the old report kept, no temporary file left', async () => {
    const dir = tempFiles({ 'many.jsonl': `${JSON.stringify({ ok: true })}\n`.repeat(100_000), 'many.sarif': 'last week', 'tmp/.keep': '' });
    const tmp = join(dir, 'tmp');
    /** Runs the CLI and sends Ctrl-C as soon as the temporary file of `target` has a byte: each 1 MiB written gives Ctrl-C its turn. */
    const interrupted = async (args: string[], target: string) => {
      const child = spawn(process.execPath, [binary, ...args], { cwd: dir, env: { ...process.env, TMPDIR: tmp } });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const closed = new Promise((resolve) => child.on('close', resolve));
      const writing = () => readdirSync(dir).some((name) => name.startsWith(`.${target}.`) && (statSync(join(dir, name), { throwIfNoEntry: false })?.size ?? 0) > 0);
      for (let waited = 0; !writing() && waited < 120_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(writing()).toBe(true);
      child.kill('SIGINT');
      return { code: await closed, stderr };
    };
    const checked = await interrupted(['check', '--jobs', '1', '--findings-in-memory', '1', '-f', 'sarif', '-o', 'many.sarif', 'many.jsonl'], 'many.sarif');
    expect(checked.code).toBe(130);
    // Nothing about the size of a SARIF log that was not written (it held 100,000 results).
    expect(checked.stderr).toBe('mcec-result: interrupted by Ctrl-C while the report was written: many.sarif is not written: it keeps its last contents\n');
    expect(readFileSync(join(dir, 'many.sarif'), 'utf8')).toBe('last week');
    expect(readdirSync(dir).sort()).toEqual(['many.jsonl', 'many.sarif', 'tmp']);
    expect(readdirSync(tmp)).toEqual(['.keep']);
    // merge writes the same way.
    expect(runCli(['check', '--jobs', '1', '-f', 'json=many.json', 'many.jsonl'], { cwd: dir }).status).toBe(0);
    const merge = await interrupted(['merge', '-f', 'sarif=merged.sarif', 'many.json'], 'merged.sarif');
    expect(merge).toEqual({ code: 130, stderr: 'mcec-result: interrupted by Ctrl-C while the report was written: merged.sarif is not written\n' });
    expect(readdirSync(dir).sort()).toEqual(['many.json', 'many.jsonl', 'many.sarif', 'tmp']);
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
    expect(result.stderr).toBe(root ? 'mcec-result: cannot read /proc/self/mem: i/o error\n' : 'mcec-result: cannot read secret.jsonl: permission denied\n');
    expect(result.report.summary.invalid).toBe(1);
  });

  it('summary.inputs counts the inputs read: one that could not be read is in unreadable only, however it failed', async () => {
    const dir = tempFiles({ 'ok.jsonl': lines({ ok: false }), 'walk/ok.jsonl': lines({ ok: false }), 'secret.jsonl': lines({ ok: false }), 'cut.jsonl.gz': gzipSync(lines({ ok: false }, { ok: false })).subarray(0, 30) });
    symlinkSync('gone.jsonl', join(dir, 'broken.jsonl'));
    symlinkSync('../gone.jsonl', join(dir, 'walk/broken.jsonl'));
    const socket = createServer().listen(join(dir, 'walk/socket.jsonl'));
    await new Promise((listening) => socket.once('listening', listening));
    // root reads any file whatever its mode; /proc/self/mem fails to read for root too (EIO).
    const root = process.getuid?.() === 0;
    if (!root) chmodSync(join(dir, 'secret.jsonl'), 0);
    const denied = root ? '/proc/self/mem' : 'secret.jsonl';
    try {
      // Was 2, 1, 3, 2, 1 and 2: a file that could not be opened counted, a broken link named did not.
      // The first case's run writes its human report too, to a file out of the way of the inputs.
      const human = join(tempFiles({}), 'human.txt');
      for (const [arg, inputs] of [[denied, 1], ['broken.jsonl', 1], ['walk', 2], ['walk/socket.jsonl', 1], ['missing.jsonl', 1], ['cut.jsonl.gz', 2]] as const) {
        const result = runJson([arg, 'ok.jsonl', ...(arg === denied ? ['-f', `human=${human}`] : [])], { cwd: dir });
        expect(result.status, arg).toBe(2);
        expect(result.report.summary.unreadable, arg).toHaveLength(1);
        expect(result.report.summary.inputs, arg).toBe(inputs);
        // A gzip file cut short was read, its records checked: it counts (with ok.jsonl, 2), with them.
        if (arg === 'cut.jsonl.gz') expect(result.report.summary).toMatchObject({ inputs: 2, unreadable: [{ message: 'cut.jsonl.gz: gzip data ends early' }] });
      }
      expect(readFileSync(human, 'utf8')).toMatch(/\n✖ 1 problem \(1 error, 0 warnings\) in 1 input \(1 input not read\)\n/);
    } finally {
      socket.close();
    }
  });

  it('a folder redirected to standard input: exit 2, not an empty input', () => {
    const dir = tempFiles({ 'logs/run.jsonl': lines({ ok: true, result: {} }) });
    const fd = openSync(join(dir, 'logs'), 'r');
    try {
      // Was: "the input holds no record", a warning, exit 0.
      const result = spawnSync(process.execPath, [binary, 'check', '-f', 'json', '-'], { cwd: dir, stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
      expect(result.status).toBe(2);
      expect(result.stderr).toBe('mcec-result: cannot read -: standard input is a folder: name the folder as an input instead of redirecting it\n');
      expect(JSON.parse(result.stdout).findings).toEqual([]);
    } finally {
      closeSync(fd);
    }
  });

  it('a file whose name is not UTF-8: said so, not "no such file", found in a folder or named', () => {
    const dir = tempFiles({ 'logs/ok.jsonl': lines({ ok: true, result: {} }) });
    // Latin-1 "é" (0xe9) alone is no UTF-8: Node sees the name with U+FFFD, which does not exist.
    writeFileSync(Buffer.concat([Buffer.from(join(dir, 'logs', 'caf')), Buffer.from([0xe9]), Buffer.from('.jsonl')]), lines({ ok: true, result: {} }));
    const said = 'cannot read logs/caf\uFFFD.jsonl: its name is not valid UTF-8, and Node cannot open such a name: rename the file';
    const walked = runJson(['logs'], { cwd: dir });
    expect(walked).toMatchObject({ status: 2, stderr: `mcec-result: ${said}\n` });
    expect(walked.report.summary.records).toBe(1);
    expect(runCli(['check', 'logs/caf\uFFFD.jsonl'], { cwd: dir }).stderr).toBe(`mcec-result: ${said}\n`);
  });
});

describe('pipes named as paths', () => {
  it('a FIFO (what <(zcat run.jsonl.gz) passes) is read once, past its first MiB, as the same file would be', () => {
    // 20k lines, ~2.4 MB: more than the first chunk, which is read before the rest streams.
    const records = Array.from({ length: 20_000 }, (_, i) => (i % 7 === 0 ? { ok: false, sessionId: `s${i}` } : { ok: true, result: { n: i, text: 'x'.repeat(100) } }));
    const dir = tempFiles({ 'run.jsonl': lines(...records) });
    expect(spawnSync('mkfifo', ['pipe'], { cwd: dir }).status).toBe(0);
    // The writer is its own process: it blocks until the CLI opens the FIFO, then fills it.
    const writer = spawn('sh', ['-c', 'cat run.jsonl > pipe'], { cwd: dir });
    const piped = runCli(['check', '--format', 'json', '--jobs', '2', 'pipe'], { cwd: dir, timeoutMs: 300_000 });
    writer.kill();
    const named = runJson(['--jobs', '2', 'run.jsonl'], { cwd: dir });
    expect(piped.status).toBe(1);
    expect(JSON.parse(piped.stdout).summary).toMatchObject({ records: 20_000, unparseable: 0, invalid: 2858 });
    expect(piped.stdout.replaceAll('"pipe"', '"run.jsonl"')).toBe(JSON.stringify(named.report, null, 2) + '\n');
  });
});

/**
 * Whether the CLI's own signal handlers are in place: it installs SIGHUP's with SIGTERM's as its
 * run starts, and Node catches none of SIGHUP by itself (it catches SIGINT and SIGTERM from its
 * own start, to restore the terminal, so those bits say nothing about the CLI). Without /proc,
 * a second is taken as enough.
 */
function cliStarted(pid: number, waitedMs: number): boolean {
  let status;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return waitedMs >= 1000;
  }
  const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1];
  return mask !== undefined && ((BigInt(`0x${mask}`) >> BigInt(osConstants.signals.SIGHUP - 1)) & 1n) === 1n;
}

/**
 * Waits until the CLI has started and its main thread has sat in epoll_wait (waiting for input, all
 * of it read) for `samples` looks in a row: the point where a `tail -f` reader waits. Without /proc,
 * a fixed wait stands in.
 */
async function idleOnInput(pid: number, samples = 5): Promise<void> {
  const pause = () => new Promise((resolve) => setTimeout(resolve, 30));
  for (let waited = 0; !cliStarted(pid, waited) && waited < 120_000; waited += 30) await pause();
  let wchan: (() => string) | undefined = () => readFileSync(`/proc/${pid}/wchan`, 'utf8');
  try {
    wchan();
  } catch {
    wchan = undefined;
  }
  if (!wchan) return void (await new Promise((resolve) => setTimeout(resolve, 1500)));
  for (let idle = 0, waited = 0; idle < samples && waited < 120_000; waited += 30) {
    idle = wchan() === 'do_epoll_wait' ? idle + 1 : 0;
    await pause();
  }
}

/** Whether process `pid` holds `path` open (Linux's /proc), or undefined where that cannot be known. */
function holdsOpen(pid: number, path: string): boolean | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return undefined;
  }
}

/**
 * Runs the CLI, sends `signal` `afterMs` after the CLI handles it (sent sooner, its default action
 * ended a slow start), and waits for it to end; a run still there 10 s later is killed (its code is
 * then null), so that a hang fails the test rather than the suite.
 */
async function signalled(args: string[], cwd: string, signal: NodeJS.Signals, afterMs = 300, input?: Buffer, ready: (pid: number) => boolean = () => true) {
  const child = spawn(process.execPath, [binary, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  // Standard input stays open, as a `tail -f` would leave it.
  if (input) child.stdin.write(input);
  child.on('close', () => child.stdin.destroy());
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  for (let waited = 0; !(cliStarted(child.pid!, waited) && ready(child.pid!)) && waited < 120_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, afterMs));
  child.kill(signal);
  const killer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await closed;
  clearTimeout(killer);
  return { code, stdout, stderr };
}

describe('Ctrl-C while gzip is read', () => {
  // The gzip stream was fed by .pipe(), which forwards no error: the source destroyed by Ctrl-C
  // emitted an unhandled 'error' (AbortError), exit 1 with a stack trace and no report.
  it('standard input: exit 130 and the report of what was read', async () => {
    const result = await signalled(['check', '--format', 'json', '-'], tempFiles({}), 'SIGINT', 1000, gzipSync(lines({ ok: true, result: {} }, { ok: false })));
    expect(result.code).toBe(130);
    expect(result.stderr).toBe('mcec-result: interrupted: the report covers only what was read before Ctrl-C (2 records)\n');
    expect(JSON.parse(result.stdout).summary).toMatchObject({ records: 2, invalid: 1, interrupted: true });
  });
});

/** Bytes the process has read (Linux's /proc), or undefined where that cannot be known. */
function bytesRead(pid: number): number | undefined {
  try {
    return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1]);
  } catch {
    return undefined;
  }
}

/** 400k records in one `.json` array: parsed and checked in one synchronous stretch of ~1 s. */
const largeDocument = `[${Array(400_000).fill(JSON.stringify({ ok: true, result: { text: 'y'.repeat(40) } })).join(',\n')}]`;

/**
 * Runs the CLI on `largeDocument` (named in `args`, or written to its standard input) and sends it
 * Ctrl-C once it has read all of it, while it parses and checks. Its report goes to a file: a CLI
 * that has begun to write it by then has finished that work, and the signal would test nothing, so
 * such a run is not signalled and is tried again, up to five times (a loaded machine can hold the
 * test back that long).
 */
async function ctrlCOnceRead(args: string[], { cwd, stdin }: { cwd?: string; stdin?: string }): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const outputs = tempFiles({});
  for (let attempt = 1; ; attempt++) {
    const [out, err] = [join(outputs, `stdout-${attempt}`), join(outputs, `stderr-${attempt}`)];
    const [outFd, errFd] = [openSync(out, 'w'), openSync(err, 'w')];
    const child = spawn(process.execPath, [binary, ...args], { ...(cwd !== undefined && { cwd }), env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', outFd, errFd] });
    closeSync(outFd);
    closeSync(errFd);
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    const pause = () => new Promise((resolve) => setTimeout(resolve, 2));
    // Ctrl-C's listener is there once the run starts; the document is then read, and parsed once read.
    for (let waited = 0; !cliStarted(child.pid!, waited) && waited < 120_000; waited += 2) await pause();
    const before = bytesRead(child.pid!)!;
    if (stdin !== undefined) child.stdin!.end(stdin);
    for (let waited = 0; (bytesRead(child.pid!) ?? Infinity) < before + largeDocument.length && waited < 120_000; waited += 2) await pause();
    // The last chunks reach the parser a moment after they are read; parsing and checking take ~1 s.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const late = statSync(out).size > 0;
    if (late && attempt < 5) {
      await closed;
      continue;
    }
    expect(late, 'the CLI had written its report before each of five signals').toBe(false);
    child.kill('SIGINT');
    const status = await closed;
    return { status, stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') };
  }
}

describe('Ctrl-C during synchronous work', () => {
  // A .json document is parsed and checked in one synchronous stretch, and the SIGINT listener was
  // removed right after it, before the queued signal was delivered: the run passed, exit 0.
  it.runIf(bytesRead(process.pid) !== undefined)('while a large document is parsed: exit 130, and stderr and the report say whether it is whole', async () => {
    const dir = tempFiles({ 'big.json': largeDocument });
    const { status, stdout, stderr } = await ctrlCOnceRead(['check', '--format', 'json', 'big.json'], { cwd: dir });
    expect(status).toBe(130);
    // Nearly always the document was read whole, and its check ends before the signal is heard: the
    // report is whole (it said it stopped early). Should the signal beat the last chunk, it is not.
    const { summary } = JSON.parse(stdout) as { summary: { records: number; interrupted?: true } };
    if (summary.interrupted) {
      // Marked only when something was cut short (was: every record there, and marked all the same).
      expect(summary.records).toBeLessThan(400_000);
      expect(stderr).toBe(`mcec-result: interrupted: the report covers only what was read before Ctrl-C (${summary.records} records)\n`);
    }
    else expect([summary.records, stderr]).toEqual([400_000, 'mcec-result: Ctrl-C came as the last input was checked: the report is whole (400000 records)\n']);
  });
});

describe('Ctrl-C and the end of a pipe', () => {
  // Ctrl-C in a terminal ends every process of a pipeline: the writer's end can reach the checker
  // before its own SIGINT does. Was: `cat run.jsonl | mcec-result check -` then said its report was
  // whole (found by a QA helper). A pipe's end does not say it was whole, so it is not called so.
  it.runIf(bytesRead(process.pid) !== undefined)('a signal heard after standard input (a pipe) ended: the report is marked interrupted, not whole', async () => {
    const { status, stdout, stderr } = await ctrlCOnceRead(['check', '--format', 'json', '--input', 'json', '-'], { stdin: largeDocument });
    expect(status).toBe(130);
    const { summary } = JSON.parse(stdout) as { summary: { records: number; interrupted?: true } };
    expect(summary.interrupted).toBe(true);
    expect(stderr).toBe(`mcec-result: interrupted: the report covers only what was read before Ctrl-C (${summary.records} records)\n`);
  });
});

describe('FIFOs nobody opens the other end of', () => {
  // The main thread waited in a synchronous open() for a writer (or, for -o, a reader), and no signal
  // handler ran: Ctrl-C and SIGTERM did nothing, and `timeout 3 mcec-result check fifo` never ended.
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s ends a run waiting for a FIFO input\'s writer: exit %i', async (signal, status) => {
    const dir = tempFiles({});
    expect(spawnSync('mkfifo', ['in.jsonl'], { cwd: dir }).status).toBe(0);
    // Signalled once the run holds the FIFO's read end: it waits for the writer from then on.
    const result = await signalled(['check', '--format', 'json', 'in.jsonl'], dir, signal, 300, undefined, (pid) => holdsOpen(pid, realpathSync(join(dir, 'in.jsonl'))) ?? true);
    expect(result.code).toBe(status);
    if (signal === 'SIGINT') {
      expect(result.stderr).toBe('mcec-result: interrupted: the report covers only what was read before Ctrl-C (0 records)\n');
      expect(JSON.parse(result.stdout).summary).toMatchObject({ inputs: 1, records: 0, interrupted: true });
    } else {
      expect(result.stderr).toBe('mcec-result: stopped by SIGTERM: no report written\n');
    }
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s ends a run waiting for the reader of a FIFO report: exit %i', async (signal, status) => {
    const dir = tempFiles({ 'a.jsonl': lines({ ok: true, result: {} }) });
    expect(spawnSync('mkfifo', ['out'], { cwd: dir }).status).toBe(0);
    // Late enough that reading is over, and the run waits to write.
    const result = await signalled(['check', 'a.jsonl', '-o', 'out'], dir, signal, 1000);
    expect(result.code).toBe(status);
    expect(result.stderr).toBe(signal === 'SIGINT' ? 'mcec-result: interrupted by Ctrl-C while the report was written: out is not written: nothing read it\n' : 'mcec-result: stopped by SIGTERM: no report written\n');
  });

  it('Ctrl-C while the writer of a FIFO is idle: exit 130 at once, with what was read', async () => {
    const dir = tempFiles({ 'a.jsonl': lines({ ok: true, result: {} }) });
    expect(spawnSync('mkfifo', ['in.jsonl'], { cwd: dir }).status).toBe(0);
    // A writer that writes a line and then waits, as `<(cat a; sleep 30; cat a)` does.
    const writer = spawn('sh', ['-c', 'exec 3>in.jsonl; cat a.jsonl >&3; exec sleep 600'], { cwd: dir });
    try {
      const result = await signalled(['check', '--format', 'json', 'in.jsonl'], dir, 'SIGINT', 1500);
      expect(result.code).toBe(130);
      // At once: the writer still holds the FIFO open, its pause not over.
      expect(writer.exitCode).toBeNull();
      expect(JSON.parse(result.stdout).summary).toMatchObject({ records: 1, interrupted: true });
    } finally {
      writer.kill('SIGKILL');
    }
  });
});

describe('folders and globs that could loop, fail or surprise', () => {
  const ok = { ok: true, result: {} };

  it('an empty argument: exit 2 and what to give instead', () => {
    const result = runCli(['check', '']);
    // Was an empty report on stdout, as if a file had been unreadable.
    expect(result).toMatchObject({ status: 2, stdout: '', stderr: 'mcec-result: an input argument is empty: name a file, folder or glob, or - for standard input\n' });
  });

  it('links to folders are not followed: two links up the tree end quickly, each file found once', () => {
    const dir = tempFiles({ 'a/x.json': JSON.stringify(ok) });
    symlinkSync('..', join(dir, 'a/up1'));
    symlinkSync('..', join(dir, 'a/up2'));
    for (const arg of ['a', 'a/**/*.json', '**/*.json']) {
      const result = runCli(['check', '--format', 'json', arg], { cwd: dir, timeoutMs: 300_000 });
      expect(result.status, arg).toBe(0);
      expect(JSON.parse(result.stdout).summary.inputs, arg).toBe(1);
    }
  });

  it('links to files are inputs; a broken one is reported as unreadable, the rest still checked', () => {
    const dir = tempFiles({ 'runs/real/x.jsonl': lines({ ok: false }) });
    symlinkSync('real/x.jsonl', join(dir, 'runs/latest.jsonl'));
    symlinkSync('gone.jsonl', join(dir, 'runs/broken.jsonl'));
    symlinkSync('real', join(dir, 'runs/real-link'));
    for (const arg of ['runs', 'runs/*.jsonl']) {
      const result = runJson([arg], { cwd: dir });
      expect(result.status, arg).toBe(2);
      expect(result.stderr, arg).toBe('mcec-result: cannot read runs/broken.jsonl: no such file or directory\n');
      const sources = new Set(result.report.findings.map((f: { source: string }) => f.source));
      expect([...sources].sort(), arg).toEqual(arg === 'runs' ? ['runs/latest.jsonl', 'runs/real/x.jsonl'] : ['runs/latest.jsonl']);
    }
  });

  it('a file name with a terminal escape in it reaches stderr escaped', () => {
    const dir = tempFiles({ 'runs/ok.jsonl': lines({ ok: true, result: {} }) });
    symlinkSync('gone.jsonl', join(dir, 'runs/x\u001b[2Jy.jsonl'));
    const result = runCli(['check', 'runs'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('mcec-result: cannot read runs/x\\u001b[2Jy.jsonl: no such file or directory\n');
  });

  it('a folder the walk cannot read: exit 2 naming it and why, the rest of the walk and the other inputs still checked', () => {
    const dir = tempFiles({ 'deep/top.json': JSON.stringify(ok), 'other.jsonl': lines({ ok: false }) });
    // Past PATH_MAX a folder cannot be listed by anyone, root included (chmod 0 does not stop root).
    const segment = 'd'.repeat(250);
    const nested = Array.from({ length: 18 }, () => segment).join('/');
    expect(spawnSync('mkdir', ['-p', nested], { cwd: join(dir, 'deep') }).status).toBe(0);
    try {
      for (const arg of ['deep', 'deep/**/*.json']) {
        const result = runJson([arg, 'other.jsonl'], { cwd: dir });
        expect(result.status, arg).toBe(2);
        expect(result.stderr, arg).toMatch(/^mcec-result: cannot read deep\/(d{250}\/)+d{250}: name too long\n$/);
        noStack(result.stderr);
        // Was inputs 1: the one folder that could not be listed lost deep/top.json with it.
        expect(result.report.summary, arg).toMatchObject({ inputs: 2, records: 2, invalid: 1 });
        expect(result.report.summary.unreadable, arg).toEqual([{ source: expect.stringMatching(/^deep\/(d{250}\/)+d{250}$/), message: expect.any(String) }]);
      }
    } finally {
      spawnSync('rm', ['-rf', dir]);
    }
  });

  it('a locked folder inside a walk: reported as unreadable, the files beside it still checked; a locked folder named fails whole', (test) => {
    const dir = tempFiles({ 'walk/a.jsonl': lines({ ok: false }), 'walk/sub/good.jsonl': lines(ok), 'walk/locked/good.jsonl': lines(ok) });
    chmodSync(join(dir, 'walk/locked'), 0);
    // root lists any folder whatever its mode: the run is made as nobody, where setpriv can.
    const root = process.getuid?.() === 0;
    const asNobody = ['--reuid=65534', '--regid=65534', '--clear-groups'];
    // Skipped, and shown as skipped, where root cannot run it as nobody (the name-too-long test above
    // covers the same path for root).
    if (root && spawnSync('setpriv', [...asNobody, 'true']).status !== 0) return test.skip('setpriv cannot run a command as nobody here');
    // nobody must reach the built binary: a checkout under a folder only its owner may enter (what
    // `mktemp -d` makes) is out of its reach, and that says nothing about the code under test.
    if (root && spawnSync('setpriv', [...asNobody, process.execPath, binary, '--version']).status !== 0) {
      return test.skip(`nobody cannot run ${binary}: a folder above the checkout is closed to other users`);
    }
    // The test run's temporary folder is its owner's alone: nobody needs to pass through it.
    chmodSync(dirname(dir), 0o711);
    chmodSync(dir, 0o755);
    const run = (arg: string) => {
      const command = root ? spawnSync('setpriv', [...asNobody, process.execPath, binary, 'check', '-f', 'json', arg], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } }) : spawnSync(process.execPath, [binary, 'check', '-f', 'json', arg], { cwd: dir, encoding: 'utf8' });
      return { status: command.status, stderr: command.stderr, summary: JSON.parse(command.stdout).summary };
    };
    try {
      for (const arg of ['walk', 'walk/**/*.jsonl']) {
        const result = run(arg);
        expect(result.status, arg).toBe(2);
        expect(result.stderr, arg).toBe('mcec-result: cannot read walk/locked: permission denied\n');
        expect(result.summary, arg).toMatchObject({ inputs: 2, records: 2, invalid: 1, unreadable: [{ source: 'walk/locked', message: 'cannot read walk/locked: permission denied' }] });
      }
      expect(run('walk/locked')).toMatchObject({ status: 2, stderr: 'mcec-result: cannot read walk/locked: permission denied\n', summary: { inputs: 0 } });
    } finally {
      chmodSync(join(dir, 'walk/locked'), 0o755);
    }
  });

  it("the run's own files are not inputs: a folder leaves them out, and a written one named as an input is refused", () => {
    const run = JSON.stringify({ ok: false });
    const dir = tempFiles({
      'mcec-result.config.json': JSON.stringify({ rules: { 'missing-result': 'off' } }),
      'codes.json': JSON.stringify({ errorCodes: {}, warningCodes: ['extra-code'] }),
      'run.json': run,
    });
    // The config file, a codes file, and the report and baseline a run in the folder writes.
    const first = runCli(['check', '--format', 'json', '.', '--codes', 'codes.json', '-o', 'report.json', '--write-baseline', 'baseline.json'], { cwd: dir });
    expect(first).toMatchObject({ status: 0, stdout: '' });
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary).toMatchObject({ inputs: 1, invalid: 1 });
    // The next run in the same folder: the baseline it reads and the report it writes again are left out too.
    const second = runCli(['check', '--format', 'json', '.', '--codes', 'codes.json', '--baseline', 'baseline.json', '-o', 'report.json'], { cwd: dir });
    expect(second).toMatchObject({ status: 0, stdout: '', stderr: '' });
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary).toMatchObject({ inputs: 1, errors: 0 });
    // Without -o, last run's report is a file in the folder like any other.
    expect(runJson(['.', '--codes', 'codes.json', '--baseline', 'baseline.json'], { cwd: dir }).report.summary.inputs).toBe(2);
    // Named on the command line, a file the run only reads is checked; one it would write is refused before reading.
    expect(runJson(['codes.json'], { cwd: dir }).report.summary).toMatchObject({ inputs: 1, invalid: 1 });
    symlinkSync('run.json', join(dir, 'link.json'));
    for (const [args, role] of [
      [['run.json', '-o', 'run.json'], 'the report'],
      [['./run.json', '--format', 'sarif=run.json'], 'the sarif report'],
      [['run.json', '--write-baseline', join(dir, 'run.json')], 'the baseline'],
      [['link.json', '-o', 'run.json'], 'the report'],
    ] as const) {
      const result = runCli(['check', ...args], { cwd: dir });
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toBe(`mcec-result: ${args[0]} is an input, and ${role} this run writes would overwrite it: write ${role} to another file\n`);
      expect(readFileSync(join(dir, 'run.json'), 'utf8')).toBe(run);
    }
    // merge too: its inputs are reports, and -o over one of them would replace it with the merge.
    const report = readFileSync(join(dir, 'report.json'), 'utf8');
    const merged = runCli(['merge', 'report.json', 'report.json', '-o', 'report.json'], { cwd: dir });
    expect(merged).toMatchObject({ status: 2, stderr: 'mcec-result: report.json is an input, and the report this run writes would overwrite it: write the report to another file\n' });
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe(report);
  });

  it('a file a folder or glob finds that holds records, not an earlier report, is refused as the report, not replaced', () => {
    // Was: left out of the inputs and overwritten with the report, the records lost (found by an audit helper).
    const log = lines({ ok: false });
    const dir = tempFiles({ 'ow/1.jsonl': lines({ ok: true, result: {} }), 'ow/2.jsonl': log, 'ow/3.json.gz': gzipSync(log), 'ow/empty.jsonl': '' });
    for (const [args, name, role] of [
      [['ow', '-o', 'ow/2.jsonl'], 'ow/2.jsonl', 'the report'],
      [['ow/*.jsonl', '-f', 'json=ow/2.jsonl'], 'ow/2.jsonl', 'the json report'],
      [['ow', '--write-baseline', 'ow/3.json.gz'], 'ow/3.json.gz', 'the baseline'],
    ] as const) {
      expect(runCli(['check', ...args], { cwd: dir }), args.join(' ')).toMatchObject({ status: 2, stdout: '', stderr: `mcec-result: ${name} (found in ${args[0]}) is an input, and ${role} this run writes would overwrite it: write ${role} to another file\n` });
    }
    expect(readFileSync(join(dir, 'ow/2.jsonl'), 'utf8')).toBe(log);
    expect(gunzipSync(readFileSync(join(dir, 'ow/3.json.gz'))).toString()).toBe(log);
    // A log with a prefix before its JSON, a record that names the tool in its detail, and a file
    // found through a link to its folder are records too (were replaced; found by a reviewer).
    writeFileSync(join(dir, 'ow/app.log'), '2026-07-01T10:15:02Z INFO r {"ok":true,"result":{}}\n');
    writeFileSync(join(dir, 'ow/named.jsonl'), lines({ ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'checked by mcec-result' } }));
    symlinkSync('ow', join(dir, 'link'));
    for (const [args, name] of [
      [['ow', '--extract', '-o', 'ow/app.log'], 'ow/app.log'],
      [['ow', '-o', 'ow/named.jsonl'], 'ow/named.jsonl'],
      [['link', '-o', 'ow/2.jsonl'], 'link/2.jsonl'],
    ] as const) {
      expect(runCli(['check', ...args], { cwd: dir }), args.join(' ')).toMatchObject({ status: 2, stderr: `mcec-result: ${name} (found in ${args[0]}) is an input, and the report this run writes would overwrite it: write the report to another file\n` });
    }
    expect(readFileSync(join(dir, 'ow/app.log'), 'utf8')).toContain('INFO r');
    // An empty file, or an earlier report (JSON, ndjson, SARIF, human text), is left out and written again.
    // A run writes several reports, each to a file of its own that the walk finds: the first run
    // writes each format over an empty file, the next writes over each report the format after it in
    // the list (json's after github's). Any one refused fails its run with exit 2, naming the file.
    const formats = ['json', 'ndjson', 'sarif', 'human', 'junit', 'markdown', 'github'];
    const file = (format: string) => (format === 'json' ? 'ow/empty.jsonl' : `ow/empty-${format}.jsonl`);
    const reports = (shift: number) => formats.flatMap((format, i) => ['-f', `${formats[(i + shift) % formats.length]}=${file(format)}`]);
    for (const format of formats) writeFileSync(join(dir, file(format)), '');
    const leftOut = ['!ow/2.jsonl', '!ow/3.json.gz', '!ow/app.log', '!ow/named.jsonl'];
    for (const extra of [reports(0), reports(1)]) {
      expect(runCli(['check', 'ow', ...leftOut, ...extra], { cwd: dir }), extra.join(' ')).toMatchObject({ status: 0, stderr: '' });
    }
    // From here one report file is in the folder (the others would be inputs): github's, now a JSON report.
    for (const format of formats) if (format !== 'github') rmSync(join(dir, file(format)));
    for (const extra of [['--color', '-f', 'human=ow/empty-github.jsonl'], ['--write-baseline', 'ow/empty-github.jsonl'], ['--write-baseline', 'ow/empty-github.jsonl']]) {
      expect(runCli(['check', 'ow', ...leftOut, ...extra], { cwd: dir }), extra.join(' ')).toMatchObject({ status: 0, stderr: '' });
    }
  });

  it('a file redirected to standard input is refused as the report too (check - < run.jsonl -o run.jsonl)', () => {
    const run = lines({ ok: false });
    const dir = tempFiles({ 'run.jsonl': run });
    const withStdin = (args: string[]) => {
      const fd = openSync(join(dir, 'run.jsonl'), 'r');
      try {
        return spawnSync(process.execPath, [binary, 'check', ...args], { cwd: dir, stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
      } finally {
        closeSync(fd);
      }
    };
    for (const [args, path, role] of [
      [['-', '-o', 'run.jsonl'], 'run.jsonl', 'the report'],
      // No input named: standard input is read, as it is piped or redirected.
      [['--format', 'json=./run.jsonl'], './run.jsonl', 'the json report'],
    ] as const) {
      const result = withStdin([...args]);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toBe(`mcec-result: standard input is ${path}, redirected in, and ${role} this run writes would overwrite it: write ${role} to another file\n`);
      expect(readFileSync(join(dir, 'run.jsonl'), 'utf8')).toBe(run);
    }
    // Another file as the report is fine.
    expect(withStdin(['-', '--format', 'json', '-o', 'report.json']).status).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.records).toBe(1);
  });

  it('two reports named to one file, or a report over a settings file, are refused before anything is read', () => {
    const codes = JSON.stringify({ errorCodes: {}, warningCodes: ['extra-code'] });
    const dir = tempFiles({ 'run.json': JSON.stringify({ ok: false }), 'codes.json': codes, 'report.json': 'last week' });
    symlinkSync('report.json', join(dir, 'link.json'));
    for (const [args, message] of [
      [['-o', 'report.json', '--format', 'human', '--format', 'sarif=./report.json'], 'report.json would be written twice, the report and then the sarif report over it'],
      [['--format', 'json=report.json', '--format', 'junit=link.json'], 'report.json would be written twice, the json report and then the junit report over it'],
      [['--write-baseline', 'report.json', '-o', 'report.json'], 'report.json would be written twice, the baseline and then the report over it'],
      [['--codes', 'codes.json', '-o', 'codes.json'], 'codes.json is the codes file, and the report this run writes would overwrite it'],
    ] as const) {
      const result = runCli(['check', 'run.json', ...args], { cwd: dir });
      expect(result, args.join(' ')).toMatchObject({ status: 2, stdout: '' });
      expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^mcec-result: ${message.replaceAll('.', '\\.')}: [^\\n]+\\n$`));
      expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('last week');
      expect(readFileSync(join(dir, 'codes.json'), 'utf8')).toBe(codes);
    }
    expect(runCli(['merge', 'report.json', '-o', 'm.json', '--format', 'sarif=m.json'], { cwd: dir })).toMatchObject({ status: 2, stderr: expect.stringContaining('m.json would be written twice') });
    // Not clashes: a baseline brought up to date in place, and two reports in turn to a device (to
    // stdout by that name, text formats only: a document has its stream to itself).
    expect(runCli(['check', 'run.json', '--write-baseline', 'b.json'], { cwd: dir }).status).toBe(0);
    expect(runCli(['check', 'run.json', '--baseline', 'b.json', '--write-baseline', 'b.json'], { cwd: dir })).toMatchObject({ status: 0, stderr: '' });
    expect(runCli(['check', 'run.json', '--format', 'json=/dev/null', '--format', 'sarif=/dev/null'], { cwd: dir })).toMatchObject({ status: 1, stdout: '', stderr: '' });
    const both = runCli(['check', 'run.json', '--format', 'human=/dev/stdout', '--format', 'github=/dev/stdout'], { cwd: dir });
    expect(both.status).toBe(1);
    expect(both.stdout).toContain('✖ 1 problem');
    expect(both.stdout).toContain('::error ');
  });

  it('a report that fails part way leaves the last good one, not a cut-off one', () => {
    const records = Array.from({ length: 500 }, (_, i) => `{"ok":false,"sessionId":"s${i}"}\n`).join('');
    const dir = tempFiles({ 'run.jsonl': records, 'good.json': '{"last":"week"}\n' });
    symlinkSync('good.json', join(dir, 'link.json'));
    // A file-size limit makes the write fail after the first pieces (EFBIG). Was: good.json cut to the limit.
    for (const [option, file, said] of [['-o', 'link.json', 'cannot write link.json'], ['--write-baseline', 'good.json', 'cannot write baseline good.json']] as const) {
      const cut = spawnSync('sh', ['-c', `ulimit -f 8; "${process.execPath}" "${binary}" check run.jsonl -f json ${option} ${file}`], { cwd: dir, encoding: 'utf8' });
      expect(cut.status, option).toBe(2);
      expect(cut.stderr, option).toContain(`mcec-result: ${said}: `);
      expect(readFileSync(join(dir, 'good.json'), 'utf8')).toBe('{"last":"week"}\n');
      expect(readdirSync(dir).sort()).toEqual(['good.json', 'link.json', 'run.jsonl']);
    }
    // Written whole through links, by one run that writes its JSON report to each of them (json=FILE
    // is written as -f json -o FILE is).
    chmodSync(join(dir, 'good.json'), 0o640);
    // A link to a file not there yet.
    symlinkSync('out/r.json', join(dir, 'dangling.json'));
    mkdirSync(join(dir, 'out'));
    // A relative link in a linked folder.
    mkdirSync(join(dir, 'real/sub'), { recursive: true });
    writeFileSync(join(dir, 'real/r.json'), 'old');
    symlinkSync('real/sub', join(dir, 'linkdir'));
    symlinkSync('../r.json', join(dir, 'real/sub/out.json'));
    expect(runCli(['check', 'run.jsonl', '-f', 'json=link.json', '-f', 'json=dangling.json', '-f', 'json=linkdir/out.json'], { cwd: dir }).status).toBe(1);
    // The link stays a link, the file keeps its permissions, and no temporary file is left beside it.
    expect(JSON.parse(readFileSync(join(dir, 'good.json'), 'utf8')).summary.records).toBe(500);
    expect(statSync(join(dir, 'good.json')).mode & 0o777).toBe(0o640);
    expect(readdirSync(dir).sort()).toEqual(['dangling.json', 'good.json', 'link.json', 'linkdir', 'out', 'real', 'run.jsonl']);
    // A link to a file not there yet is followed, not replaced.
    expect(lstatSync(join(dir, 'dangling.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'out/r.json'), 'utf8')).summary.records).toBe(500);
    // A relative link in a linked folder is followed from where it really is, not from the link.
    expect(JSON.parse(readFileSync(join(dir, 'real/r.json'), 'utf8')).summary.records).toBe(500);
    expect(existsSync(join(dir, 'r.json'))).toBe(false);
  });

  it('a report or baseline that cannot be written is refused before anything is read, the old file left as it was', async () => {
    const dir = tempFiles({ 'run.json': JSON.stringify({ ok: true, result: {} }), 'old.json': 'last week', 'reports/.keep': '' });
    for (const [args, message] of [
      [['-o', 'missing/r.json'], `cannot write the report missing/r.json: the folder ${join(dir, 'missing')} does not exist`],
      [['--format', 'human', '--format', 'sarif=reports'], 'cannot write the sarif report reports: it is a folder'],
      [['--write-baseline', 'run.json/b.json'], 'cannot write the baseline run.json/b.json: not a directory'],
    ] as const) {
      // Standard input stays open and silent: a run that read before refusing would never end.
      const child = spawn(process.execPath, [binary, 'check', '-', '-o', 'old.json', ...args], { cwd: dir });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const status = await new Promise((done) => child.on('close', done));
      expect({ status, stderr }, args.join(' ')).toEqual({ status: 2, stderr: `mcec-result: ${message}\n` });
    }
    expect(readFileSync(join(dir, 'old.json'), 'utf8')).toBe('last week');
    expect(runCli(['merge', 'old.json', '-o', 'missing/m.json'], { cwd: dir })).toMatchObject({ status: 2, stderr: `mcec-result: cannot write the report missing/m.json: the folder ${join(dir, 'missing')} does not exist\n` });
  });

  describe('! leaves out what folders and globs find', () => {
    const dir = tempFiles({
      'logs/new/a.jsonl': lines({ ok: false }),
      'logs/old/b.jsonl': lines({ ok: false }),
      'logs/old/.hidden/c.jsonl': lines({ ok: false }),
      'logs/d.json': JSON.stringify({ ok: false }),
      '!literal.jsonl': lines({ ok: false }),
    });
    const sources = (report: { findings: { source: string }[] }) => [...new Set(report.findings.map((f) => f.source))];

    it('relative and absolute patterns, in any position, dotfiles included', () => {
      const cases = [
        ['logs', '!logs/old/**'],
        ['!logs/old/**', 'logs/**/*.jsonl', 'logs/d.json'],
        ['./logs', '!**/old/**'],
        ['logs', `!${join(dir, 'logs/old')}/**`],
      ];
      for (const args of cases) {
        const result = runJson(args, { cwd: dir });
        expect(result.status, args.join(' ')).toBe(1);
        expect(sources(result.report).map((s) => s.replace(/^\.\//, '')).sort(), args.join(' ')).toEqual(['logs/d.json', 'logs/new/a.jsonl']);
      }
      // Walks skip dot folders; a glob that names one finds it, and `**` in an exclusion covers it.
      expect(sources(runJson(['logs/*/.hidden/*.jsonl'], { cwd: dir }).report)).toEqual(['logs/old/.hidden/c.jsonl']);
      expect(runCli(['check', 'logs/*/.hidden/*.jsonl', '!logs/old/**'], { cwd: dir })).toMatchObject({ status: 2, stderr: 'mcec-result: no input files in logs/*/.hidden/*.jsonl: !logs/old/** left out all 1\n' });
    });

    it('a file named on the command line is still checked', () => {
      const result = runJson(['logs/old/b.jsonl', '!logs/old/**'], { cwd: dir });
      expect(sources(result.report)).toEqual(['logs/old/b.jsonl']);
    });

    it('a file whose name starts with ! is a path, not an exclusion', () => {
      const result = runJson(['!literal.jsonl'], { cwd: dir });
      expect(sources(result.report)).toEqual(['!literal.jsonl']);
    });

    it('everything left out, or nothing but exclusions: exit 2 saying so', () => {
      expect(runCli(['check', 'logs/old', '!**/*.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stderr: 'mcec-result: no input files in logs/old: !**/*.jsonl left out all 1\n' });
      expect(runCli(['check', '!logs/old/**'], { cwd: dir })).toMatchObject({ status: 2, stdout: '', stderr: 'mcec-result: !logs/old/** only leaves files out: name the files, folders or globs to check as well\n' });
      expect(runCli(['check', 'logs', '!'], { cwd: dir })).toMatchObject({ status: 2, stdout: '', stderr: 'mcec-result: !: a glob must follow the ! (as in !logs/old/**) to leave files out\n' });
    });
  });
});

describe('files of /proc, whose reads fall short of their end', () => {
  it.skipIf(process.platform !== 'linux' || !existsSync('/proc/kallsyms'))('are read to their end: every line is an entry', () => {
    // A file of /proc states its size as 0 and gives about a page a read. With --extract each line
    // (none holds a JSON object) is counted as skipped, so the count shows every line was read.
    const text = readFileSync('/proc/kallsyms', 'utf8');
    const nonBlank = text.split('\n').filter((line) => line.trim() !== '').length;
    expect(text.length).toBeGreaterThan(64 * 1024);
    for (const [path, cwd] of [['/proc/kallsyms', repoRoot], ['proc/kallsyms', '/']]) {
      const { report } = runJson(['--no-config', '--extract', path!], { cwd: cwd! });
      expect(report.summary.skipped, path).toBe(nonBlank);
      expect(report.summary.records + report.summary.unparseable, path).toBe(0);
      expect(report.summary.unreadable).toBeUndefined();
    }
  });
});

describe('a settings file over 512 MiB', () => {
  it('is refused saying so, not with V8 words', () => {
    // A sparse file: 600 MiB of zeros that take no disk. Was "Cannot create a string longer than 0x1fffffe8 characters".
    const dir = tempFiles({ 'a.jsonl': '{"ok":true,"result":{}}\n', 'b.json': '' });
    truncateSync(join(dir, 'b.json'), 600 * 2 ** 20);
    expect(runCli(['check', '--no-config', '--baseline', 'b.json', 'a.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stdout: '', stderr: 'mcec-result: cannot read baseline b.json: it is over 512 MiB, more than one string holds, and a baseline is read whole\n' });
  });
});

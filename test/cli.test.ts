import { closeSync, existsSync, openSync, readFileSync, readSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { binary, lines, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const ok = { ok: true, result: { window: 'Untitled - Notepad' }, sessionId: '5f19c9c01a3f' };
const failed = { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'no window matched' }, sessionId: '5f19c9c01a3f' };
const noError = { ok: false, sessionId: '5f19c9c01a3f' };
const typo = { ok: false, error: { code: 'window-not-fonud', category: 'not-a-category', detail: '…' }, sessionId: '5f19c9c01a3f' };

describe('mcec-result check: exit status and streams', () => {
  it('exits 0 on valid input, with the report on stdout and nothing on stderr', () => {
    const dir = tempFiles({ 'run.jsonl': lines(ok, failed) });
    const result = runCli(['check', join(dir, 'run.jsonl')]);
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toContain('✔ no problems in 1 input');
    expect(result.stdout).toMatch(/records\s+2 checked\s+2 valid\s+0 invalid/);
  });

  it('exits 1 on an error finding and lists it as path:line  severity  message  rule', () => {
    const dir = tempFiles({ 'run.jsonl': lines(ok, noError) });
    const result = runCli(['check', join(dir, 'run.jsonl')]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(new RegExp(`${join(dir, 'run.jsonl')}:2\\s+error\\s+ok is false, so error is required\\s+schema`));
  });

  it('exits 0 with warnings only, and 1 when they exceed --max-warnings', () => {
    const dir = tempFiles({ 'w.jsonl': lines({ ok: true }, { ok: true }) });
    expect(runCli(['check', join(dir, 'w.jsonl')]).status).toBe(0);
    expect(runCli(['check', '--max-warnings', '2', join(dir, 'w.jsonl')]).status).toBe(0);
    expect(runCli(['check', '--max-warnings', '1', join(dir, 'w.jsonl')]).status).toBe(1);
  });

  it('when warnings alone fail the run, every format with a verdict says why, and stderr does', () => {
    // Was: exit 1 under "## ✅ ... 0 errors, 2 warnings" in Markdown and a GitHub notice, no reason anywhere.
    const dir = tempFiles({ 'w.jsonl': lines({ ok: true }, { ok: true }) });
    // One run writes every format: the verdict and stderr's line are the run's, whatever formats it writes.
    const read = (name: string) => readFileSync(join(dir, name), 'utf8');
    const over = runCli(['check', '--max-warnings', '1', '-f', 'human', '-f', 'markdown=r.md', '-f', 'github=r.github', '-f', 'json=r.json', '-f', 'junit=r.xml', 'w.jsonl'], { cwd: dir });
    expect(over).toMatchObject({ status: 1, stderr: 'mcec-result: 2 warnings, more than --max-warnings 1: exit 1\n' });
    expect(over.stdout).toContain('✖ 2 problems (0 errors, 2 warnings, more than --max-warnings 1) in 1 input');
    expect(read('r.md')).toMatch(/^## ❌ mcec-result: 0 errors, 2 warnings \(more than --max-warnings 1\) in 1 input\n/);
    expect(read('r.github')).toMatch(/^::error title=mcec-result::2 records in 1 input: 0 invalid, 0 unparseable, 0 errors, 2 warnings \(more than --max-warnings 1\)\n/);
    // JSON holds no verdict: stderr's line is the reason a JSON reader gets.
    expect(JSON.parse(read('r.json')).summary.warnings).toBe(2);
    const junit = read('r.xml');
    expect(junit).toContain('<testsuites name="mcec-result" tests="4" failures="1" errors="0">');
    expect(junit).toContain('<testcase name="warnings" classname="mcec-result" time="0">\n      <failure message="2 warnings, more than --max-warnings 1" type="max-warnings">');
    // Was "1 warnings", on stderr and in JUnit's failure.
    writeFileSync(join(dir, 'w1.jsonl'), lines({ ok: true }));
    const one = runCli(['check', '--max-warnings', '0', '-f', 'human', '-f', 'junit=r1.xml', 'w1.jsonl'], { cwd: dir });
    expect(one).toMatchObject({ status: 1, stderr: 'mcec-result: 1 warning, more than --max-warnings 0: exit 1\n' });
    expect(read('r1.xml')).toContain('<failure message="1 warning, more than --max-warnings 0" type="max-warnings">1 warning, more than --max-warnings 0</failure>');
    // Within the limit, or with --exit-zero, the verdicts stay as they were.
    for (const [i, args] of [['--max-warnings', '2'], ['--max-warnings', '1', '--exit-zero']].entries()) {
      const passing = runCli(['check', ...args, '-f', 'markdown', '-f', `junit=pass${i}.xml`, 'w.jsonl'], { cwd: dir });
      expect(passing).toMatchObject({ status: 0, stderr: '' });
      expect(passing.stdout).toMatch(/^## ✅ mcec-result: 0 errors, 2 warnings in 1 input\n/);
      expect(read(`pass${i}.xml`), args.join(' ')).not.toContain('<failure');
    }
  });

  it('--exit-zero reports errors but exits 0', () => {
    const dir = tempFiles({ 'e.jsonl': lines(noError) });
    const result = runCli(['check', '--exit-zero', join(dir, 'e.jsonl')]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('ok is false, so error is required');
    // Only the verdict on the findings: an input not read, or a usage error, still exits 2.
    const missing = runCli(['check', '--exit-zero', 'e.jsonl', 'missing.jsonl'], { cwd: dir });
    expect(missing).toMatchObject({ status: 2, stderr: 'mcec-result: cannot read missing.jsonl: no such file or directory\n' });
    expect(missing.stdout).toContain('ok is false, so error is required');
    expect(runCli(['check', '--exit-zero', '--jobs', 'x', 'e.jsonl'], { cwd: dir }).status).toBe(2);
  });

  it('reads piped stdin when no input is named, and names it - or --stdin-filename', () => {
    const piped = runJson([], { input: lines(ok, noError) });
    expect(piped.status).toBe(1);
    expect(piped.report.findings[0]).toMatchObject({ source: '-', line: 2 });
    const named = runJson(['--stdin-filename', 'logs/agent.log', '-'], { input: lines(noError) });
    expect(named.report.findings[0].source).toBe('logs/agent.log');
    // Standard input read because nothing is named takes the name too.
    expect(runJson(['--stdin-filename', 'logs/agent.log'], { input: lines(noError) }).report.findings[0].source).toBe('logs/agent.log');
    // Was passed over in silence when no standard input was read.
    const dir = tempFiles({ 'a.jsonl': lines(noError) });
    expect(runCli(['check', '--stdin-filename', 'x.jsonl', 'a.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stdout: '', stderr: 'mcec-result: --stdin-filename x.jsonl: names standard input, which this run does not read: add - to the inputs, or drop the option\n' });
    // A config's name is for the runs that read standard input.
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ stdinFilename: 'x.jsonl' }));
    expect(runCli(['check', 'a.jsonl'], { cwd: dir }).status).toBe(1);
  });

  it('refuses standard input named after another input, which nothing in the report would tell apart', () => {
    const dir = tempFiles({ 'a.jsonl': lines(noError), '-': lines(noError) });
    for (const [args, named] of [
      [['-', 'a.jsonl', '--stdin-filename', './a.jsonl'], 'the file a.jsonl would both be named ./a.jsonl'],
      // The default name: a file named "-" given as ./-.
      [['-', './-'], 'the file ./- would both be named -'],
    ] as const) {
      const result = runCli(['check', ...args], { cwd: dir, input: lines(ok) });
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`mcec-result: standard input and ${named} in the report: give standard input another name (--stdin-filename)\n`);
      expect(result.stdout).toBe('');
    }
    expect(runJson(['-', 'a.jsonl', '--stdin-filename', 'b.jsonl'], { cwd: dir, input: lines(noError) }).report.findings.map((f: { source: string }) => f.source)).toEqual(['b.jsonl', 'a.jsonl']);
  });

  it('reads a file redirected to stdin (< file) in full and from where its offset stands', () => {
    // Over 1 MiB, so that a line crosses the chunks the file is read in.
    const records = Array.from({ length: 6000 }, (_, i) => (i % 7 === 3 ? noError : { ...ok, result: { window: `w${i}`.padEnd(200, '.') } }));
    const text = lines(...records);
    const dir = tempFiles({ 'run.jsonl': text });
    const path = join(dir, 'run.jsonl');
    const named = runJson([path]).report;
    const redirected = (skip: number) => {
      const fd = openSync(path, 'r');
      try {
        // The child shares this descriptor and its offset, as with `{ read -r line; mcec-result check -; } < file`.
        if (skip > 0) readSync(fd, Buffer.alloc(skip), 0, skip, null);
        const result = spawnSync(process.execPath, [binary, 'check', '--format', 'json', '-'], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } });
        expect(result.stderr).toBe('');
        return JSON.parse(result.stdout);
      } finally {
        closeSync(fd);
      }
    };
    const whole = redirected(0);
    expect(whole.summary).toEqual(named.summary);
    expect(whole.findings).toEqual(named.findings.map((f: { source: string }) => ({ ...f, source: '-' })));
    const rest = redirected(text.indexOf('\n') + 1);
    expect(rest.summary.records).toBe(records.length - 1);
    expect(rest.findings[0].line).toBe(named.findings[0].line - 1);
  });

  it('reads a file whole when it ends just before, at, or just after the 1 MiB of its first read', () => {
    // A file is read in one read when it is smaller than 1 MiB, and on from there when it fills it.
    // The three files go in one run: each file's records carry a sessionId of its own, as long as
    // the usual one, so that the summary's sessions count the records of each file apart.
    const session = (bytes: number) => `s${bytes}`.padEnd(ok.sessionId.length, '0');
    const line = (sessionId: string, window: string) => `${JSON.stringify({ ...ok, result: { window }, sessionId })}\n`;
    const last = (sessionId: string) => `${JSON.stringify({ ...noError, sessionId })}\n`;
    // Three lines, the middle one padded to make the size: the last one holds the only finding.
    const sized = (bytes: number, id = session(bytes)) => line(id, '') + line(id, 'w'.repeat(bytes - 2 * line(id, '').length - last(id).length)) + last(id);
    const files = Object.fromEntries([(1 << 20) - 1, 1 << 20, (1 << 20) + 1].map((bytes) => [`f${bytes}.jsonl`, sized(bytes)]));
    const dir = tempFiles(files);
    const { report } = runJson(Object.keys(files), { cwd: dir });
    expect(report.summary).toMatchObject({ inputs: 3, records: 9, valid: 6, invalid: 3, unparseable: 0 });
    expect(report.findings).toHaveLength(3);
    for (const [name, text] of Object.entries(files)) {
      const bytes = Number(name.slice(1, -6));
      expect(Buffer.byteLength(text)).toBe(bytes);
      // Per file: 3 records, the finding (its one invalid record) on line 3, so 2 valid and none unparseable.
      expect(report.summary.sessions[session(bytes)], name).toEqual({ records: 3, ok: 2, failed: 1, unknown: 0 });
      expect(report.findings.filter((f: { source: string }) => f.source === name).map((f: { line: number }) => f.line), name).toEqual([3]);
    }
  });

  it('reads pretty-printed JSON on stdin with --input json', () => {
    const pretty = JSON.stringify([ok, noError], null, 2);
    const framed = runJson(['--input', 'json'], { input: pretty });
    expect(framed.report.summary).toMatchObject({ records: 2, invalid: 1, unparseable: 0 });
    expect(framed.report.findings[0].line).toBe(9);
    const asLines = runJson([], { input: pretty });
    expect(asLines.report.summary.records).toBe(0);
    expect(asLines.report.summary.unparseable).toBe(pretty.split('\n').length);
    expect(asLines.report.findings[0].message).toContain('--input json');
  });
});

describe('mcec-result check: inputs', () => {
  it('searches folders recursively for the known extensions, sorted by path, gzip included', () => {
    const dir = tempFiles({
      'b.jsonl': lines(noError),
      'a/z.ndjson': lines(noError),
      'a/y.log': lines(noError),
      'c.json': JSON.stringify(noError),
      'd.jsonl.gz': gzipSync(lines(noError)),
      'notes.txt': 'not an input',
    });
    const { report } = runJson([dir]);
    expect(report.findings.map((f: { source: string }) => f.source.slice(dir.length + 1))).toEqual(['a/y.log', 'a/z.ndjson', 'b.jsonl', 'c.json', 'd.jsonl.gz']);
    expect(report.summary.inputs).toBe(5);
  });

  it('folder walks and globs leave node_modules out, unless it is named', () => {
    const dir = tempFiles({ 'run.jsonl': lines(noError), 'node_modules/x/package.json': '{"name":"x"}', 'logs/node_modules/y/a.jsonl': lines(noError) });
    const sources = (args: string[]) => runJson(args, { cwd: dir }).report.findings.map((f: { source: string }) => f.source);
    // Was: every package.json under node_modules checked as an envelope.
    expect(sources(['.'])).toEqual(['./run.jsonl']);
    expect(runCli(['check', '**/*.json'], { cwd: dir })).toMatchObject({ status: 2, stderr: 'mcec-result: no input files in **/*.json\n' });
    // One not-an-envelope finding: {"name":"x"} has no envelope member (spec section 8.4).
    expect(sources(['node_modules'])).toEqual(['node_modules/x/package.json']);
    expect(sources(['logs/node_modules/**/*.jsonl'])).toEqual(['logs/node_modules/y/a.jsonl']);
  });

  it('a folder walk (fast-glob) finds what globby finds for the glob of the same extensions', () => {
    const dir = tempFiles({
      'b.jsonl': lines(noError),
      'a/deep/er/z.ndjson': lines(noError),
      'a/y.log': lines(noError),
      'c.json': JSON.stringify(noError),
      'd.jsonl.gz': gzipSync(lines(noError)),
      '.hidden.jsonl': lines(noError),
      '.dot/x.jsonl': lines(noError),
      'node_modules/p/package.json': '{"name":"p"}',
      'e/notes.txt': 'not an input',
    });
    symlinkSync(join(dir, 'b.jsonl'), join(dir, 'link.jsonl'));
    symlinkSync(join(dir, 'a'), join(dir, 'linked-folder'));
    symlinkSync(join(dir, 'missing.jsonl'), join(dir, 'dangling.jsonl'));
    const sources = (args: string[]) => runJson(args, { cwd: dir }).report.findings.map((f: { source: string }) => f.source.replace(/^\.\//, ''));
    const walked = sources(['.']);
    expect(walked).toEqual(['a/deep/er/z.ndjson', 'a/y.log', 'b.jsonl', 'c.json', 'd.jsonl.gz', 'link.jsonl']);
    expect(sources(['**/*.{json,jsonl,ndjson,log}{,.gz}'])).toEqual(walked);
  });

  it('finds the extensions in any case (RESULT.JSON, as Windows tools name files), framed by them', () => {
    // Was: skipped without a word; a folder holding only such files was "no input files".
    const pretty = JSON.stringify(noError, null, 2);
    const dir = tempFiles({ 'RESULT.JSON': pretty, 'run.JsonL': lines(noError), 'old.NDJSON.GZ': gzipSync(lines(noError)), 'NOTES.TXT': 'not an input' });
    const { report } = runJson([dir]);
    expect(report.findings.map((f: { source: string; rule: string }) => `${f.source.slice(dir.length + 1)} ${f.rule}`)).toEqual(['RESULT.JSON schema', 'old.NDJSON.GZ schema', 'run.JsonL schema']);
  });

  it('expands globs and accepts backslashes in arguments', () => {
    const dir = tempFiles({ 'x/one.jsonl': lines(ok), 'x/two.jsonl': lines(noError), 'x/skip.json': '{}' });
    const { report } = runJson(['x/*.jsonl'], { cwd: dir });
    expect(report.summary.inputs).toBe(2);
    expect(report.findings.map((f: { source: string }) => f.source)).toEqual(['x/two.jsonl']);
    const backslash = runJson(['x\\two.jsonl'], { cwd: dir });
    expect(backslash.report.findings[0].source).toBe('x/two.jsonl');
  });

  it('a backslash before a bracket, brace or parenthesis escapes it in a glob; before anything else it is a separator', () => {
    const dir = tempFiles({ 'names/[ab].jsonl': lines(noError), 'names/a.jsonl': lines(noError), 'names/q?.jsonl': lines(noError) });
    const sources = (args: string[]) => runJson(args, { cwd: dir }).report.findings.map((f: { source: string }) => f.source);
    // Was "no input files in names//[ab/].jsonl": the escapes made separators.
    expect(sources(['names/\\[ab\\]*.jsonl'])).toEqual(['names/[ab].jsonl']);
    expect(sources(['names/\\[ab\\].jsonl'])).toEqual(['names/[ab].jsonl']);
    expect(sources(['names\\*.jsonl'])).toEqual(['names/[ab].jsonl', 'names/a.jsonl', 'names/q?.jsonl']);
    expect(sources(['names/*.jsonl', '!names/\\[ab\\].jsonl'])).toEqual(['names/a.jsonl', 'names/q?.jsonl']);
    expect(sources(['names/q[?].jsonl'])).toEqual(['names/q?.jsonl']);
    expect(runCli(['check', 'names/\\{x\\}*.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stderr: 'mcec-result: no input files in names/\\{x\\}*.jsonl\n' });
  });

  it('a missing file: exit 2 and one line on stderr; the other inputs are still reported', () => {
    const dir = tempFiles({ 'run.jsonl': lines(noError) });
    const result = runJson(['missing.jsonl', 'run.jsonl'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('mcec-result: cannot read missing.jsonl: no such file or directory\n');
    expect(result.report.summary.invalid).toBe(1);
  });

  it('a folder or glob with no input files: exit 2', () => {
    const dir = tempFiles({ 'empty/readme.txt': 'x' });
    expect(runCli(['check', 'empty'], { cwd: dir })).toMatchObject({ status: 2, stderr: 'mcec-result: no input files in empty\n' });
    expect(runCli(['check', 'nothing/*.jsonl'], { cwd: dir })).toMatchObject({ status: 2, stderr: 'mcec-result: no input files in nothing/*.jsonl\n' });
  });

  it('an empty file: exit 0, 0 records and an empty-input warning', () => {
    const dir = tempFiles({ 'empty.jsonl': '' });
    const { status, report } = runJson(['empty.jsonl'], { cwd: dir });
    expect(status).toBe(0);
    expect(report.summary.records).toBe(0);
    expect(report.findings).toEqual([{ rule: 'empty-input', severity: 'warning', message: 'the input holds no record', source: 'empty.jsonl', line: 1 }]);
  });

  it('a truncated gzip file: exit 2, and the records before the cut are reported', () => {
    const body = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ ok: i % 2 === 0, result: null, n: (i * 7919) % 104729 })).join('\n');
    const whole = gzipSync(body);
    const dir = tempFiles({ 'cut.jsonl.gz': whole.subarray(0, whole.length >> 1) });
    const result = runJson(['cut.jsonl.gz'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('mcec-result: cut.jsonl.gz: gzip data ends early\n');
    expect(result.report.summary.records + result.report.summary.unparseable).toBeGreaterThan(0);
    // Every line decoded is an entry: the one cut off with the data too, as in a plain file cut
    // short (was dropped without a word; found by an audit helper).
    const decoded = gunzipSync(whole.subarray(0, whole.length >> 1), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString();
    const { summary, findings } = result.report;
    expect(summary.records + summary.unparseable + summary.skipped).toBe(decoded.split('\n').filter((l) => l.trim() !== '').length);
    expect(findings.at(-1)).toMatchObject({ rule: 'parse-error', line: decoded.split('\n').length });
    expect(findings.at(-1)!.message).toMatch(/the input ends inside this record/);
    // A .json.gz cut short too: its document, cut off, is a parse error (was no entry at all).
    const document = gzipSync(JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ ok: true, result: { i } })), null, 1));
    writeFileSync(join(dir, 'cut.json.gz'), document.subarray(0, document.length >> 1));
    const json = runJson(['cut.json.gz'], { cwd: dir });
    expect(json).toMatchObject({ status: 2, stderr: 'mcec-result: cut.json.gz: gzip data ends early\n', report: { summary: { records: 0, unparseable: 1 } } });
    expect(json.report.findings).toEqual([expect.objectContaining({ rule: 'parse-error', message: expect.stringMatching(/^unexpected end of input/) })]);
  });

  it('garbage after the gzip data: exit 2, and the records before it reported, not those of the last MiB decoded lost', () => {
    const body = Array.from({ length: 20000 }, (_, i) => JSON.stringify({ ok: true, result: { n: (i * 7919) % 104729, pad: 'x'.repeat(i % 97) } })).join('\n');
    const whole = gzipSync(`${body}\n`);
    // A small file (read whole) and a large one (streamed, so decoded again from disk).
    const dir = tempFiles({ 'tail.jsonl.gz': Buffer.concat([whole, Buffer.from('garbage!')]), 'big.jsonl.gz': Buffer.concat([whole, Buffer.alloc(1 << 20, 'x')]) });
    for (const name of ['tail.jsonl.gz', 'big.jsonl.gz']) {
      const result = runJson([name], { cwd: dir });
      expect(result.status, name).toBe(2);
      expect(result.stderr, name).toBe(`mcec-result: ${name}: gzip data is corrupt (incorrect header check)\n`);
      // Was 17,5xx: zlib drops what it decoded in the call that met the garbage (1 MiB pieces).
      // Decoded again in 16 KiB pieces, at most that much (~150 of these records) is lost.
      expect(result.report.summary.records, name).toBeGreaterThanOrEqual(20000 - 160);
      expect(result.report.summary.unparseable, name).toBe(0);
    }
  });

  it('config, codes and merged reports written by Windows PowerShell 5 (UTF-16 with a BOM) are read', () => {
    const utf16le = (value: unknown) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(value), 'utf16le')]);
    const utf16be = (value: unknown) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(JSON.stringify(value), 'utf16le').swap16()]);
    const dir = tempFiles({
      'run.jsonl': lines({ ok: true, warnings: [{ code: 'house-code', detail: 'd' }] }),
      'mcec-result.config.json': utf16le({ rules: { 'missing-result': 'off' } }),
      'codes.json': utf16be({ warningCodes: ['house-code'] }),
    });
    const checked = runJson(['run.jsonl', '--codes', 'codes.json'], { cwd: dir });
    expect(checked.stderr).toBe('');
    expect(checked.report.findings).toEqual([]);
    // `mcec-result check --format json ... > report.json` in Windows PowerShell 5 writes UTF-16LE.
    writeFileSync(join(dir, 'report.json'), utf16le(checked.report));
    writeFileSync(join(dir, 'again.json'), utf16le(checked.report));
    const merged = runCli(['merge', '--format', 'json', 'report.json', 'again.json'], { cwd: dir });
    expect(merged.stderr).toBe('');
    expect(JSON.parse(merged.stdout).summary.records).toBe(2);
  });

  it('records separated by CR alone: one parse error that says why', () => {
    const dir = tempFiles({ 'mac.jsonl': `${JSON.stringify(ok)}\r${JSON.stringify(ok)}\r` });
    const { report } = runJson(['mac.jsonl'], { cwd: dir });
    expect(report.findings).toMatchObject([{ rule: 'parse-error', line: 1, message: 'unexpected text after the JSON value, found "{" (lines end in CR alone: records must be separated by LF or CRLF)' }]);
  });

  it('a BOM inside the input (files joined, each with its own): a parse error that says so', () => {
    const dir = tempFiles({ 'joined.jsonl': `\uFEFF${lines(ok)}\uFEFF${lines(ok)}` });
    const { report } = runJson(['joined.jsonl'], { cwd: dir });
    expect(report.summary).toMatchObject({ records: 1, unparseable: 1 });
    expect(report.findings).toMatchObject([{ rule: 'parse-error', line: 2, column: 1, message: 'unexpected byte order mark (U+FEFF): were files that each start with one joined together?' }]);
  });

  it('a report (json, ndjson) or baseline an earlier run wrote into the folder is skipped, not checked as an envelope', () => {
    const dir = tempFiles({ 'evidence/run.jsonl': lines(ok, noError) });
    runCli(['check', 'evidence', '-f', 'json=evidence/report.json', '-f', 'ndjson=evidence/findings.ndjson', '--write-baseline', 'evidence/baseline.json'], { cwd: dir });
    // Was: "the envelope is missing required property ok" and one unexpected property a key, exit 1;
    // on every line of the ndjson report.
    const again = runJson(['evidence'], { cwd: dir });
    // The report, the baseline, and the ndjson report's finding and summary, a line each.
    expect(again.report.summary).toMatchObject({ inputs: 4, records: 2, skipped: 4 });
    expect(new Set(again.report.findings.map((f: { source: string }) => f.source))).toEqual(new Set(['evidence/run.jsonl']));
    // What only looks like one is checked. Each value is told apart on its own, so both files go
    // in one run: the findings name a line of other.json and two of other.ndjson, none unparseable
    // or skipped, and all 3 records are invalid: 1 record, invalid, in one and 2 in the other.
    writeFileSync(join(dir, 'evidence', 'other.json'), JSON.stringify({ reportVersion: 1, tool: { name: 'other' } }));
    writeFileSync(join(dir, 'evidence', 'other.ndjson'), lines({ type: 'finding', rule: 'no-such-rule', severity: 'error', source: 'x' }, { type: 'summary', records: 1 }));
    const other = runJson(['evidence/other.json', 'evidence/other.ndjson'], { cwd: dir }).report;
    expect(other.summary).toMatchObject({ inputs: 2, records: 3, invalid: 3, unparseable: 0, skipped: 0 });
    expect(other.findings.map((f: { source: string; line: number }) => `${f.source}:${f.line}`)).toEqual(['evidence/other.json:1', 'evidence/other.ndjson:1', 'evidence/other.ndjson:2']);
  });

  it('a server log with prefixed lines, checked without --extract: its first parse error says what to do', () => {
    const log = ['2026-07-01T10:15:02Z INFO agent result {"ok":true,"result":{}}', '2026-07-01T10:15:03Z INFO agent result {"ok":false}', '2026-07-01T10:15:04Z DEBUG idle'].join('\n');
    const dir = tempFiles({ 'server.log': `${log}\n` });
    const { report } = runJson(['server.log'], { cwd: dir });
    expect(report.findings.map((f: { line: number; message: string }) => [f.line, f.message])).toEqual([
      [1, 'unexpected text after the JSON value, found "-0" (log lines with a prefix before their JSON? --extract finds the object in each line)'],
      [2, 'unexpected text after the JSON value, found "-0"'],
      [3, 'unexpected text after the JSON value, found "-0"'],
    ]);
    expect(runJson(['--extract', 'server.log'], { cwd: dir }).report.summary).toMatchObject({ records: 2, invalid: 1, skipped: 1, unparseable: 0 });
  });

  it('--extract: the object after a prefix is wrapping log; a line that is an object alone stays bare', () => {
    // Was: log for both, where spec section 3 calls a log line one with a prefix.
    const dir = tempFiles({ 'mixed.log': lines({ ok: false }, 'INFO agent result {"ok":false}', '   {"ok":false, "x":1}') });
    const { report } = runJson(['--extract', 'mixed.log'], { cwd: dir });
    expect(report.findings.filter((f: { rule: string }) => f.rule === 'schema').map((f: { line: number; wrapping: string }) => [f.line, f.wrapping])).toEqual([
      [1, 'bare'],
      [2, 'log'],
      [3, 'bare'],
      [3, 'bare'],
    ]);
  });

  it('a JSON text sequence (jq --seq): each record a parse error that names the RS and how to drop it', () => {
    const dir = tempFiles({ 'seq.jsonl': `\u001e${JSON.stringify(ok)}\n\u001e${JSON.stringify(ok)}\n{"ok":\u001e}\n` });
    const { report } = runJson(['seq.jsonl'], { cwd: dir });
    const rs = "unexpected record separator (U+001E): a JSON text sequence (RFC 7464, jq --seq)? Records are one a line without it: drop --seq, or strip it with tr -d '\\036'";
    expect(report.findings).toMatchObject([
      { rule: 'parse-error', line: 1, column: 1, message: rs },
      { rule: 'parse-error', line: 2, column: 1, message: rs },
      { rule: 'parse-error', line: 3, column: 7, message: 'unexpected "\\u001e"' },
    ]);
  });

  it('UTF-16 from PowerShell and a UTF-8 BOM with CRLF are read as text', () => {
    const text = lines(ok, noError).replaceAll('\n', '\r\n');
    const dir = tempFiles({
      'ps.jsonl': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      'bom.jsonl': `\uFEFF${text}`,
    });
    const { report } = runJson(['ps.jsonl', 'bom.jsonl'], { cwd: dir });
    expect(report.summary).toMatchObject({ records: 4, invalid: 2, unparseable: 0 });
    expect(report.findings.map((f: { source: string; line: number }) => `${f.source}:${f.line}`)).toEqual(['ps.jsonl:2', 'bom.jsonl:2']);
  });

  it('UTF-16 without its byte order mark: each line says what it may be, not just "unexpected NUL"', () => {
    const text = `${JSON.stringify({ ok: true, result: {} })}\n${JSON.stringify({ ok: true, result: {} })}\n`;
    const dir = tempFiles({ 'le.jsonl': Buffer.from(text, 'utf16le'), 'nul.jsonl': '{"ok":true,\u0000"result":{}}\n' });
    const { report } = runJson(['le.jsonl', 'nul.jsonl'], { cwd: dir });
    const bom = 'unexpected NUL (U+0000): UTF-16 without a byte order mark? It is read as UTF-16 only after one: save the file as UTF-8, or as UTF-16 with a BOM';
    expect(report.findings.map((f: { source: string; line: number; column?: number; message: string }) => [f.source, f.line, f.column, f.message])).toEqual([
      ['le.jsonl', 1, 2, bom],
      ['le.jsonl', 2, 1, bom],
      // The NUL after the last line break, a line of its own.
      ['le.jsonl', 3, 1, bom],
      // A NUL alone is no sign of UTF-16.
      ['nul.jsonl', 1, 12, 'unexpected "\\u0000"'],
    ]);
  });

  it('a UTF-16 fault is worded as UTF-16, at its line and column, not as the UTF-8 decoding makes of it', () => {
    // Was: "invalid UTF-8 (byte 0xed): a lone surrogate ..." of a file that holds no UTF-8.
    const units = Buffer.from('{"ok":true,"result":{}}\n{"ok":true,"result":{"a":"x\ud800"}}\n', 'utf16le');
    const dir = tempFiles({
      'le.jsonl': Buffer.concat([Buffer.from([0xff, 0xfe]), units, Buffer.from([0x41])]),
      'be.json': Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(Buffer.from('[{"ok":true,"result":{}},\n"\udc01"]', 'utf16le')).swap16()]),
      'utf8.jsonl': Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}\n')]),
    });
    const { report } = runJson(['le.jsonl', 'be.json', 'utf8.jsonl'], { cwd: dir });
    expect(report.findings.map((f: { source: string; line: number; column?: number; message: string }) => `${f.source}:${f.line}:${f.column} ${f.message}`)).toEqual([
      'le.jsonl:2:28 invalid UTF-16LE: a lone surrogate, U+D800, half of a character',
      'le.jsonl:3:1 invalid UTF-16LE: the file ends in an odd byte, half of a 2-byte unit',
      'be.json:2:2 invalid UTF-16BE: a lone surrogate, U+DC01, half of a character',
      'utf8.jsonl:1:7 invalid UTF-8 (byte 0xed): a lone surrogate, U+D800, half of a character',
    ]);
  });
});

describe('mcec-result check: usage errors exit 2 with one clear line', () => {
  const cases: [string, string[], RegExp][] = [
    ['unknown option', ['check', '--frobnicate'], /unknown option '--frobnicate'/],
    ['unknown format', ['check', '-f', 'xml', 'x'], /unknown format "xml" \(choose from human, json, ndjson, sarif, junit, github, markdown, html\)/],
    ['unknown rule', ['check', '--rule', 'nope=off', 'x'], /unknown rule "nope" \(rules: parse-error, schema, /],
    ['misspelt rule', ['check', '--rule', 'schma=off', 'x'], /^mcec-result: --rule: unknown rule "schma" \(did you mean "schema"\?\)\n/],
    ['bad rule setting', ['check', '--rule', 'schema=loud', 'x'], /expected schema=off, schema=warning or schema=error/],
    ['bad number', ['check', '--max-listed', 'many', 'x'], /--max-listed: expected a whole number, got "many"/],
    ['bad --input', ['check', '--input', 'xml', 'x'], /argument 'xml' is invalid/],
    ['unknown command', ['lint'], /unknown command 'lint'/],
    // An unset variable in a script ('-o "$OUT"'): said, instead of "cannot write : no such file".
    ...['--output', '--schema', '--codes', '--baseline', '--write-baseline', '--config'].map((option): [string, string[], RegExp] => [`empty ${option}`, ['check', option, '', 'x'], new RegExp(`^mcec-result: ${option}: the file name is empty\n$`)]),
    ['empty --stdin-filename', ['check', '--stdin-filename', '', '-'], /^mcec-result: --stdin-filename: the name is empty\n$/],
    ['empty merge --output', ['merge', 'a.json', '-o', ''], /^mcec-result: --output: the file name is empty\n$/],
  ];
  for (const [name, args, message] of cases) {
    it(name, () => {
      const result = runCli(args);
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(message);
      // commander's errors too: one voice, the tool's name first.
      expect(result.stderr).toMatch(/^mcec-result: /);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    });
  }

  it('input arguments no input can come of are usage errors, said before anything is read: empty, a bare !, only exclusions', () => {
    const dir = tempFiles({ 'run.jsonl': lines(ok) });
    const empty = 'mcec-result: an input argument is empty: name a file, folder or glob, or - for standard input\n';
    const bang = 'mcec-result: !: a glob must follow the ! (as in !logs/old/**) to leave files out\n';
    // Was exit 2 with a whole empty report on stdout ("1 input not read"), the argument an unreadable input.
    for (const [args, stderr] of [
      [[''], empty],
      [['run.jsonl', ''], empty],
      [['!'], bang],
      [['run.jsonl', '!'], bang],
      [['!x'], 'mcec-result: !x only leaves files out: name the files, folders or globs to check as well\n'],
      [['!x', '!y'], 'mcec-result: !x only leaves files out: name the files, folders or globs to check as well\n'],
    ] as const) {
      for (const format of ['human', 'json']) expect(runCli(['check', '-f', format, ...args], { cwd: dir }), `${format} ${args.join(' ')}`).toMatchObject({ status: 2, stdout: '', stderr });
    }
    // Before anything is read: not even the baseline, which would be said first.
    expect(runCli(['check', '--baseline', 'nope.json', ''], { cwd: dir })).toMatchObject({ status: 2, stdout: '', stderr: empty });
    // merge's, too, in words of its own (was "unexpected failure: Patterns must be a string (non empty)").
    expect(runCli(['merge', ''], { cwd: dir })).toMatchObject({ status: 2, stdout: '', stderr: 'mcec-result: a report argument is empty: name a report file or glob, or - for standard input\n' });
  });

  it('no inputs on a terminal: usage on stderr, exit 2', () => {
    // `script` gives the command a terminal for standard input, as a person typing it has.
    const result = spawnSync('script', ['-qec', `"${process.execPath}" "${binary}" check; echo "exit=$?"`, '/dev/null'], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(result.stdout).toContain('mcec-result: no inputs: name files, folders or globs, or pipe records in');
    expect(result.stdout).toContain('Usage: mcec-result check [options] [inputs...]');
    expect(result.stdout).toMatch(/exit=2\s*$/);
  });

  it.skipIf(process.platform !== 'linux')('a report redirected (>) into the folder the run walks is no input of it', () => {
    // Was an input: emptied by the shell, it was checked as one, with an empty-input warning every run.
    const dir = tempFiles({ 'ev/a.jsonl': lines(noError) });
    const toFile = (args: string[]) => {
      const out = openSync(join(dir, 'ev/report.json'), 'w');
      try {
        return spawnSync(process.execPath, [binary, 'check', '--no-config', ...args], { cwd: dir, stdio: ['ignore', out, 'pipe'], encoding: 'utf8' });
      } finally {
        closeSync(out);
      }
    };
    for (let run = 0; run < 2; run++) {
      expect(toFile(['-f', 'json', 'ev/']).status).toBe(1);
      expect(JSON.parse(readFileSync(join(dir, 'ev/report.json'), 'utf8')).summary).toMatchObject({ inputs: 1, warnings: 0 });
    }
    // Named, it is refused as any input the run would write over.
    expect(toFile(['ev/report.json'])).toMatchObject({ status: 2, stderr: 'mcec-result: ev/report.json is an input, and the report on standard output this run writes would overwrite it: write the report on standard output to another file\n' });
  });

  it('a human report to the terminal is coloured however stdout is named', () => {
    // Was: the default and -o - coloured, -f human=-, -f human=/dev/stdout and -o /dev/stdout plain.
    const dir = tempFiles({ 'a.jsonl': '{"ok":false}\n' });
    const env = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, CI: undefined, GITHUB_ACTIONS: undefined } as NodeJS.ProcessEnv;
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const onTerminal = (args: string) => spawnSync('script', ['-qec', `"${process.execPath}" "${binary}" check --no-config a.jsonl ${args}`, '/dev/null'], { cwd: dir, encoding: 'utf8', env }).stdout;
    for (const args of ['', '-o -', '-f human=-', '-f human=/dev/stdout', '-o /dev/stdout']) expect(onTerminal(args), args).toContain('\u001b[');
    expect(onTerminal('--no-color -f human=/dev/stdout')).not.toContain('\u001b[');
    // A file is plain unless colour is asked for.
    onTerminal('-f human=out.txt');
    expect(readFileSync(join(dir, 'out.txt'), 'utf8')).not.toContain('\u001b[');
  });

  // check --help prints the same text each run: one run serves the tests of it below.
  const checkHelp = runCli(['check', '--help']);

  it('--help and --version exit 0', () => {
    expect(runCli(['--version'])).toMatchObject({ status: 0, stdout: '0.1.0\n' });
    expect(checkHelp.status).toBe(0);
    expect(checkHelp.stdout).toContain('--strict-codes');
  });

  it("--help ends with a link to this release's CLI docs, from package.json's homepage", () => {
    const { homepage, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { homepage: string; version: string };
    for (const args of [['--help'], ['check', '--help']]) {
      const help = args[0] === 'check' ? checkHelp : runCli(args);
      expect(help.status).toBe(0);
      expect(help.stdout.trimEnd().split('\n').at(-1), args.join(' ')).toBe(`Docs: ${homepage}/blob/v${version}/docs/cli.md`);
    }
  });

  it('--max-line-bytes: help and errors offer only the units a value under the limit can have, and say the limit in M', () => {
    // Was "K, M, G are binary" and "K, M or G": no G fits under Node's longest string.
    const help = checkHelp.stdout.replace(/\s+/g, ' ');
    expect(help).toContain('--max-line-bytes <n> longer lines are parse errors, never held whole (default 64M; K and M are binary; at most 536870888 bytes (512M less 24 bytes))');
    const over = (value: string) => `mcec-result: --max-line-bytes: at most 536870888 bytes (512M less 24 bytes), the longest line Node can hold as one string, so 511M is the most in M; got "${value}"\n`;
    for (const value of ['1G', '512M']) expect(runCli(['check', '--max-line-bytes', value, 'x'])).toMatchObject({ status: 2, stdout: '', stderr: over(value) });
    expect(runCli(['check', '--max-line-bytes', '1T', 'x'])).toMatchObject({ status: 2, stderr: 'mcec-result: --max-line-bytes: expected a size in bytes, a whole number with K or M (KiB or MiB) after it if you like, got "1T"\n' });
    // A blank between a number and its unit only: "5 " was taken as 5, while " 5" and "5M " were refused.
    for (const value of ['5 ', ' 5', '5M ']) expect(runCli(['check', '--max-line-bytes', value, 'x']).stderr, value).toContain('expected a size in bytes');
    expect(runCli(['check', '--no-config', '--max-line-bytes', '64 M', 'fixtures/samples']).status).toBe(1);
    // A whole number too large to count with is said to be too large.
    expect(runCli(['check', '--max-listed', '9007199254740992', 'x'])).toMatchObject({ status: 2, stderr: 'mcec-result: --max-listed: expected a whole number (at most 9007199254740991), got "9007199254740992"\n' });
  });

  it('--help shows the defaults the options have: human for --format, none for --codes and --rule', () => {
    for (const command of ['check', 'merge', 'explain']) {
      const help = command === 'check' ? checkHelp : runCli([command, '--help']);
      expect(help.status).toBe(0);
      // Was "(default: [])" after --format, --codes and --rule, though the report is human by default.
      expect(help.stdout, command).not.toContain('(default: [])');
      // An option's entry starts on a line of its own, its description wrapped onto the lines below.
      const options = help.stdout.split('Options:')[1]!.split(/\n(?= {2}-)/).map((entry) => entry.trim().replace(/\s+/g, ' '));
      const option = (name: string) => options.find((text) => text.startsWith(name) || text.startsWith(`-f, ${name}`));
      if (command !== 'explain') expect(option('--format'), command).toMatch(/\(=- to stdout\) \(default: "human"\)$/);
      if (command !== 'merge') expect(option('--codes'), command).toMatch(/repeatable$/);
      if (command === 'check') expect(option('--rule'), command).not.toContain('default');
    }
  });
});

describe('mcec-result check: schema and codes files', () => {
  const dir = tempFiles({
    'run.jsonl': lines(failed, { ...failed, error: { ...failed.error, category: 'ocr-no-text', code: 'ocr-no-text' } }),
    'broken.schema.json': '{\n  "type": "object",\n  "properties": {\n}',
    'invalid.schema.json': JSON.stringify({ type: 'objekt' }),
    'remote.schema.json': JSON.stringify({ $ref: 'https://example.com/envelope.schema.json' }),
    'array.schema.json': '[]',
    'draft4.schema.json': JSON.stringify({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' }),
    'codes.json': JSON.stringify({ errorCodes: { timeout: ['late'] } }),
    'bad-codes.json': JSON.stringify({ errorCodes: { timeout: 'late' } }),
  });

  it('--schema with a newer category set', () => {
    const newer = join(repoRoot, 'test/data/newer.schema.json');
    // The default, 2026-07, has ocr-no-text (spec section 8.3); 2026-06 does not.
    expect(runJson(['run.jsonl'], { cwd: dir }).report.summary.invalid).toBe(0);
    const bundled = runJson(['--schema-version', '2026-06', 'run.jsonl'], { cwd: dir });
    expect(bundled.report.summary.invalid).toBe(1);
    const withNewer = runJson(['--schema', newer, 'run.jsonl'], { cwd: dir });
    expect(withNewer.status).toBe(0);
    const sha256 = createHash('sha256').update(readFileSync(newer)).digest('hex');
    expect(withNewer.report.schema).toEqual({ id: 'https://example.test/mcec-3.1/agent-tool-result.schema.json', source: newer, sha256 });
    expect(Object.keys(withNewer.report.summary.categories)).toContain('ocr-no-text');
    expect(withNewer.report.summary.categories['ocr-no-text']).toBe(1);
  });

  it('--schema of every draft ajv reads, with the formats JSON Schema defines checked', () => {
    const records = lines({ ok: true, sessionId: 'not-a-uuid', at: '2026-12-03T07:00:00Z' }, { ok: true, sessionId: '0f8b6a4e-2c1d-4e5f-9a7b-3c2d1e0f9a8b', at: 'yesterday' }, { ok: true, sessionId: '0f8b6a4e-2c1d-4e5f-9a7b-3c2d1e0f9a8b', at: '2026-12-03T07:00:00Z' });
    const properties = { ok: { type: 'boolean' }, sessionId: { type: 'string', format: 'uuid' }, at: { type: 'string', format: 'date-time' } };
    for (const draft of ['http://json-schema.org/draft-06/schema#', 'http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2019-09/schema', undefined]) {
      const schemaDir = tempFiles({ 'run.jsonl': records, 's.json': JSON.stringify({ ...(draft && { $schema: draft }), type: 'object', properties }) });
      const { status, report } = runJson(['--schema', 's.json', '--rule', 'missing-result=off', 'run.jsonl'], { cwd: schemaDir });
      expect(status, draft).toBe(1);
      expect(
        report.findings.map((f: { line: number; message: string }) => `${f.line} ${f.message}`),
        draft,
      ).toEqual(['1 sessionId must be a valid uuid (got "not-a-uuid")', '2 at must be a valid date-time (got "yesterday")']);
    }
  });

  it('--schema split over files: a $ref to a file beside it is read, never fetched', () => {
    const records = lines({ ok: true, result: {} }, { ok: true, result: [] }, { ok: 'yes', result: {} });
    const schemaDir = tempFiles({
      'run.jsonl': records,
      'schemas/envelope.json': JSON.stringify({ type: 'object', required: ['ok'], properties: { ok: { $ref: 'defs/common.json#/$defs/flag' }, result: { $ref: 'defs/common.json#/$defs/payload' } } }),
      // A file referenced from a referenced file: resolved against where that one is.
      'schemas/defs/common.json': JSON.stringify({ $defs: { flag: { type: 'boolean' }, payload: { $ref: 'payload.json' } } }),
      'schemas/defs/payload.json': JSON.stringify({ type: 'object' }),
      'missing.json': JSON.stringify({ properties: { result: { $ref: 'nope.json' } } }),
    });
    const { status, report } = runJson(['--schema', 'schemas/envelope.json', 'run.jsonl'], { cwd: schemaDir });
    expect(status).toBe(1);
    expect(report.findings.map((f: { line: number; message: string }) => `${f.line} ${f.message}`)).toEqual(['2 result must be an object (got array)', '3 ok must be a boolean (got string)']);
    // The files it refers to are the run's own, as the schema is: a folder walk leaves them out.
    const walked = runJson(['--schema', 'schemas/envelope.json', '.', '!missing.json'], { cwd: schemaDir });
    expect(walked.report.summary).toMatchObject({ inputs: 1, records: 3 });
    // A schema published with an absolute $id names its parts by URL: the copy beside it is read.
    const published = tempFiles({
      'run.jsonl': records,
      'envelope.json': JSON.stringify({ $id: 'https://example.test/s/envelope.json', properties: { ok: { $ref: 'https://example.test/s/defs/common.json#/$defs/flag' } } }),
      'defs/common.json': JSON.stringify({ $id: 'https://example.test/s/defs/common.json', $defs: { flag: { type: 'boolean' } } }),
      'gone.json': JSON.stringify({ $id: 'https://example.test/s/gone.json', properties: { ok: { $ref: 'missing.json' } } }),
    });
    expect(runJson(['--schema', 'envelope.json', '--rule', 'missing-result=off', 'run.jsonl'], { cwd: published }).report.findings.map((f: { line: number }) => f.line)).toEqual([3]);
    expect(runCli(['check', '--schema', 'gone.json', 'run.jsonl'], { cwd: published }).stderr).toBe(
      `mcec-result: schema gone.json: remote $ref not fetched: https://example.test/s/missing.json (no copy beside the schema at ${join(published, 'missing.json')})\n`,
    );
    // Was: "remote $ref not fetched: common.json#/$defs/flag", of a file beside the schema.
    expect(runCli(['check', '--schema', 'missing.json', 'run.jsonl'], { cwd: schemaDir })).toMatchObject({
      status: 2,
      stderr: `mcec-result: schema missing.json: $ref nope.json: cannot read file ${join(schemaDir, 'nope.json')}: no such file or directory\n`,
    });
  });

  it('--schema: a referenced file resolves its own $refs from its own folder; loops and deep recursion are said', () => {
    const dir = tempFiles({
      'run.jsonl': lines({ ok: true, result: {}, error: {} }),
      // Was: ../d.json in a/b/c.json, reached through #/$defs, read from beside s.json: the wrong file.
      'n/s.json': JSON.stringify({ $defs: { error: { $ref: 'a/b/c.json' } }, properties: { error: { $ref: '#/$defs/error' } } }),
      'n/a/b/c.json': JSON.stringify({ $ref: '../d.json' }),
      'n/a/d.json': JSON.stringify({ type: 'object', required: ['right'] }),
      'n/d.json': JSON.stringify({ type: 'object', required: ['wrong'] }),
      // Was: every input "cannot read ...: Maximum call stack size exceeded".
      'loop/s.json': JSON.stringify({ $ref: 'x.json' }),
      'loop/x.json': JSON.stringify({ $ref: 'y.json' }),
      'loop/y.json': JSON.stringify({ $ref: 'x.json' }),
      'tree.json': JSON.stringify({ $defs: { t: { type: 'array', items: { $ref: '#/$defs/t' } } }, properties: { result: { $ref: '#/$defs/t' } } }),
      // Loops only with every error asked for: allErrors off stops at `type` on {}.
      'all-loop.json': JSON.stringify({ allOf: [{ type: 'string' }, { $ref: '#' }] }),
      // Was looked for as "my%20defs.json", which no file is called.
      'spaced.json': JSON.stringify({ properties: { error: { $ref: 'my defs.json' } } }),
      'my defs.json': JSON.stringify({ type: 'object', required: ['spaced'] }),
      'deep.jsonl': lines(`{"ok":true,"result":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, { ok: true, result: [[]] }, { ok: true, result: [{}] }),
    });
    const nested = runJson(['--schema', 'n/s.json', '--rule', 'missing-result=off', 'run.jsonl'], { cwd: dir });
    expect(nested.report.findings.map((f: { message: string }) => f.message)).toEqual(['error is missing required property "right"']);
    const spaced = runJson(['--schema', 'spaced.json', '--rule', 'missing-result=off', 'run.jsonl'], { cwd: dir });
    expect(spaced.report.findings.map((f: { message: string }) => f.message)).toEqual(['error is missing required property "spaced"']);
    expect(runCli(['check', '--schema', 'loop/s.json', 'run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'mcec-result: schema loop/s.json: its $refs loop back without end (validating {} overflowed the stack): a $ref, or $dynamicRef, that leads back to itself?\n',
    });
    // Found when the first record the schema rejects has its errors listed (ajv compiles that
    // validator then): the same refusal, not every record "nested too deep".
    expect(runCli(['check', '--schema', 'all-loop.json', 'run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'mcec-result: schema all-loop.json: its $refs loop back without end (validating {} overflowed the stack): a $ref, or $dynamicRef, that leads back to itself?\n',
    });
    // A tree schema recursing as deep as the record: that record is invalid, the input read on.
    const deep = runJson(['--schema', 'tree.json', 'deep.jsonl'], { cwd: dir });
    expect(deep).toMatchObject({ status: 1, stderr: '' });
    expect(deep.report.findings.map((f: { line: number; message: string }) => [f.line, f.message])).toEqual([
      [1, 'the envelope is nested too deep to validate against this schema (its $refs recurse past the call stack)'],
      [3, 'result[0] must be an array (got object)'],
    ]);
  });

  it('--schema with a $ref to a place that is not there: the place named, not "remote $ref not fetched"', () => {
    const schemaDir = tempFiles({
      'run.jsonl': lines(ok),
      'typo.json': JSON.stringify({ type: 'object', properties: { ok: { $ref: '#/$defs/flga' } }, $defs: { flag: { type: 'boolean' } } }),
      'published.json': JSON.stringify({ $id: 'https://example.test/s/published.json', properties: { ok: { $ref: '#/$defs/flga' } } }),
      'anchor.json': JSON.stringify({ properties: { ok: { $ref: '#flag' } } }),
      'split.json': JSON.stringify({ properties: { ok: { $ref: 'common.json#/$defs/flga' } } }),
      'common.json': JSON.stringify({ $defs: { flag: { type: 'boolean' } } }),
      'other-id.json': JSON.stringify({ properties: { ok: { $ref: 'named.json#/$defs/flga' } } }),
      'named.json': JSON.stringify({ $id: 'urn:example:named', $defs: { flag: { type: 'boolean' } } }),
    });
    const stderrOf = (schema: string) => runCli(['check', '--schema', schema, 'run.jsonl'], { cwd: schemaDir });
    for (const [schema, message] of [
      ['typo.json', '$ref #/$defs/flga: the schema has no /$defs/flga'],
      ['published.json', '$ref https://example.test/s/published.json#/$defs/flga: the schema has no /$defs/flga'],
      ['anchor.json', '$ref #flag: the schema has no $anchor "flag"'],
      ['split.json', `$ref common.json#/$defs/flga: ${join(schemaDir, 'common.json')} has no /$defs/flga`],
      // Was: "named.json was read, but its $id is another": ajv finds it by its path whatever its $id.
      ['other-id.json', `$ref named.json#/$defs/flga: ${join(schemaDir, 'named.json')} has no /$defs/flga`],
    ]) {
      expect(stderrOf(schema!), schema).toMatchObject({ status: 2, stdout: '', stderr: `mcec-result: schema ${schema}: ${message}\n` });
    }
  });

  it('--schema naming its draft by the other scheme is read as that draft; a non-string $id is said', () => {
    // Was: ajv's "no schema with key or ref ..." for http:// in place of https:// (and back).
    const drafts = tempFiles({
      'run.jsonl': lines({ ok: true, result: {} }, { result: {} }),
      '2020.json': JSON.stringify({ $schema: 'http://json-schema.org/draft/2020-12/schema', type: 'object', required: ['ok'] }),
      '07.json': JSON.stringify({ $schema: 'https://json-schema.org/draft-07/schema#', type: 'object', required: ['ok'] }),
      '2019.json': JSON.stringify({ $schema: 'https://json-schema.org/draft/2019-09/schema#', type: 'object', required: ['ok'] }),
      'id.json': JSON.stringify({ $id: 5, type: 'object' }),
    });
    for (const schema of ['2020.json', '07.json', '2019.json']) {
      const { status, report } = runJson(['--schema', schema, 'run.jsonl'], { cwd: drafts });
      expect(status, schema).toBe(1);
      expect(report.findings.map((f: { line: number; message: string }) => [f.line, f.message]), schema).toEqual([[2, 'the envelope is missing required property "ok"']]);
    }
    // Was: "unexpected failure"-like "id.replace is not a function".
    expect(runCli(['check', '--schema', 'id.json', 'run.jsonl'], { cwd: drafts })).toMatchObject({ status: 2, stderr: 'mcec-result: schema id.json: $id must be a string (got 5)\n' });
  });

  const bad: [string, string, RegExp][] = [
    ['a schema that is not JSON', 'broken.schema.json', /^mcec-result: schema broken\.schema\.json:4:2: unexpected end of input: closing brace expected\n$/],
    ['a schema that is not a valid JSON Schema', 'invalid.schema.json', /^mcec-result: schema invalid\.schema\.json is not a valid JSON Schema: .*type/],
    ['a schema with a remote $ref', 'remote.schema.json', /^mcec-result: schema remote\.schema\.json: remote \$ref not fetched: https:\/\/example\.com\/envelope\.schema\.json\n$/],
    ['a schema that is an array', 'array.schema.json', /a JSON Schema must be an object/],
    ['a schema of a draft ajv does not read', 'draft4.schema.json', /^mcec-result: schema draft4\.schema\.json: \$schema "http:\/\/json-schema\.org\/draft-04\/schema#" is not a draft mcec-result reads: use draft-06, draft-07, 2019-09 or 2020-12 /],
    ['a missing schema', 'none.json', /^mcec-result: cannot read schema none\.json: no such file or directory\n$/],
  ];
  for (const [name, file, message] of bad) {
    it(name, () => {
      const result = runCli(['check', '--schema', file, 'run.jsonl'], { cwd: dir });
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stdout).toBe('');
    });
  }

  it("a codes file's categories are the schema's or a newer MCEC release's, as the bundled registry's: a typo is named", () => {
    const typo = tempFiles({ 'run.jsonl': lines(failed), 'typo.json': JSON.stringify({ errorCodes: { timout: ['late'] } }), 'ocr.json': JSON.stringify({ errorCodes: { 'ocr-no-text': ['ocr-none'] } }) });
    expect(runCli(['check', '--codes', 'typo.json', 'run.jsonl'], { cwd: typo })).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'mcec-result: codes file typo.json at /errorCodes/timout: "timout" is not a category of the schema, nor of a newer MCEC release: did you mean "timeout"?\n',
    });
    // Was refused (exit 2), though the bundled registry lists codes under ocr-no-text itself.
    const other = runJson(['--codes', 'ocr.json', 'run.jsonl'], { cwd: typo });
    expect(other).toMatchObject({ status: 0, stderr: '', report: { findings: [] } });
    expect(runJson(['--codes', 'ocr.json', '--schema', join(repoRoot, 'test/data/newer.schema.json'), 'run.jsonl'], { cwd: typo }).status).toBe(0);
    const far = tempFiles({ 'far.json': JSON.stringify({ errorCodes: { 'made-up-category': ['x-y'] } }) });
    expect(runCli(['check', '--codes', join(far, 'far.json'), 'run.jsonl'], { cwd: typo }).stderr).toMatch(/"made-up-category" is not a category of the schema, nor of a newer MCEC release \(timeout, .*, capture-blank, ocr-blank, ocr-no-text, .*, internal\): codes of another schema's categories need that schema \(--schema\)\n$/);
  });

  it('says on stderr when a SARIF log holds more results than code scanning takes', () => {
    const record = (i: number) => JSON.stringify({ ok: false, error: { code: `team-code-${i % 3}`, category: 'timeout', detail: 'd' } });
    const dir = tempFiles({ 'run.jsonl': `${Array.from({ length: 25_001 }, (_, i) => record(i)).join('\n')}\n` });
    const over = runCli(['check', '--jobs', '1', '-f', 'sarif=run.sarif', 'run.jsonl'], { cwd: dir });
    expect(over).toMatchObject({ status: 0, stdout: '', stderr: 'mcec-result: the SARIF log holds 25,001 results, and GitHub code scanning refuses a run of more than 25,000: upload fewer (a --baseline keeps the known findings out)\n' });
    // The log still lists them all (spec section 7); other formats say nothing of it.
    expect(JSON.parse(readFileSync(join(dir, 'run.sarif'), 'utf8')).runs[0].results).toHaveLength(25_001);
    expect(runCli(['check', '--jobs', '1', '-f', 'json=run.json', 'run.jsonl'], { cwd: dir }).stderr).toBe('');
  });

  it('a codes pattern with {n}{n}, which no code can match, is refused with its place', () => {
    const dir = tempFiles({ 'run.jsonl': lines(failed), 'adjacent.json': JSON.stringify({ errorCodes: { 'no-target': ['window-{n}-found', 'window-{n}{n}'] }, warningCodes: ['dpi-{n}{n}-x'] }) });
    expect(runCli(['check', '--codes', 'adjacent.json', 'run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'mcec-result: codes file adjacent.json at /errorCodes/no-target/1: "window-{n}{n}" has two {n} side by side, which no code matches: one {n} is the whole number\n',
    });
    // Was accepted: focus-lost-30 was then unknown, "did you mean focus-lost-300?", itself unknown.
    writeFileSync(join(dir, 'digit.json'), JSON.stringify({ errorCodes: { focus: ['focus-lost-{n}0', 'retry-1{n}'] } }));
    expect(runCli(['check', '--codes', 'digit.json', 'run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: 'mcec-result: codes file digit.json at /errorCodes/focus/0: "focus-lost-{n}0" has a digit right after {n}, which no code matches: {n} is the whole number, its digits included\n',
    });
  });

  it('a code that is not kebab-case in a codes file is refused: it could never make a code known', () => {
    // Was: Foo_Bar listed made Foo_Bar in a record known (no unknown-code, exit 0 under --strict-codes).
    const record = { ok: false, error: { code: 'Foo_Bar', category: 'internal', detail: 'd' }, warnings: [{ code: 'Warn_X', detail: 'd' }] };
    const dir = tempFiles({ 'run.jsonl': lines(record), 'codes.json': JSON.stringify({ errorCodes: { internal: ['disk-full', 'Foo_Bar'] } }), 'warn.json': JSON.stringify({ warningCodes: ['retryCount{n}'] }) });
    expect(runCli(['check', '--codes', 'codes.json', '--strict-codes', 'run.jsonl'], { cwd: dir })).toMatchObject({
      status: 2,
      stdout: '',
      stderr: 'mcec-result: codes file codes.json at /errorCodes/internal/1: "Foo_Bar" is not kebab-case, and a code that is not is never a known one (lower-case letters and digits between single hyphens, {n} for a number): did you mean "foo-bar"?\n',
    });
    expect(runCli(['check', '--codes', 'warn.json', 'run.jsonl'], { cwd: dir }).stderr).toBe(
      'mcec-result: codes file warn.json at /warningCodes/0: "retryCount{n}" is not kebab-case, and a code that is not is never a known one (lower-case letters and digits between single hyphens, {n} for a number): did you mean "retry-count{n}"?\n',
    );
    const report = runJson(['--strict-codes', 'run.jsonl'], { cwd: dir }).report;
    expect(report.summary).toMatchObject({ unknownCodes: { Foo_Bar: 1 }, unknownWarningCodes: { Warn_X: 1 } });
    // Accents are dropped, not the letters they sit on (was "ber-code").
    writeFileSync(join(dir, 'accents.json'), JSON.stringify({ warningCodes: ['über_code'] }));
    expect(runCli(['check', '--codes', 'accents.json', 'run.jsonl'], { cwd: dir }).stderr).toMatch(/: did you mean "uber-code"\?\n$/);
  });

  it('--codes merges codes; a bad codes file names the file and the place', () => {
    const withCodes = runJson(['--codes', 'codes.json', '-'], { cwd: dir, input: lines({ ok: false, error: { code: 'late', category: 'timeout', detail: 'd' } }) });
    expect(withCodes.report.findings).toEqual([]);
    const result = runCli(['check', '--codes', 'bad-codes.json', 'run.jsonl'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^mcec-result: codes file bad-codes\.json at \/errorCodes\/timeout: must be an array \(got string\) \(expected /);
    const typo = tempFiles({ 'run.jsonl': lines(failed), 'codes.json': JSON.stringify({ errorCodez: {} }) });
    expect(runCli(['check', '--codes', 'codes.json', 'run.jsonl'], { cwd: typo }).stderr).toMatch(/^mcec-result: codes file codes\.json: unknown key "errorCodez" \(did you mean "errorCodes"\?\) \(expected /);
  });
});

describe('mcec-result check: output', () => {
  const dir = tempFiles({ 'run.jsonl': lines(ok, noError, typo, { ok: true }, '{"ok":tru') });
  // The default run (human to stdout, NO_COLOR set) prints the same report each time: one run serves the tests of it below.
  const human = runCli(['check', 'run.jsonl'], { cwd: dir });

  it('-f json=FILE writes that report while human goes to stdout', () => {
    const out = tempFiles({});
    const result = runCli(['check', '-f', 'human', '-f', `json=${join(out, 'r.json')}`, 'run.jsonl'], { cwd: dir });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('problems');
    expect(JSON.parse(readFileSync(join(out, 'r.json'), 'utf8')).summary.records).toBe(4);
  });

  it('- is standard output for -o, a format\'s =file and the config\'s output: no file named "-"', () => {
    const out = tempFiles({ 'run.jsonl': lines(ok, noError) });
    const human = runCli(['check', 'run.jsonl'], { cwd: out }).stdout;
    expect(runCli(['check', '-o', '-', 'run.jsonl'], { cwd: out }).stdout).toBe(human);
    expect(runCli(['check', '-f', 'sarif=-', 'run.jsonl'], { cwd: out }).stdout).toContain('"version": "2.1.0"');
    // The json report to stdout, the human one to the file -o names.
    const split = runCli(['check', '-f', 'json=-', '-f', 'human', '-o', 'r.txt', 'run.jsonl'], { cwd: out });
    expect(split.stdout).toContain('"reportVersion": 1');
    expect(readFileSync(join(out, 'r.txt'), 'utf8')).toBe(human);
    writeFileSync(join(out, 'mcec-result.config.json'), JSON.stringify({ output: '-' }));
    expect(runCli(['check', 'run.jsonl'], { cwd: out }).stdout).toBe(human);
    // merge takes - as check does.
    writeFileSync(join(out, 'report.json'), split.stdout);
    expect(runCli(['merge', '-o', '-', 'report.json'], { cwd: out }).stdout).toContain('✖ 1 problem (1 error, 0 warnings) in 1 input');
    expect(JSON.parse(runCli(['merge', '-f', 'json=-', 'report.json'], { cwd: out }).stdout).summary.records).toBe(2);
    expect(existsSync(join(out, '-'))).toBe(false);
    // Settings files and baselines are files: - is refused, not read or written as one named "-".
    for (const option of ['--baseline', '--codes', '--schema', '--config']) {
      expect(runCli(['check', option, '-', 'run.jsonl'], { cwd: out }), option).toMatchObject({ status: 2, stdout: '', stderr: `mcec-result: ${option}: - would be standard input, which holds the records: name a file\n` });
    }
    // Was "which holds the report", untrue with -o FILE; /dev/stdout is the way, when the report goes elsewhere.
    expect(runCli(['check', '--write-baseline', '-', '-o', 'r.txt', 'run.jsonl'], { cwd: out })).toMatchObject({ status: 2, stdout: '', stderr: 'mcec-result: --write-baseline: - is not taken for it: name a file, or /dev/stdout when the report goes to a file (-o FILE)\n' });
    expect(JSON.parse(runCli(['check', '--write-baseline', '/dev/stdout', '-o', 'r.txt', 'run.jsonl'], { cwd: out }).stdout).baselineVersion).toBe(1);
    expect(existsSync(join(out, '-'))).toBe(false);
  });

  it('a baseline or report to standard output under another name, beside a report there, is refused: /dev/stdout, /dev/fd/1, the file stdout is redirected to', () => {
    const out = tempFiles({ 'run.jsonl': lines(ok, noError) });
    // Was exit 0 and the baseline on stdout before the JSON report: two documents in one stream.
    for (const target of ['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']) {
      expect(runCli(['check', '--write-baseline', target, '-f', 'json', 'run.jsonl'], { cwd: out }), target).toMatchObject({
        status: 2,
        stdout: '',
        stderr: `mcec-result: --write-baseline ${target}: that is standard output, where the json report goes too, one document after the other: write the baseline to a file, or the report (-o FILE)\n`,
      });
    }
    // Alone on stdout, the report written to a file, it is a baseline as any other.
    const alone = runCli(['check', '--write-baseline', '/dev/stdout', '-o', 'r.txt', 'run.jsonl'], { cwd: out });
    expect(alone).toMatchObject({ status: 0, stderr: '' });
    expect(JSON.parse(alone.stdout).baselineVersion).toBe(1);
    // Standard output redirected to a file is that file by its device and inode, whatever its name.
    const shell = (command: string) => spawnSync('sh', ['-c', `"${process.execPath}" "${binary}" check run.jsonl ${command}; echo "exit=$?" >&2`], { cwd: out, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(shell('--write-baseline b.json > b.json').stderr).toBe('mcec-result: --write-baseline b.json: that is standard output, where the human report goes too, one document after the other: write the baseline to a file, or the report (-o FILE)\nexit=2\n');
    expect(readFileSync(join(out, 'b.json'), 'utf8')).toBe('');
    // Was: the JSON report renamed over r.json, and the GitHub lines written to stdout lost with the old file.
    expect(shell('-f json=r.json -f github > r.json').stderr).toBe('mcec-result: --format: r.json is standard output, redirected there, and github goes to standard output too: writing r.json would replace what it holds: write the json report to another file\nexit=2\n');
    expect(shell('-f json=./r.json -f human=-  > r.json').stderr).toMatch(/^mcec-result: --format: \.\/r\.json is standard output, redirected there, and human goes to standard output too: /);
    // One report to the file stdout is, or to /dev/null, is as before.
    expect(shell('-f json=r.json > r.json').stderr).toBe('exit=1\n');
    expect(JSON.parse(readFileSync(join(out, 'r.json'), 'utf8')).summary.records).toBe(2);
    expect(shell('-f json=/dev/null -f human > /dev/null').stderr).toBe('exit=1\n');
  });

  it('two reports to one stream, one of them a document (json, ndjson, sarif, junit), are refused', () => {
    const out = tempFiles({ 'run.jsonl': lines(ok, noError) });
    // Was: two JSON documents one after the other on stdout, which no JSON reader takes.
    for (const [args, message] of [
      [['-f', 'json', '-f', 'sarif'], 'json and sarif would both go to stdout, one after the other, which no json reader takes: write one to a file (-f sarif=report.sarif)'],
      [['-f', 'human', '-f', 'junit'], 'junit and human would both go to stdout, one after the other, which no junit reader takes: write one to a file (-f human=report.txt)'],
      [['-f', 'ndjson', '-f', 'github', '-o', 'r.out'], 'ndjson and github would both go to r.out, one after the other, which no ndjson reader takes: write one to a file (-f github=report.txt)'],
      // Was two documents on stdout: /dev/stdout is stdout by another name.
      [['-f', 'json', '-f', 'sarif=/dev/stdout'], 'json and sarif would both go to stdout, one after the other, which no json reader takes: write one to a file (-f sarif=report.sarif)'],
      [['-f', 'json=/dev/fd/1', '-f', 'sarif=/proc/self/fd/1'], 'json and sarif would both go to stdout, one after the other, which no json reader takes: write one to a file (-f sarif=report.sarif)'],
      [['-o', '/dev/stdout', '-f', 'ndjson', '-f', 'human=-'], 'ndjson and human would both go to stdout, one after the other, which no ndjson reader takes: write one to a file (-f human=report.txt)'],
      // Was: the JSON, then a line of the run's own messages after it.
      [['-f', 'json=/dev/stderr'], 'json would go to stderr, where mcec-result writes its own messages, which no json reader takes: write it to a file or to stdout'],
      [['-f', 'human', '-f', 'junit=/dev/fd/2'], 'junit would go to stderr, where mcec-result writes its own messages, which no junit reader takes: write it to a file or to stdout'],
    ] as const) {
      expect(runCli(['check', ...args, 'run.jsonl'], { cwd: out }), args.join(' ')).toMatchObject({ status: 2, stdout: '', stderr: `mcec-result: --format: ${message}\n` });
    }
    expect(existsSync(join(out, 'r.out'))).toBe(false);
    // Was exit 1 and no r.txt, without a word: -o got no report.
    expect(runCli(['check', '-f', 'json=r.json', '-o', 'r.txt', 'run.jsonl'], { cwd: out })).toMatchObject({
      status: 2,
      stderr: 'mcec-result: --output r.txt: every --format names a file of its own (json=r.json), so no report would go to it: drop -o, or give a format without =file\n',
    });
    expect(existsSync(join(out, 'r.json'))).toBe(false);
    // Text formats share a stream, as in a CI log; a document beside them goes to its own file.
    const log = runCli(['check', '-f', 'github', '-f', 'human', '-f', 'sarif=mcec.sarif', 'run.jsonl'], { cwd: out });
    expect(log.stdout).toMatch(/^::notice title=mcec-result::.*\n::error file=run\.jsonl,line=2,title=schema::/);
    expect(log.stdout).toContain('✖ 1 problem');
    expect(JSON.parse(readFileSync(join(out, 'mcec.sarif'), 'utf8')).version).toBe('2.1.0');
  });

  it('-o writes the report to a file instead of stdout', () => {
    const out = tempFiles({});
    const result = runCli(['check', '-o', join(out, 'report.txt'), 'run.jsonl'], { cwd: dir, env: { FORCE_COLOR: '1' } });
    expect(result.stdout).toBe('');
    const text = readFileSync(join(out, 'report.txt'), 'utf8');
    expect(text).toContain('run.jsonl:2');
    expect(text).not.toContain('\u001b[');
  });

  it('colour: off with NO_COLOR or --no-color, on with FORCE_COLOR or --color', () => {
    expect(human.stdout).not.toContain('\u001b[');
    expect(runCli(['check', 'run.jsonl'], { cwd: dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } }).stdout).toContain('\u001b[31m');
    expect(runCli(['check', '--color', 'run.jsonl'], { cwd: dir }).stdout).toContain('\u001b[');
    expect(runCli(['check', '--no-color', 'run.jsonl'], { cwd: dir, env: { NO_COLOR: undefined, FORCE_COLOR: '1' } }).stdout).not.toContain('\u001b[');
  });

  it('colour asked for (--color, FORCE_COLOR) colours a human report written to a file; by default a file has none', () => {
    const out = tempFiles({ 'run.jsonl': readFileSync(join(dir, 'run.jsonl')) });
    const colouredFiles = (args: string[], env: Record<string, string | undefined> = {}) => {
      runCli(['check', ...args, '-o', 'o.txt', '-f', 'human', '-f', 'human=h.txt', 'run.jsonl'], { cwd: out, env });
      return ['o.txt', 'h.txt'].map((name) => readFileSync(join(out, name), 'utf8').includes('\u001b[31m'));
    };
    // Was [false, false]: README's "--color: force colour on" did not reach a file.
    expect(colouredFiles(['--color'])).toEqual([true, true]);
    expect(colouredFiles([], { NO_COLOR: undefined, FORCE_COLOR: '1' })).toEqual([true, true]);
    writeFileSync(join(out, 'mcec-result.config.json'), JSON.stringify({ color: true }));
    expect(colouredFiles([])).toEqual([true, true]);
    expect(colouredFiles(['--no-color'], { NO_COLOR: undefined, FORCE_COLOR: '1' })).toEqual([false, false]);
    writeFileSync(join(out, 'mcec-result.config.json'), '{}');
    expect(colouredFiles([], { NO_COLOR: undefined })).toEqual([false, false]);
    // Beside a file, stdout keeps the automatic choice: a pipe here, no colour.
    expect(runCli(['check', '-f', 'human=h.txt', '-f', 'human', 'run.jsonl'], { cwd: out, env: { NO_COLOR: undefined } }).stdout).not.toContain('\u001b[');
  });

  it('the human summary shows counts, the category chart, top and unknown codes with suggestions', () => {
    const { stdout } = human;
    expect(stdout).toContain('✖ 5 problems (3 errors, 2 warnings) in 1 input');
    expect(stdout).toMatch(/records\s+4 checked\s+2 valid\s+2 invalid\s+1 unparseable\s+0 skipped/);
    expect(stdout).toMatch(/outcomes\s+2 ok\s+2 failed\s+0 unknown/);
    expect(stdout).toMatch(/not-a-category\s+█+ 1 \(not a category of the schema\)/);
    expect(stdout).toMatch(/unknown error codes\n\s+window-not-fonud\s+1\s+did you mean "window-not-found"\?/);
    expect(stdout).toMatch(/run\.jsonl:5:7\s+error\s+unexpected "tru"\s+parse-error/);
  });

  it('--max-listed caps the listing per input but counts everything; --quiet lists errors only', () => {
    const many = tempFiles({ 'many.jsonl': lines(...Array.from({ length: 7 }, () => noError)) });
    const capped = runCli(['check', '--max-listed', '3', 'many.jsonl'], { cwd: many });
    expect(capped.stdout.match(/ok is false, so error is required/g)).toHaveLength(3);
    expect(capped.stdout).toContain('… and 4 more in many.jsonl');
    expect(capped.stdout).toContain('7 problems');
    expect(runCli(['check', '--max-listed', '0', 'many.jsonl'], { cwd: many }).stdout.match(/so error is required/g)).toHaveLength(7);
    const quiet = runCli(['check', '--quiet', 'run.jsonl'], { cwd: dir }).stdout;
    expect(quiet).not.toContain('missing-result');
    expect(quiet).toContain('ok is false, so error is required');
  });

  it('names standard output when it cannot be written (a full disk), exit 2', () => {
    // Was: "unexpected failure: no space left on device".
    const result = spawnSync('sh', ['-c', `"${process.execPath}" "${binary}" check --no-config fixtures/valid/blank-lines.ndjson > /dev/full`], { cwd: repoRoot, encoding: 'utf8' });
    expect(result).toMatchObject({ status: 2, stderr: 'mcec-result: cannot write standard output: no space left on device\n' });
  });

  it('stops quietly when stdout is closed early', () => {
    const big = tempFiles({ 'big.jsonl': lines(...Array.from({ length: 20000 }, () => noError)) });
    const result = spawnSync('sh', ['-c', `"${process.execPath}" "${binary}" check --max-listed 0 big.jsonl | head -n 1`], { cwd: big, encoding: 'utf8' });
    expect(result.stdout.split('\n')).toHaveLength(2);
    expect(result.stderr).toBe('');
    // The verdict stands (was 0 once the report outgrew the pipe), and so do stderr's lines.
    const status = (command: string) => spawnSync('bash', ['-c', `${command}; echo "status \${PIPESTATUS[0]}"`], { cwd: big, encoding: 'utf8' });
    const cli = `"${process.execPath}" "${binary}" check --no-config`;
    expect(status(`${cli} -f json big.jsonl | head -c 10 >/dev/null`)).toMatchObject({ stdout: 'status 1\n', stderr: '' });
    expect(status(`${cli} -f json big.jsonl missing.jsonl | head -c 10 >/dev/null`)).toMatchObject({ stdout: 'status 2\n', stderr: 'mcec-result: cannot read missing.jsonl: no such file or directory\n' });
    // stderr closed early: its lines are lost, not the report or the status (was an uncaught EPIPE, exit 1).
    const closedStderr = status(`${cli} -f sarif=big.sarif big.jsonl missing.jsonl 2>&1 >/dev/null | true`);
    expect(closedStderr.stdout).toBe('status 2\n');
    expect(JSON.parse(readFileSync(join(big, 'big.sarif'), 'utf8')).runs[0].results).toHaveLength(20000);
  });
});

describe('the JSON report (spec section 6)', () => {
  const dir = tempFiles({ 'mixed.jsonl': lines(ok, noError, '', typo, { ok: true }, '  ', '{"ok":true,"result":{"a":"cut', failed) });
  const { status, report } = runJson(['mixed.jsonl'], { cwd: dir });

  it('validates against the report schema the package ships', () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/report-v1.schema.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
  });

  it('validates with a line break in a pointer, so that merge reads it back', () => {
    // Was: the schema's pointer pattern "^(/.*)?$" (no `.` matches a line break) refused the
    // report check wrote for a key holding one, and merge exited 2 on it.
    const keys = tempFiles({ 'keys.jsonl': lines({ ok: true, result: {}, 'a\nb': 1, 'c\u2028d': 2 }) });
    expect(runCli(['check', '-f', 'json=r.json', 'keys.jsonl'], { cwd: keys }).status).toBe(1);
    const written = JSON.parse(readFileSync(join(keys, 'r.json'), 'utf8'));
    expect(written.findings.map((f: { pointer: string }) => f.pointer)).toEqual(['/a\nb', '/c\u2028d']);
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/report-v1.schema.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true }).compile(schema);
    expect(validate(written), JSON.stringify(validate.errors)).toBe(true);
    const merged = runCli(['merge', '-f', 'json', 'r.json'], { cwd: keys });
    expect(merged).toMatchObject({ status: 1, stderr: '' });
    expect(JSON.parse(merged.stdout).findings).toEqual(written.findings);
  });

  it('has every field of spec section 6, counted as the spec counts', () => {
    expect(status).toBe(1);
    expect(report.reportVersion).toBe(1);
    expect(report.tool).toEqual({ name: 'mcec-result', version: '0.1.0' });
    // Spec section 8.3: the default is the newest bundled version, named with its file's digest.
    const sha256 = createHash('sha256').update(readFileSync(join(repoRoot, 'data/agent-tool-result.schema.2026-07.json'))).digest('hex');
    expect(report.schema).toEqual({ id: 'https://github.com/tig/mcec/blob/develop/agent-tool-result.schema.json', source: 'bundled', version: '2026-07', sha256 });
    expect(report.summary).toEqual({
      inputs: 1,
      records: 5,
      valid: 3,
      invalid: 2,
      unparseable: 1,
      skipped: 0,
      errors: 3,
      warnings: 2,
      protocolErrors: 0,
      truncated: 0,
      outcomes: { ok: 2, failed: 3, unknown: 0 },
      categories: { timeout: 0, 'ambiguous-selector': 0, 'stale-element': 0, 'no-target': 1, 'invalid-argument': 0, 'capture-blank': 0, 'ocr-blank': 0, 'ocr-no-text': 0, focus: 0, elevation: 0, foreground: 0, internal: 0 },
      invalidCategories: { 'not-a-category': 1 },
      codes: { 'window-not-fonud': 1, 'window-not-found': 1 },
      unknownCodes: { 'window-not-fonud': 1 },
      warningCodes: {},
      unknownWarningCodes: {},
      sessions: { '5f19c9c01a3f': { records: 4, ok: 1, failed: 3, unknown: 0 } },
    });
  });

  it('accounts for every non-blank line', () => {
    const { records, unparseable, skipped } = report.summary;
    expect(records + unparseable + skipped).toBe(6);
  });

  it('lists findings flat, sorted by line, column and rule, omitting fields that do not apply', () => {
    expect(report.findings).toEqual([
      { rule: 'schema', severity: 'error', message: 'ok is false, so error is required', source: 'mixed.jsonl', line: 2, pointer: '', keyword: 'required', schemaPath: '#/allOf/0/then/required', wrapping: 'bare' },
      {
        rule: 'schema',
        severity: 'error',
        message: expect.stringMatching(/^error\.category must be one of: timeout, .* \(got "not-a-category"\)$/),
        source: 'mixed.jsonl',
        line: 4,
        pointer: '/error/category',
        keyword: 'enum',
        schemaPath: '#/$defs/error/properties/category/enum',
        wrapping: 'bare',
      },
      { rule: 'unknown-code', severity: 'warning', message: 'unknown error code "window-not-fonud"', source: 'mixed.jsonl', line: 4, pointer: '/error/code', suggestion: 'window-not-found', wrapping: 'bare' },
      { rule: 'missing-result', severity: 'warning', message: expect.stringContaining('ok is true but result is missing'), source: 'mixed.jsonl', line: 5, pointer: '', wrapping: 'bare' },
      { rule: 'parse-error', severity: 'error', message: 'unterminated string', source: 'mixed.jsonl', line: 7, column: 30 },
    ]);
  });
});

describe('inputs named twice', () => {
  it('a file named and also found in its folder is checked once', () => {
    const dir = tempFiles({ 'a.json': JSON.stringify({ ok: true, result: {} }), 'sub/b.jsonl': lines({ ok: true, result: {} }) });
    const { report } = runJson([dir, join(dir, 'a.json'), `${dir}/./sub/b.jsonl`, '--no-config']);
    expect(report.summary.inputs).toBe(2);
  });

  it('a file that alternatives of one glob both match is checked once', () => {
    const dir = tempFiles({ 'a/y.json': JSON.stringify({ ok: true, result: {} }), 'a/b/x.json': JSON.stringify({ ok: false }) });
    const { report } = runJson(['{a,a/b}/**/*.json', '--no-config'], { cwd: dir });
    expect(report.summary).toMatchObject({ inputs: 2, records: 2, invalid: 1 });
    expect(report.findings.map((f: { source: string }) => f.source)).toEqual(['a/b/x.json']);
  });
});

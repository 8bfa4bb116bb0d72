// Live logs (spec section 8.10): a pipe's findings are written as they become final, and --follow
// reads a growing file like tail -F. Every wait here is on the process's own output, never a sleep.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, chmodSync, closeSync, mkdirSync, open, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binary, lines, repoRoot, runCli, tempFiles } from './helpers/cli.js';

/** A running `mcec-result` (or shell) whose output is watched as it comes. */
class Live {
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  private waiters: (() => void)[] = [];

  constructor(readonly child: ChildProcess) {
    child.stdout!.setEncoding('utf8').on('data', (text: string) => ((this.stdout += text), this.wake()));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => ((this.stderr += text), this.wake()));
    this.exited = new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal === null ? null : -1))));
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Resolves once `test` holds of what was printed; the test's own timeout bounds the wait. */
  async until(test: (live: Live) => boolean, what: string): Promise<void> {
    let done = false;
    void this.exited.then(() => {
      if (!done) this.wake();
    });
    while (!test(this)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`exited before ${what}:\n${this.stdout}\n${this.stderr}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
    done = true;
  }
}

const env = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined } as NodeJS.ProcessEnv;
delete env.FORCE_COLOR;

function start(args: readonly string[], cwd = repoRoot): Live {
  return new Live(spawn(process.execPath, [binary, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] }));
}

const bad = '{"ok":"yes"}';
const good = '{"ok":true,"result":{}}';

/** What each streamed format prints for `bad` at line 1 of standard input, and its summary. */
const formats = {
  human: { finding: '-:1  error    ok must be a boolean (got string)  schema\n', summary: /\n✖ 1 problem \(1 error, 0 warnings\) in 1 input( \(interrupted\))?\nrecords   2 checked  1 valid  1 invalid/ },
  github: { finding: '::error title=schema::standard input, line 1: ok must be a boolean (got string)\n', summary: /\n::notice title=mcec-result::2 records in 1 input: 1 invalid, 0 unparseable, 1 error, 0 warnings[^\n]*\n$/ },
  ndjson: { finding: '{"type":"finding","rule":"schema"', summary: /\n\{"type":"summary","inputs":1,"records":2,"valid":1,"invalid":1,/ },
} as const;

describe('a pipe: findings as they become final (spec section 8.10)', () => {
  for (const [format, expected] of Object.entries(formats)) {
    it(`${format}: the finding shows while the input is open; the summary comes when it closes`, async () => {
      const run = start(['check', '-f', format, '-']);
      run.child.stdin!.write(`${bad}\n`);
      await run.until((r) => r.stdout.includes(expected.finding), 'the finding');
      // Nothing of the summary while the input is open.
      expect(run.stdout).not.toMatch(expected.summary);
      expect(run.stdout).not.toContain('summary');
      run.child.stdin!.end(`${good}\n`);
      expect(await run.exited).toBe(1);
      expect(run.stdout.startsWith(expected.finding)).toBe(true);
      expect(run.stdout).toMatch(expected.summary);
      expect(run.stdout).not.toContain('interrupted');
    });

    it(`${format}: Ctrl-C after the finding: the summary of what was read, marked interrupted, exit 130`, async () => {
      const run = start(['check', '-f', format, '-']);
      run.child.stdin!.write(`${good}\n${bad}\n`);
      await run.until((r) => r.stdout.includes(expected.finding.replace(':1', ':2').replace('line 1', 'line 2')), 'the finding');
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(130);
      expect(run.stdout).toMatch(expected.summary);
      expect(run.stdout).toContain(format === 'ndjson' ? '"interrupted":true' : 'interrupted: Ctrl-C');
      expect(run.stderr).toContain('interrupted: the report covers only what was read before Ctrl-C (2 records)');
      run.child.stdin!.destroy();
    });
  }

  it('a pipe read in one chunk prints the bytes of the report written at the end (human and ndjson); github puts its summary last', () => {
    // Under PIPE_BUF (4 KiB): written at once, read as one chunk. Lines 1 to 12: places of two widths, aligned together.
    const text = lines(...Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? { ok: i } : i % 3 === 1 ? { ok: true } : { ok: true, result: {} })));
    const dir = tempFiles({ 'agent.jsonl': text });
    const formatNames = ['human', 'ndjson', 'github'];
    // The file is read whole, so one run writes the three reports at its end; the pipe streams only
    // the report on its standard output, so each format is piped in a run of its own.
    const out = tempFiles({});
    runCli(['check', ...formatNames.flatMap((format) => ['-f', `${format}=${join(out, format)}`]), 'agent.jsonl'], { cwd: dir });
    for (const format of formatNames) {
      const atEnd = readFileSync(join(out, format), 'utf8');
      const piped = runCli(['check', '-f', format, '--stdin-filename', 'agent.jsonl', '-'], { cwd: dir, input: text });
      expect(piped.status, format).toBe(1);
      if (format !== 'github') expect(piped.stdout, format).toBe(atEnd);
      else {
        const [summary, ...annotations] = atEnd.trimEnd().split('\n');
        expect(piped.stdout).toBe(`${[...annotations, summary].join('\n')}\n`);
      }
    }
  });

  it('inputs before the pipe print first, in command-line order; findings known only at its end follow there', async () => {
    const dir = tempFiles({ 'a.jsonl': lines({ ok: 1 }), 'b.jsonl': lines({ ok: 2 }) });
    const run = start(['check', 'a.jsonl', '-', 'b.jsonl'], dir);
    // A transcript's request that nothing answers: known only at the end of the input.
    const request = { ts: '2026-07-01T10:15:02.123Z', sessionId: '5f19c9c01a3f', direction: 'request', method: 'tools/call', payload: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'capture', arguments: {} } } };
    run.child.stdin!.write(`${JSON.stringify(request)}\n${bad}\n`);
    await run.until((r) => r.stdout.includes('-:2  error'), 'the pipe\'s finding');
    expect(run.stdout.indexOf('a.jsonl:1')).toBeLessThan(run.stdout.indexOf('-:2'));
    expect(run.stdout).not.toContain('b.jsonl');
    expect(run.stdout).not.toContain('unanswered-request');
    run.child.stdin!.end();
    expect(await run.exited).toBe(1);
    const order = ['a.jsonl:1', '-:2', '-:1', 'b.jsonl:1', '✖ 4 problems'].map((text) => run.stdout.indexOf(text));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]!))).toBe(true);
    expect(run.stdout).toContain('unanswered-request');
  });

  it('--max-listed stops listing the pipe\'s findings and says how many more at its end', async () => {
    const run = start(['check', '--max-listed', '1', '-']);
    run.child.stdin!.write(`${bad}\n`);
    await run.until((r) => r.stdout.includes('-:1  error'), 'the first finding');
    run.child.stdin!.end(`${bad}\n${bad}\n`);
    expect(await run.exited).toBe(1);
    expect(run.stdout).not.toContain('-:2');
    expect(run.stdout).toContain('… and 2 more in - (--max-listed 0 lists all)\n\n✖ 3 problems');
  });

  it('the --extract hint goes with the summary', async () => {
    const run = start(['check', '-']);
    run.child.stdin!.end('2026-07-01T10:15:02Z INFO agent result {"ok":true,"result":{}}\n');
    expect(await run.exited).toBe(1);
    // Once, in the summary's hint line (spec section 8.8), as a report written at the end says it.
    expect(run.stdout).toMatch(/^-:1:\d+ +error +unexpected text after the JSON value, found "-0"  parse-error\n\n✖ 1 problem/);
    expect(run.stdout.match(/log lines with a prefix/g)).toEqual(['log lines with a prefix']);
    expect(run.stdout).toContain('\nhint      -: log lines with a prefix before their JSON? check it with --extract, which finds the object in each line\n');
    const github = start(['check', '-f', 'github', '-']);
    github.child.stdin!.end('2026-07-01T10:15:02Z INFO agent result {"ok":true,"result":{}}\n');
    expect(await github.exited).toBe(1);
    expect(github.stdout).toMatch(/^::error title=parse-error::standard input, line 1:\d+: unexpected text after the JSON value, found "-0"\n::notice title=mcec-result::standard input: log lines with a prefix before their JSON\? --extract finds the object in each line\n::notice title=mcec-result::0 records in 1 input: 0 invalid, 1 unparseable, 1 error, 0 warnings\n$/);
  });
});

describe('other live inputs', () => {
  it('a FIFO named as an input streams as a pipe does', async () => {
    const dir = tempFiles({});
    expect(spawnSync('mkfifo', ['live.jsonl'], { cwd: dir }).status).toBe(0);
    const run = start(['check', 'live.jsonl'], dir);
    // Opened on the thread pool: it returns once the run has opened its end.
    const fd = await new Promise<number>((resolve, reject) => open(join(dir, 'live.jsonl'), 'w', (error, opened) => (error ? reject(error) : resolve(opened))));
    writeSync(fd, `${good}\n${bad}\n`);
    await run.until((r) => r.stdout.includes('live.jsonl:2  error'), 'the finding');
    expect(run.stdout).not.toContain('✖');
    closeSync(fd);
    expect(await run.exited).toBe(1);
    expect(run.stdout).toContain('live.jsonl:2  error    ok must be a boolean (got string)  schema\n\n✖ 1 problem (1 error, 0 warnings) in 1 input\nrecords   2 checked  1 valid  1 invalid');
  });

  it('a second report to a file is written at the end, whole, as before', async () => {
    const dir = tempFiles({});
    const run = start(['check', '-f', 'ndjson', '-f', 'json=report.json', '-'], dir);
    run.child.stdin!.write(`${bad}\n`);
    await run.until((r) => r.stdout.includes('"type":"finding"'), 'the finding');
    run.child.stdin!.end(`${bad}\n`);
    expect(await run.exited).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
    expect(report.findings.map((f: { line: number }) => f.line)).toEqual([1, 2]);
    expect(run.stdout.trim().split('\n').map((line) => JSON.parse(line).type)).toEqual(['finding', 'finding', 'summary']);
  });

  it('--baseline: a known finding is not written as it comes, a new one is; --quiet leaves warnings out', async () => {
    const dir = tempFiles({ 'agent.jsonl': lines(bad) });
    expect(runCli(['check', '--write-baseline', 'base.json', 'agent.jsonl'], { cwd: dir }).status).toBe(0);
    const run = start(['check', '--quiet', '--baseline', 'base.json', '--stdin-filename', 'agent.jsonl', '-'], dir);
    run.child.stdin!.write(`${bad}\n{"ok":true}\n{"ok":"no"}\n`);
    await run.until((r) => r.stdout.includes('agent.jsonl:3  error'), 'the new finding');
    run.child.stdin!.end();
    expect(await run.exited).toBe(1);
    expect(run.stdout).not.toContain('agent.jsonl:1');
    // missing-result, a warning: counted, not listed under --quiet.
    expect(run.stdout).not.toContain('agent.jsonl:2');
    expect(run.stdout).toContain('✖ 2 problems (1 error, 1 warning) in 1 input\nrecords   3 checked  1 valid  2 invalid  0 unparseable  0 skipped\noutcomes  1 ok  0 failed  2 unknown\nbaseline  1 known finding suppressed  0 entries no longer found');
  });
});

describe('--follow (spec section 8.10)', () => {
  it('reads appended lines, a rotated file from its start, and ends with Ctrl-C: exit 1, the summary, not interrupted', async () => {
    const dir = tempFiles({ 'agent.log': lines(good, bad, good) });
    const log = join(dir, 'agent.log');
    const run = start(['check', '--follow', 'agent.log', '--from-start'], dir);
    await run.until((r) => r.stdout.includes('agent.log:2  error'), 'the first finding');
    appendFileSync(log, `${good}\n${bad}\n`);
    await run.until((r) => r.stdout.includes('agent.log:5  error'), 'the appended line\'s finding');
    // Rotated: the old file gets a last line before it is moved away, the new one a bad line 1.
    appendFileSync(log, `${bad}\n`);
    renameSync(log, join(dir, 'agent.log.1'));
    writeFileSync(log, `${bad}\n${good}\n`);
    // stdout and stderr are two pipes: each is waited for, since either may be read first.
    await run.until((r) => /replaced \(rotated\)[^\n]*\nagent\.log:1  error/.test(r.stdout) && r.stderr.includes('replaced (rotated)'), 'the new file\'s finding');
    expect(run.stderr).toContain('mcec-result: agent.log: replaced (rotated): read again from its start; line numbers and pairing start afresh\n');
    // No line of the old file written before the rename is lost: its line 6 came before the restart.
    expect(run.stdout.indexOf('agent.log:6  error')).toBeGreaterThan(run.stdout.indexOf('agent.log:5  error'));
    expect(run.stdout.indexOf('agent.log:6  error')).toBeLessThan(run.stdout.indexOf('replaced (rotated)'));
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(1);
    expect(run.stdout).toContain('✖ 4 problems (4 errors, 0 warnings) in 1 input\nrecords   8 checked  4 valid  4 invalid');
    expect(run.stdout).not.toContain('interrupted');
    expect(run.stderr).not.toContain('interrupted');
  });

  it('from the current end by default, lines numbered from the file\'s start; a truncated file is read again; SIGTERM ends it normally', async () => {
    const dir = tempFiles({ 'agent.log': lines(bad, good, good) });
    const log = join(dir, 'agent.log');
    const run = start(['check', '--follow', '-f', 'ndjson', 'agent.log'], dir);
    await run.until((r) => r.stderr.includes('following agent.log from line 4'), 'the start');
    appendFileSync(log, `${bad}\n`);
    await run.until((r) => r.stdout.includes('"line":4'), 'the appended line\'s finding');
    writeFileSync(log, `${bad}\n`);
    await run.until((r) => r.stdout.includes('"line":1') && r.stderr.includes('truncated: read again'), 'the truncated file\'s finding');
    expect(run.stderr).toContain('agent.log: truncated: read again from its start');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(1);
    const printed = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    // Reading order: the first file's line 4, then the new start's line 1; the line 1 read before the start is not read.
    expect(printed.filter((value) => value.type === 'finding').map((finding) => finding.line)).toEqual([4, 1]);
    expect(printed.at(-1)).toMatchObject({ type: 'summary', records: 2, invalid: 2 });
    expect(printed.at(-1).interrupted).toBeUndefined();
  });

  it('is refused, exit 2, with several inputs, standard input, --shard, --write-baseline, --input json, or a file it cannot follow', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines(good), 'utf16le')]);
    const dir = tempFiles({ 'a.log': lines(good), 'b.log': lines(good), 'doc.json': good, 'a.log.gz': Buffer.from([0x1f, 0x8b, 8, 0]), 'zipped.log': Buffer.from([0x1f, 0x8b, 8, 0]), 'wide.log': utf16, 'sub/x.log': '' });
    const refused = (args: string[], message: string) => {
      const result = runCli(['check', ...args], { cwd: dir });
      expect(result, args.join(' ')).toMatchObject({ status: 2, stdout: '' });
      expect(result.stderr, args.join(' ')).toContain(message);
    };
    refused(['--follow', 'a.log', 'b.log'], '--follow: reads exactly one file, got 2 inputs');
    refused(['--follow', '-'], '--follow: follows a file, not standard input');
    refused(['--follow', '--shard', '1/2', 'a.log'], '--follow: reads one file as it grows, which --shard cannot split');
    refused(['--follow', '--write-baseline', 'base.json', 'a.log'], '--follow: a baseline of a followed file');
    refused(['--follow', '--input', 'json', 'a.log'], '--follow: reads a line-delimited file line by line; --input json');
    refused(['--follow', 'doc.json'], '--follow doc.json: a .json file is one document');
    refused(['--follow', 'a.log.gz'], '--follow a.log.gz: a compressed file cannot be followed');
    refused(['--follow', 'zipped.log'], '--follow zipped.log: a compressed file cannot be followed');
    refused(['--follow', 'wide.log'], '--follow wide.log: a UTF-16 file is read whole, not followed');
    refused(['--follow', 'sub'], '--follow sub: not a regular file');
    refused(['--follow', 'missing.log'], '--follow missing.log: no such file');
    refused(['--from-start', 'a.log'], '--from-start: reads a followed file from its beginning: add --follow');
  });
});

describe('docs/live-logs.md: its recipes, run as written', () => {
  const doc = readFileSync(join(repoRoot, 'docs/live-logs.md'), 'utf8');
  const recipe = (starts: string) => {
    const found = [...doc.matchAll(/```sh\n([^\n]+)\n```/g)].map((m) => m[1]!).find((line) => line.startsWith(starts));
    if (found === undefined) throw new Error(`docs/live-logs.md has no recipe starting ${starts}`);
    return found;
  };
  /** A folder with `mcec-result` on PATH, as an installed package puts it. */
  const shell = (command: string, cwd: string) => {
    const bin = join(cwd, '.bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'mcec-result'), `#!/bin/sh\nexec "${process.execPath}" "${binary}" "$@"\n`);
    chmodSync(join(bin, 'mcec-result'), 0o755);
    // Its own process group, as a terminal's job is: Ctrl-C goes to every process of the pipeline.
    return new Live(spawn('bash', ['-c', command], { cwd, env: { ...env, PATH: `${bin}:${env.PATH}` }, stdio: ['ignore', 'pipe', 'pipe'], detached: true }));
  };

  it('tail -f agent.log | mcec-result check --extract -: the finding shows at once; Ctrl-C ends the pipeline with the summary', async () => {
    const dir = tempFiles({ 'agent.log': lines('2026-07-01T10:15:02Z INFO agent result {"ok":false}', '2026-07-01T10:15:03Z DEBUG idle') });
    const run = shell(recipe('tail -f'), dir);
    await run.until((r) => r.stdout.includes('-:1  error    ok is false, so error is required  schema'), 'the first finding');
    process.kill(-run.child.pid!, 'SIGINT');
    // The shell ends as a terminal's job does on Ctrl-C (tail died of it); mcec-result printed its summary and said why.
    await run.exited;
    expect(run.stdout).toContain('✖ 1 problem (1 error, 0 warnings) in 1 input (interrupted)\nrecords   1 checked  0 valid  1 invalid  0 unparseable  1 skipped');
    expect(run.stderr).toBe('mcec-result: interrupted: the report covers only what was read before Ctrl-C (1 records)\n');
  });

  it('mcec-result check --follow agent.log: what is appended is checked as it comes; Ctrl-C ends it normally', async () => {
    const dir = tempFiles({ 'agent.log': lines(good) });
    const run = shell(recipe('mcec-result check --follow'), dir);
    await run.until((r) => r.stderr.includes('following agent.log from line 2'), 'the start');
    appendFileSync(join(dir, 'agent.log'), `${bad}\n`);
    await run.until((r) => r.stdout.includes('agent.log:2  error    ok must be a boolean (got string)  schema'), 'the appended line\'s finding');
    process.kill(-run.child.pid!, 'SIGINT');
    expect(await run.exited).toBe(1);
    expect(run.stdout).toContain('✖ 1 problem (1 error, 0 warnings) in 1 input\nrecords   1 checked  0 valid  1 invalid');
  });
});

// Findings past the memory budget (--findings-in-memory) wait in a temporary file and are read back
// when the report is written (issue 5: memory must not grow with the input). The report must be
// the same, byte for byte, in every format, whether its findings were held or spooled, and the
// temporary file must be gone when the process ends.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FindingStore, SpillBudget, StoredList } from '../src/findings/store.js';
import { formatNames } from '../src/formatters/index.js';
import { check } from '../src/run.js';
import type { Finding } from '../src/types.js';
import { repoRoot, runCli, tempFiles } from './helpers/cli.js';

function transcriptLine(direction: 'request' | 'response', id: number, envelope?: object): string {
  const payload =
    direction === 'request'
      ? { jsonrpc: '2.0', id, method: 'tools/call', params: { name: `tool${id % 3}`, arguments: {} } }
      : { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: !(envelope as { ok: boolean }).ok } };
  return JSON.stringify({ ts: 't', sessionId: 'S', direction, method: 'tools/call', payload });
}

/** Requests left unanswered (findings known only at the end) between responses that have findings. */
function transcript(): string {
  const out: string[] = [];
  for (let id = 1; id <= 300; id++) {
    out.push(transcriptLine('request', id));
    if (id % 7 === 0) continue;
    out.push(transcriptLine('response', id, id % 2 === 0 ? { ok: false, error: { code: 'window-not-fonud', category: 'no-target', detail: 'x' } } : { ok: true, result: {} }));
  }
  return `${out.join('\n')}\n`;
}

/** Bare envelopes with several findings per line, parse errors and a pretty-printed value's first line. */
function bare(): string {
  const out: string[] = [];
  for (let i = 0; i < 2000; i++) {
    if (i % 5 === 0) out.push('{"ok":false,"error":{"code":"nope","category":"bogus"},"warnings":[{"code":"w"}]}');
    else if (i % 11 === 0) out.push('{"ok":true,"result":{"cut":"off');
    else if (i === 500) out.push('{');
    else out.push(JSON.stringify({ ok: true, result: { i } }));
  }
  return `${out.join('\n')}\n`;
}

describe('findings past the memory budget', () => {
  const dir = tempFiles({ 'transcript/tool-calls.jsonl': transcript(), 'bare.jsonl': bare(), 'clean.json': '{"ok":true,"result":{}}' });
  const inputs = ['bare.jsonl', 'clean.json', 'transcript/tool-calls.jsonl'];

  it('give the same report in every format, read back from a temporary file that is gone at exit', () => {
    // Each run writes the report in every format, each to a file of its own.
    const out = tempFiles({});
    const reports = (run: string) => formatNames.flatMap((format) => ['-f', `${format}=${join(out, `${run}.${format}`)}`]);
    const held = runCli(['check', '--max-listed', '0', ...reports('held'), ...inputs], { cwd: dir });
    const tmp = tempFiles({});
    const spooled = runCli(['check', '--max-listed', '0', ...reports('spooled'), '--findings-in-memory', '7', ...inputs], { cwd: dir, env: { TMPDIR: tmp } });
    expect(held.status).toBe(1);
    expect(spooled.stderr).toBe('');
    expect(spooled.status).toBe(1);
    for (const format of formatNames) {
      const [fromHeld, fromSpool] = ['held', 'spooled'].map((run) => readFileSync(join(out, `${run}.${format}`), 'utf8'));
      expect(fromHeld, format).not.toBe('');
      expect(fromSpool === fromHeld, format).toBe(true);
    }
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('the JSON report lists every finding, late ones in their place', () => {
    const { stdout } = runCli(['check', '-f', 'json', '--findings-in-memory', '3', ...inputs], { cwd: dir });
    const report = JSON.parse(stdout) as { summary: { errors: number; warnings: number }; findings: { rule: string; source: string; line: number }[] };
    expect(report.findings).toHaveLength(report.summary.errors + report.summary.warnings);
    const late = report.findings.filter((f) => f.rule === 'unanswered-request');
    // Every 7th of 300 requests has no response.
    expect(late).toHaveLength(42);
    const lines = report.findings.filter((f) => f.source.endsWith('tool-calls.jsonl')).map((f) => f.line);
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
  });

  it("JSON.stringify of a library report writes every finding, spooled ones too, not the list's internals", async () => {
    const report = await check(inputs.map((input) => join(dir, input)), { findingsInMemory: 3, jobs: 1 });
    const written = JSON.parse(JSON.stringify(report)) as { findings: unknown[] };
    expect(report.findings.length).toBeGreaterThan(100);
    expect(written.findings).toHaveLength(report.findings.length);
    expect(written.findings).toEqual(JSON.parse(JSON.stringify([...report.findings])));
  });

  it('a temporary folder that cannot be written: exit 2, one line saying what to do', () => {
    for (const jobs of ['1', '2']) {
      const result = runCli(['check', '--jobs', jobs, '--findings-in-memory', '1', 'bare.jsonl', 'transcript/tool-calls.jsonl'], { cwd: dir, env: { TMPDIR: '/nonexistent/tmp' } });
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^mcec-result: cannot write findings to a temporary file in \/nonexistent\/tmp: no such file or directory \(set TMPDIR to a writable folder, or raise --findings-in-memory\)\n$/);
    }
  });

  it('--findings-in-memory must be at least 1', () => {
    const result = runCli(['check', '--findings-in-memory', '0', 'bare.jsonl'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--findings-in-memory: expected a whole number of at least 1');
  });
});

describe('a process that checks again and again (the library)', () => {
  // About 9 MiB (over the size that puts a run on workers), a finding on every 10th line.
  const lines: string[] = [];
  for (let i = 0; i < 30_000; i++) lines.push(i % 10 === 0 ? '{"ok":false,"error":{"code":"nope","category":"bogus"}}' : JSON.stringify({ ok: true, result: { i, padding: 'x'.repeat(280) } }));
  const dir = tempFiles({ 'big.jsonl': `${lines.join('\n')}\n`, 'small.jsonl': `${lines.slice(0, 100).join('\n')}\n` });
  // Runs in a function of its own, so that no report is left in a suspended frame when it returns.
  const script = `
    import { readdirSync } from 'node:fs';
    const { check, formatReport } = await import(process.env.MCEC_LIBRARY);
    const tmp = process.env.TMPDIR;
    const descriptors = () => readdirSync('/proc/self/fd').length;
    async function runs() {
      let folders = 0;
      let findings = 0;
      for (const jobs of [1, 2, 1, 2]) {
        const report = await check(['big.jsonl'], { findingsInMemory: 5, jobs });
        findings += JSON.parse(formatReport('json', report)).findings.length;
        folders = Math.max(folders, readdirSync(tmp).length);
      }
      return { folders, findings };
    }
    async function collected() {
      for (let i = 0; i < 200 && readdirSync(tmp).length > 0; i++) {
        globalThis.gc();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    // Runs whose folders are each gone before the next one: exit listeners must not pile up.
    async function oneAtATime() {
      for (let k = 0; k < 12; k++) {
        await check(['small.jsonl'], { findingsInMemory: 5 });
        await collected();
      }
    }
    const before = descriptors();
    const exitListeners = process.listenerCount('exit');
    const { folders, findings } = await runs();
    const after = descriptors();
    await collected();
    const left = readdirSync(tmp);
    await oneAtATime();
    console.log(JSON.stringify({ folders, findings, left, descriptors: after - before, exitListeners: process.listenerCount('exit') - exitListeners }));
  `;

  it('closes its temporary files after each write and removes them when the report is gone, before exit; one exit listener', () => {
    const tmp = tempFiles({});
    const result = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: tmp, MCEC_LIBRARY: pathToFileURL(join(repoRoot, 'dist/index.js')).href },
    });
    expect(result.stderr).toBe('');
    const seen = JSON.parse(result.stdout) as { folders: number; findings: number; left: string[]; descriptors: number; exitListeners: number };
    // Each run spilled (3 findings on each of 3,000 lines, against a budget of 5), into a folder of its own.
    expect(seen.findings).toBe(4 * 9000);
    expect(seen.folders).toBeGreaterThan(0);
    expect(seen.left).toEqual([]);
    expect(seen.descriptors).toBe(0);
    expect(seen.exitListeners).toBe(1);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('FindingStore', () => {
  it('holds a finding that repeats, but for its line, once: thousands of findings of three kinds stay in memory, in order', () => {
    const store = new FindingStore(new SpillBudget());
    const kinds: Omit<Finding, 'location'>[] = [
      { rule: 'schema', severity: 'error', message: 'ok is true, so error must be absent', keyword: 'not', schemaPath: '#/allOf/1/then/not', wrapping: 'bare' },
      { rule: 'unknown-code', severity: 'warning', message: 'unknown error code "x"', suggestion: 'y', wrapping: 'bare' },
      // The same message under another rule and pointer is a kind of its own.
      { rule: 'code-format', severity: 'warning', message: 'unknown error code "x"', wrapping: 'bare' },
    ];
    const findings: Finding[] = [];
    // Past the first chunks (16, 32, ... findings) and past one of the largest (4,096).
    for (let line = 1; line <= 10_000; line++) {
      const kind = kinds[line % 3]!;
      const finding: Finding = { ...kind, location: { source: 'a.jsonl', line: line * 7, pointer: line % 3 === 1 ? '/error/code' : '/error' } };
      findings.push(finding);
      store.append(finding);
    }
    const stored = store.seal();
    expect(stored.spooled).toBe(0);
    expect(stored.head.count).toBe(10_000);
    expect(stored.head.kinds).toHaveLength(3);
    expect([...new StoredList(stored)]).toStrictEqual(findings);
    const shifted = findings.map((f) => ({ ...f, location: { ...f.location, line: f.location.line + 5 } }));
    expect([...new StoredList(stored, { lineOffset: 5, wordHint: false })]).toStrictEqual(shifted);
  });

  it('holds findings whose messages differ only in their numbers as one kind, and gives each message back as it was', () => {
    // Recovery findings (spec section 9) name other lines: one kind per message would be one per finding.
    const messages = (line: number): string[] => [
      `retried unchanged after the "no-target" failure on line ${line} (code "selector-matched-5"): narrow it`,
      `the same call failed ${line % 7} times in a row, lines ${line} to ${line + 3}`,
      // Numbers not written back as they were stay in the message: leading zeros, more than 15 digits.
      `code "E${String(line % 10).padStart(3, '0')}" at 1234567890123456${line % 3}`,
      // A message holding the template's own mark is never a template, nor mistaken for one.
      `line \0 and ${line % 2}`,
      'line \0 and \0',
    ];
    const findings: Finding[] = [];
    for (let line = 1; line <= 3_000; line++) {
      for (const message of messages(line)) findings.push({ rule: 'unchanged-retry', severity: 'warning', message, location: { source: 'a.jsonl', line }, tool: 'find', wrapping: 'transcript' });
    }
    const store = new FindingStore(new SpillBudget());
    for (const finding of findings) store.append(finding);
    const stored = store.seal();
    expect(stored.spooled).toBe(0);
    // Two templates, ten leading-zero codes times three long numbers, two messages with the mark.
    expect(stored.head.kinds.length).toBe(2 + 30 + 2 + 1);
    expect([...new StoredList(stored)]).toStrictEqual(findings);
    // Spooled (by count) and posted to another thread (a structured clone), the same findings.
    const small = new FindingStore(new SpillBudget(1_000));
    for (const finding of findings) small.append(finding);
    const posted = structuredClone(small.detach());
    expect(posted.spooled).toBeGreaterThan(0);
    expect([...new StoredList(posted)]).toStrictEqual(findings);
    const held = new FindingStore(new SpillBudget());
    for (const finding of findings.slice(0, 500)) held.append(finding);
    expect([...new StoredList(structuredClone(held.detach()))]).toStrictEqual(findings.slice(0, 500));
  });

  it("holds the findings a worker posts against this thread's budget, and spools them here once it is spent", () => {
    const made = (from: number): Finding[] => Array.from({ length: 300 }, (_, i) => ({ rule: 'schema', severity: 'error', message: `m${i % 3}`, location: { source: 's', line: from + i } }));
    // What a worker's thread posts: its stores detached, copied as postMessage copies them.
    const posted = (findings: Finding[]) => {
      const store = new FindingStore(new SpillBudget());
      for (const finding of findings) store.append(finding);
      return structuredClone(store.detach());
    };
    const first = made(1);
    const second = made(1001);
    const a = posted(first);
    expect(a.head.count).toBe(300);
    expect(a.spool).toBeUndefined();
    const here = new SpillBudget(500);
    here.adopt(a);
    expect(a.spool).toBeUndefined();
    // 600 held: past the budget, both go to this thread's spool.
    const b = posted(second);
    here.adopt(b);
    expect(a.head.count + b.head.count).toBe(0);
    expect(a.spool!.path).toBe(b.spool!.path);
    expect([...new StoredList(a)]).toStrictEqual(first);
    expect([...new StoredList(b)]).toStrictEqual(second);
  });

  it('a posted result the run drops counts against the budget no more, and is never written', () => {
    const posted = (from: number, count: number) => {
      const store = new FindingStore(new SpillBudget());
      for (let i = 0; i < count; i++) store.append({ rule: 'schema', severity: 'error', message: 'm', location: { source: 's', line: from + i } });
      return structuredClone(store.detach());
    };
    const here = new SpillBudget(500);
    const dropped = posted(1, 300);
    const kept = posted(1001, 150);
    here.adopt(dropped);
    here.adopt(kept);
    here.drop(dropped);
    // 450 held with the dropped ones: past the budget with these; 300 without them.
    const more = posted(2001, 150);
    here.adopt(more);
    expect([dropped.spool, kept.spool, more.spool]).toEqual([undefined, undefined, undefined]);
    expect(dropped.head.count).toBe(0);
    expect(kept.head.count + more.head.count).toBe(300);
  });

  it('late findings a worker posts count against this budget, spool here, and are dropped with their result', () => {
    const posted = (from: number, count: number) => {
      const store = new FindingStore(new SpillBudget());
      store.append({ rule: 'schema', severity: 'error', message: 'm', location: { source: 's', line: from } });
      for (let i = 1; i <= count; i++) store.appendLate({ rule: 'unanswered-request', severity: 'warning', message: 'u', location: { source: 's', line: from + i } });
      return structuredClone(store.detach());
    };
    const here = new SpillBudget(500);
    const dropped = posted(1, 300);
    here.adopt(dropped);
    here.drop(dropped);
    expect(dropped.late!.head.count).toBe(0);
    // 1 + 300 held and 1 + 300 more: past the budget only if the dropped ones still counted, or if late ones did not.
    const kept = posted(1001, 300);
    here.adopt(kept);
    expect(kept.late!.spool).toBeUndefined();
    const more = posted(2001, 300);
    here.adopt(more);
    expect(kept.late!.spool).toBeDefined();
    expect(more.late!.spool).toBeDefined();
    const lines = (stored: typeof kept) => Array.from(new StoredList(stored), (f) => f.location.line);
    expect(lines(kept)).toEqual(Array.from({ length: 301 }, (_, i) => 1001 + i));
    expect(lines(more)).toEqual(Array.from({ length: 301 }, (_, i) => 2001 + i));
  });

  it('a store that spooled some of its findings posts the rest through its spool too (one file a store)', () => {
    const store = new FindingStore(new SpillBudget(10));
    const findings: Finding[] = Array.from({ length: 25 }, (_, i) => ({ rule: 'schema', severity: 'error', message: 'm', location: { source: 's', line: i + 1 } }));
    for (const finding of findings) store.append(finding);
    const stored = store.detach();
    expect(stored.head.count).toBe(0);
    expect(stored.spooled).toBe(25);
    expect([...new StoredList(stored)]).toStrictEqual(findings);
  });

  it('writes held findings to the spool once they are more kinds than a thread holds as objects (1,000), whatever the count budget', () => {
    const budget = new SpillBudget(1_000_000);
    const store = new FindingStore(budget);
    // Each finding a kind of its own, as a baseline run's are (each carries its record's digest).
    const findings: Finding[] = Array.from({ length: 2_500 }, (_, i) => ({ rule: 'schema', severity: 'error', message: 'm', location: { source: 's', line: i + 1 }, fingerprint: `f${i}` }));
    for (const finding of findings) store.append(finding);
    const stored = store.seal();
    expect(budget.objects).toBe(1_000);
    expect(stored.spooled).toBe(2_002);
    // Each a kind, not looked for among the others: a digest makes a finding one of its kind.
    expect(stored.head.kinds).toHaveLength(stored.head.count);
    expect([...new StoredList(stored)]).toStrictEqual(findings);
  });

  it('reads back megabytes of spooled findings whole, multi-byte characters cut by chunks included', () => {
    const store = new FindingStore(new SpillBudget(100));
    const findings: Finding[] = [];
    for (let line = 1; line <= 6000; line++) {
      // 2- and 4-byte characters, so that some 1 MiB read ends inside one.
      const finding: Finding = { rule: 'schema', severity: line % 3 === 0 ? 'warning' : 'error', message: `é${'€'.repeat(line % 97)}😀 ${line}`, location: { source: 'a.jsonl', line } };
      findings.push(finding);
      store.append(finding);
    }
    const stored = store.seal();
    expect(stored.spooled).toBeGreaterThan(5000);
    expect(stored.head.count).toBeLessThanOrEqual(100);
    expect([...new StoredList(stored)]).toEqual(findings);
    expect(stored.errors).toBe(4000);
  });

  it('gives back every field a finding has, and no other, spooled or held, in a later byte range too', () => {
    const full: Finding = {
      rule: 'unknown-code',
      severity: 'warning',
      message: 'unknown error code "x"',
      location: { source: 'dir/a.jsonl', line: 3, column: 7, pointer: '/error/code' },
      keyword: 'enum',
      schemaPath: '#/x',
      suggestion: 'y',
      tool: 'capture',
      wrapping: 'transcript',
      code: 'x',
      fingerprint: 'f00d',
    };
    const bare: Finding = { rule: 'schema', severity: 'error', message: 'm', location: { source: 's', line: 4 } };
    // Fields absent between present ones, and only the last one present.
    const gaps: Finding = { rule: 'schema', severity: 'error', message: 'm', location: { source: 's', line: 5, pointer: '' }, suggestion: '', fingerprint: 'z' };
    // With a budget of 1, every second finding empties the store: the first four are spooled, the
    // fifth is held, and both paths are read back.
    const findings = [full, bare, gaps, { ...full, location: { ...full.location, line: 6 } }, { ...gaps, location: { ...gaps.location, line: 7 } }];
    const store = new FindingStore(new SpillBudget(1));
    for (const finding of findings) store.append(finding);
    const stored = store.seal();
    expect(stored.spooled).toBe(4);
    expect(stored.head.count).toBe(1);
    expect([...new StoredList(stored)]).toStrictEqual(findings);
    const shifted = findings.map((f) => ({ ...f, location: { ...f.location, line: f.location.line + 100 } }));
    expect([...new StoredList(stored, { lineOffset: 100, wordHint: false })]).toStrictEqual(shifted);
  });

  it('a folder refilled as it is removed at exit (a worker still writing its spool): no stack trace, the rest removed', () => {
    const tmp = tempFiles({});
    // Two runs' folders; a thread writes files into the first without pause while the process exits.
    const script = `
      import { Worker } from 'node:worker_threads';
      import { SpillBudget, RunFolder } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'dist/findings/store.js')).href)};
      const finding = { rule: 'schema', severity: 'error', message: 'm', location: { source: 's', line: 1 } };
      const [busy, quiet] = [new RunFolder(), new RunFolder()];
      new SpillBudget(1, () => busy.path).write([finding]);
      new SpillBudget(1, () => quiet.path).write([finding]);
      const worker = new Worker('import("node:fs").then(({ writeFileSync }) => { try { for (let i = 0; ; i++) writeFileSync(' + JSON.stringify(busy.path) + ' + "/f" + i, "x"); } catch {} });', { eval: true });
      worker.on('online', () => setTimeout(() => process.exit(0), 50));
    `;
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8', timeout: 300_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    // The quiet folder went; the busy one may have gone too, between two of the thread's writes.
    expect(readdirSync(tmp).length).toBeLessThanOrEqual(1);
  });

  it('merges late findings into their place and shifts lines of a later byte range', () => {
    const store = new FindingStore(new SpillBudget(2));
    const at = (line: number, rule: Finding['rule'] = 'schema'): Finding => ({ rule, severity: 'error', message: 'm', location: { source: 's', line } });
    for (const line of [2, 4, 6, 8]) store.append(at(line));
    store.appendLate(at(5, 'unanswered-request'));
    // Out of place order among the late ones: held apart and sorted in.
    store.appendLate(at(1, 'unanswered-request'));
    const list = new StoredList(store.seal(), { lineOffset: 10, wordHint: false });
    expect(Array.from(list, (f) => f.location.line)).toEqual([11, 12, 14, 15, 16, 18]);
    expect(list.length).toBe(6);
    expect(list.errors).toBe(6);
  });

  it('holds late findings as it holds the rest, and spools them past the budget', () => {
    // Was: held as objects whatever the budget (a transcript of 6M unanswered requests ran out of heap).
    const store = new FindingStore(new SpillBudget(10));
    const at = (line: number, rule: Finding['rule']): Finding => ({ rule, severity: 'warning', message: rule, location: { source: 's', line } });
    for (let line = 2; line <= 200; line += 2) store.append(at(line, 'schema'));
    for (let line = 1; line <= 199; line += 2) store.appendLate(at(line, 'unanswered-request'));
    const stored = store.seal();
    expect(stored.late!.spooled).toBeGreaterThan(0);
    expect(stored.late!.head.count).toBeLessThanOrEqual(10);
    expect(stored.unsorted).toEqual([]);
    const list = new StoredList(stored);
    expect(list.length).toBe(200);
    expect(Array.from(list, (f) => `${f.location.line} ${f.rule}`)).toEqual(Array.from({ length: 200 }, (_, k) => `${k + 1} ${k % 2 === 0 ? 'unanswered-request' : 'schema'}`));
  });
});

// Real MCP client and server logs (spec sections 8.7 and 8.8): what --extract takes from each line,
// the server tag that keeps Claude Desktop's servers apart, and the hint to use --extract.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractObject } from '../src/framing/extract.js';
import { serverTag } from '../src/framing/log-shapes.js';
import { NdjsonFramer, hintText } from '../src/framing/ndjson.js';
import type { Framed, ParseHint } from '../src/types.js';
import { binary, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const folder = 'fixtures/field/mcp-logs';
const fixture = (name: string) => `${folder}/${name}`;

interface JsonFinding {
  rule: string;
  line: number;
  tool?: string;
  message: string;
}

const places = (findings: JsonFinding[]) => findings.map((f) => [f.line, f.rule, f.tool ?? null]);

/** The two findings of the envelope whose category is "Timeout", at `line`, for `tool`. */
const timeoutFindings = (line: number, tool: string | null) => [
  [line, 'code-category-mismatch', tool],
  [line, 'schema', tool],
];

describe('extractObject: the record of a log line (spec section 8.7)', () => {
  const value = (line: string) => {
    const extracted = extractObject(line);
    return extracted.kind === 'value' ? extracted.value : extracted.kind;
  };

  it('takes the object followed by text that holds no further candidate', () => {
    expect(value('2026-02-02T15:40:55.239Z [mcec] [info] Message from server: {"jsonrpc":"2.0","id":1,"result":{}} { metadata: undefined }')).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(value('INFO agent result {"ok":true} elapsed=12ms')).toEqual({ ok: true });
    expect(value('{"ok":true} { metadata: undefined }')).toEqual({ ok: true });
    // Was a parse error: only an object that ends the line was found.
    expect(extractObject('x {"ok":true} elapsed=12ms')).toMatchObject({ kind: 'value', prefixed: true, at: 2 });
  });

  it('prefers an object that ends the line, so that a prefix object does not hide it', () => {
    expect(value('ctx={"req":7} {"ok":true}')).toEqual({ ok: true });
    expect(value('ctx={"req":7} result {"ok":false} elapsed=12ms')).toEqual({ ok: false });
    // `{ "k"` is a candidate too: the object before it is not the record, and the one at it ends the line.
    expect(value('a {"x":1} b { "ok": true }')).toEqual({ ok: true });
  });

  it('a complete object followed by another candidate that is no object is a parse error, located from the first candidate', () => {
    // Located as before rule (2): the text from the first candidate is parsed, and fails at "then".
    const extracted = extractObject('x {"req":7} then {"ok": tru}');
    expect(extracted).toMatchObject({ kind: 'unparseable', failure: { offset: 12 } });
  });

  it('finds any object between a prefix and trailing text that hold no candidate, as they stood', () => {
    const noCandidate = fc.string({ maxLength: 30 }).filter((text) => !/\{[ \t]*"/.test(text) && !text.includes('\n'));
    const object = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 });
    fc.assert(
      fc.property(noCandidate, object, noCandidate, (prefix, value, trailing) => {
        const text = `${prefix}${JSON.stringify(value)}${trailing}`;
        expect(extractObject(text)).toEqual({ kind: 'value', value: JSON.parse(JSON.stringify(value)), prefixed: prefix.trim() !== '', at: prefix.length });
      }),
      { numRuns: 1000 },
    );
  });

  it('a line without a candidate is noise, a JavaScript object dump among them', () => {
    for (const line of ['  context: \'connection\',', '} { metadata: undefined }', "    args: [ '--stdio', [length]: 1 ],", 'info: Mcec.Server.Program[0]']) {
      expect(extractObject(line)).toEqual({ kind: 'noise' });
    }
  });
});

describe('serverTag: the server a Claude Desktop line speaks for (spec section 8.8)', () => {
  it('is the first bracketed token before "Message from" that is not a log level', () => {
    expect(serverTag('2025-03-27T10:00:00.000Z [info] [odoo] Message from server: ')).toBe('odoo');
    expect(serverTag('2026-02-02T15:40:55.239Z [skilljack] [info] Message from client: ')).toBe('skilljack');
    expect(serverTag('2026-02-02T15:40:55.239Z [WARNING] [trace] [debug] [error] [warn] [mcec-vm] Message from server: ')).toBe('mcec-vm');
  });

  it('is none for lines of other shapes', () => {
    expect(serverTag('2025-03-23 16:38:00.970 [info] [Server Says] ')).toBeUndefined();
    expect(serverTag('2026-01-06 14:50:03.933 [trace] [server -> editor] ')).toBeUndefined();
    expect(serverTag('2025-03-27T10:00:00.000Z [info] Message from server: ')).toBeUndefined();
    expect(serverTag('Message from server: [mcec] ')).toBeUndefined();
  });
});

describe('--extract on the logs clients write (spec section 8.8)', () => {
  it('Claude Desktop mcp.log: two servers with overlapping ids pair apart, a restart reuses ids, dumps and notices are noise', () => {
    const { report, stderr, status } = runJson(['--extract', fixture('claude-desktop-mcp.log')]);
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(places(report.findings)).toEqual(timeoutFindings(46, 'find'));
    expect(report.summary).toMatchObject({ records: 4, valid: 3, invalid: 1, unparseable: 0, skipped: 42, protocolErrors: 3, outcomes: { ok: 2, failed: 2, unknown: 0 } });
    // mcec's capture (id 3) and mcec-vm's find (id 3) are answered crosswise: each answer goes to its own server's request.
    expect(report.summary.tools).toEqual({ capture: { records: 1, ok: 1, failed: 0, unknown: 0 }, click: { records: 1, ok: 1, failed: 0, unknown: 0 }, find: { records: 2, ok: 0, failed: 2, unknown: 0 } });
  });

  it('without the server tag the same lines pair across servers: the tag is what keeps them apart', () => {
    const text = readFileSync(join(repoRoot, fixture('claude-desktop-mcp.log')), 'utf8').replaceAll('[mcec-vm]', '[mcec]');
    const dir = tempFiles({ 'mcp.log': text });
    const { report } = runJson(['--extract', 'mcp.log'], { cwd: dir });
    expect(report.summary.tools).not.toEqual({ capture: { records: 1, ok: 1, failed: 0, unknown: 0 }, click: { records: 1, ok: 1, failed: 0, unknown: 0 }, find: { records: 2, ok: 0, failed: 2, unknown: 0 } });
    expect(report.summary.tools.capture).toEqual({ records: 1, ok: 0, failed: 1, unknown: 0 });
  });

  it('Claude Desktop mcp-server-<name>.log: every JSON line ends with { metadata: undefined }, stderr and dumps between', () => {
    const { report, stderr, status } = runJson(['--extract', fixture('mcp-server-mcec.log')]);
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(places(report.findings)).toEqual(timeoutFindings(29, 'find'));
    expect(report.summary).toMatchObject({ records: 4, valid: 3, invalid: 1, unparseable: 0, skipped: 37, outcomes: { ok: 2, failed: 2, unknown: 0 } });
    expect(report.summary.tools).toEqual({ capture: { records: 1, ok: 1, failed: 0, unknown: 0 }, click: { records: 1, ok: 1, failed: 0, unknown: 0 }, find: { records: 2, ok: 0, failed: 2, unknown: 0 } });
  });

  it('VS Code 2025: [Client Says] / [Server Says], a tool call answered with a JSON-RPC error', () => {
    const { report, stderr, status } = runJson(['--extract', fixture('vscode-mcp-2025.log')]);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report.summary).toMatchObject({ records: 2, valid: 2, unparseable: 0, skipped: 16, protocolErrors: 1, outcomes: { ok: 1, failed: 1, unknown: 0 } });
    expect(report.summary.tools).toEqual({ capture: { records: 1, ok: 1, failed: 0, unknown: 0 }, find: { records: 1, ok: 0, failed: 1, unknown: 0 } });
  });

  it('VS Code: [editor -> server] / [server -> editor], progress notifications and the server stderr', () => {
    const { report, stderr } = runJson(['--extract', fixture('vscode-mcp.log')]);
    expect(stderr).toBe('');
    // Line 14 is the server's own JSON log line on stderr: no envelope member, so noise under
    // --extract (spec section 8.4), neither a record nor a parse error.
    expect(places(report.findings)).toEqual(timeoutFindings(19, 'find'));
    expect(report.summary).toMatchObject({ unparseable: 0 });
    expect(report.summary.tools).toEqual({ capture: { records: 1, ok: 1, failed: 0, unknown: 0 }, find: { records: 1, ok: 0, failed: 1, unknown: 0 } });
  });

  it("a server's own log: text after the envelope (elapsed=212ms) and an object before it (ctx=) are no obstacle", () => {
    const { report, stderr, status } = runJson(['--extract', fixture('mcec-server.log')]);
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(places(report.findings)).toEqual(timeoutFindings(5, null));
    expect(report.summary).toMatchObject({ records: 4, valid: 3, invalid: 1, unparseable: 0, skipped: 3, outcomes: { ok: 2, failed: 2, unknown: 0 } });
  });

  it("grep 'Message from server' mcp.log | check --extract -: no parse error, the tool results found, servers paired apart", () => {
    const result = spawnSync('sh', ['-c', `grep 'Message from server' ${fixture('claude-desktop-mcp.log')} | "${process.execPath}" "${binary}" check --extract --format json -`], { cwd: repoRoot, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout);
    const grepped = readFileSync(join(repoRoot, fixture('claude-desktop-mcp.log')), 'utf8')
      .split('\n')
      .filter((line) => line.includes('Message from server'));
    expect(report.summary).toMatchObject({ unparseable: 0, protocolErrors: 3, codes: { 'element-not-found': 1, 'wait-condition-timeout': 1 } });
    // The four tool results, judged by their shape (no request is left to name their tool).
    expect(report.summary.sessions).toEqual({ '5f19c9c01a3f': { records: 1, ok: 1, failed: 0, unknown: 0 }, '9e41a7c2d0b8': { records: 1, ok: 1, failed: 0, unknown: 0 }, c03be5a1f7d2: { records: 2, ok: 0, failed: 2, unknown: 0 } });
    // With the requests grepped away, ids reused by a restart or by another server are no duplicates
    // (spec section 8.9): the timeout is the only finding, and the exit status is its alone.
    expect(places(report.findings)).toEqual(timeoutFindings(grepped.length, null));
    expect(result.status).toBe(1);
  });
});

describe('the --extract hint (spec section 8.8)', () => {
  /** Frames `text` without --extract; returns the entries and the hint asked for after the fact. */
  function frame(text: string): { framed: Framed[]; late: ParseHint[] } {
    const framed: Framed[] = [];
    const late: ParseHint[] = [];
    const framer = new NdjsonFramer();
    const sink = { push: (entry: Framed) => framed.push(entry), hintFirstError: (hint: ParseHint) => late.push(hint) };
    framer.push(Buffer.from(text), sink);
    framer.end(sink);
    return { framed, late };
  }
  const hints = (framed: Framed[]) => framed.map((f) => (f.kind === 'unparseable' ? (f.hint ?? null) : f.kind));

  it('on the first parse error when its line has an object after a prefix', () => {
    const { framed, late } = frame('{"ok":true}\nINFO result {"ok":true}\nINFO result {"ok":false}\n{"ok":true}\n');
    expect(hints(framed)).toEqual(['value', 'prefix', null, 'value']);
    expect(late).toEqual([]);
  });

  it('not on a later line when the first parse error has none and most lines are JSON', () => {
    // Was: the first line with an object after a prefix got it, wherever it was.
    const { framed, late } = frame(['{"ok":true}', '{"ok":true', '{"ok":true}', 'INFO result {"ok":true}', '{"ok":true}', '{"ok":true}'].join('\n'));
    expect(hints(framed)).toEqual(['value', null, 'value', null, 'value', 'value']);
    expect(late).toEqual([]);
  });

  it('asked for after the fact when more than half of the first 100 non-blank lines fail in a prefix', () => {
    const log = ['2026-02-02T15:40:54.901Z [mcec] [info] Initializing server...', ...Array.from({ length: 150 }, (_, i) => `2026-02-02T15:40:55.239Z [mcec] [info] Message from server: {"jsonrpc":"2.0","id":${i},"result":{}} { metadata: undefined }`)];
    const { framed, late } = frame(`${log.join('\n')}\n`);
    expect(hints(framed).every((hint) => hint === null)).toBe(true);
    expect(late).toEqual(['prefix']);
  });

  it('not for a file whose lines are JSON gone wrong, though objects follow the fault', () => {
    const { framed, late } = frame(`${Array.from({ length: 10 }, () => '{"ok": tru, "result": {"a": 1}}').join('\n')}\n`);
    expect(hints(framed).every((hint) => hint === null)).toBe(true);
    expect(late).toEqual([]);
  });

  it('not when half of the first 100 lines or fewer fail in a prefix', () => {
    const lines = Array.from({ length: 100 }, (_, i) => (i % 2 === 0 ? 'noise without json' : 'INFO x {"ok":true} elapsed=1ms'));
    const { late } = frame(`${lines.join('\n')}\n${'INFO x {"ok":true}\n'.repeat(60)}`);
    expect(late).toEqual([]);
  });

  it('each client log read without --extract says to use it: on its first parse error, and in the human summary', () => {
    // One run over the five logs: each finding names its source, and the human summary has a hint line per input.
    const names = ['claude-desktop-mcp.log', 'mcp-server-mcec.log', 'vscode-mcp-2025.log', 'vscode-mcp.log', 'mcec-server.log'];
    const out = join(tempFiles({}), 'report.txt');
    const { report } = runJson(['-f', `human=${out}`, ...names.map(fixture)]);
    const human = readFileSync(out, 'utf8');
    for (const name of names) {
      const findings = (report.findings as (JsonFinding & { source: string })[]).filter((f) => f.source === fixture(name));
      const first = findings.find((f) => f.rule === 'parse-error')!;
      expect(first.line, name).toBe(1);
      expect(first.message.endsWith(hintText.prefix), name).toBe(true);
      expect(findings.filter((f) => f.message.includes('--extract')), name).toHaveLength(1);
      expect(human.split('\n'), name).toContain(`hint      ${fixture(name)}: log lines with a prefix before their JSON? check it with --extract, which finds the object in each line`);
    }
  });

  it('the same for any --jobs, when the first parse error lies in a later byte range of a large file', () => {
    const envelope = JSON.stringify({ ok: true, result: { title: 'Untitled - Notepad', padding: 'x'.repeat(200) }, sessionId: 's1' });
    const body = Array.from({ length: 90_000 }, () => envelope);
    const prefixed = body.map((line, i) => (i === 70_000 || i === 80_000 ? `INFO agent result ${line}` : line));
    // An earlier parse error with no object after a prefix: the prefixed lines after it get no hint.
    const earlier = prefixed.map((line, i) => (i === 100 ? '{"ok":true,"result":{"cut":"off' : line));
    const dir = tempFiles({ 'late.jsonl': `${prefixed.join('\n')}\n`, 'earlier.jsonl': `${earlier.join('\n')}\n` });
    const run = (jobs: string, name: string) => runCli(['check', '--jobs', jobs, '-f', 'json', name], { cwd: dir });
    const late = run('1', 'late.jsonl');
    expect(late.stdout.match(/--extract finds the object/g)).toHaveLength(1);
    expect(JSON.parse(late.stdout).findings[0]).toMatchObject({ line: 70_001, message: `unexpected "INFO"${hintText.prefix}` });
    expect(run('2', 'late.jsonl').stdout === late.stdout).toBe(true);
    const earlierOne = run('1', 'earlier.jsonl');
    expect(earlierOne.stdout).not.toContain('--extract');
    expect(JSON.parse(earlierOne.stdout).summary.unparseable).toBe(3);
    expect(run('2', 'earlier.jsonl').stdout === earlierOne.stdout).toBe(true);
  });

  it('no hint line in the summary of an input of JSON lines, nor under --extract', () => {
    const dir = tempFiles({ 'bad.jsonl': '{"ok":true\n{"ok":true}\n' });
    expect(runCli(['check', 'bad.jsonl'], { cwd: dir }).stdout).not.toContain('--extract');
    expect(runCli(['check', '--extract', fixture('mcp-server-mcec.log')]).stdout).not.toContain('hint');
  });
});

describe('docs/logs.md', () => {
  const page = readFileSync(join(repoRoot, 'docs/logs.md'), 'utf8');
  /** Each ```sh block's command, and the ```text block after it, when there is one: an excerpt of its output. */
  const recipes = [...page.matchAll(/```sh\n([\s\S]*?)```(?:\s*```text\n([\s\S]*?)```)?/g)].map((m) => ({ command: m[1]!.trim(), shown: m[2] }));

  it('has the recipes', () => {
    expect(recipes.map((r) => r.command)).toContain("grep 'Message from server' mcp.log | mcec-result check --extract -");
    expect(recipes.length).toBeGreaterThanOrEqual(5);
  });

  it('each recipe runs as written on the logs it names, and prints what the page shows', () => {
    const dir = tempFiles({});
    for (const [from, to] of [
      ['claude-desktop-mcp.log', 'mcp.log'],
      ['mcp-server-mcec.log', 'mcp-server-mcec.log'],
      ['vscode-mcp.log', 'vscode-mcp.log'],
      ['mcec-server.log', 'server.log'],
    ]) {
      copyFileSync(join(repoRoot, fixture(from!)), join(dir, to!));
    }
    writeFileSync(join(dir, '.keep'), '');
    for (const { command, shown } of recipes) {
      // `mcec-result` is the installed package; here it is this checkout's built binary.
      const run = spawnSync('sh', ['-c', command.replaceAll('mcec-result', `"${process.execPath}" "${binary}"`)], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined } });
      expect(run.stderr, command).toBe('');
      // Every log holds one schema error: exit 1, a report, no usage error.
      expect(run.status, command).toBe(1);
      if (shown !== undefined) {
        const printed = run.stdout.split('\n');
        for (const line of shown.split('\n').filter((l) => l.trim() !== '')) expect(printed, command).toContain(line);
      }
    }
    expect(readFileSync(join(dir, 'mcec.xml'), 'utf8')).toContain('<testsuite name="server.log" tests="1" failures="1"');
  });
});

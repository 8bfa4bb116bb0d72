// Agent recovery (spec section 9): calls, failures, sessions, the next call and the same call; the
// rules unchanged-retry and repeated-failure; summary.recovery. Synthetic transcripts in MCEC's
// shape (fixtures/field/mcec-transcripts) and in plain JSON-RPC (fixtures/jsonrpc), each line
// written as text so that numbers keep the spelling under test.
import { spawn } from 'node:child_process';
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { factsOf } from '../src/checks/envelope.js';
import { check, formatReport } from '../src/index.js';
import { RecoveryTracker } from '../src/recovery/tracker.js';
import { createCheckContext } from '../src/run.js';
import { Tally } from '../src/tally.js';
import type { Report, RecoveryRow } from '../src/types.js';
import { binary, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const sid = 'a1b2c3d4e5f6';
const ts = '2026-07-01T10:15:02.1234567+02:00';
const text = (value: unknown) => JSON.stringify(value);

/** MCEC's request line (`Invoke-McecTool`): `argsText` is the arguments' JSON as written. */
const call = (tool: string, argsText = '{}', session = sid) =>
  `{"ts":"${ts}","sessionId":${text(session)},"direction":"request","method":"tools/call","payload":{"name":${text(tool)},"arguments":${argsText}}}`;
/** A request line without `arguments`. */
const bareCall = (tool: string, session = sid) => `{"ts":"${ts}","sessionId":${text(session)},"direction":"request","method":"tools/call","payload":{"name":${text(tool)}}}`;

const envelope = (category?: string, code?: string) => (category === undefined ? { ok: true, result: {}, sessionId: sid } : { ok: false, error: { code, category, detail: 'x' }, sessionId: sid });
let nextId = 1;
/** MCEC's response line: the whole JSON-RPC response as payload. */
const answer = (category?: string, code?: string, session = sid) =>
  text({ ts, sessionId: session, direction: 'response', method: 'tools/call', payload: { jsonrpc: '2.0', id: nextId++, result: { content: [{ type: 'text', text: text(envelope(category, code)) }], isError: category !== undefined } } });
const ok = (session = sid) => answer(undefined, undefined, session);
const invalid = (session = sid) => answer('invalid-argument', 'bad-arguments', session);
const noTarget = (session = sid) => answer('no-target', 'window-not-found', session);
const marker = text({ truncated: 'tool-call log size cap reached' });

/** Plain JSON-RPC (fixtures/jsonrpc): a tools/call request and its answers. */
const rpcCall = (id: number, tool: string, argsText = '{}') => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${text(tool)},"arguments":${argsText}}}`;
const rpcResult = (id: number, category?: string, code?: string) => text({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: text(envelope(category, code)) }], isError: category !== undefined } });
const rpcError = (id: number) => text({ jsonrpc: '2.0', id, error: { code: -32603, message: 'internal error' } });

const recoveryRules = new Set(['unchanged-retry', 'repeated-failure']);

async function run(lines: string[], name = 't.jsonl'): Promise<{ found: [string, number][]; recovery: Record<string, RecoveryRow> | undefined; report: Report }> {
  const dir = tempFiles({ [name]: `${lines.join('\n')}\n` });
  const report = await check([join(dir, name)], { jobs: 1 });
  const found = [...report.findings].filter((f) => recoveryRules.has(f.rule)).map((f): [string, number] => [f.rule, f.location.line]);
  return { found, recovery: report.summary.recovery, report };
}

const row = (counts: Partial<RecoveryRow>): RecoveryRow => ({ failures: 0, sameCall: 0, changedArguments: 0, otherTool: 0, end: 0, cutOff: 0, next: {}, ...counts });

describe('the same call', () => {
  it.each([
    ['1', '1.0', true],
    ['1', '10e-1', true],
    ['-0', '0', true],
    ['9007199254740993', '9007199254740992', false],
    ['{"a":1,"b":2}', '{"b":2,"a":1}', true],
    ['{"a":1,"a":2}', '{"a":2}', true],
    ['"\\u0041"', '"A"', true],
    ['[1,2]', '[2,1]', false],
    ['"1"', '1', false],
  ])('x = %s, then x = %s: same call %s', async (first, second, same) => {
    const { found, recovery } = await run([call('invoke', `{"x":${first}}`), invalid(), call('invoke', `{"x":${second}}`), ok()]);
    expect(found).toEqual(same ? [['unchanged-retry', 3]] : []);
    expect(recovery).toEqual({ 'invalid-argument': row({ failures: 1, ...(same ? { sameCall: 1 } : { changedArguments: 1 }), next: { invoke: 1 } }) });
  });

  it.each([
    ['9007199254740993', true],
    ['9007199254740992', false],
    ['9.007199254740993e15', true],
  ])('x = 9007199254740993, 80 lines of another session, then x = %s: same call %s', async (second, same) => {
    // The first call has left the last 32 before it is compared: its key is made from its line,
    // whose number JSON.parse rounded, when it leaves them (tracker.ts's settleExact and letGo).
    const other = 'f6e5d4c3b2a1';
    const filler = Array.from({ length: 40 }, () => [call('find', '{"n":1}', other), ok(other)]).flat();
    const { found } = await run([call('invoke', '{"x":9007199254740993}'), invalid(), ...filler, call('invoke', `{"x":${second}}`), ok()]);
    expect(found).toEqual(same ? [['unchanged-retry', 3 + filler.length]] : []);
  });

  it('reads absent or null arguments as {}', async () => {
    // Two codes, so no streak: each retry is a first retry.
    const lines = [bareCall('capture'), invalid(), call('capture', 'null'), answer('invalid-argument', 'region-too-large'), call('capture', '{}'), ok()];
    expect((await run(lines)).found).toEqual([
      ['unchanged-retry', 3],
      ['unchanged-retry', 5],
    ]);
  });

  it('needs the same tool: another tool with equal arguments is otherTool', async () => {
    const { found, recovery } = await run([call('invoke', '{"a":1}'), invalid(), call('click', '{"a":1}'), ok()]);
    expect(found).toEqual([]);
    expect(recovery).toEqual({ 'invalid-argument': row({ failures: 1, otherTool: 1, next: { click: 1 } }) });
  });
});

describe('sessions and the next call', () => {
  it("routes calls by arguments.sessionId: each runtime session's next call is its own", async () => {
    // One transcript sessionId, two runtime sessions: s1 fails, s2 calls something else, s1 retries.
    const lines = [call('invoke', '{"sessionId":"s1","a":1}'), invalid(), call('find', '{"sessionId":"s2"}'), ok(), call('invoke', '{"sessionId":"s1","a":1}'), ok()];
    const { found, recovery } = await run(lines);
    expect(found).toEqual([['unchanged-retry', 5]]);
    expect(recovery).toEqual({ 'invalid-argument': row({ failures: 1, sameCall: 1, next: { invoke: 1 } }) });
  });

  it('takes the next call across lines of other transcript sessions', async () => {
    const other = 'ffff00001111';
    const lines = [call('invoke', '{"a":1}'), invalid(), call('capture', '{}', other), ok(other), call('invoke', '{"a":1}'), ok()];
    expect((await run(lines)).found).toEqual([['unchanged-retry', 5]]);
  });

  it('judges calls of different arguments.sessionId apart even when they are the same call otherwise', async () => {
    const lines = [call('invoke', '{"sessionId":"s1"}'), invalid(), call('invoke', '{"sessionId":"s2"}'), invalid(), call('capture', '{"sessionId":"s1"}'), ok()];
    const { found, recovery } = await run(lines);
    expect(found).toEqual([]);
    // s1's failure is followed by capture; s2's by nothing.
    expect(recovery).toEqual({ 'invalid-argument': row({ failures: 2, otherTool: 1, end: 1, next: { capture: 1 } }) });
  });

  it('pairs JSON-RPC answers out of order by id: the next call is the first call after the failure\'s line', async () => {
    // invoke (id 2) fails on line 3, before find (id 1) is answered; line 5 is the next call.
    const lines = [rpcCall(1, 'find', '{"name":"OK"}'), rpcCall(2, 'invoke', '{"a":1}'), rpcResult(2, 'invalid-argument', 'bad-arguments'), rpcResult(1), rpcCall(3, 'invoke', '{"a":1.0}'), rpcResult(3)];
    const { found, recovery } = await run(lines);
    expect(found).toEqual([['unchanged-retry', 5]]);
    expect(recovery).toEqual({ 'invalid-argument': row({ failures: 1, sameCall: 1, next: { invoke: 1 } }) });
  });

  it('knows a call whatever number of calls are open before it is answered', async () => {
    // Forty identical calls sent before any answer: every one is held, its digest made when needed.
    const lines: string[] = [];
    for (let id = 1; id <= 40; id++) lines.push(rpcCall(id, 'invoke', '{"a":[1,{"b":"x"}]}'));
    for (let id = 1; id <= 40; id++) lines.push(rpcResult(id, 'invalid-argument', 'bad-arguments'));
    const { found, recovery, report } = await run(lines);
    expect(found).toEqual([['repeated-failure', 3]]);
    expect([...report.findings].find((f) => f.rule === 'repeated-failure')!.message).toContain('40 times in a row');
    expect(recovery).toEqual({ 'invalid-argument': row({ failures: 40, end: 40 }) });
  });

  it('gives one call at most one finding per rule when it follows several failures', async () => {
    // Pipelined JSON-RPC: two identical calls both fail before the third is sent.
    const lines = [rpcCall(1, 'invoke', '{"a":1}'), rpcCall(2, 'invoke', '{"a":1}'), rpcResult(1, 'invalid-argument', 'bad-arguments'), rpcResult(2, 'invalid-argument', 'bad-arguments'), rpcCall(3, 'invoke', '{"a":1}'), rpcResult(3)];
    const { found, recovery, report } = await run(lines);
    expect(found).toEqual([['unchanged-retry', 5]]);
    expect(recovery).toEqual({ 'invalid-argument': row({ failures: 2, sameCall: 2, next: { invoke: 2 } }) });
    expect([...report.findings].find((f) => f.rule === 'unchanged-retry')).toMatchObject({ tool: 'invoke', wrapping: 'jsonrpc' });
  });
});

describe('unchanged-retry and repeated-failure', () => {
  it('a streak of five no-target failures: one repeated-failure on the third call, no unchanged-retry', async () => {
    const lines = [call('capture'), ok()];
    for (let k = 0; k < 5; k++) lines.push(call('find', '{"name":"Save As"}'), noTarget());
    lines.push(call('windows'), ok());
    const { found, recovery, report } = await run(lines);
    expect(found).toEqual([['repeated-failure', 7]]);
    expect(recovery).toEqual({ 'no-target': row({ failures: 5, sameCall: 4, otherTool: 1, next: { find: 4, windows: 1 } }) });
    const finding = [...report.findings].find((f) => f.rule === 'repeated-failure')!;
    expect(finding).toMatchObject({ severity: 'warning', tool: 'find', wrapping: 'transcript' });
    expect(finding.location.pointer).toBeUndefined();
    expect(finding.location.column).toBeUndefined();
    expect(finding.message).toContain('5 times');
    expect(finding.message).toContain('lines 3 to 12');
    expect(finding.message).not.toContain('Save As');
  });

  it('a streak of five invalid-argument failures: unchanged-retry on the first retry only', async () => {
    const lines: string[] = [];
    for (let k = 0; k < 5; k++) lines.push(call('invoke', '{"action":"press"}'), invalid());
    const { found, recovery } = await run(lines);
    expect(found).toEqual([
      ['unchanged-retry', 3],
      ['repeated-failure', 5],
    ]);
    expect(recovery).toEqual({ 'invalid-argument': row({ failures: 5, sameCall: 4, end: 1, next: { invoke: 4 } }) });
  });

  it('names the failure line, category and advice in its message, never the arguments', async () => {
    const { report } = await run([call('invoke', '{"secret":"hunter2"}'), invalid(), call('invoke', '{"secret":"hunter2"}'), ok()]);
    const finding = [...report.findings].find((f) => f.rule === 'unchanged-retry')!;
    expect(finding.message).toContain('line 2');
    expect(finding.message).toContain('"invalid-argument"');
    expect(finding.message).toContain('"bad-arguments"');
    expect(finding.message).not.toContain('hunter2');
    expect(report.summary.invalid).toBe(0);
  });

  it('two failures of different codes make no streak', async () => {
    const lines = [call('find', '{"a":1}'), noTarget(), call('find', '{"a":1}'), answer('no-target', 'element-not-found'), call('find', '{"a":1}'), noTarget()];
    expect((await run(lines)).found).toEqual([]);
  });

  it('a streak ends at any other call of its session, at a success and at the truncation marker', async () => {
    const twice = [call('find', '{"a":1}'), noTarget(), call('find', '{"a":1}'), noTarget()];
    expect((await run([...twice, call('capture'), ok(), call('find', '{"a":1}'), noTarget()])).found).toEqual([]);
    expect((await run([...twice, call('find', '{"a":1}'), ok(), call('find', '{"a":1}'), noTarget()])).found).toEqual([]);
    expect((await run([...twice, marker, call('find', '{"a":1}'), noTarget()])).found).toEqual([]);
  });

  it('exempts an internal failure whose code is among its retryCodes', async () => {
    const consent = [call('send_command', '{"command":"x"}'), answer('internal', 'consent-pending'), call('send_command', '{"command":"x"}'), ok()];
    expect((await run(consent)).found).toEqual([]);
    const crash = [call('send_command', '{"command":"x"}'), answer('internal', 'unhandled-exception'), call('send_command', '{"command":"x"}'), ok()];
    expect((await run(crash)).found).toEqual([['unchanged-retry', 3]]);
  });

  it('does not report categories the advice lets retry unchanged (timeout, no-target)', async () => {
    const lines = [call('wait', '{"for":"x"}'), answer('timeout', 'wait-condition-timeout'), call('wait', '{"for":"x"}'), ok()];
    const { found, recovery } = await run(lines);
    expect(found).toEqual([]);
    expect(recovery).toEqual({ timeout: row({ failures: 1, sameCall: 1, next: { wait: 1 } }) });
  });
});

describe('what is a failure', () => {
  it('a JSON-RPC error answers its call but is no failure', async () => {
    const { found, recovery } = await run([rpcCall(1, 'invoke', '{"a":1}'), rpcError(1), rpcCall(2, 'invoke', '{"a":1}'), rpcResult(2)]);
    expect(found).toEqual([]);
    expect(recovery).toBeUndefined();
  });

  it('responses paired by shape alone are no failures', async () => {
    // No request in the input: each result is judged by its shape (spec section 8.9).
    const { found, recovery, report } = await run([rpcResult(1, 'invalid-argument', 'bad-arguments'), rpcResult(2, 'invalid-argument', 'bad-arguments'), rpcResult(3, 'invalid-argument', 'bad-arguments')]);
    expect(report.summary.outcomes.failed).toBe(3);
    expect(found).toEqual([]);
    expect(recovery).toBeUndefined();
  });

  it('a second response is no failure', async () => {
    const lines = [rpcCall(1, 'invoke', '{"a":1}'), rpcResult(1), rpcResult(1, 'invalid-argument', 'bad-arguments'), rpcCall(2, 'invoke', '{"a":1}'), rpcResult(2)];
    const { found, recovery } = await run(lines);
    expect(found).toEqual([]);
    expect(recovery).toBeUndefined();
  });

  it('bare envelopes have no calls and add nothing', async () => {
    const { recovery } = await run([text(envelope('invalid-argument', 'bad-arguments')), text(envelope('invalid-argument', 'bad-arguments'))]);
    expect(recovery).toBeUndefined();
  });
});

describe('the recovery table', () => {
  it('counts end and cutOff by whether a truncation marker follows the last failure', async () => {
    expect((await run([call('find', '{"a":1}'), noTarget()])).recovery).toEqual({ 'no-target': row({ failures: 1, end: 1 }) });
    expect((await run([call('find', '{"a":1}'), noTarget(), call('capture'), marker])).recovery).toEqual({ 'no-target': row({ failures: 1, otherTool: 1, next: { capture: 1 } }) });
    expect((await run([call('find', '{"a":1}'), noTarget(), marker])).recovery).toEqual({ 'no-target': row({ failures: 1, cutOff: 1 }) });
  });

  it('lists rows in the enum order, then other categories by code point', async () => {
    const lines = [call('a'), answer('zeta', 'x-y'), call('b'), answer('internal', 'internal-error'), call('c'), answer('alpha', 'x-y'), call('d'), answer('timeout', 'wait-condition-timeout')];
    expect(Object.keys((await run(lines)).recovery!)).toEqual(['timeout', 'internal', 'alpha', 'zeta']);
  });

  it('prints as human and Markdown tables with the top three next tools, ties by code point', async () => {
    const lines: string[] = [];
    for (const tool of ['query', 'find', 'windows', 'capture', 'find', 'query']) lines.push(call('x', `{"n":${lines.length}}`), noTarget(), call(tool), ok());
    const { report } = await run(lines);
    expect(report.summary.recovery!['no-target']!.next).toEqual({ find: 2, query: 2, capture: 1, windows: 1 });
    const human = formatReport('human', report, { color: false });
    expect(human).toContain(['recovery', '             failures  same call  changed args  other tool  end  cut off  next', '  no-target         6          0             0           6    0        0  find 2, query 2, capture 1'].join('\n'));
    const markdown = formatReport('markdown', report);
    expect(markdown).toContain(['### Recovery after failures', '', '| category | failures | same call | changed arguments | other tool | end | cut off | next tools |', '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |', '| no-target | 6 | 0 | 0 | 6 | 0 | 0 | find 2, query 2, capture 1 |'].join('\n'));
  });
});

describe('recovery across runs (CLI)', () => {
  const transcript = (lines: string[]) => `${lines.join('\n')}\n`;
  const loop = (tool: string) => {
    const lines = [call('capture'), ok()];
    for (let k = 0; k < 4; k++) lines.push(call(tool, '{"name":"Save As"}'), noTarget());
    lines.push(call('invoke', '{"a":1}'), invalid(), call('invoke', '{"a":1}'), ok());
    return transcript(lines);
  };

  it('gives the same report with --jobs 2 as with --jobs 1, and in the ndjson summary line', () => {
    const files: Record<string, string> = {};
    for (let k = 0; k < 6; k++) files[`run-${k}/tool-calls.jsonl`] = loop(`find${k % 3}`);
    const dir = tempFiles(files);
    // The run on two threads writes the ndjson report too, outside the folder it checks.
    const ndjsonFile = join(tempFiles({}), 'report.ndjson');
    const one = runCli(['check', '--format', 'json', '--jobs', '1', '.'], { cwd: dir });
    const two = runCli(['check', '--format', 'json', '--format', `ndjson=${ndjsonFile}`, '--jobs', '2', '.'], { cwd: dir });
    expect(one.status).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const report = JSON.parse(one.stdout);
    expect(report.summary.recovery).toEqual({
      'no-target': row({ failures: 24, sameCall: 18, otherTool: 6, next: { find0: 6, find1: 6, find2: 6, invoke: 6 } }),
      'invalid-argument': row({ failures: 6, sameCall: 6, next: { invoke: 6 } }),
    });
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/report-v1.schema.json'), 'utf8'));
    const validate = new Ajv2020({ allErrors: true }).compile(schema);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    const ndjson = readFileSync(ndjsonFile, 'utf8').trim().split('\n');
    const summary = JSON.parse(ndjson.at(-1)!);
    expect(summary.type).toBe('summary');
    expect(summary.recovery).toEqual(report.summary.recovery);
  });

  it('merge sums every count and next tool; a report without the field adds nothing', () => {
    const dir = tempFiles({ 'a.jsonl': loop('find'), 'b.jsonl': loop('query'), 'c.jsonl': `${text(envelope())}\n` });
    for (const name of ['a', 'b', 'c']) runCli(['check', '--format', `json=${name}.json`, `${name}.jsonl`], { cwd: dir });
    // As a report written before summary.recovery existed.
    const c = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8'));
    expect(c.summary.recovery).toBeUndefined();
    const merged = runCli(['merge', '--format', 'json', 'a.json', 'b.json', 'c.json'], { cwd: dir });
    expect(merged.stderr).toBe('');
    expect(JSON.parse(merged.stdout).summary.recovery).toEqual({
      'no-target': row({ failures: 8, sameCall: 6, otherTool: 2, next: { invoke: 2, find: 3, query: 3 } }),
      'invalid-argument': row({ failures: 2, sameCall: 2, next: { invoke: 2 } }),
    });
    const together = runJson(['a.jsonl', 'b.jsonl', 'c.jsonl'], { cwd: dir });
    expect(JSON.parse(merged.stdout).summary.recovery).toEqual(together.report.summary.recovery);
  });

  it('a baseline matches recovery findings after a line shift, not once the arguments change', () => {
    const dir = tempFiles({ 't.jsonl': loop('find') });
    expect(runCli(['check', '--write-baseline', 'baseline.json', 't.jsonl'], { cwd: dir }).status).toBe(0);
    const entries = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')).findings as { rule: string; code?: string }[];
    expect(entries.map((e) => [e.rule, e.code])).toEqual([
      ['repeated-failure', 'window-not-found'],
      ['unchanged-retry', 'bad-arguments'],
    ]);
    // Two lines more at the start: every finding moves, and is still known.
    writeFileSync(join(dir, 't.jsonl'), transcript([call('windows'), ok()]) + loop('find'));
    const shifted = runJson(['--baseline', 'baseline.json', 't.jsonl'], { cwd: dir });
    expect(shifted.report.findings).toEqual([]);
    expect(shifted.report.summary.baseline).toEqual({ suppressed: 2, stale: 0 });
    // Other arguments: another call, so new findings.
    writeFileSync(join(dir, 't.jsonl'), loop('find').replaceAll('Save As', 'Open'));
    const changed = runJson(['--baseline', 'baseline.json', 't.jsonl'], { cwd: dir });
    expect(changed.report.findings.map((f: { rule: string }) => f.rule)).toEqual(['repeated-failure']);
  });

  it('a baseline knows a streak by one digest, however its calls were answered and however many calls were open', () => {
    const failing = (id: number) => rpcCall(id, 'invoke', '{"b":[1.0,"x"],"a":1}');
    const fail = (id: number) => rpcResult(id, 'no-target', 'window-not-found');
    // Calls of another runtime session, never answered: they keep the streak's calls from being the last few read.
    const others = Array.from({ length: 40 }, (_, k) => rpcCall(100 + k, 'find', `{"sessionId":"other","n":${k}}`));
    const variants: Record<string, string[]> = {
      'in-order.jsonl': [failing(1), fail(1), failing(2), fail(2), failing(3), fail(3)],
      'pipelined.jsonl': [failing(1), failing(2), failing(3), fail(1), fail(2), fail(3)],
      'answered-late.jsonl': [failing(1), failing(2), failing(3), ...others, fail(1), fail(2), fail(3)],
      'first-long-ago.jsonl': [failing(1), fail(1), ...others, failing(2), fail(2), failing(3), fail(3)],
      'reordered-members.jsonl': [failing(1), fail(1), rpcCall(2, 'invoke', '{"a":1,"b":[1,"x"]}'), fail(2), failing(3), fail(3)],
    };
    const dir = tempFiles(Object.fromEntries(Object.entries(variants).map(([name, lines]) => [name, `${lines.join('\n')}\n`])));
    // One baseline of all five: each entry names its source.
    expect(runCli(['check', '--write-baseline', 'baseline.json', ...Object.keys(variants)], { cwd: dir }).status).toBe(0);
    const entries = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')).findings as { rule: string; source: string; fingerprint: string }[];
    const digests = Object.keys(variants).map((name) => {
      const streaks = entries.filter((e) => e.source === name && e.rule === 'repeated-failure');
      expect(streaks, name).toHaveLength(1);
      return streaks[0]!.fingerprint;
    });
    expect(digests[0]).toMatch(/^[A-Za-z0-9+/]{22}$/);
    expect(new Set(digests).size).toBe(1);
  });

  it('streamed output prints repeated-failure when its streak ends; a written report sorts it by line', () => {
    const lines = [call('find', '{"a":1}'), noTarget(), call('find', '{"a":1}'), noTarget(), call('find', '{"a":1}'), noTarget(), '{"ok":tru', call('capture'), ok()];
    const input = transcript(lines);
    const listed = (stdout: string) => stdout.split('\n').filter((line) => / {2}(parse-error|repeated-failure)$/.test(line)).map((line) => line.split(' ')[0]);
    // Standard input is a pipe: it streams (spec section 8.10), and the streak ends on line 8.
    expect(listed(runCli(['check', '-'], { input }).stdout)).toEqual(['-:7:7', '-:5']);
    const dir = tempFiles({ 't.jsonl': input });
    expect(listed(runCli(['check', 't.jsonl'], { cwd: dir }).stdout)).toEqual(['t.jsonl:5', 't.jsonl:7:7']);
  });

  it('--rule makes them errors that count in errors and the exit status, and no record invalid', () => {
    const dir = tempFiles({ 't.jsonl': loop('find') });
    const result = runJson(['--rule', 'unchanged-retry=error', 't.jsonl'], { cwd: dir });
    expect(result.status).toBe(1);
    expect(result.report.summary).toMatchObject({ errors: 1, warnings: 1, invalid: 0 });
  });
});

describe('--follow (spec section 8.10)', () => {
  it('a rotated file starts afresh: no call of the old file is the new one\'s previous call', async () => {
    const pair = [call('invoke', '{"a":1}'), invalid()];
    const dir = tempFiles({ 'tool-calls.jsonl': transcriptOf([...pair, ...pair]) });
    const log = join(dir, 'tool-calls.jsonl');
    const env = { ...process.env, NO_COLOR: '1' } as NodeJS.ProcessEnv;
    delete env.FORCE_COLOR;
    const child = spawn(process.execPath, [binary, 'check', '--follow', '--from-start', '-f', 'ndjson', 'tool-calls.jsonl'], { cwd: dir, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let wake = () => {};
    child.stdout.setEncoding('utf8').on('data', (text: string) => ((stdout += text), wake()));
    child.stderr.setEncoding('utf8').on('data', (text: string) => ((stderr += text), wake()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const until = async (test: () => boolean) => {
      while (!test()) await new Promise<void>((resolve) => (wake = resolve));
    };
    const found = () => stdout.split('\n').filter((line) => line.includes('"type":"finding"')).map((line) => JSON.parse(line) as { rule: string; line: number });
    await until(() => found().some((f) => f.rule === 'unchanged-retry'));
    // Rotated: the new file repeats the call twice more; four in a row would be a streak, but the new file starts afresh.
    renameSync(log, join(dir, 'tool-calls.jsonl.1'));
    writeFileSync(log, transcriptOf(pair));
    await until(() => stderr.includes('replaced (rotated)'));
    appendFileSync(log, transcriptOf(pair));
    await until(() => found().length === 2);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(found().map((f) => [f.rule, f.line])).toEqual([
      ['unchanged-retry', 3],
      ['unchanged-retry', 3],
    ]);
    const summary = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(summary.recovery).toEqual({ 'invalid-argument': row({ failures: 4, sameCall: 2, end: 2, next: { invoke: 2 } }) });
  });
});

describe('memory (spec section 9)', () => {
  it("lets a streak's first call's arguments go when its streak ends and no failure waits on it", () => {
    // Held on, they would be keyed for nothing once 32 newer calls came (tracker.ts's letGo): a
    // call's `parsed` is its arguments while it holds them, else a symbol.
    const context = createCheckContext();
    const tracker = new RecoveryTracker(context, new Tally(context.schema.categories, context.registry), { current() {}, ended() {} }, false);
    const request = (line: number) => tracker.request({ pairing: sid, tool: 'find', holder: { arguments: { value: 'Save' } }, text: undefined, textAt: 0, exact: true, path: [], line, wrapping: 'transcript' });
    const answered = (call: object, line: number, value: unknown) => (tracker.answered(call), tracker.entryDone(factsOf(value, true), line));
    const holds = (call: object) => typeof (call as { parsed: unknown }).parsed !== 'symbol';
    const first = request(1);
    answered(first, 2, envelope('no-target', 'window-not-found'));
    expect(holds(first)).toBe(true);
    // The same call: the streak goes on, and its first call is held to compare the next one with.
    const second = request(3);
    expect(holds(first)).toBe(true);
    // A success ends the streak: neither call is compared again.
    answered(second, 4, envelope());
    expect([holds(first), holds(second)]).toEqual([false, false]);
    // A failure whose next call has not come is still held, streak or not.
    const third = request(5);
    answered(third, 6, envelope('no-target', 'window-not-found'));
    tracker.truncated();
    expect(holds(third)).toBe(true);
  });
});

function transcriptOf(lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

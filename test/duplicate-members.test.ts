// Rule duplicate-member (spec section 5) on the reference path: the scan of the envelope's text, its
// exact pre-check, and the findings a real run gives in every place an envelope's text can be.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DuplicateMemberCheck, duplicateMembers, mayHoldDuplicates } from '../src/checks/duplicate-members.js';
import { createCheckContext } from '../src/run.js';
import { runJson, tempFiles } from './helpers/cli.js';

const found = (text: string) => duplicateMembers(text, 0).map(({ pointer, name, count, offset }) => [pointer, name, count, offset]);

describe('duplicateMembers: the names the envelope, its error and its warnings hold twice', () => {
  it('finds each at the object holding it, the second occurrence placed', () => {
    const text = '{"ok":true,"result":{},"ok":false}';
    expect(found(text)).toEqual([['', 'ok', 2, text.lastIndexOf('"ok"')]]);
    const error = '{"ok":false,"error":{"code":"a","category":"b","code":"c","code":"d"}}';
    expect(found(error)).toEqual([['/error', 'code', 3, error.indexOf('"code":"c"')]]);
    const warnings = '{"ok":true,"result":{},"warnings":[{"code":"a"},{"code":"a","detail":"x","detail":"y"}]}';
    expect(found(warnings)).toEqual([['/warnings/1', 'detail', 2, warnings.lastIndexOf('"detail"')]]);
  });

  it('reads names as JSON.parse does: an escaped spelling is the same name', () => {
    expect(found('{"o\\u006b":true,"result":{},"ok":true}').map((d) => d.slice(0, 3))).toEqual([['', 'ok', 2]]);
    expect(found('{"a\\/b":1,"a/b":2,"ok":true}').map((d) => d.slice(0, 3))).toEqual([['', 'a/b', 2]]);
    expect(found('{"ok":true,"Ok":true,"o k":1}')).toEqual([]);
  });

  it('looks nowhere else: not inside result, partialResult, lastObservation, nor a discarded error', () => {
    expect(found('{"ok":true,"result":{"a":1,"a":2,"ok":[{"x":1,"x":2}]}}')).toEqual([]);
    expect(found('{"ok":false,"error":{"code":"a","category":"b","partialResult":{"n":1,"n":2},"lastObservation":{"t":1,"t":2}}}')).toEqual([]);
    // Only the error JSON.parse keeps is looked into; the root says `error` twice.
    expect(found('{"ok":false,"error":{"code":"a","code":"b"},"error":{"code":"c"}}').map((d) => d.slice(0, 3))).toEqual([['', 'error', 2]]);
    expect(found('[{"a":1,"a":2}]')).toEqual([]);
    expect(found('  {"ok" : true , "ok" : true}')).toEqual([['', 'ok', 2, 17]]);
  });
});

/** A name from a small set, so that objects often hold one twice, written plainly or with escapes. */
const nameArb = fc.constantFrom('ok', 'result', 'error', 'warnings', 'code', 'detail', 'a/b', 'k"', 'é');
const spell = (name: string, escape: boolean) => (escape ? `"${[...name].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"` : JSON.stringify(name));

type Members = { name: string; escape: boolean; value: string }[];
const scalar = fc.constantFrom('1', 'true', 'null', '"ok"', '"\\"ok\\":"', '{"ok":1,"ok":2}', '[{"code":1,"code":2}]');
const membersArb = (value: fc.Arbitrary<string>) => fc.array(fc.record({ name: nameArb, escape: fc.boolean(), value }), { maxLength: 6 });
const objectText = (members: Members) => `{${members.map((m) => `${spell(m.name, m.escape)}:${m.value}`).join(',')}}`;

/** What the rule must find, worked out from the members as generated. */
function expected(root: Members, inner: { error: Members; warnings: Members[] }): string[] {
  const twice = (members: Members, pointer: string) => [...new Set(members.map((m) => m.name))].filter((name) => members.filter((m) => m.name === name).length > 1).map((name) => `${pointer}:${name}`);
  const out = twice(root, '');
  const last = (name: string) => root.filter((m) => m.name === name).at(-1);
  if (last('error')?.value.startsWith('{')) out.push(...twice(inner.error, '/error'));
  if (last('warnings')?.value.startsWith('[')) inner.warnings.forEach((warning, i) => out.push(...twice(warning, `/warnings/${i}`)));
  return out.sort();
}

describe('the pre-check is exact', () => {
  it('never rules out a text the scan finds a duplicate in, and the scan finds what the text holds', () => {
    const arb = fc.record({ root: membersArb(scalar), error: membersArb(scalar), warnings: fc.array(membersArb(scalar), { maxLength: 3 }) });
    fc.assert(
      fc.property(arb, ({ root, error, warnings }) => {
        const errorText = objectText(error);
        const warningsText = `[${warnings.map(objectText).join(',')}]`;
        const members = root.map((m) => (m.name === 'error' ? { ...m, value: errorText } : m.name === 'warnings' ? { ...m, value: warningsText } : m));
        const text = objectText(members);
        const envelope = JSON.parse(text) as Record<string, unknown>;
        const duplicates = duplicateMembers(text, 0);
        expect(duplicates.map((d) => `${d.pointer}:${d.name}`).sort()).toEqual(expected(members, { error, warnings }));
        if (duplicates.length > 0) expect(mayHoldDuplicates(text, envelope)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('rules out the common records without a scan', () => {
    expect(mayHoldDuplicates('{"ok":true,"result":{"status":"ok","items":[{"ok":1}]},"sessionId":"s"}', { ok: true, result: {}, sessionId: 's' })).toBe(true);
    expect(mayHoldDuplicates('{"ok":true,"result":{"status":"ok"},"sessionId":"s"}', { ok: true, result: {}, sessionId: 's' })).toBe(false);
    expect(mayHoldDuplicates('{"ok":false,"error":{"code":"a","category":"b"},"warnings":[{"code":"c"},{"code":"d"}]}', JSON.parse('{"ok":false,"error":{"code":"a","category":"b"},"warnings":[{"code":"c"},{"code":"d"}]}'))).toBe(false);
    // An escape of a character no name has (.NET writes `<` so) is no spelling of a name.
    expect(mayHoldDuplicates('{"ok":true,"result":{"t":"\\u003Cb\\u003E"}}', { ok: true, result: {} })).toBe(false);
    expect(mayHoldDuplicates('{"ok":true,"result":{"t":"\\u006b"}}', { ok: true, result: {} })).toBe(true);
  });
});

describe('DuplicateMemberCheck: where its findings sit', () => {
  const text = '{"ok":true,"result":{},"ok":true}';
  const value = JSON.parse(text) as unknown;
  const check = new DuplicateMemberCheck(createCheckContext());

  it("at the name in a line's own text; nowhere in a streamed document's element or a text block", () => {
    expect(check.findings({ line: 3, value, text }, value, undefined)?.places).toEqual([{ line: 3, column: 24 }]);
    expect(check.findings({ line: 3, value, text, textPlace: false }, value, undefined)?.places).toEqual([undefined]);
    expect(check.findings({ line: 3, value: { content: [] } }, value, text)?.places).toEqual([undefined]);
    // No text (a value a library caller made): nothing to find duplicates in.
    expect(check.findings({ line: 3, value }, value, undefined)).toBeUndefined();
  });

  it('nothing when the rule is off', () => {
    const off = new DuplicateMemberCheck(createCheckContext({ rules: { 'duplicate-member': 'off' } }));
    expect(off.findings({ line: 1, value, text }, value, undefined)).toBeUndefined();
  });
});

type Finding = { rule: string; line: number; column?: number; pointer?: string; message: string; wrapping?: string };
const duplicatesOf = (findings: Finding[]) => findings.filter((f) => f.rule === 'duplicate-member').map((f) => [f.line, f.column ?? null, f.pointer, f.wrapping]);

describe('duplicate-member in a run (the built CLI)', () => {
  const S = '5f19c9c01a3f';
  const envelopeText = '{"ok":true,"result":{"artifact":"a.png"},"sessionId":"5f19c9c01a3f","ok":false}';

  it('a bare line: an error at the name, the record invalid and checked as JSON.parse reads it', () => {
    const dir = tempFiles({ 'a.jsonl': `{"ok":true,"result":{}}\n${envelopeText}\n` });
    const { status, report } = runJson([`${dir}/a.jsonl`]);
    expect(status).toBe(1);
    expect(duplicatesOf(report.findings)).toEqual([[2, envelopeText.lastIndexOf('"ok"') + 1, '', 'bare']]);
    expect(report.findings.find((f: Finding) => f.rule === 'duplicate-member').message).toBe('the envelope holds member "ok" twice: the last one is the one checked, and parsers disagree on which one counts');
    // `ok` false, as JSON.parse keeps it: a failure without error.
    expect(report.summary).toMatchObject({ records: 2, valid: 1, invalid: 1, outcomes: { ok: 1, failed: 1 } });
    const off = runJson([`${dir}/a.jsonl`, '--rule', 'duplicate-member=off']);
    expect(duplicatesOf(off.report.findings)).toEqual([]);
    const warning = runJson([`${dir}/a.jsonl`, '--rule', 'duplicate-member=warning', '--rule', 'schema=off', '--rule', 'result-on-failure=off']);
    expect(warning.status).toBe(0);
    expect(warning.report.summary).toMatchObject({ valid: 2, warnings: 1 });
  });

  it('every place an envelope is: a log line, a text block, structuredContent, a transcript, a .json document', () => {
    const block = JSON.stringify({ content: [{ type: 'text', text: envelopeText }], isError: false });
    const structured = `{"content":[],"structuredContent":${envelopeText}}`;
    const request = JSON.stringify({ ts: 't', sessionId: S, direction: 'request', method: 'tools/call', payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'capture', arguments: {} } } });
    const transcript = `{"ts":"t","sessionId":"${S}","direction":"response","method":"tools/call","payload":{"jsonrpc":"2.0","id":1,"result":${structured}}}`;
    const dir = tempFiles({
      'log.log': `2026-07-01T10:15:02Z INFO result ${envelopeText}\n`,
      'mcp.jsonl': `${block}\n${structured}\n`,
      'tool-calls.jsonl': `${request}\n${transcript}\n`,
      'pretty.json': `[\n  {"ok":true,"result":{}},\n  {\n    "ok": true,\n    "result": {},\n    "ok": true\n  }\n]\n`,
      'one-line.json': `[{"ok":true,"result":{}},${envelopeText}]`,
    });
    const prefix = '2026-07-01T10:15:02Z INFO result '.length;
    expect(duplicatesOf(runJson(['--extract', `${dir}/log.log`]).report.findings)).toEqual([[1, prefix + envelopeText.lastIndexOf('"ok"') + 1, '', 'log']]);
    // A text block's offsets are no place in the line (spec section 8.11): the record's line.
    expect(duplicatesOf(runJson([`${dir}/mcp.jsonl`]).report.findings)).toEqual([
      [1, null, '', 'mcp'],
      [2, structured.lastIndexOf('"ok"') + 1, '', 'mcp'],
    ]);
    expect(duplicatesOf(runJson([`${dir}/tool-calls.jsonl`]).report.findings)).toEqual([[2, transcript.lastIndexOf('"ok"') + 1, '', 'transcript']]);
    expect(duplicatesOf(runJson([`${dir}/pretty.json`]).report.findings)).toEqual([[6, 5, '', 'bare']]);
    expect(duplicatesOf(runJson([`${dir}/one-line.json`]).report.findings)).toEqual([[1, '[{"ok":true,"result":{}},'.length + envelopeText.lastIndexOf('"ok"') + 1, '', 'bare']]);
    // --unwrap none checks the line itself as the envelope: the duplicate inside the CallToolResult's text is no member of it.
    expect(duplicatesOf(runJson(['--unwrap', 'none', `${dir}/mcp.jsonl`]).report.findings)).toEqual([]);
  });

  it('a record lists at most 100 of them, then one that counts the rest', () => {
    const members = Array.from({ length: 150 }, (_, i) => `"m${i}":0`).join(',');
    const dir = tempFiles({ 'wide.jsonl': `{"ok":true,"result":{},${members},${members}}\n` });
    const found = runJson([`${dir}/wide.jsonl`, '--rule', 'schema=off']).report.findings;
    expect(found).toHaveLength(101);
    expect(found[0]).toMatchObject({ rule: 'duplicate-member', message: 'and 50 more duplicate-member findings in this record, not listed (a record lists at most 100 findings of one rule)' });
    expect(found[0]).not.toHaveProperty('column');
    expect(found[1]).toMatchObject({ rule: 'duplicate-member', pointer: '', message: expect.stringContaining('member "m0" twice') });
  });

  it('the wrappings are not looked at: a transcript line or JSON-RPC message naming a member twice', () => {
    const ok = JSON.stringify({ content: [{ type: 'text', text: '{"ok":true,"result":{}}' }] });
    const dir = tempFiles({ 'rpc.jsonl': `{"jsonrpc":"2.0","id":1,"id":1,"result":${ok}}\n{"ts":"t","ts":"u","direction":"response","payload":{"jsonrpc":"2.0","id":2,"result":${ok}}}\n` });
    const { status, report } = runJson([`${dir}/rpc.jsonl`]);
    expect(report.findings).toEqual([]);
    expect(status).toBe(0);
  });
});

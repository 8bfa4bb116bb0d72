// JSON-RPC ids by their exact value as written (issue 36 item 5, spec section 7's pairing): `1`,
// `1.0` and `1e0` pair, ids JSON.parse rounds to one number do not, a string id is never a number.
import { describe, expect, it } from 'vitest';
import { createCheckContext } from '../src/run.js';
import { autoUnwrapper } from '../src/unwrap/auto.js';
import { canonicalNumber, numbersExact } from '../src/framing/member-text.js';
import { ExactId, IdKeys } from '../src/unwrap/id-key.js';
import { runJson, tempFiles } from './helpers/cli.js';

describe('canonicalNumber: a literal as its exact decimal value', () => {
  it.each([
    ['1', '1'],
    ['1.0', '1'],
    ['1e0', '1'],
    ['10e-1', '1'],
    ['0.001E+3', '1'],
    ['-15.50', '-15.5'],
    ['1500', '1500'],
    ['0', '0'],
    ['-0', '0'],
    ['-0.0e7', '0'],
    ['9007199254740993', '#9007199254740993e0'],
    ['1e400', '#1e400'],
    ['100e398', '#1e400'],
    ['1e99999999999999999999', '#1e99999999999999999999'],
    ['10e99999999999999999999', '#1e100000000000000000000'],
  ])('%s is %s', (literal, canonical) => {
    expect(canonicalNumber(literal)).toBe(canonical);
  });

  it('keeps an exponent of more than 100,000 digits as written, the shift after it; a text of no number is none', () => {
    const huge = '9'.repeat(100_001);
    expect(canonicalNumber(`1e${huge}`)).toBe(`#1e${huge}+0`);
    expect(canonicalNumber(`10e${huge}`)).toBe(`#1e${huge}+1`);
    expect(canonicalNumber(`1.50e-${huge}`)).toBe(`#15e-${huge}-1`);
    expect(canonicalNumber(`1e${'9'.repeat(100_000)}`)).toBe(`#1e${'9'.repeat(100_000)}`);
    for (const text of ['', '-', '1.', '.5', '1e', 'true', '"1"', '1 ']) expect(canonicalNumber(text), text).toBeUndefined();
  });
});

describe('numbersExact: every number of a text an integer JSON.parse keeps exact', () => {
  it.each([
    ['{"id":7,"params":{"x":-12,"n":0,"m":[1,2,-0]}}', true],
    ['{"id":123456789012345}', true],
    ['{"a":"1.5e400 and 9007199254740993, inside strings","b":"\\\\"}', true],
    ['{"a":"say \\"1.5\\"","b":true,"c":null,"d":false}', true],
    ['{"id":1234567890123456}', false],
    ['{"id":1.0}', false],
    ['{"id":1,"x":1.5}', false],
    ['{"id":1,"x":1e3}', false],
    ['{"id":1,"x":2E-1}', false],
    ['{"id":-9007199254740993}', false],
  ])('%s: %s', (text, exact) => {
    expect(numbersExact(text, 0)).toBe(exact);
  });

  it('looks from `at` on, and leaves a text too long for its pattern to the caller', () => {
    expect(numbersExact('{"n":1.5,"m":{"k":1}}', 13)).toBe(true);
    expect(numbersExact('{"n":1.5,"m":{"k":1}}', 0)).toBe(false);
    // 64 KiB of exact numbers and strings is looked at whole; one character more is not.
    const within = (length: number) => {
      const items = Math.floor((length - 9) / 2);
      return `{"a":[${'1,'.repeat(items)}${length - 6 - 2 * items === 3 ? '1' : '11'}]}`;
    };
    expect(within(64 * 1024).length).toBe(64 * 1024);
    expect(numbersExact(within(64 * 1024), 0)).toBe(true);
    expect(numbersExact(within(64 * 1024 + 1), 0)).toBe(false);
  });
});

describe('IdKeys: one key per value', () => {
  const key = (keys: IdKeys, literal: string) => keys.numeric(JSON.parse(literal) as number, `{"id":${literal}}`, 0, []);

  it('equal values are one key, the number itself when it is exact', () => {
    const keys = new IdKeys();
    for (const literal of ['1', '1.0', '1e0', '10E-1', '0.1e1']) expect(key(keys, literal)).toBe(1);
    expect(key(keys, '-0')).toBe(0);
    expect(Object.is(key(keys, '-0'), 0)).toBe(true);
  });

  it('values JSON.parse rounds to one number are two keys, each the same for every spelling of it', () => {
    const keys = new IdKeys();
    const big = key(keys, '9007199254740993');
    expect(big).toBeInstanceOf(ExactId);
    expect(key(keys, '9007199254740992')).not.toBe(big);
    expect(key(keys, '9007199254740993.0')).toBe(big);
    expect(key(keys, '1e400')).not.toBe(key(keys, '1e401'));
    expect(key(keys, '1e400')).toBe(key(keys, '10e399'));
    expect(key(keys, '1.0000000000000000001')).not.toBe(key(keys, '1'));
    expect((big as ExactId).written).toBe('9007199254740993');
  });

  it('reads the id JSON.parse keeps (the last), however the text spells its name, wherever the message is', () => {
    const keys = new IdKeys();
    const at = (text: string, path: string[] = []) => keys.numeric(1, text, 0, path);
    const first = at('{"id":9007199254740993,"id":1}');
    expect(first).toBe(1);
    expect(at('{"\\u0069d":9007199254740993,"id":1}')).toBe(1);
    expect(at('{"id":1,"\\u0069d":1.0000000000000000001}')).toBeInstanceOf(ExactId);
    expect(at('{"ts":"t","id":5,"payload":{"jsonrpc":"2.0","id":1.0000000000000000001,"result":{"id":7}}}', ['payload'])).toBeInstanceOf(ExactId);
    expect(at('{"payload":{"id":1}}', ['payload'])).toBe(1);
    // No text: the number itself, as before.
    expect(keys.numeric(1, undefined, 0, [])).toBe(1);
  });
});

/** Unwraps JSON texts as framing hands them on: each value with the text it was parsed from. */
function unwrapTexts(texts: string[]) {
  const unwrapper = autoUnwrapper(createCheckContext());
  const results = texts.map((text, i) => unwrapper.unwrap({ value: JSON.parse(text), line: i + 1, text }));
  return { results, late: [...unwrapper.finish()] };
}

const S = 'a41c07e2d9b8';
const envelope = (artifact: string) => JSON.stringify({ ok: true, result: { artifact }, sessionId: S });
const callResult = (text: string) => JSON.stringify({ content: [{ type: 'text', text }], isError: false });
const request = (id: string, tool: string) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${tool}","arguments":{}}}`;
const response = (id: string, artifact: string) => `{"jsonrpc":"2.0","id":${id},"result":${callResult(envelope(artifact))}}`;
const inTranscript = (payload: string, direction: 'request' | 'response') => `{"ts":"2026-07-02T08:00:10.300Z","sessionId":"${S}","direction":"${direction}","method":"tools/call","payload":${payload}}`;

describe('pairing by exact ids (the unwrapper)', () => {
  it('ids past 2^53 answered out of order keep their tools; 1 and 1.0 pair', () => {
    const { results, late } = unwrapTexts([request('9007199254740993', 'find'), request('9007199254740992', 'capture'), response('9007199254740992', 'b.png'), response('9007199254740993', 'a.png'), request('1', 'invoke'), response('1.0', 'c.png')]);
    expect(results.filter((r) => r.kind === 'record').map((r) => [r.kind === 'record' && r.tool, r.findings.map((f) => f.rule)])).toEqual([
      ['capture', []],
      ['find', []],
      ['invoke', []],
    ]);
    expect(late).toEqual([]);
  });

  it('1e400 and 1e401 are two ids; a string id is no number', () => {
    const { results, late } = unwrapTexts([request('1e400', 'find'), request('1e401', 'capture'), response('1e401', 'b.png'), response('1e400', 'a.png'), request('"2"', 'query'), request('2', 'invoke'), response('2', 'c.png'), response('"2"', 'd.png')]);
    expect(results.flatMap((r) => (r.kind === 'record' ? [[r.tool, r.findings.length]] : []))).toEqual([
      ['capture', 0],
      ['find', 0],
      ['invoke', 0],
      ['query', 0],
    ]);
    expect(late).toEqual([]);
  });

  it('a request whose numbers are all exact and one with a number that is not key their ids alike', () => {
    // The first request's line holds a number with an exponent, so its id is read from the text; the
    // second's numbers are all small integers, so its id is the parsed one, the last written.
    const inexact = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"find","arguments":{"timeout":1.5e3}}}`;
    const twice = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"capture","arguments":{"timeout":0}},"id":5}`;
    const { results, late } = unwrapTexts([inexact, twice, response('3.0', 'a.png'), response('5', 'b.png'), response('4', 'c.png')]);
    expect(results.flatMap((r) => (r.kind === 'record' ? [[r.tool, r.findings.map((f) => f.rule)]] : []))).toEqual([
      ['find', []],
      ['capture', []],
      [undefined, []],
    ]);
    expect(late).toEqual([]);
  });

  it('no false duplicate-response for a second id that rounds to the first; a real one names the id as written', () => {
    const lines = [request('9007199254740993', 'find'), response('9007199254740993', 'a.png'), request('9007199254740992', 'capture'), response('9007199254740992', 'b.png'), response('9007199254740993.0', 'c.png')].map((line, i) => inTranscript(line, i % 2 === 0 && i < 4 ? 'request' : 'response'));
    const { results } = unwrapTexts(lines);
    const findings = results.flatMap((r) => r.findings.map((f) => [f.rule, f.message]));
    // Named as its value was first written: 9007199254740992's answer is no duplicate of it.
    expect(findings).toEqual([['duplicate-response', 'a second response to id 9007199254740993 (find, requested on line 1)']]);
  });
});

describe('a run (the built CLI)', () => {
  it('fixtures/jsonrpc/big-ids.jsonl: each tool its own result, 7 and 7.0 one id', () => {
    const { status, report } = runJson(['fixtures/jsonrpc/big-ids.jsonl']);
    expect(status).toBe(0);
    expect(report.findings).toEqual([]);
    expect(report.summary.tools).toEqual({
      capture: { records: 1, ok: 1, failed: 0, unknown: 0 },
      find: { records: 1, ok: 0, failed: 1, unknown: 0 },
      invoke: { records: 1, ok: 1, failed: 0, unknown: 0 },
    });
  });

  it('transcript messages tell ids apart that differ only past the rounding', () => {
    const dir = tempFiles({
      'tool-calls.jsonl': [
        inTranscript(request('9007199254740993', 'find'), 'request'),
        inTranscript(request('9007199254740992', 'capture'), 'request'),
        inTranscript(response('9007199254740992', 'b.png'), 'response'),
        inTranscript(response('9007199254740995', 'x.png'), 'response'),
        '',
      ].join('\n'),
    });
    const { report } = runJson([`${dir}/tool-calls.jsonl`]);
    expect(report.findings.map((f: { rule: string; line: number; message: string }) => [f.rule, f.line, f.message])).toEqual([
      ['unanswered-request', 1, 'find request is never answered in this transcript'],
      // JSON.parse reads 9007199254740996.
      ['unpaired-response', 4, 'response to id 9007199254740995 has no request of that id before it in this transcript'],
    ]);
    expect(report.summary.tools).toMatchObject({ capture: { records: 1, ok: 1 } });
  });

  it('a cancellation names its request by the exact id too', () => {
    const cancel = (id: string) => `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":${id},"reason":"timeout"}}`;
    const dir = tempFiles({ 'tool-calls.jsonl': [inTranscript(request('9007199254740993', 'find'), 'request'), inTranscript(request('9007199254740992', 'capture'), 'request'), inTranscript(cancel('9007199254740992'), 'request'), ''].join('\n') });
    const { report } = runJson([`${dir}/tool-calls.jsonl`]);
    // The capture request (9007199254740992) is the one cancelled: the find is left unanswered.
    expect(report.findings.filter((f: { rule: string }) => f.rule === 'unanswered-request').map((f: { line: number; message: string }) => [f.line, f.message])).toEqual([[1, 'find request is never answered in this transcript']]);
  });
});

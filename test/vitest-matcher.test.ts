import { describe, expect, it } from 'vitest';
import { checkEnvelope, checkEnvelopeWith, createCheckContext } from '../src/index.js';
import { mcecFindings, mcecMatchers } from '../src/vitest.js';

const ok = { ok: true, result: { window: 'Untitled - Notepad' }, sessionId: '5f19c9c01a3f' };
const failed = { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'no window matched' }, sessionId: '5f19c9c01a3f' };
const noError = { ok: false, sessionId: '5f19c9c01a3f' };
const noResult = { ok: true, sessionId: '5f19c9c01a3f' };

const callToolResult = (envelope: unknown, isError: boolean) => ({
  content: [{ type: 'image', data: '<redacted base64>', mimeType: 'image/png' }, { type: 'text', text: JSON.stringify(envelope) }],
  isError,
});

describe('toBeMcecResult', () => {
  it('passes on conformant bare envelopes', () => {
    expect(ok).toBeMcecResult();
    expect(failed).toBeMcecResult();
  });

  it('passes on a conformant MCP CallToolResult', () => {
    expect(callToolResult(ok, false)).toBeMcecResult();
    expect(callToolResult(failed, true)).toBeMcecResult();
    expect({ content: [{ type: 'text', text: JSON.stringify(ok) }] }).toBeMcecResult();
  });

  it('fails on a bad envelope, naming each finding with its pointer, severity and rule', () => {
    expect(() => expect(noError).toBeMcecResult()).toThrow(/ok is false, so error is required/);
    expect(() => expect(noError).toBeMcecResult()).toThrow(
      'expected value to be a conformant MCEC result, but:\n  (root)  error    ok is false, so error is required  schema',
    );
    expect(() => expect({ ...failed, result: { clicked: true } }).toBeMcecResult()).toThrow(/\/result +error +.*  result-on-failure/);
    expect(() => expect('not an object').toBeMcecResult()).toThrow(/  schema$/);
    // Was without the suggestion every other output gives.
    const typo = { ok: false, error: { code: 'window-not-fonud', category: 'no_target', detail: 'd' } };
    expect(() => expect(typo).toBeMcecResult()).toThrow(/\(got "no_target"\) \(did you mean "no-target"\?\)  schema/);
  });

  it('fails on a bad envelope inside a CallToolResult', () => {
    expect(() => expect(callToolResult(noError, true)).toBeMcecResult()).toThrow(/ok is false, so error is required/);
  });

  it('fails on an isError that does not mirror ok', () => {
    expect(() => expect(callToolResult(failed, false)).toBeMcecResult()).toThrow(/\/ok +error +isError is false but ok is false.*  is-error-mismatch/);
    expect(() => expect({ content: [{ type: 'text', text: JSON.stringify(failed) }] }).toBeMcecResult()).toThrow(/is-error-mismatch/);
  });

  it('fails on a CallToolResult that holds no envelope, or whose structuredContent differs', () => {
    expect(() => expect({ content: [{ type: 'text', text: 'window captured' }], isError: false }).toBeMcecResult()).toThrow(
      /\(root\) +error +the tool response holds no JSON envelope: its text block is not JSON \(unexpected "window", at column 1 of its text\) {2}not-an-envelope/,
    );
    const differing = { ...callToolResult(ok, false), structuredContent: { ...ok, result: {} } };
    expect(() => expect(differing).toBeMcecResult()).toThrow(/structured-content-mismatch/);
  });

  it('lets warnings pass, unless strict', () => {
    expect(noResult).toBeMcecResult();
    expect(noResult).toBeMcecResult({ strict: false });
    expect(() => expect(noResult).toBeMcecResult({ strict: true })).toThrow(
      /^expected value to be a conformant MCEC result \(strict: warnings fail too\), but:\n {2}\(root\) {2}warning {2}.* {2}missing-result$/,
    );
    expect(ok).toBeMcecResult({ strict: true });
    // A misspelt option passed warnings as if strict were off.
    expect(() => expect(noResult).toBeMcecResult({ strcit: true } as object)).toThrow('toBeMcecResult: unknown option "strcit" (did you mean "strict"?)');
    // null is no options given (was "Cannot read properties of null"); a non-object is said.
    expect(() => expect(noResult).toBeMcecResult(null as unknown as object)).not.toThrow();
    expect(() => expect(noError).toBeMcecResult(null as unknown as object)).toThrow(/ok is false, so error is required/);
    expect(() => expect(noResult).toBeMcecResult(true as unknown as object)).toThrow('toBeMcecResult: expected an options object ({ schema, schemaVersion, codes, rules, strict, config }), got true');
    // Nor does checkEnvelopeWith read a context that is none (was "reading 'schema'").
    expect(() => checkEnvelopeWith({} as ReturnType<typeof createCheckContext>, ok)).toThrow('checkEnvelopeWith(): the first argument is a context made by createCheckContext(), got an object');
    expect(checkEnvelopeWith(createCheckContext(), ok)).toEqual([]);
    expect(() => expect(noResult).toBeMcecResult({ strict: 'yes' } as unknown as { strict: boolean })).toThrow('toBeMcecResult: strict: expected true or false, got "yes"');
  });

  it('works with .not, with the inverse message', () => {
    expect(noError).not.toBeMcecResult();
    expect(callToolResult(failed, false)).not.toBeMcecResult();
    expect(noResult).not.toBeMcecResult({ strict: true });
    expect(() => expect(ok).not.toBeMcecResult()).toThrow(/^expected value not to be a conformant MCEC result, but it has no finding$/);
    expect(() => expect(noResult).not.toBeMcecResult()).toThrow(/^expected value not to be a conformant MCEC result, but it has only warnings:\n.* {2}missing-result$/);
  });

  it('works as an asymmetric matcher', () => {
    expect({ response: ok }).toEqual({ response: expect.toBeMcecResult() });
    expect({ response: noError }).not.toEqual({ response: expect.toBeMcecResult() });
  });

  it('exports the matchers for expect.extend and the findings behind them', () => {
    expect(Object.keys(mcecMatchers)).toEqual(['toBeMcecResult']);
    expect(mcecFindings(callToolResult(failed, false)).map((finding) => [finding.rule, finding.severity])).toEqual([['is-error-mismatch', 'error']]);
  });
});

describe('values with no JSON form', () => {
  // Before the guard each of these ran until V8 gave up on the heap: a fatal error, no exception.
  const observation: Record<string, unknown> = { window: 'Untitled - Notepad' };
  observation['self'] = observation;
  const cyclic = { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'd', lastObservation: observation } };
  const structured: Record<string, unknown> = { ok: true, result: {} };
  structured['result'] = structured;
  const wrapped = { content: [{ type: 'text', text: JSON.stringify(ok) }], structuredContent: structured, isError: false };

  it('a cycle is a TypeError naming the property that closes it, from every entry point', () => {
    const closes = /^mcec-result: the value to check is not JSON: Converting circular structure to JSON .*property 'self' closes the circle$/;
    expect(() => checkEnvelope(cyclic)).toThrow(TypeError);
    expect(() => checkEnvelope(cyclic)).toThrow(closes);
    expect(() => checkEnvelopeWith(createCheckContext(), cyclic)).toThrow(closes);
    expect(() => mcecFindings(cyclic)).toThrow(closes);
    expect(() => mcecFindings(wrapped)).toThrow(/property 'result' closes the circle/);
  });

  it('a BigInt too; members JSON drops (functions, undefined) are fine', () => {
    // Was: no place named, where README promises one.
    expect(() => checkEnvelope({ ok: true, result: { a: [1, 2], n: 10n, m: 11n } })).toThrow('mcec-result: the value to check is not JSON: Do not know how to serialize a BigInt, at /result/n (JSON has none: give a number or a string)');
    expect(() => checkEnvelope(10n)).toThrow('not JSON: Do not know how to serialize a BigInt, at the value itself (');
    expect(checkEnvelope({ ok: true, result: { f() {}, u: undefined } })).toEqual([]);
  });

  it('a value is checked as the JSON it is sent as', () => {
    // Was checked as the JavaScript object: a Date result passed (the wire holds a string), and a
    // function sessionId was faulted (the wire holds none).
    expect(checkEnvelope({ ok: true, result: new Date(0) }).map((f) => f.message)).toEqual(['result must be an object or null (got string)']);
    expect(checkEnvelope({ ok: true, result: {}, sessionId: () => 's' })).toEqual([]);
    expect(checkEnvelope({ ok: true, result: { n: Number.NaN }, toJSON: () => ({ ok: false }) }).map((f) => f.message)).toEqual(['ok is false, so error is required']);
    expect(mcecFindings({ content: [{ type: 'text', text: JSON.stringify({ ok: true, result: {} }) }], isError: false, structuredContent: { ok: true, result: { at: new Date(0) } } }).map((f) => f.rule)).toEqual(['structured-content-mismatch']);
    expect(checkEnvelope(undefined).map((f) => f.rule)).toEqual(['schema']);
  });

  it('nesting deeper than JSON.stringify walks is checked as the command line checks it; a cycle or BigInt down there is still said', () => {
    // Was: "not JSON: Maximum call stack size exceeded" from about 5,000 levels.
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(checkEnvelope({ ok: true, result: deep }).map((f) => f.message)).toEqual(['result must be an object or null (got array)']);
    expect(checkEnvelope({ ok: true, result: { tree: deep } })).toEqual([]);
    const bottom: Record<string, unknown> = {};
    let cyclicDeep: unknown = bottom;
    for (let i = 0; i < 100_000; i++) cyclicDeep = { c: cyclicDeep };
    bottom['back'] = cyclicDeep;
    expect(() => checkEnvelope({ ok: true, result: cyclicDeep })).toThrow(/^mcec-result: the value to check is not JSON: Converting circular structure to JSON: the value at \/result(\/c)+… holds itself$/);
    let bigDeep: unknown = 1n;
    for (let i = 0; i < 100_000; i++) bigDeep = [bigDeep];
    expect(() => checkEnvelope({ ok: true, result: { n: bigDeep } })).toThrow(/not JSON: Do not know how to serialize a BigInt, at \/result\/n(\/0)+\/?… \(JSON has none/);
  });
});

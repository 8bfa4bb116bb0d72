import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createCheckContext } from '../src/run.js';
import { autoUnwrapper } from '../src/unwrap/auto.js';
import { firstDifference, unwrapCallToolResult } from '../src/unwrap/mcp.js';
import type { Unwrapped } from '../src/unwrap/types.js';

const context = createCheckContext();
const S = '5f19c9c01a3f';
const ok = { ok: true, result: { artifact: 'shots/0001.png' }, sessionId: S };
const failed = { ok: false, error: { code: 'element-not-found', category: 'no-target', detail: 'no Save button' }, sessionId: S };
const text = (envelope: unknown) => ({ type: 'text', text: JSON.stringify(envelope) });
const callResult = (envelope: unknown, isError?: boolean) => ({ content: [{ type: 'image', data: '<redacted base64>', mimeType: 'image/png' }, text(envelope)], ...(isError !== undefined && { isError }) });
const request = (id: number | string, name: string, method = 'tools/call') => ({ jsonrpc: '2.0', id, method, params: method === 'tools/call' ? { name, arguments: {} } : {} });
const response = (id: number | string, result: unknown) => ({ jsonrpc: '2.0', id, result });
const line = (direction: 'request' | 'response', payload: unknown, sessionId = S) => ({ ts: '2026-07-01T10:15:02.123Z', sessionId, direction, method: 'tools/call', payload });

function run(values: unknown[]) {
  const unwrapper = autoUnwrapper(context);
  const results = values.map((value, i) => unwrapper.unwrap({ value, line: i + 1 }));
  return { results, late: [...unwrapper.finish()] };
}
const rules = (u: Unwrapped) => u.findings.map((f) => f.rule);

describe('recognition (spec section 7 order)', () => {
  it('a bare envelope is itself', () => {
    expect(run([ok]).results[0]).toEqual({ kind: 'record', envelope: ok, hasEnvelope: true, wrapping: 'bare', findings: [] });
  });

  it('an MCP CallToolResult: the last text block that is an object with ok', () => {
    const value = { content: [text({ ok: false }), text(ok), { type: 'text', text: 'done' }], isError: false };
    expect(run([value]).results[0]).toMatchObject({ kind: 'record', envelope: ok, wrapping: 'mcp', findings: [] });
  });

  it('structuredContent alone is the envelope; with a text envelope both must agree', () => {
    expect(run([{ content: [], structuredContent: ok }]).results[0]).toMatchObject({ envelope: ok, findings: [] });
    const reordered = { sessionId: S, result: { artifact: 'shots/0001.png' }, ok: true };
    expect(run([{ ...callResult(ok), structuredContent: reordered }]).results[0]!.findings).toEqual([]);
    const differs = run([{ ...callResult(ok), structuredContent: { ...ok, result: { artifact: 'shots/0002.png' } } }]).results[0]!;
    expect(differs.findings).toEqual([expect.objectContaining({ rule: 'structured-content-mismatch', severity: 'error', pointer: '/result/artifact' })]);
    const extra = run([{ content: [text({ ...ok, x: 1 })], structuredContent: ok }]).results[0]!;
    expect(extra.findings).toEqual([expect.objectContaining({ rule: 'structured-content-mismatch', pointer: '/x', message: "structuredContent differs from the text block's envelope at /x" })]);
    const inner = run([{ content: [text(ok)], structuredContent: { ...ok, result: { ...ok.result, b: 1 } } }]).results[0]!;
    expect(inner.findings).toEqual([expect.objectContaining({ rule: 'structured-content-mismatch', pointer: '/result/b' })]);
    // Was no finding: only a structuredContent with ok was compared.
    for (const [structuredContent, what] of [[{ foo: 1 }, 'an object without ok'], [null, 'null'], [[ok], 'an array']] as const) {
      const other = run([{ ...callResult(ok), structuredContent }]).results[0]!;
      expect(other).toMatchObject({ envelope: ok, findings: [{ rule: 'structured-content-mismatch', pointer: '', message: `structuredContent differs from the text block's envelope: it is ${what}` }] });
    }
  });

  it('is-error-mismatch when isError is not !ok (missing isError means false)', () => {
    expect(rules(run([callResult(ok, false)]).results[0]!)).toEqual([]);
    expect(rules(run([callResult(failed, true)]).results[0]!)).toEqual([]);
    expect(rules(run([callResult(ok, true)]).results[0]!)).toEqual(['is-error-mismatch']);
    expect(run([callResult(failed)]).results[0]!.findings[0]!.message).toBe('isError is false (missing) but ok is false: the transport flag must mirror the envelope (isError == !ok)');
    // A flag that is no boolean ("false" is true to a client that tests it) mirrors nothing.
    for (const [isError, shown] of [['false', '"false"'], [0, '0'], [null, 'null'], [[true], 'an array']] as const) {
      const [finding] = run([{ ...callResult(ok), isError }]).results[0]!.findings;
      expect(finding).toMatchObject({ rule: 'is-error-mismatch', pointer: '/ok', message: `isError is ${shown}, not a boolean, but ok is true: the transport flag must be false (isError == !ok)` });
    }
  });

  it('not-an-envelope says what was there instead', () => {
    const cases: [unknown, string][] = [
      [{ structuredContent: { data: 1 } }, 'it has no content array, and its structuredContent has no ok'],
      [{ content: [{ type: 'image', data: 'x' }] }, 'its content has no text block (1 block: image)'],
      // Was "its content has no text block (0 blocks: )".
      [{ content: [] }, 'its content is empty'],
      // Was "its text block is not JSON", with no word of why or where (spec section 8.12).
      [{ content: [{ type: 'text', text: 'Clicked.' }] }, 'its text block is not JSON (unexpected "Clicked.", at column 1 of its text)'],
      [{ content: [{ type: 'text', text: '{\n  "ok": true,\n  "result": {x}\n}' }] }, 'its text block is not JSON (unexpected "x", at line 3, column 14 of its text)'],
      [{ content: [{ type: 'text', text: '{"status":"done"}' }] }, 'its text block is JSON without ok'],
      [{ content: [{ type: 'text', text: JSON.stringify(JSON.stringify({ ok: true, result: {} })) }] }, 'its text block is a JSON string holding an object: the envelope encoded twice?'],
      [{ content: [{ type: 'text', text: '"done"' }] }, 'its text block is JSON but not an object (string)'],
      // Null and arrays were "object", as typeof has them.
      [{ content: [{ type: 'text', text: 'null' }], isError: false }, 'its text block is JSON but not an object (null)'],
      [{ content: [{ type: 'text', text: '[1]' }] }, 'its text block is JSON but not an object (array)'],
      [{ content: [null, 5, [], {}], isError: false }, 'its content has no text block (4 blocks: null, number, array, object)'],
      // Was "its text block is not JSON": there was no text to read.
      [{ content: [{ type: 'text' }] }, 'its text block has no text string (text is missing)'],
      [{ content: [{ type: 'text', text: 5 }] }, 'its text block has no text string (text is a number)'],
      [{ content: [{ type: 'text', text: null }] }, 'its text block has no text string (text is null)'],
      [{ content: [{ type: 'text', text: ['x'] }] }, 'its text block has no text string (text is an array)'],
      [{ content: [{ type: 'text', text: 'Clicked.' }, { type: 'text' }] }, 'its text block has no text string (text is missing)'],
    ];
    for (const [value, instead] of cases) {
      const [result] = run([value]).results;
      expect(result).toMatchObject({ kind: 'record', hasEnvelope: false, wrapping: 'mcp' });
      expect(result!.findings).toEqual([{ rule: 'not-an-envelope', severity: 'error', message: `the tool response holds no JSON envelope: ${instead}` }]);
    }
  });

  it('a transcript line whose payload is no object: the payload recognised in turn, a bare envelope of the transcript', () => {
    // Was a record without an envelope, not-an-envelope; spec section 7 recognises the payload in
    // turn, and a non-object is a bare envelope (a schema-invalid record). A request line is never a
    // record (spec section 8.1): it waits for its answer, the next line of its session.
    const line = (direction: string, payload: unknown) => ({ ts: 't', sessionId: 's1', direction, method: 'tools/call', payload });
    for (const payload of ['oops', null, [1], 7]) {
      const [result] = run([line('response', payload)]).results;
      expect(result).toEqual({ kind: 'record', envelope: payload, hasEnvelope: true, wrapping: 'transcript', tool: undefined, sessionId: 's1', findings: [] });
      const request = run([line('request', payload)]);
      expect(request.results[0]).toEqual({ kind: 'skipped', wrapping: 'transcript', findings: [] });
      expect(request.late).toEqual([{ line: 1, wrapping: 'transcript', finding: expect.objectContaining({ rule: 'unanswered-request', message: 'tools/call request is never answered in this transcript: no line of its session follows it' }) }]);
    }
  });

  it('the truncation marker is skipped and reported', () => {
    const [marker] = run([{ truncated: 'tool-call log size cap reached' }]).results;
    expect(marker).toMatchObject({ kind: 'skipped', truncated: true, wrapping: 'transcript' });
    expect(rules(marker!)).toEqual(['transcript-truncated']);
    // Another member makes it an ordinary (invalid) envelope.
    expect(run([{ truncated: 'x', ok: true }]).results[0]!.kind).toBe('record');
  });
});

describe('JSON-RPC and transcripts', () => {
  it('takes a method that is no string as data: named, never printed, whatever its toString or depth', () => {
    const odd = JSON.parse('{"jsonrpc":"2.0","id":1,"method":{"toString":""}}') as unknown;
    // String() of a 100k-deep array overflowed the stack and failed the whole input.
    const deep = JSON.parse(`{"jsonrpc":"2.0","id":3,"method":${'['.repeat(100_000)}${']'.repeat(100_000)}}`) as unknown;
    const long = 'x'.repeat(100_000);
    const { results, late } = run([line('request', odd), line('request', { jsonrpc: '2.0', id: 2, method: 7 }), line('request', deep), line('request', request(4, long))]);
    expect(results.map((r) => r.kind)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    expect(late.map((l) => l.finding.message)).toEqual([
      'an object request is never answered in this transcript',
      '7 request is never answered in this transcript',
      'an array request is never answered in this transcript',
      `${long.slice(0, 57)}... request is never answered in this transcript`,
    ]);
  });

  it('attributes each response to the tool of its request, by session and id', () => {
    const { results, late } = run([
      line('request', request(1, 'capture')),
      line('request', request(1, 'find'), 'other-session'),
      line('response', response(1, callResult(ok, false))),
      line('response', response(1, callResult(failed, true)), 'other-session'),
    ]);
    expect(results.map((r) => r.kind)).toEqual(['skipped', 'skipped', 'record', 'record']);
    expect(results[2]).toMatchObject({ tool: 'capture', wrapping: 'transcript', sessionId: S, findings: [] });
    expect(results[3]).toMatchObject({ tool: 'find', sessionId: 'other-session', findings: [] });
    expect(late).toEqual([]);
  });

  it('skips responses to other methods and counts JSON-RPC errors as protocol errors', () => {
    const { results, late } = run([
      line('request', request(0, '', 'initialize')),
      line('response', response(0, { protocolVersion: '2025-06-18' })),
      line('request', request(2, 'invoke')),
      line('response', { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'boom' } }),
    ]);
    expect(results.map((r) => r.kind)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    expect(results[3]).toMatchObject({ protocolError: true, findings: [] });
    expect(late).toEqual([]);
    // The wrapping of the line, for findings a skipped line may have.
    expect(results[1]).toMatchObject({ kind: 'skipped', wrapping: 'transcript' });
    expect(run([{ jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'boom' } }]).results[0]).toMatchObject({ kind: 'skipped', protocolError: true, wrapping: 'jsonrpc' });
  });

  it('unpaired-response: a transcript response with no request before it', () => {
    const { results } = run([line('request', request(8, 'find')), line('response', response(9, callResult(ok, false))), line('request', request(9, 'capture'))]);
    expect(results[1]).toMatchObject({ kind: 'record', findings: [expect.objectContaining({ rule: 'unpaired-response', severity: 'warning' })] });
    // Only once the input has held a request on an earlier line (spec section 8.9): was unpaired-response.
    expect(rules(run([line('response', response(9, callResult(ok, false))), line('request', request(9, 'capture'))]).results[0]!)).toEqual([]);
    // Outside a transcript an unknown id is not a finding: a capture may start mid-stream.
    expect(rules(run([response(9, callResult(ok, false))]).results[0]!)).toEqual([]);
    expect(run([response(9, callResult(ok, false))]).results[0]).toMatchObject({ kind: 'record', wrapping: 'jsonrpc' });
    // A null id matches no request (was: no finding), nor does a missing one; not outside a transcript either.
    const nullId = run([line('request', request(1, 'capture')), line('response', { jsonrpc: '2.0', id: null, result: callResult(ok, false) })]);
    expect(nullId.results[1]).toMatchObject({
      kind: 'record',
      tool: undefined,
      findings: [{ rule: 'unpaired-response', severity: 'warning', message: 'response with id null has no request before it in this transcript: only a string or a number id pairs with one' }],
    });
    expect(run([line('request', request(1, 'capture')), line('response', { jsonrpc: '2.0', result: callResult(ok, false) })]).results[1]!.findings[0]!.message).toBe('response without an id has no request before it in this transcript: only a string or a number id pairs with one');
    expect(rules(run([{ jsonrpc: '2.0', id: null, result: callResult(ok, false) }]).results[0]!)).toEqual([]);
  });

  it('duplicate-response: a second response to one id is a record and an error', () => {
    const { results } = run([line('request', request(3, 'invoke')), line('response', response(3, callResult(ok))), line('response', response(3, callResult(ok)))]);
    expect(rules(results[1]!)).toEqual([]);
    expect(results[2]).toMatchObject({ kind: 'record', tool: 'invoke', findings: [expect.objectContaining({ rule: 'duplicate-response', severity: 'error' })] });
    // A JSON-RPC error as the second answer, after a result or after another error, is a record
    // without an envelope, invalid through duplicate-response (was: skipped, a protocol error).
    const boom = (id: number) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: 'boom' } });
    const errors = run([line('request', request(3, 'invoke')), line('response', response(3, callResult(ok))), line('response', boom(3)), line('request', request(4, 'find')), line('response', boom(4)), line('response', boom(4))]);
    expect(errors.results.map((r) => r.kind)).toEqual(['skipped', 'record', 'record', 'skipped', 'skipped', 'record']);
    expect(errors.results[2]).toEqual({ kind: 'record', envelope: undefined, hasEnvelope: false, wrapping: 'transcript', tool: 'invoke', sessionId: S, findings: [expect.objectContaining({ rule: 'duplicate-response', severity: 'error', message: 'a second response to id 3 (invoke, requested on line 1): a JSON-RPC error' })] });
    expect(errors.results[4]).toMatchObject({ protocolError: true, findings: [] });
    expect(errors.results[5]).toMatchObject({ kind: 'record', hasEnvelope: false, tool: 'find', findings: [{ rule: 'duplicate-response', message: 'a second response to id 4 (find, requested on line 4): a JSON-RPC error' }] });
    expect(errors.results[5]).not.toHaveProperty('protocolError');
    expect(errors.late).toEqual([]);
  });

  it('unanswered-request: at the request line, unless the transcript was truncated after it', () => {
    const unanswered = run([line('request', request(4, 'wait-for')), line('request', request(5, 'capture')), line('response', response(5, callResult(ok)))]);
    expect(unanswered.late).toEqual([{ line: 1, tool: 'wait-for', wrapping: 'transcript', finding: expect.objectContaining({ rule: 'unanswered-request', severity: 'warning' }) }]);
    const truncated = run([line('request', request(4, 'wait-for')), { truncated: 'tool-call log size cap reached' }]);
    expect(truncated.late).toEqual([]);
    // The marker excuses what it cut off, not a request logged after it.
    const after = run([line('request', request(4, 'wait-for')), { truncated: 'tool-call log size cap reached' }, line('request', request(5, 'capture'))]);
    expect(after.late).toEqual([expect.objectContaining({ line: 3, tool: 'capture', finding: expect.objectContaining({ rule: 'unanswered-request' }) })]);
    // Raw JSON-RPC captures are not transcripts.
    expect(run([request(4, 'wait-for')]).late).toEqual([]);
  });

  it('a result makes a response: beside "error": null (JSON-RPC 1.0) or a copied method', () => {
    // Was: read as an error response (skipped, a protocol error) and as a request (skipped, and the
    // real request overwritten): the failed call's envelope was never checked.
    const { results, late } = run([
      line('request', request(1, 'capture')),
      line('response', { ...response(1, callResult(failed, true)), error: null }),
      line('request', request(2, 'find')),
      line('response', { ...response(2, callResult(failed, true)), method: 'tools/call' }),
    ]);
    expect(results.map((r) => r.kind)).toEqual(['skipped', 'record', 'skipped', 'record']);
    expect(results[1]).toMatchObject({ tool: 'capture', envelope: failed, findings: [] });
    expect(results[1]).not.toHaveProperty('protocolError');
    expect(results[3]).toMatchObject({ tool: 'find', envelope: failed, findings: [] });
    expect(late).toEqual([]);
    // "error": null without a result is said as it is.
    expect(run([{ jsonrpc: '2.0', id: 5, error: null }]).results[0]!.findings[0]).toMatchObject({ rule: 'not-an-envelope', message: 'a JSON-RPC response with "error": null and no result holds no envelope' });
    // A real error beside a result is still a transport fault.
    expect(run([{ ...response(3, callResult(ok)), error: { code: -32603, message: 'boom' } }]).results[0]).toMatchObject({ kind: 'skipped', protocolError: true });
  });

  it("the server's own requests and a reused id do not take over an open request's id", () => {
    // MCP servers send roots/list, ping, sampling with ids of their own, from 1 like the client's.
    const server = run([
      line('request', request(1, 'capture')),
      line('request', request(1, '', 'roots/list')),
      line('response', response(1, { roots: [] })),
      line('response', response(1, callResult(failed, true))),
    ]);
    expect(server.results.map((r) => r.kind)).toEqual(['skipped', 'skipped', 'skipped', 'record']);
    expect(server.results[3]).toMatchObject({ tool: 'capture', findings: [] });
    expect(server.late).toEqual([]);
    // Was: find overwrote capture, both answers went to find, the second as a duplicate-response.
    const reused = run([line('request', request(1, 'capture')), line('request', request(1, 'find')), line('response', response(1, callResult(ok))), line('response', response(1, callResult(failed, true)))]);
    expect(reused.results.slice(2)).toMatchObject([{ kind: 'record', tool: 'capture', findings: [] }, { kind: 'record', tool: 'find', findings: [] }]);
    expect(reused.late).toEqual([]);
    // Once both are answered, a third answer is a duplicate.
    const third = run([line('request', request(1, 'capture')), line('request', request(1, 'find')), ...[ok, ok, ok].map((e) => line('response', response(1, callResult(e))))]);
    expect(rules(third.results[4]!)).toEqual(['duplicate-response']);
    // An error, or a broken tool answer, answers the tool call; the ping gets the {} after it
    // (was: the error took the ping's place, and the {} was failed as the tool's envelope).
    const ping = line('request', { jsonrpc: '2.0', id: 1, method: 'ping' });
    const timedOut = line('response', { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'request timed out' } });
    for (const [what, answer] of [['an error', timedOut], ['a broken tool answer', line('response', response(1, failed))]] as const) {
      for (const requests of [[line('request', request(1, 'capture')), ping], [ping, line('request', request(1, 'capture'))]]) {
        const { results, late } = run([...requests, answer, line('response', response(1, {}))]);
        expect(results[3], what).toEqual({ kind: 'skipped', wrapping: 'transcript', findings: [] });
        expect(late, what).toEqual([]);
        if (what === 'an error') expect(results[2]).toMatchObject({ kind: 'skipped', protocolError: true, findings: [] });
        else expect(results[2]).toMatchObject({ kind: 'record', tool: 'capture', hasEnvelope: false, findings: [{ rule: 'not-an-envelope' }] });
      }
    }
    // The error was the ping's when a tool result comes next: the tool call gets it, nothing is left open.
    const pingFailed = run([line('request', request(1, 'capture')), ping, timedOut, line('response', response(1, callResult(ok)))]);
    expect(pingFailed.results[3]).toMatchObject({ kind: 'record', tool: 'capture', findings: [] });
    expect(pingFailed.late).toEqual([]);
    // An open request left behind is still reported, at its own line.
    const open = run([line('request', request(1, 'capture')), line('request', request(1, 'find')), line('response', response(1, callResult(ok)))]);
    expect(open.late).toEqual([expect.objectContaining({ line: 2, tool: 'find' })]);
    // The guess stands while other tool calls are answered: two tool calls and a ping, an error, then
    // two tool results. Was: the first result dropped the guess, the second went to the ping and
    // was skipped, its envelope unchecked (found by a QA helper).
    const two = run([line('request', request(1, 'capture')), line('request', request(1, 'find')), ping, timedOut, line('response', response(1, callResult(ok))), line('response', response(1, callResult({ ok: false })))]);
    expect(two.results.slice(3)).toMatchObject([{ kind: 'skipped', protocolError: true }, { kind: 'record', tool: 'find' }, { kind: 'record', tool: 'capture', hasEnvelope: true }]);
    expect(two.late).toEqual([]);
    // Two pings and two errors: the second error goes to a ping (no tool call is open), the guess on
    // the first still stands, and the tool result takes it back.
    const pings = run([line('request', request(1, 'capture')), ping, line('request', request(1, 'find')), ping, timedOut, line('response', response(1, callResult(ok))), timedOut, line('response', response(1, callResult({ ok: false })))]);
    expect(pings.results.map((r) => (r.kind === 'record' ? r.tool : r.kind))).toEqual(['skipped', 'skipped', 'skipped', 'skipped', 'skipped', 'find', 'skipped', 'capture']);
    expect(pings.late).toEqual([]);
  });

  it('pairs each transcript session apart, also one whose sessionId is a number', () => {
    // Was: a sessionId that is no string paired in the nameless session, sessions 101 and 102 as
    // one, and 102's failure went to 101's tool (found by a QA helper). Not counted as a session
    // name: the number is kept apart from the string "101", too.
    const results = run([
      line('request', request(1, 'capture'), 101 as unknown as string),
      line('request', request(1, 'find'), 102 as unknown as string),
      line('request', request(1, 'click'), '101'),
      line('response', response(1, callResult(failed, true)), 102 as unknown as string),
      line('response', response(1, callResult(ok)), 101 as unknown as string),
      line('response', response(1, callResult(ok)), '101'),
    ]);
    expect(results.results.slice(3)).toMatchObject([
      { kind: 'record', tool: 'find', sessionId: undefined, findings: [] },
      { kind: 'record', tool: 'capture', sessionId: undefined, findings: [] },
      { kind: 'record', tool: 'click', sessionId: '101', findings: [] },
    ]);
    expect(results.late).toEqual([]);
  });

  it('an id that is never emptied lets go of the requests it answered, and still pairs each in turn', () => {
    // A client pipelining on one id: always one request open. Was: every request answered stayed in
    // the id's queue (~100 bytes each, found by a QA helper); the order must survive letting them go.
    const values: unknown[] = [line('request', request(0, 'tool-0'))];
    for (let k = 1; k <= 5000; k++) values.push(line('request', request(0, `tool-${k}`)), line('response', response(0, callResult(ok))));
    const { results, late } = run(values);
    const tools = results.filter((r) => r.kind === 'record').map((r) => (r.kind === 'record' ? r.tool : undefined));
    expect(tools).toEqual(Array.from({ length: 5000 }, (_, k) => `tool-${k}`));
    expect(late).toEqual([expect.objectContaining({ line: 10000, tool: 'tool-5000' })]);
  });

  it('a request its sender cancelled is not unanswered, and an answer that comes anyway is checked', () => {
    const cancel = (requestId: number) => line('request', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'timed out' } });
    expect(run([line('request', request(4, 'wait-for')), cancel(4)]).late).toEqual([]);
    const late = run([line('request', request(4, 'wait-for')), cancel(4), line('response', response(4, callResult(failed, true)))]);
    expect(late.results[2]).toMatchObject({ kind: 'record', tool: 'wait-for', findings: [] });
    // Cancelling another id leaves this one unanswered.
    expect(run([line('request', request(4, 'wait-for')), cancel(5)]).late).toEqual([expect.objectContaining({ line: 1 })]);
    // The server's own request of the id is not what the client cancels, and its answer is still its own.
    const shared = run([line('request', request(1, '', 'roots/list')), line('request', request(1, 'x')), cancel(1), line('response', response(1, { roots: [] }))]);
    expect(shared.results[3]).toMatchObject({ kind: 'skipped', findings: [] });
    expect(shared.late).toEqual([]);
    // Either side may cancel, and a transcript does not say which: as many requests left open go
    // unreported. A server's roots/list cancelled while a tool call shares its id (was a false
    // unanswered-request, the cancel pinned on the tool call).
    const server = run([line('request', request(1, '', 'roots/list')), line('request', request(1, 'x')), cancel(1), line('response', response(1, callResult(ok)))]);
    expect(server.results[3]).toMatchObject({ kind: 'record', tool: 'x', findings: [] });
    expect(server.late).toEqual([]);
    // Its id used again: the answer goes to the request not cancelled (was: to the cancelled
    // wait-for, as the first open tool call), and the cancelled one is not unanswered.
    const reused = run([line('request', request(4, 'wait-for')), cancel(4), line('request', request(4, 'capture')), line('response', response(4, callResult(ok)))]);
    expect(reused.results[3]).toMatchObject({ kind: 'record', tool: 'capture', findings: [] });
    expect(reused.late).toEqual([]);
    // A second answer that comes anyway is the cancelled one's, checked, and not a duplicate.
    const both = run([line('request', request(4, 'wait-for')), cancel(4), line('request', request(4, 'capture')), line('request', request(4, 'find')), ...[ok, ok, ok].map((e) => line('response', response(4, callResult(e))))]);
    expect(both.results.slice(4)).toMatchObject([{ tool: 'capture', findings: [] }, { tool: 'find', findings: [] }, { tool: 'wait-for', findings: [] }]);
    expect(both.late).toEqual([]);
    // Cancelled twice over, with later requests between: each answer goes to the oldest request not cancelled.
    const twice = run([line('request', request(4, 'a')), cancel(4), line('request', request(4, 'b')), line('request', request(4, 'c')), cancel(4), cancel(4), line('request', request(4, 'd')), line('response', response(4, callResult(ok)))]);
    expect(twice.results[7]).toMatchObject({ tool: 'd' });
    expect(twice.late).toEqual([]);
    // Only one of two open requests cancelled: which one is not known, so the answer goes to the first.
    const unknown = run([line('request', request(4, 'a')), line('request', request(4, 'b')), cancel(4), line('response', response(4, callResult(ok)))]);
    expect(unknown.results[3]).toMatchObject({ tool: 'a' });
    expect(unknown.late).toEqual([]);
    // A cancellation concerns the request pending when it came: once that one is answered, a later
    // request of the id is reported when nobody answers it (was: excused by the old cancel).
    const answered = run([line('request', request(1, 'capture')), cancel(1), line('response', response(1, callResult(ok))), line('request', request(1, 'find'))]);
    expect(answered.late).toEqual([expect.objectContaining({ line: 4, tool: 'find', finding: expect.objectContaining({ rule: 'unanswered-request' }) })]);
    // Nor does a cancel that comes after the answer, or before any request of the id.
    const after = run([line('request', request(2, 'capture')), line('response', response(2, callResult(ok))), cancel(2), line('request', request(2, 'find'))]);
    expect(after.late).toEqual([expect.objectContaining({ line: 4, tool: 'find' })]);
    const before = run([line('request', request(3, 'capture')), line('response', response(3, callResult(ok))), cancel(4), line('request', request(4, 'find'))]);
    expect(before.late).toEqual([expect.objectContaining({ line: 4, tool: 'find' })]);
    // Two pending and cancelled, one answered: the other stays excused.
    const two = run([line('request', request(5, '', 'roots/list')), line('request', request(5, 'x')), cancel(5), cancel(5), line('response', response(5, { roots: [] }))]);
    expect(two.late).toEqual([]);
  });

  it('pairing findings name the lines that could not be read where they may hold what is missing', () => {
    // Unparseable lines reach the unwrapper only as their line numbers, given in turn.
    const feed = (entries: (unknown | number)[]) => {
      const unwrapper = autoUnwrapper(context);
      const results = entries.map((entry, i) => (typeof entry === 'number' ? unwrapper.unreadable(entry) : unwrapper.unwrap({ value: entry, line: i + 1 })));
      return { results, messages: [...unwrapper.finish()].map((l) => [l.line, l.finding.message]) };
    };
    // One before the request is not where its answer is; two after it are counted.
    expect(feed([1, line('request', request(4, 'find')), 3, 4]).messages).toEqual([[2, 'find request is never answered in this transcript, unless one of the 2 lines after it that could not be read (from line 3) holds its answer']]);
    expect(feed([1, line('request', request(4, 'find'))]).messages).toEqual([[2, 'find request is never answered in this transcript']]);
    // Requests on either side of an unreadable line each see their own.
    expect(feed([line('request', request(1, 'find')), 2, line('request', request(3, 'capture')), 4]).messages).toEqual([
      [1, 'find request is never answered in this transcript, unless one of the 2 lines after it that could not be read (from line 2) holds its answer'],
      [3, 'capture request is never answered in this transcript, unless line 4, which could not be read, holds its answer'],
    ]);
    const unpaired = feed([line('request', request(8, 'find')), 2, 3, line('response', response(9, callResult(ok)))]).results[3] as Unwrapped;
    expect(unpaired.findings[0]!.message).toBe('response to id 9 has no request of that id before it in this transcript, unless one of the 2 lines before it that could not be read (the last: line 3) holds it');
    // No line can hold a request of a null id.
    const nullId = feed([line('request', request(8, 'find')), 2, line('response', { jsonrpc: '2.0', id: null, result: callResult(ok) })]).results[2] as Unwrapped;
    expect(nullId.findings[0]!.message).toBe('response with id null has no request before it in this transcript: only a string or a number id pairs with one');
  });

  it('an id-less request (MCEC writes {name, arguments}) is answered by the next line of its session (spec section 8.1)', () => {
    const named = (name: string, sessionId = S) => line('request', { name, arguments: { process: 'notepad' } }, sessionId);
    const boom = { jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'boom' } };
    // Answered: the record gets the tool; a JSON-RPC error answers it as a protocol error.
    const { results, late } = run([named('capture'), line('response', response(7, callResult(ok))), named('find'), line('response', boom)]);
    expect(results.map((r) => r.kind)).toEqual(['skipped', 'record', 'skipped', 'skipped']);
    expect(results[1]).toMatchObject({ tool: 'capture', wrapping: 'transcript', sessionId: S, findings: [] });
    expect(results[3]).toMatchObject({ protocolError: true, findings: [] });
    expect(late).toEqual([]);
    // Its id is then answered: a later response to it is a duplicate, naming the request's line.
    const again = run([named('capture'), line('response', response(7, callResult(ok))), line('response', response(7, callResult(ok)))]);
    expect(again.results[2]).toMatchObject({ tool: 'capture', findings: [{ rule: 'duplicate-response', message: 'a second response to id 7 (capture, requested on line 1)' }] });
    // A payload that is no CallToolResult's JSON-RPC response still gets the tool (a bare CallToolResult here).
    expect(run([named('query'), line('response', callResult(ok))]).results[1]).toMatchObject({ kind: 'record', wrapping: 'transcript', tool: 'query' });
    // The next line of its session is a request: unanswered, that line named; the end of the input likewise.
    const open = run([named('find'), named('click', 'other'), named('capture')]);
    expect(open.late.map((l) => [l.line, l.tool, l.finding.message])).toEqual([
      [1, 'find', 'find request is never answered in this transcript: the next line of its session, line 3, is no response'],
      [2, 'click', 'click request is never answered in this transcript: no line of its session follows it'],
      [3, 'capture', 'capture request is never answered in this transcript: no line of its session follows it'],
    ]);
    // A session whose request was answered waits for nothing at the end; another's open request is left.
    const oneOpen = run([named('click', 'other'), line('response', response(7, callResult(ok)), 'other'), named('find')]);
    expect(oneOpen.results[1]).toMatchObject({ kind: 'record', tool: 'click' });
    expect(oneOpen.late.map((l) => [l.line, l.tool, l.finding.message])).toEqual([[3, 'find', 'find request is never answered in this transcript: no line of its session follows it']]);
    // Excused by a truncation marker after it, as any request.
    expect(run([named('capture'), { truncated: 'tool-call log size cap reached' }]).late).toEqual([]);
    // Once the Map holds 256 ids, small ones answered later go to a table, others stay in the Map: a later response is a duplicate either way.
    const far = 2 ** 40;
    const many = Array.from({ length: 300 }, (_, i) => [named(`tool-${i}`), line('response', response(i < 299 ? i : far, callResult(ok)))]).flat();
    const repeated = run([...many, line('response', response(5, callResult(ok))), line('response', response(290, callResult(ok))), line('response', response(far, callResult(ok)))]);
    expect(repeated.results.slice(-3).map((r) => r.findings.map((f) => f.message))).toEqual([['a second response to id 5 (tool-5, requested on line 11)'], ['a second response to id 290 (tool-290, requested on line 581)'], [`a second response to id ${far} (tool-299, requested on line 599)`]]);
    expect(repeated.late).toEqual([]);
  });

  it('a rule set to off is not reported', () => {
    const quiet = autoUnwrapper(createCheckContext({ rules: { 'unanswered-request': 'off', 'unpaired-response': 'off' } }));
    expect(quiet.unwrap({ value: line('response', response(1, callResult(ok))), line: 1 }).findings).toEqual([]);
    quiet.unwrap({ value: line('request', request(2, 'find')), line: 2 });
    expect([...quiet.finish()]).toEqual([]);
  });

  // Once a session's Map is large, its answered ids that are small whole numbers are held in typed
  // arrays, any other id in the Map: after 300 calls answered, the same messages with ids far apart
  // (2^40 + k, which the arrays never take) must pair alike.
  it('an id answered is paired alike whether held in the table of small ids or in the Map', () => {
    const far = 2 ** 40;
    const before = Array.from({ length: 300 }, (_, i) => [line('request', request(100 + i, 'capture')), line('response', response(100 + i, callResult(ok)))]).flat();
    const message = fc.record({
      id: fc.integer({ min: 0, max: 3 }),
      what: fc.constantFrom('call', 'ping', 'cancel', 'ok', 'failed', 'empty', 'error'),
      tool: fc.constantFrom('capture', 'find'),
      inTranscript: fc.boolean(),
    });
    const build = (messages: { id: number; what: string; tool: string; inTranscript: boolean }[], offset: number) => [
      ...before,
      ...messages.map(({ id: k, what, tool, inTranscript }) => {
        const id = k + offset;
        const payload =
          what === 'call' ? request(id, tool)
          : what === 'ping' ? { jsonrpc: '2.0', id, method: 'ping' }
          : what === 'cancel' ? { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }
          : what === 'error' ? { jsonrpc: '2.0', id, error: { code: -32603, message: 'boom' } }
          : response(id, what === 'empty' ? {} : callResult(what === 'ok' ? ok : failed, what === 'failed'));
        const direction = what === 'call' || what === 'ping' || what === 'cancel' ? 'request' : 'response';
        return inTranscript ? line(direction, payload) : payload;
      }),
    ];
    const shown = (outcome: ReturnType<typeof run>) => JSON.stringify(outcome).replace(/1099511627(\d{3})/g, (_, k: string) => String(Number(k) - 776));
    expect(String(far)).toBe('1099511627776');
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 40 }), (messages) => {
        expect(shown(run(build(messages, far)))).toBe(shown(run(build(messages, 0))));
      }),
      { numRuns: 500 },
    );
  });

  // A session keeps small whole-number ids in an array, which takes an id once it is below 64 + 4 x
  // the ids it has taken: an id asked before that is kept apart, and is still found, answered and
  // reported unanswered like any other once the array has grown past it.
  it('an id asked before the array of small ids reaches it pairs as the ids after it', () => {
    const values: unknown[] = [line('request', request(250, 'find')), line('request', request(1001, 'query'))];
    for (let id = 1; id <= 300; id++) if (id !== 250) values.push(line('request', request(id, 'capture')), line('response', response(id, callResult(ok))));
    values.push(line('response', response(250, callResult(ok))), line('response', response(250, callResult(ok))));
    const { results, late } = run(values);
    const records = results.filter((r) => r.kind === 'record');
    expect(records.slice(299).map((r) => [r.kind === 'record' && r.tool, r.findings.map((f) => `${f.rule}: ${f.message}`)])).toEqual([
      ['find', []],
      ['find', ['duplicate-response: a second response to id 250 (find, requested on line 1)']],
    ]);
    expect(late.map((l) => [l.line, l.finding.rule])).toEqual([[2, 'unanswered-request']]);
  });

  it('an id kept apart, then taken by the array, is one id: its last answer is the one a duplicate names', () => {
    // 240 ids answered take 1000 into the array's reach, while the Map still holds every answered
    // id; 60 more left open make it large enough that answered ids go to the table of small ids.
    const values: unknown[] = [line('request', request(1000, 'find'))];
    for (let id = 1; id <= 240; id++) values.push(line('request', request(id, 'capture')), line('response', response(id, callResult(ok))));
    values.push(line('response', response(1000, callResult(ok))), line('request', request(1000, 'invoke')));
    const invokeLine = values.length;
    for (let id = 241; id <= 300; id++) values.push(line('request', request(id, 'capture')));
    values.push(line('response', response(1000, callResult(ok))), line('response', response(1000, callResult(ok))));
    const { results, late } = run(values);
    expect(results.slice(-3).map((r) => [r.kind === 'record' && r.tool, r.findings.map((f) => `${f.rule}: ${f.message}`)])).toEqual([
      [false, []],
      ['invoke', []],
      ['invoke', [`duplicate-response: a second response to id 1000 (invoke, requested on line ${invokeLine})`]],
    ]);
    expect(late).toHaveLength(60);
  });

  it('thousands of ids answered, asked again and answered twice: each finding names its own request', () => {
    const n = 5000;
    const values: unknown[] = [];
    for (let id = 1; id <= n; id++) values.push(line('request', request(id, id % 2 ? 'capture' : 'find')), line('response', response(id, callResult(ok))));
    // Id 7 asked again (its line 2n + 1) and answered; then second answers to 7, 4999, 5000 and to
    // 10^9 (sparse: never asked, then answered twice).
    values.push(line('request', request(7, 'find')), line('response', response(7, callResult(ok))));
    for (const id of [7, 4999, 5000]) values.push(line('response', response(id, callResult(ok))));
    values.push(line('response', response(1e9, callResult(ok))), line('response', response(1e9, callResult(ok))));
    const { results, late } = run(values);
    const said = results.flatMap((r) => r.findings.map((f) => `${f.rule}: ${f.message}`));
    expect(said).toEqual([
      'duplicate-response: a second response to id 7 (find, requested on line 10001)',
      'duplicate-response: a second response to id 4999 (capture, requested on line 9997)',
      'duplicate-response: a second response to id 5000 (find, requested on line 9999)',
      'unpaired-response: response to id 1000000000 has no request of that id before it in this transcript',
      // The second has no request before it either (spec section 5), and answers no request the
      // input holds, so it is no duplicate (spec section 8.9).
      'unpaired-response: response to id 1000000000 has no request of that id before it in this transcript',
    ]);
    expect(results.filter((r) => r.kind === 'record').map((r) => r.tool).slice(-6)).toEqual(['find', 'find', 'capture', 'find', undefined, undefined]);
    expect(late).toEqual([]);
  });
});

describe('firstDifference', () => {
  it('ignores member order and finds the first differing pointer', () => {
    expect(firstDifference({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBeUndefined();
    expect(firstDifference({ a: 1, b: [1, { c: 2 }] }, { a: 1, b: [1, { c: 3 }] })).toBe('/b/1/c');
    // The member one side lacks, either side (was the parent: '' for any extra member).
    expect(firstDifference({ a: 1 }, { a: 1, b: 2 })).toBe('/b');
    expect(firstDifference({ a: 1, x: 1 }, { a: 1 })).toBe('/x');
    expect(firstDifference({ r: { a: 1 } }, { r: { a: 1, b: 2 } })).toBe('/r/b');
    expect(firstDifference({ r: { a: 1, c: 1 } }, { r: { a: 1, b: 2 } })).toBe('/r/c');
    expect(firstDifference([1], 'x')).toBe('');
  });

  it('handles deep nesting without recursion', () => {
    let a: unknown = 1;
    let b: unknown = 2;
    for (let i = 0; i < 100_000; i++) {
      a = [a];
      b = [b];
    }
    expect(firstDifference(a, b)?.length).toBe(200_000);
  });
});

describe('unwrapCallToolResult', () => {
  it('a non-object result holds no envelope', () => {
    expect(unwrapCallToolResult('text')).toMatchObject({ found: false, findings: [{ rule: 'not-an-envelope' }] });
  });

  it('under redact, names what a structuredContent that is no envelope is without its value', () => {
    const said = (structuredContent: unknown) => unwrapCallToolResult({ ...callResult(ok, false), structuredContent }, true).findings.map((f) => f.message);
    expect(said('token=abc123')).toEqual(["structuredContent differs from the text block's envelope: it is a string (value withheld by --redact)"]);
    expect(said(true)).toEqual(["structuredContent differs from the text block's envelope: it is a boolean (value withheld by --redact)"]);
    expect(said(null)).toEqual(["structuredContent differs from the text block's envelope: it is null"]);
    expect(said([1])).toEqual(["structuredContent differs from the text block's envelope: it is an array"]);
    expect(said({ a: 1 })).toEqual(["structuredContent differs from the text block's envelope: it is an object without ok"]);
    const redacted = autoUnwrapper(createCheckContext({ redact: true })).unwrap({ value: { ...callResult(ok, false), structuredContent: 'token=abc123' }, line: 1 });
    expect(redacted.findings.map((f) => f.message)).toEqual(["structuredContent differs from the text block's envelope: it is a string (value withheld by --redact)"]);
  });
});

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { checkEnvelopeWith } from '../src/checks/check-envelope.js';
import { UsageError, checkEnvelope, check as libraryCheck, formatNames, formatReport, formatters, ruleCatalog, ruleIds } from '../src/index.js';
import { pointerName } from '../src/checks/envelope.js';
import { compileEnvelopeSchema } from '../src/checks/schema-load.js';
import { check as checkRun, createCheckContext, type CheckOptions } from '../src/run.js';
import type { RecordFinding } from '../src/types.js';
import type { CheckContext } from '../src/checks/check-envelope.js';
import { lines, tempFiles } from './helpers/cli.js';

const context = createCheckContext();
const check = (value: unknown, ctx = context) => checkEnvelopeWith(ctx, value);
const brief = (findings: readonly RecordFinding[]) => findings.map((f) => [f.rule, f.pointer ?? null, f.severity]);

const failure = (error: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ok: false,
  error: { code: 'window-not-found', category: 'no-target', detail: 'No window matched processName=notepad', ...error },
  sessionId: '5f19c9c01a3f',
  ...extra,
});

describe('the schema, as findings people read', () => {
  it('accepts valid successes and failures', () => {
    expect(check({ ok: true, result: { width: 800 }, warnings: [{ code: 'minimized-window', detail: 'restored first' }] })).toEqual([]);
    expect(check(failure({ lastObservation: { window: 'Untitled - Notepad' }, partialResult: null }, { result: null }))).toEqual([]);
    expect(check({ ok: true, result: null, sessionId: null })).toEqual([]);
  });

  it('a string holding a JSON object where an object belongs: says it may be encoded twice, record by record', () => {
    const messages = (value: unknown) => check(value).filter((f) => f.rule === 'schema').map((f) => f.message);
    const twice = 'a string holding a JSON object, encoded twice?';
    expect(messages(JSON.stringify({ ok: true, result: {} }))).toEqual([`the envelope must be an object (got string): ${twice}`]);
    expect(messages({ ok: true, result: '{"window":"Notepad"}' })).toEqual([`result must be an object or null (got string): ${twice}`]);
    // The same place with a plain string, then a JSON one again: the described-errors cache keeps them apart.
    expect(messages({ ok: true, result: 'Notepad' })).toEqual(['result must be an object or null (got string)']);
    expect(messages({ ok: true, result: ' {"a":1}' })).toEqual([`result must be an object or null (got string): ${twice}`]);
    expect(messages({ ok: true, result: '{not json' })).toEqual(['result must be an object or null (got string)']);
    expect(messages({ ok: true, result: '[1]' })).toEqual(['result must be an object or null (got string)']);
  });

  it('a JSON-RPC batch or a list of envelopes where an envelope belongs says so; other arrays do not', () => {
    const messages = (value: unknown) => check(value).filter((f) => f.rule === 'schema').map((f) => f.message);
    const batch = [{ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'query' } }];
    expect(messages(batch)).toEqual(['the envelope must be an object (got array): a JSON-RPC batch? Messages are read one a line; a batch is not unwrapped']);
    // A .json list piped in on one line (jq -c), read as one record.
    expect(messages([{ ok: true, result: {} }, { ok: false }])).toEqual([
      'the envelope must be an object (got array): a list of envelopes? An array is a list of records only as a whole document (a .json file, or --input json), its elements not flattened further; here it is one record',
    ]);
    // Cached per place: a plain array at the same place keeps the plain message, and back again.
    expect(messages([{ name: 'x' }])).toEqual(['the envelope must be an object (got array)']);
    expect(messages([])).toEqual(['the envelope must be an object (got array)']);
    expect(messages(batch)).toHaveLength(1);
    expect(messages(batch)[0]).toContain('a JSON-RPC batch?');
    // Deeper than the root, an array of messages is just a wrong type.
    expect(messages({ ok: true, result: batch })).toEqual(['result must be an object or null (got array)']);
  });

  it('names the invariant when ok is false without error', () => {
    expect(check({ ok: false, result: null })).toEqual([
      { rule: 'schema', severity: 'error', message: 'ok is false, so error is required', pointer: '', keyword: 'required', schemaPath: '#/allOf/0/then/required' },
    ]);
  });

  it('reports ok:true with an error object once, at /error, keyword not', () => {
    const findings = check({ ok: true, result: {}, error: { code: 'x-y', category: 'timeout', detail: 'd' } }).filter((f) => f.rule === 'schema');
    expect(findings).toEqual([
      { rule: 'schema', severity: 'error', message: 'ok is true, so error must be absent', pointer: '/error', keyword: 'not', schemaPath: '#/allOf/1/then/not' },
    ]);
  });

  it('rejects error:null on success and says the prose allows it', () => {
    const [finding] = check({ ok: true, result: {}, error: null });
    expect(finding).toMatchObject({ rule: 'schema', pointer: '/error', keyword: 'type' });
    expect(finding!.message).toBe(
      'error must be an object (got null); the schema\'s description allows null ("Populated only when ok is false. Omitted or null on success.") but its type does not: omit the member instead',
    );
  });

  it('error:null on a failure, where error is required, is not told to omit it; the two are not confused', () => {
    // In both orders: the description cache must not hand one record's advice to the other.
    for (const value of [{ ok: false, error: null }, { ok: true, result: {}, error: null }, { ok: false, error: null }]) {
      const messages = check(value).map((f) => f.message);
      if (value.ok) expect(messages).toEqual([expect.stringContaining('omit the member instead')]);
      else expect(messages).toEqual(['error must be an object (got null)']);
    }
  });

  it('reports an enum violation once (not once per path into error) with the nearest category', () => {
    const findings = check(failure({ category: 'no_target' }));
    expect(findings).toEqual([
      expect.objectContaining({ rule: 'schema', pointer: '/error/category', keyword: 'enum', schemaPath: '#/$defs/error/properties/category/enum', suggestion: 'no-target' }),
      // The code is known, under no-target (spec section 5 makes no exception for invalid categories).
      expect.objectContaining({ rule: 'code-category-mismatch', pointer: '/error/category', suggestion: 'no-target' }),
    ]);
    expect(findings[0]!.message).toMatch(/^error\.category must be one of: timeout, ambiguous-selector, .*internal \(got "no_target"\)$/);
    expect(check(failure({ category: 'Timeout', code: 'wait-condition-timeout' }))[0]).toMatchObject({ suggestion: 'timeout' });
    expect(check(failure({ category: 'not-a-category' }))[0]!.suggestion).toBeUndefined();
  });

  it('names each additional property at its own pointer', () => {
    const findings = check({ ok: true, result: {}, extra: 1, __proto__x: 2 });
    expect(brief(findings)).toEqual([
      ['schema', '/extra', 'error'],
      ['schema', '/__proto__x', 'error'],
    ]);
    expect(findings[0]!.message).toBe('unexpected property "extra" in the envelope (allowed: sessionId, ok, result, warnings, error)');
    const proto = check(JSON.parse('{"ok":true,"result":{},"__proto__":{"x":1}}'));
    expect(brief(proto)).toEqual([['schema', '/__proto__', 'error']]);
  });

  it("names each member a --schema's unevaluatedProperties refuses, as additionalProperties", () => {
    // Was one finding at the envelope, "must NOT have unevaluated properties", naming none.
    const document = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { ok: { type: 'boolean' }, result: { type: ['object', 'null'] } }, unevaluatedProperties: false };
    const own = { ...context, schema: compileEnvelopeSchema(document, 'inline') };
    const findings = check({ ok: true, result: {}, elapsedMs: 5, traceId: 't' }, own);
    expect(findings.map((f) => [f.pointer, f.keyword, f.message])).toEqual([
      ['/elapsedMs', 'unevaluatedProperties', 'unexpected property "elapsedMs" in the envelope (allowed: ok, result)'],
      ['/traceId', 'unevaluatedProperties', 'unexpected property "traceId" in the envelope (allowed: ok, result)'],
    ]);
  });

  it('suggests for an unexpected property only a near member the object does not have', () => {
    const suggestion = (value: object) => check(value).find((f) => f.keyword === 'additionalProperties')?.suggestion;
    expect(suggestion({ ok: true, reslt: {} })).toBe('result');
    expect(suggestion({ ok: false, eror: { code: 'x' } })).toBe('error');
    expect(suggestion({ ok: true, result: {}, sesionId: 's' })).toBe('sessionId');
    // Was "did you mean ok?" for each: ok is there already, and two edits turn any two-letter name into ok.
    expect(suggestion({ ok: true, result: {}, id: 7 })).toBeUndefined();
    expect(suggestion({ ok: true, result: {}, ts: 't' })).toBeUndefined();
    expect(suggestion({ ok: true, result: {}, a: 1 })).toBeUndefined();
    expect(suggestion({ result: {}, id: 7 })).toBeUndefined();
    expect(suggestion({ ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'd', more: 1 } })).toBeUndefined();
    expect(suggestion({ ok: false, error: { category: 'no-target', detail: 'd', cod: 'x' } })).toBe('code');
  });

  it('accepts __proto__ and constructor inside result', () => {
    expect(check(JSON.parse('{"ok":true,"result":{"__proto__":{"a":1},"constructor":"x"}}'))).toEqual([]);
  });

  it('describes type errors with the value it got', () => {
    expect(check({ ok: 'yes' }).map((f) => f.message)).toEqual(['ok must be a boolean (got string)']);
    expect(check({ ok: true, result: [1] }).map((f) => f.message)).toEqual(['result must be an object or null (got array)']);
    expect(check([1]).map((f) => f.message)).toEqual(['the envelope must be an object (got array)']);
    expect(check('ok').map((f) => f.message)).toEqual(['the envelope must be an object (got string)']);
  });

  it('merges several missing properties at one place and uses readable paths', () => {
    const findings = check({ ok: true, result: {}, warnings: [{ code: 'tree-truncated', detail: 'x' }, {}] });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ pointer: '/warnings/1', keyword: 'required' });
    expect(findings[0]!.message).toBe('warnings[1] is missing required property "code"; warnings[1] is missing required property "detail"');
  });

  it('remembers a description only for the same error on the same value, and apart under --redact', () => {
    const category = (value: string) => check(failure({ category: value })).filter((f) => f.rule === 'schema').map((f) => [f.message, f.suggestion]);
    const first = category('timout');
    expect(category('timout')).toEqual(first);
    expect(category('timeot')[0]![0]).toMatch(/\(got "timeot"\)$/);
    expect(category('no_target')[0]![1]).toBe('no-target');
    const document = { type: 'object', properties: { ok: { type: 'boolean' }, result: { enum: ['a', 'b'] } } };
    const plain = { ...context, schema: compileEnvelopeSchema(document, 'inline') };
    const redacting = { ...plain, redact: true };
    const message = (ctx: typeof context) => check({ ok: true, result: 'c' }, ctx).find((f) => f.rule === 'schema')?.message;
    expect(message(plain)).toMatch(/\(got "c"\)$/);
    expect(message(redacting)).toMatch(/withheld/);
    expect(message(plain)).toMatch(/\(got "c"\)$/);
  });

  it("a then/else branch's constraint on a member is a finding (was dropped when the member is no object)", () => {
    const document = {
      type: 'object',
      if: { properties: { ok: { const: false } } },
      then: { properties: { sessionId: { type: 'string', minLength: 5 } } },
      else: { properties: { sessionId: { maxLength: 3 }, result: { properties: { n: { minimum: 1 } } } } },
    };
    const own = { ...context, schema: compileEnvelopeSchema(document, 'inline') };
    const messages = (value: unknown, ctx = own) => check(value, ctx).filter((f) => f.rule === 'schema').map((f) => [f.pointer, f.message]);
    expect(messages({ ok: false, sessionId: 'ab' })).toEqual([['/sessionId', 'ok is false, so sessionId must NOT have fewer than 5 characters']]);
    expect(messages({ ok: true, result: { n: 0 }, sessionId: 'abcd' })).toEqual([
      ['/sessionId', 'ok is not false, so sessionId must NOT have more than 3 characters'],
      ['/result/n', 'ok is not false, so result.n must be >= 1'],
    ]);
    expect(messages({ ok: false, sessionId: 'abcde' })).toEqual([]);
    // At the if's own instance a non-object still reads only as the type error of the bundled schema...
    expect(messages([1], context)).toEqual([['', 'the envelope must be an object (got array)']]);
    // ...and a schema with no type to say it is never left without a finding: the record is invalid.
    const untyped = { ...context, schema: compileEnvelopeSchema({ if: { properties: { ok: { const: true } } }, then: { not: { required: ['error'] } } }, 'inline') };
    expect(check([1], untyped)).toEqual([expect.objectContaining({ rule: 'schema', severity: 'error', pointer: '', message: "the envelope fails not at #/then/not: the schema's if holds for any value that is not an object (got array)" })]);
  });

  it('turns pointers into names', () => {
    expect(pointerName('')).toBe('the envelope');
    expect(pointerName('/error/lastObservation/a~1b')).toBe('error.lastObservation["a/b"]');
    expect(pointerName('/warnings/0/code')).toBe('warnings[0].code');
  });

  it('reads the category set from the schema in use', () => {
    const newer = createCheckContext({ schema: 'test/data/newer.schema.json' });
    expect(newer.schema.categories).toContain('ocr-no-text');
    expect(check(failure({ category: 'ocr-no-text', code: 'ocr-no-text' }), newer)).toEqual([]);
    // The default is the newest bundled version (spec section 8.3), which has it; 2026-06 does not.
    expect(check(failure({ category: 'ocr-no-text', code: 'ocr-no-text' }))).toEqual([]);
    expect(brief(check(failure({ category: 'ocr-no-text', code: 'ocr-no-text' }), createCheckContext({ schemaVersion: '2026-06' })))).toEqual([['schema', '/error/category', 'error']]);
  });
});

describe('contract rules', () => {
  it('result-on-failure: a failure with a non-null result', () => {
    expect(brief(check(failure({}, { result: { partial: true } })))).toEqual([['result-on-failure', '/result', 'error']]);
    expect(check(failure({}, { result: null }))).toEqual([]);
  });

  it('missing-result: a success without result', () => {
    expect(brief(check({ ok: true }))).toEqual([['missing-result', '', 'warning']]);
    expect(check({ ok: true, result: null })).toEqual([]);
  });

  it('unknown-code: with the nearest known code', () => {
    expect(check(failure({ code: 'window-not-fonud' }))).toEqual([
      { rule: 'unknown-code', severity: 'warning', message: 'unknown error code "window-not-fonud"', pointer: '/error/code', suggestion: 'window-not-found' },
    ]);
    expect(check(failure({ code: 'selector-matched-7', category: 'ambiguous-selector' }))).toEqual([]);
  });

  it('unknown-warning-code: each unknown warning code at its pointer', () => {
    const findings = check({ ok: true, result: {}, warnings: [{ code: 'region-clamped', detail: 'x' }, { code: 'tree-trunkated', detail: 'y' }] });
    expect(findings).toEqual([
      { rule: 'unknown-warning-code', severity: 'warning', message: 'unknown warning code "tree-trunkated"', pointer: '/warnings/1/code', suggestion: 'tree-truncated' },
    ]);
  });

  it('a value quoted in a message is cut between characters, never inside a surrogate pair', () => {
    // Was: the 57th unit was half an emoji, written to JSON reports as a lone "\ud83d".
    const [finding] = check(failure({ code: `${'a'.repeat(55)}😀${'b'.repeat(10)}` }));
    expect(finding!.message).toBe(`unknown error code "${'a'.repeat(55)}...`);
    const [whole] = check(failure({ code: `${'a'.repeat(54)}😀${'b'.repeat(10)}` }));
    expect(whole!.message).toBe(`unknown error code "${'a'.repeat(54)}😀...`);
  });

  it('code-category-mismatch: a known code under another category', () => {
    expect(check(failure({ category: 'timeout' }))).toEqual([
      expect.objectContaining({ rule: 'code-category-mismatch', pointer: '/error/category', suggestion: 'no-target' }),
    ]);
    // frame-all-black is listed under capture-blank (and ocr-blank in newer releases).
    expect(check(failure({ code: 'frame-all-black', category: 'capture-blank' }))).toEqual([]);
  });

  it('code-category-mismatch names and suggests only categories of the schema in use', () => {
    // Was "belongs to capture-blank or ocr-blank" with no suggestion, and for ocr-no-text a
    // suggestion the 2026-06 schema's enum rejects.
    const older = createCheckContext({ schemaVersion: '2026-06' });
    expect(check(failure({ code: 'frame-all-black', category: 'internal' }), older)).toEqual([
      expect.objectContaining({ rule: 'code-category-mismatch', message: 'error code "frame-all-black" belongs to capture-blank, not "internal"', suggestion: 'capture-blank' }),
    ]);
    const [other] = check(failure({ code: 'ocr-no-text', category: 'internal' }), older);
    expect(other).toEqual({ rule: 'code-category-mismatch', severity: 'warning', pointer: '/error/category', message: 'error code "ocr-no-text" belongs to ocr-no-text, a category this schema does not have (schema version 2026-07: --schema-version 2026-07), not "internal"' });
    expect(check(failure({ code: 'ocr-no-text', category: 'internal' }))).toEqual([expect.objectContaining({ rule: 'code-category-mismatch', suggestion: 'ocr-no-text' })]);
    const newer = createCheckContext({ schema: 'test/data/newer.schema.json' });
    expect(check(failure({ code: 'ocr-no-text', category: 'internal' }), newer)).toEqual([expect.objectContaining({ rule: 'code-category-mismatch', suggestion: 'ocr-no-text' })]);
    expect(check(failure({ code: 'frame-all-black', category: 'internal' }), newer)).toEqual([
      expect.objectContaining({ message: 'error code "frame-all-black" belongs to capture-blank or ocr-blank, not "internal"' }),
    ]);
    // A schema with no category enum rules none out.
    const open = { ...context, schema: { ...context.schema, categories: [] } };
    expect(check(failure({ code: 'ocr-no-text', category: 'internal' }), open)).toEqual([expect.objectContaining({ message: 'error code "ocr-no-text" belongs to ocr-no-text, not "internal"', suggestion: 'ocr-no-text' })]);
  });

  it('code-format: codes that are not kebab-case', () => {
    const findings = check(failure({ code: 'WindowNotFound' }, { warnings: [{ code: 'tree_truncated', detail: 'x' }] }));
    expect(brief(findings.filter((f) => f.rule === 'code-format'))).toEqual([
      ['code-format', '/error/code', 'warning'],
      ['code-format', '/warnings/0/code', 'warning'],
    ]);
  });

  it('inline-image: base64 members, data: URLs and long base64 strings in lastObservation only', () => {
    const png = 'iVBORw0KGgo'.padEnd(240, 'A');
    const findings = check(
      failure({
        lastObservation: { window: 'Notepad', screenshot: { base64: '<redacted base64>' }, thumbs: ['data:image/png;base64,iVBO', png], path: 'C:/evidence/1.png' },
        partialResult: { png },
      }),
    );
    expect(brief(findings)).toEqual([
      ['inline-image', '/error/lastObservation/screenshot/base64', 'warning'],
      ['inline-image', '/error/lastObservation/thumbs/0', 'warning'],
      ['inline-image', '/error/lastObservation/thumbs/1', 'warning'],
    ]);
    expect(check(failure({ lastObservation: { text: 'short', artifact: 'shots/0001.png' } }))).toEqual([]);
  });

  it('inline-image: a screenshot of megabytes is a finding, not a RangeError', () => {
    // Was "Maximum call stack size exceeded" from the rule's regex past ~5.6M characters: the whole
    // input failed, every record after it unread.
    const screenshot = 'iVBORw0KGgo'.padEnd(6_000_000, 'A') + '==';
    expect(check(failure({ lastObservation: { screenshot } })).map((f) => [f.rule, f.pointer, f.message])).toEqual([
      ['inline-image', '/error/lastObservation/screenshot', 'error.lastObservation inlines image bytes (a 6000002-character base64 string); write them to an artifact file and name the file instead'],
    ]);
    // Not base64: one character outside the set, or a third '='.
    expect(check(failure({ lastObservation: { text: `${'A'.repeat(6_000_000)}!`, pad: `${'A'.repeat(300)}===` } }))).toEqual([]);
  });

  it('inline-image: base64 broken into lines (MIME, 76 a line) or ending with a line break is image bytes too', () => {
    // Was: no finding for either (found by an audit helper).
    const png = 'iVBORw0KGgo'.padEnd(240, 'A');
    const mime = png.match(/.{1,76}/g)!.join('\r\n');
    // Commit hashes, or ids of uneven length, a line are no image (a reviewer found them reported).
    const hashes = Array.from({ length: 6 }, (_, i) => `${i}`.repeat(40).replace(/^./, 'a')).join('\n');
    const ids = Array.from({ length: 30 }, (_, i) => `folder${'x'.repeat(i % 7)}Name${i}`).join('\n');
    const findings = check(failure({ lastObservation: { mime, unix: png.match(/.{1,76}/g)!.join('\n'), trailing: `${png}\n`, prose: `${'word '.repeat(50)}\n${'x'.repeat(40)}`, short: 'QUJD\nQUJD\n'.repeat(30), hashes, ids } }));
    expect(findings.map((f) => [f.pointer, f.message])).toEqual([
      ['/error/lastObservation/mime', 'error.lastObservation inlines image bytes (a 240-character base64 string); write them to an artifact file and name the file instead'],
      ['/error/lastObservation/unix', 'error.lastObservation inlines image bytes (a 240-character base64 string); write them to an artifact file and name the file instead'],
      ['/error/lastObservation/trailing', 'error.lastObservation inlines image bytes (a 240-character base64 string); write them to an artifact file and name the file instead'],
    ]);
  });

  it('inline-image: a base64 member is reported whatever it holds, in the order the members stand', () => {
    const observation = { a: { base64: null }, b: 1, c: { base64: 7, d: 'data:image/png;base64,AA' }, e: [{ base64: false }, 'D'.repeat(250)], f: { base64: { nested: true } } };
    expect(brief(check(failure({ lastObservation: observation })))).toEqual([
      ['inline-image', '/error/lastObservation/a/base64', 'warning'],
      ['inline-image', '/error/lastObservation/c/base64', 'warning'],
      ['inline-image', '/error/lastObservation/c/d', 'warning'],
      ['inline-image', '/error/lastObservation/e/0/base64', 'warning'],
      ['inline-image', '/error/lastObservation/e/1', 'warning'],
      ['inline-image', '/error/lastObservation/f/base64', 'warning'],
    ]);
  });

  it('inline-image: an image at any depth, on either side of the depth where a first quick look hands over to the walk', () => {
    for (const depth of [0, 1, 31, 32, 33, 40]) {
      const nest = (inner: object) => {
        let value: object = inner;
        for (let i = 0; i < depth; i++) value = { window: 'Notepad', n: i, list: [1, 'x'], inner: value };
        return value;
      };
      const withImage = check(failure({ lastObservation: nest({ artifact: 'shots/1.png', thumb: 'data:image/png;base64,AA' }) }));
      expect(withImage.map((f) => f.pointer), `depth ${depth}`).toEqual([`/error/lastObservation${'/inner'.repeat(depth)}/thumb`]);
      expect(check(failure({ lastObservation: nest({ artifact: 'shots/1.png', capturedAt: '2026-07-01T07:59:57Z' }) })), `depth ${depth}`).toEqual([]);
    }
    // A caller's object: members it inherits are no part of it, as JSON.stringify leaves them out.
    const observation = Object.assign(Object.create({ base64: 'inherited', thumb: 'data:image/png;base64,AA' }) as object, { window: 'Notepad' });
    expect(check(failure({ lastObservation: observation }))).toEqual([]);
  });

  it('inline-image walks deep observations without recursion', () => {
    let deep: unknown = { base64: 'x' };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const findings = check(failure({ lastObservation: { deep } }));
    expect(findings.map((f) => f.rule)).toEqual(['inline-image']);
  });
});

describe('a record with very many findings', () => {
  const extraMembers = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x${i}`, i]));
  const more = (count: number, what: string) => `and ${count} more ${what} in this record, not listed (a record lists at most 100 findings of one rule)`;

  it('lists the first 100 findings of a rule, then one that counts the rest', () => {
    const findings = check({ ok: true, result: {}, ...extraMembers(250) });
    expect(findings).toHaveLength(101);
    expect(findings.slice(0, 100).map((f) => f.pointer)).toEqual(Array.from({ length: 100 }, (_, i) => `/x${i}`));
    expect(findings[100]).toEqual({ rule: 'schema', severity: 'error', message: more(150, 'schema errors') });
    // A contract rule, at its own severity, beside the schema's own list.
    const warnings = Array.from({ length: 130 }, (_, i) => ({ code: `made-up-${i}`, detail: 'd' }));
    const both = check({ ok: true, result: {}, warnings, ...extraMembers(120) });
    expect(both.filter((f) => f.rule === 'unknown-warning-code')).toHaveLength(101);
    expect(both.at(-1)).toEqual({ rule: 'unknown-warning-code', severity: 'warning', message: more(30, 'unknown-warning-code findings') });
    expect(both.find((f) => f.rule === 'schema' && f.pointer === undefined)!.message).toBe(more(20, 'schema errors'));
  });

  it('at 100 or fewer, every finding is listed and none counts', () => {
    expect(check({ ok: true, result: {}, ...extraMembers(100) }).map((f) => f.pointer)).toEqual(Array.from({ length: 100 }, (_, i) => `/x${i}`));
    const warnings = Array.from({ length: 100 }, (_, i) => ({ code: `made-up-${i}`, detail: 'd' }));
    expect(check({ ok: true, result: {}, warnings }).every((f) => f.pointer !== undefined)).toBe(true);
  });

  it("counts past the bundled validator's list, and past a list ajv compiled at run time keeps whole, up to 20,000 values", () => {
    // 30,000 bad items: the validator lists 1,000 errors and counts the rest.
    const value = { ok: true, result: {}, warnings: Array.from({ length: 30_000 }, () => 1) };
    expect(check(value).at(-1)).toEqual({ rule: 'schema', severity: 'error', message: more(29_900, 'schema errors') });
    const runtime = createCheckContext({ schema: 'data/agent-tool-result.schema.json', rules: { schema: 'warning' } });
    expect(runtime.schema.source).not.toBe('bundled');
    const smaller = { ok: true, result: {}, warnings: Array.from({ length: 15_000 }, () => 1) };
    expect(check(smaller, runtime).at(-1)).toEqual({ rule: 'schema', severity: 'warning', message: more(14_900, 'schema errors') });
    // Past 20,000 values, ajv at run time is asked for the first error only: its list has no end.
    expect(check(value, runtime).map((f) => f.pointer ?? f.message)).toEqual([
      '/warnings/0',
      'only the first schema error of this record is listed: it holds more than 20,000 values, and a schema compiled at run time (not the bundled one) is not asked for every error of so large a record',
    ]);
  });
});

describe('severities', () => {
  it('--strict-codes makes unknown codes errors; --rule wins over it', () => {
    const strict = createCheckContext({ strictCodes: true });
    expect(check(failure({ code: 'nope-nope' }), strict)[0]!.severity).toBe('error');
    const relaxed = createCheckContext({ strictCodes: true, rules: { 'unknown-code': 'warning' } });
    expect(check(failure({ code: 'nope-nope' }), relaxed)[0]!.severity).toBe('warning');
  });

  it('a rule set to off produces nothing', () => {
    const quiet = createCheckContext({ rules: { schema: 'off', 'missing-result': 'off' } });
    expect(check({ ok: true, extra: 1 }, quiet)).toEqual([]);
  });

  it('--codes adds codes, patterns included', () => {
    const extended = createCheckContext({ codes: ['test/data/extra-codes.json'] });
    expect(check(failure({ code: 'window-minimized-{n}'.replace('{n}', '3'), category: 'no-target' }), extended)).toEqual([]);
    expect(check(failure({ code: 'dialog-blocked', category: 'foreground' }), extended)).toEqual([]);
    expect(check({ ok: true, result: {}, warnings: [{ code: 'dpi-scaled', detail: '150%' }] }, extended)).toEqual([]);
  });
});

describe('formatReport() and formatters.<name>() on what a caller gives them', () => {
  it('a formatter called without options, or with some, writes what formatReport() writes', async () => {
    // Was: formatters.human(report) crashed ("reading 'color'"), and { } listed no finding.
    const report = await checkRun(['fixtures/invalid'], { jobs: 1 });
    for (const name of formatNames) {
      expect([...formatters[name](report)].join(''), name).toBe(formatReport(name, report));
      expect([...formatters[name](report, { maxListed: 2 })].join(''), name).toBe(formatReport(name, report, { maxListed: 2 }));
    }
    expect(() => formatters.github(report, { maxListd: 1 } as never)).toThrow(new UsageError('formatters.github: unknown option "maxListd" (did you mean "maxListed"?)'));
  });

  it('the JSON report, as --format json writes it, is refused with a UsageError that says what to do', async () => {
    // Was: a TypeError deep in every format ("Cannot read properties of undefined (reading 'source')").
    const report = await checkRun(['fixtures/invalid'], { jobs: 1 });
    const saved = JSON.parse(formatReport('json', report)) as unknown as Parameters<typeof formatReport>[1];
    for (const name of formatNames) {
      expect(() => formatReport(name, saved), name).toThrow(UsageError);
      expect(() => formatReport(name, saved), name).toThrow('formatReport: expected the report check() or merge gave, got another shape (a JSON report, as --format json writes it, is formatted by `mcec-result merge report.json --format <name>`)');
    }
    // The report itself, through JSON and back, is still one.
    expect(formatReport('sarif', JSON.parse(JSON.stringify(report)))).toBe(formatReport('sarif', report));
  });
});

describe("check()'s own files", () => {
  it('leaves the schema and codes files out of a folder it walks, as the command line does', async () => {
    // Was: check(['e'], { schema: 'e/envelope.schema.json', codes: ['e/codes.json'] }) checked both
    // as envelopes (3 inputs, 6 schema errors); mcec-result check e --schema ... --codes ... did not.
    const dir = tempFiles({
      'envelope.schema.json': readFileSync('data/agent-tool-result.schema.json'),
      'codes.json': JSON.stringify({ errorCodes: { timeout: ['my-timeout'] } }),
      'x.jsonl': lines({ ok: false, error: { code: 'my-timeout', category: 'timeout', detail: 'd' } }),
    });
    const options = { schema: join(dir, 'envelope.schema.json'), codes: [join(dir, 'codes.json')] };
    for (const context of [undefined, createCheckContext(options)]) {
      const report = await checkRun([dir], context ? {} : options, context);
      expect(report.summary.inputs).toBe(1);
      expect([...report.findings]).toEqual([]);
    }
  });
});

describe('checkEnvelope() on values built in code', () => {
  it('reads a member holding undefined as absent, as JSON and the schema do', () => {
    // Was: `result: undefined` was a result present, so a failure built as { ok: false, result:
    // maybe, error } was an error (result-on-failure) and { ok: true, result: undefined } passed,
    // the opposite of the same values written as JSON.
    const failure = { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'x' } };
    for (const [value, rules] of [
      [{ ...failure, result: undefined }, []],
      [{ ok: true, result: undefined }, ['missing-result']],
      [Object.assign(Object.create(null) as object, failure, { result: undefined }), []],
    ] as const) {
      expect(checkEnvelope(value).map((f) => f.rule)).toEqual(rules);
      expect(checkEnvelope(JSON.parse(JSON.stringify(value))).map((f) => f.rule)).toEqual(rules);
    }
  });
});

describe('what the library exports is read by every later run', () => {
  it('the rule catalog, the rule ids, the formats and their names cannot be changed by a caller', async () => {
    const catalog = ruleCatalog as unknown as Record<string, { defaultSeverity: string }>;
    expect(() => (catalog.schema!.defaultSeverity = 'off')).toThrow(TypeError);
    expect(() => (catalog.invented = { defaultSeverity: 'error' })).toThrow(TypeError);
    expect(() => (ruleIds as string[]).push('invented')).toThrow(TypeError);
    expect(() => (formatNames as unknown as string[]).push('xml')).toThrow(TypeError);
    expect(() => ((formatters as Record<string, unknown>).json = () => ['forged'])).toThrow(TypeError);
    // Everything still as it was: the schema rule is an error, and 'xml' is no format.
    expect(brief(checkEnvelope({ ok: 'yes' }))).toEqual([['schema', '/ok', 'error']]);
    const report = await checkRun(['fixtures/valid/single-object.json'], { jobs: 1 });
    expect(() => formatReport('xml' as 'json', report)).toThrow('formatReport: unknown format "xml"');
    expect(() => formatReport(1n as unknown as 'json', report)).toThrow('formatReport: unknown format 1n, a BigInt: choose from');
    expect(formatReport('json', report)).toMatch(/^\{\n {2}"reportVersion": 1/);
  });
});

describe('library options', () => {
  // The command line parses its own; a library caller's values reach the run as given.
  const bad: [CheckOptions, string][] = [
    [{ jobs: 0 }, 'jobs: expected a whole number from 1 to 256, got 0'],
    [{ jobs: 257 }, 'jobs: expected a whole number from 1 to 256, got 257'],
    [{ findingsInMemory: -1 }, 'findingsInMemory: expected a whole number of at least 1, got -1'],
    [{ maxLineBytes: 1.5 }, 'maxLineBytes: expected a whole number of at least 1, got 1.5'],
    [{ shard: { index: 3, count: 2 } }, 'shard: expected { index, count } with 1 <= index <= count, got {"index":3,"count":2}'],
    [{ shard: { index: 1, count: 2, of: 3 } as CheckOptions['shard'] }, 'shard: expected { index, count } with 1 <= index <= count, got {"index":1,"count":2,"of":3}'],
    [{ input: 'xml' as CheckOptions['input'] }, 'input: expected auto, json or ndjson, got "xml"'],
    [{ unwrap: 'all' as CheckOptions['unwrap'] }, 'unwrap: expected auto or none, got "all"'],
    [{ rules: { nope: 'off' } as CheckOptions['rules'] }, 'rules: unknown rule "nope"'],
    [{ rules: { schema: 'loud' } as unknown as CheckOptions['rules'] }, 'rules.schema: expected off, warning or error, got "loud"'],
    [{ stdin: '{"ok":true}' as unknown as CheckOptions['stdin'] }, 'stdin: expected chunks (a Readable, or an array of Buffers or strings), got a string: give [text]'],
    [{ stdin: 7 as unknown as CheckOptions['stdin'] }, 'stdin: expected chunks (a Readable, or an array of Buffers or strings), got 7'],
    // A JavaScript caller's slips: signal 5 read no record at all, codes as a string read files t, e, a, m...
    [{ signal: 5 as unknown as AbortSignal }, 'signal: expected an AbortSignal, got 5'],
    [{ codes: 'team.json' as unknown as string[] }, 'codes: expected an array of paths (files, not -), got "team.json"'],
    [{ onProgress: true as unknown as CheckOptions['onProgress'] }, 'onProgress: expected a function, got true'],
    [{ jobs: '2' as unknown as number }, 'jobs: expected a whole number from 1 to 256, got "2"'],
    [{ schema: {} as unknown as string }, 'schema: expected a path (a file, not -), got an object'],
    [{ rules: ['schema'] as unknown as CheckOptions['rules'] }, 'rules: expected { <rule id>: "off" | "warning" | "error" }, got an array'],
    [{ redact: 'yes' as unknown as boolean }, 'redact: expected true or false, got "yes"'],
    [{ maxLineByte: 5 } as CheckOptions, 'unknown option "maxLineByte" (did you mean "maxLineBytes"?)'],
    [{ strict: true } as CheckOptions, 'unknown option "strict" (did you mean "strictCodes"?)'],
    [null as unknown as CheckOptions, 'expected an object, got null'],
    // Were a TypeError from JSON.stringify ("Do not know how to serialize a BigInt"), naming nothing.
    [{ maxLineBytes: 1048576n as unknown as number }, 'maxLineBytes: expected a whole number of at least 1, got 1048576n, a BigInt'],
    [{ rules: { schema: 1n as unknown as 'off' } }, 'rules.schema: expected off, warning or error, got 1n, a BigInt'],
    [{ shard: { index: 1n, count: 2n } as unknown as CheckOptions['shard'] }, 'shard: expected { index, count } with 1 <= index <= count, got {"index":"1n","count":"2n"}'],
    [{ ownFiles: [{ path: 'x' }] as unknown as CheckOptions['ownFiles'] }, 'ownFiles[0]: expected { path: string, role: string, written: boolean }, got an object'],
    // Found by a QA pass: a look-alike signal without removeEventListener ended the process with a
    // TypeError; a Buffer read as numbers ("-" unreadable); a hole in codes reached the run as a
    // path of undefined; NaN was shown as null.
    [{ signal: { aborted: false, addEventListener() {} } as unknown as AbortSignal }, 'signal: expected an AbortSignal, got an object'],
    [{ stdin: Buffer.from('{"ok":true}\n') as unknown as CheckOptions['stdin'] }, 'stdin: expected chunks (a Readable, or an array of Buffers or strings), got a Buffer: give [bytes]'],
    // eslint-disable-next-line no-sparse-arrays
    [{ codes: [, 'team.json'] as unknown as string[] }, 'codes: expected an array of paths (files, not -), got an array'],
    [{ jobs: Number.NaN }, 'jobs: expected a whole number from 1 to 256, got NaN'],
    [{ findingsInMemory: Number.POSITIVE_INFINITY }, 'findingsInMemory: expected a whole number of at least 1, got Infinity'],
  ];

  it('a caller tells its own mistakes by the exported UsageError class', async () => {
    // Was: README named UsageError, but the package did not export it.
    await expect(libraryCheck(['x.jsonl'], { jobs: 0 })).rejects.toBeInstanceOf(UsageError);
    expect(() => formatReport('xml' as 'json', {} as never)).toThrow(UsageError);
    expect(() => createCheckContext({ maxLineByte: 5 } as CheckOptions)).toThrow(UsageError);
  });

  it('out of range or unknown: an error naming the option, before anything is read', async () => {
    for (const [options, message] of bad) {
      expect(() => createCheckContext(options), message).toThrow(`check options: ${message}`);
      // With a context of its own, check() still holds the run's options to the same.
      await expect(checkRun(['no-such-file.jsonl'], options, createCheckContext()), message).rejects.toThrow(`check options: ${message}`);
    }
    // Left out, and left undefined, are the same.
    expect(createCheckContext({ jobs: undefined, signal: undefined }).severities).toEqual(createCheckContext().severities);
    // Options read through a getter or a prototype are held to the same (were not: a class's
    // shard 3/2 checked no input at all, without a word).
    class Options {
      get shard() {
        return { index: 3, count: 2 };
      }
    }
    await expect(checkRun(['fixtures/valid'], new Options() as CheckOptions)).rejects.toThrow('check options: shard: expected { index, count } with 1 <= index <= count, got {"index":3,"count":2}');
    await expect(checkRun(['-'], Object.create({ stdin: 5 }) as CheckOptions)).rejects.toThrow('check options: stdin: expected chunks (a Readable, or an array of Buffers or strings), got 5');
    expect(createCheckContext(Object.create({ rules: { schema: 'off' } }) as CheckOptions).severities.schema).toBe('off');
  });

  it('beside a context of its own, the options that shape a context are refused, not dropped', async () => {
    // Was: the bundled schema and default rules used, schema and rules checked and then ignored.
    await expect(checkRun(['fixtures/valid'], { schema: 'test/data/newer.schema.json', rules: { schema: 'off' } }, createCheckContext())).rejects.toThrow(
      'check(): schema, rules differ from the context given, which decides them: pass the same options to createCheckContext(), or leave them out here',
    );
    await expect(checkRun(['fixtures/valid'], { redact: true }, createCheckContext())).rejects.toThrow('check(): redact differs from the context given, which decides it: pass the same options to createCheckContext(), or leave it out here');
    await expect(checkRun(['fixtures/valid'], { codes: ['test/data/extra-codes.json'] }, createCheckContext())).rejects.toThrow('check(): codes differs');
    expect((await checkRun(['fixtures/valid'], { jobs: 1 }, createCheckContext({ redact: true }))).summary.invalid).toBe(0);
    // Only what the options set is compared: strictCodes false beside a context of other rules, a
    // rule at the context's own setting, the bundled schema by its path (all were refused).
    const other = createCheckContext({ rules: { 'inline-image': 'off' } });
    expect((await checkRun(['fixtures/valid'], { strictCodes: false, rules: { schema: 'error' }, schema: 'data/agent-tool-result.schema.2026-07.json' }, other)).summary.invalid).toBe(0);
    // The same options to both, as a caller naturally writes it, are no conflict.
    const options: CheckOptions = { schema: 'test/data/newer.schema.json', codes: ['test/data/extra-codes.json'], strictCodes: true, rules: { schema: 'warning' }, redact: true, jobs: 1 };
    expect((await checkRun(['fixtures/valid'], options, createCheckContext(options))).summary.records).toBeGreaterThan(0);
  });

  it('an empty list of inputs, stdin without -, and run options given to checkEnvelope() are refused', async () => {
    // Was: a clean report of 0 inputs; the caller's stdin never read; options accepted and ignored.
    await expect(checkRun([])).rejects.toThrow('check inputs: the list is empty: name files, folders or globs, or - for standard input');
    await expect(checkRun(['fixtures/valid'], { stdin: ['{"ok":true}\n'] })).rejects.toThrow("check options: stdin is read as the input -, which the inputs do not name: add '-' to them");
    expect(() => checkEnvelope({ ok: true, result: {} }, { jobs: 2, shard: { index: 1, count: 2 } })).toThrow(
      'checkEnvelope(): shard, jobs apply to a run over inputs (check()), not to one value: schema, schemaVersion, codes, strictCodes, rules, redact and config do',
    );
    expect(checkEnvelope({ ok: true, result: {} }, { strictCodes: true })).toEqual([]);
  });

  it("inputs: an array of paths; check('run.jsonl') is said so, not read a character at a time", async () => {
    await expect(checkRun('run.jsonl' as unknown as string[])).rejects.toThrow('check inputs: expected an array of paths (files, folders, globs, - for stdin), got "run.jsonl": give ["run.jsonl"]');
    await expect(checkRun(['a.jsonl', 5] as unknown as string[])).rejects.toThrow('check inputs: expected an array of paths (files, folders, globs, - for stdin), got an array holding 5');
    // Not a context (was "Cannot read properties of undefined (reading 'source')").
    await expect(checkRun(['fixtures/valid'], {}, {} as CheckContext)).rejects.toThrow('check(): the third argument is a context made by createCheckContext(), got an object');
    // A hole is no path (was a clean report of 0 inputs).
    await expect(checkRun([, 'a.jsonl'] as unknown as string[])).rejects.toThrow('check inputs: expected an array of paths (files, folders, globs, - for stdin), got an array holding undefined');
    await expect(checkRun(undefined as unknown as string[])).rejects.toThrow('check inputs: expected an array of paths (files, folders, globs, - for stdin), got undefined');
  });

  it("a settings path '-' is refused, never read as the host process's standard input (merge alone reads - so)", async () => {
    await expect(checkRun(['no-such-file.jsonl'], { schema: '-' })).rejects.toThrow('check options: schema: expected a path (a file, not -), got "-"');
    await expect(checkRun(['no-such-file.jsonl'], { codes: ['-'] })).rejects.toThrow('check options: codes: expected an array of paths (files, not -), got');
  });

  it("stdin: chunks of bytes or of text are read alike; anything else is refused (an array's) or fails the input (a stream's)", async () => {
    const text = '{"ok":true,"result":{}}\n{"ok":false}\n';
    const expected = await checkRun(['-'], { stdin: [Buffer.from(text)] });
    expect(expected.summary).toMatchObject({ records: 2, invalid: 1 });
    const bytes = Buffer.from(text);
    // A Uint8Array that views part of a larger buffer (was: read as no record at all); text, split
    // inside a record (was: "chunk.subarray is not a function"); and a Readable that gives text.
    const larger = Buffer.concat([Buffer.from('xx'), bytes]);
    const view = new Uint8Array(larger.buffer, larger.byteOffset + 2, bytes.length);
    const readable = Readable.from([text.slice(0, 10), text.slice(10)]);
    for (const stdin of [[view], [text.slice(0, 7), text.slice(7)], readable]) {
      const report = await checkRun(['-'], { stdin });
      expect(report.summary).toEqual(expected.summary);
      expect(report.findings).toEqual(expected.findings);
    }
    // An array's chunks are held to bytes or text before anything is read (was: an unreadable input);
    // a stream's only as they come, so the records before a wrong one are checked.
    await expect(checkRun(['-'], { stdin: [Buffer.from('{"ok":true,"result":{}}\n'), 42 as unknown as string] })).rejects.toThrow(
      new UsageError('check options: stdin[1]: expected a Buffer, Uint8Array or string, got 42'),
    );
    for (const [chunk, kind] of [
      [42, 'a number'],
      [new ArrayBuffer(2), 'an ArrayBuffer'],
      [{}, 'an object'],
    ] as const) {
      const odd = await checkRun(['-'], { stdin: Readable.from([Buffer.from('{"ok":true,"result":{}}\n'), chunk], { objectMode: true }) });
      expect(odd.summary.records).toBe(1);
      expect(odd.inputFailures).toEqual([{ source: '-', message: `cannot read -: standard input gave ${kind}, not bytes (Buffer, Uint8Array) or text` }]);
    }
  });

  it('stdin: an idle stream of the caller still ends when the signal aborts', async () => {
    const idle = new PassThrough();
    idle.write('{"ok":true,"result":{}}\n');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const report = await checkRun(['-'], { stdin: idle, signal: controller.signal });
    expect(report.interrupted).toBe(true);
    expect(report.summary.records).toBe(1);
    // Was pending for good: a generator that never yields again is no stream the signal destroys.
    const stalled = (async function* () {
      yield '{"ok":true,"result":{}}\n';
      await new Promise(() => {});
    })();
    const again = new AbortController();
    setTimeout(() => again.abort(), 300);
    const cut = await checkRun(['-'], { stdin: stalled, signal: again.signal });
    expect(cut).toMatchObject({ interrupted: true, summary: { records: 1 } });
    // Nor does an endless synchronous one keep the abort from firing.
    const endless = (function* () {
      for (;;) yield '{"ok":true,"result":{}}\n';
    })();
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    expect((await checkRun(['-'], { stdin: endless, signal: stop.signal })).interrupted).toBe(true);
    // Nor an endless source that answers in microtasks alone, async generator or Readable.from:
    // the timer of AbortSignal.timeout never ran (the first read all 400k lines, the second never ended).
    const busy = (async function* () {
      for (;;) yield '{"ok":true,"result":{}}\n';
    })();
    expect((await checkRun(['-'], { stdin: busy, signal: AbortSignal.timeout(200) })).interrupted).toBe(true);
    const endlessStream = Readable.from(
      (function* () {
        for (;;) yield '{"ok":true,"result":{}}\n';
      })(),
    );
    expect((await checkRun(['-'], { stdin: endlessStream, signal: AbortSignal.timeout(200) })).interrupted).toBe(true);
    // One already aborted reads nothing.
    expect((await checkRun(['-'], { stdin: ['{"ok":true,"result":{}}\n'], signal: AbortSignal.abort() })).interrupted).toBe(true);
  });

  it('small files checked one after another still let the signal abort between them', async () => {
    // Each is read and checked synchronously, and its promise settles without a macrotask turn: a
    // timer's abort (Ctrl-C's listener alike) never ran between files, and the run read them all.
    const record = JSON.stringify({ ok: true, result: {} });
    const dir = tempFiles(Object.fromEntries(Array.from({ length: 400 }, (_, k) => [`f${String(k).padStart(3, '0')}.jsonl`, `${record}\n`.repeat(200)])));
    const controller = new AbortController();
    // Standard input first, whose end sets the timer: the files are being checked when it is due.
    async function* first() {
      yield `${record}\n`;
      setTimeout(() => controller.abort(), 5);
    }
    const report = await checkRun(['-', dir], { stdin: first(), signal: controller.signal, jobs: 1 });
    expect(report.interrupted).toBe(true);
    expect(report.summary.records).toBeGreaterThan(1);
    expect(report.summary.records).toBeLessThan(1 + 400 * 200);
  });

  it("an onProgress that throws rejects check() with its error, not the process's uncaught exception", async () => {
    async function* slow() {
      yield '{"ok":true,"result":{}}\n';
      await new Promise((resolve) => setTimeout(resolve, 600));
      yield '{"ok":true,"result":{}}\n';
    }
    let calls = 0;
    const onProgress = () => {
      calls++;
      throw new Error('progress boom');
    };
    await expect(checkRun(['-'], { stdin: slow(), onProgress })).rejects.toThrow('progress boom');
    expect(calls).toBe(1);
  });

  it('an async onProgress that rejects rejects check(), and a failed run leaves no spool folder behind', async () => {
    // Was: the rejection went unhandled (the process ended), and a run that rejected kept its
    // temporary folder of spooled findings until the process exited.
    const spoolFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('mcec-result-')).sort();
    const before = spoolFolders();
    async function* slow() {
      // Enough findings to spool past a budget of one, then a pause the progress timer fires in.
      for (let i = 0; i < 50; i++) yield '{"ok":true}\n';
      await new Promise((resolve) => setTimeout(resolve, 600));
      yield '{"ok":true,"result":{}}\n';
    }
    const onProgress = async () => {
      throw new Error('progress sink failed');
    };
    await expect(checkRun(['-'], { stdin: slow(), onProgress, findingsInMemory: 1 })).rejects.toThrow('progress sink failed');
    expect(spoolFolders()).toEqual(before);
  });

  it('the values the command line allows pass, and are used', async () => {
    const options: CheckOptions = { jobs: 1, findingsInMemory: 1, maxLineBytes: 1, shard: { index: 2, count: 2 }, input: 'ndjson', unwrap: 'none', rules: { schema: 'off' } };
    expect(createCheckContext(options).severities.schema).toBe('off');
    const report = await checkRun(['-', 'fixtures/valid/blank-lines.ndjson', 'fixtures/valid/every-category.jsonl'], { ...options, stdin: ['{}\n \n{"ok":true}\n'] });
    // Shard 2 of the three inputs sorted ('-' first) is blank-lines.ndjson alone, its three records
    // each over one byte.
    const seen = [...report.findings].map((f) => [f.location.source, f.location.line, f.message]);
    const over = 'line is longer than --max-line-bytes (1 bytes): raise it to read the line';
    expect(seen).toEqual([2, 6, 9].map((line) => ['fixtures/valid/blank-lines.ndjson', line, over]));
    // --unwrap none reads a transcript line as an envelope, which --rule schema=off does not fault.
    const line = JSON.stringify({ direction: 'request', payload: { jsonrpc: '2.0', id: 1, method: 'tools/call' } });
    const bare = await checkRun(['-'], { ...options, maxLineBytes: 1024, shard: undefined, stdin: [line] });
    expect(bare.summary).toMatchObject({ records: 1, skipped: 0, outcomes: { unknown: 1 } });
    expect([...bare.findings].filter((f) => f.rule === 'schema')).toEqual([]);
    expect((await checkRun(['-'], { stdin: [line] })).summary).toMatchObject({ records: 0, skipped: 1 });
  });
});

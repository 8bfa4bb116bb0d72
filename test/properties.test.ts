// Property-based tests (fast-check) of the invariants ARCHITECTURE.md and spec sections 3, 6 and 7
// state: framing never throws and yields one entry per non-blank line at its 1-based line number,
// chunking never changes what framing yields, unwrapping and checking never throw, and a whole run
// accounts for every non-blank line exactly once.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { callToolResult, category, envelopeLike, errorLike, rpcMessage, smallObject, transcriptLine, truncation } from './helpers/line-arbitraries.js';
import { describe, expect, it } from 'vitest';
import { createCheckContext, check } from '../src/run.js';
import { checkEnvelopeWith, ruleRunsOn } from '../src/checks/check-envelope.js';
import { envelopeRules } from '../src/checks/catalog.js';
import { factsOf } from '../src/checks/envelope.js';
import type { RuleReport } from '../src/checks/rules/rule.js';
import { canonicalJson, canonicalJsonDeep, fingerprint, sortedNames } from '../src/fingerprint.js';
import { frameDocument as frameDocumentInto } from '../src/framing/document.js';
import { frameBuffer, frameInput } from '../src/framing/index.js';
import { decodeInput, plainUtf8 } from '../src/sources/decode.js';
import { extractObject } from '../src/framing/extract.js';
import { NdjsonFramer } from '../src/framing/ndjson.js';
import { firstSyntaxError, parseErrorCode, scanError, token } from '../src/framing/parse-error.js';
import type { Framed } from '../src/types.js';
import { autoUnwrapper } from '../src/unwrap/auto.js';
import type { Unwrapped } from '../src/unwrap/types.js';
import { firstDifference } from '../src/unwrap/mcp.js';

/** The document's entries, as the sink they are framed into holds them. */
function frameDocument(bytes: Buffer, options: { redact?: boolean } = {}): Framed[] {
  const framed: Framed[] = [];
  frameDocumentInto(bytes, options, framed);
  return framed;
}

const slow = { timeout: 600_000 };
const context = createCheckContext();

// ---------------------------------------------------------------------------------------------
// Helpers

const LF = 0x0a;

/** Bytes heavy in the ones framing cares about: LF, CR, 0xff, `{`, `"`, blanks; plus anything. */
const interestingByte = fc.oneof(
  { arbitrary: fc.constantFrom(0x0a, 0x0d, 0xff, 0x7b, 0x7d, 0x22, 0x20, 0x09, 0x3a, 0x2c, 0x5c, 0xc3, 0xa9, 0xe2, 0x80), weight: 3 },
  { arbitrary: fc.integer({ min: 0, max: 255 }), weight: 2 },
);
const arbitraryBytes = fc.array(interestingByte, { maxLength: 400 }).map((bytes) => Buffer.from(bytes));

/** Line numbers (1-based) of the non-blank lines, computed on bytes: a line ends at LF; blank = only space, tab, CR. */
function nonBlankLines(bytes: Uint8Array): number[] {
  const lines: number[] = [];
  let line = 1;
  let blank = true;
  let empty = true;
  for (const b of bytes) {
    if (b === LF) {
      if (!blank) lines.push(line);
      line++;
      blank = true;
      empty = true;
      continue;
    }
    empty = false;
    if (b !== 0x20 && b !== 0x09 && b !== 0x0d) blank = false;
  }
  // A last line without LF counts when it has bytes (and is not blank).
  if (!empty && !blank) lines.push(line);
  return lines;
}

/** Number of lines in the input: LF-separated, a trailing LF does not open another line. */
function lineCount(bytes: Uint8Array): number {
  let count = 0;
  for (const b of bytes) if (b === LF) count++;
  if (bytes.length > 0 && bytes[bytes.length - 1] !== LF) count++;
  return count;
}

function frame(bytes: Buffer, splits: readonly number[] = [], options: { maxLineBytes?: number; extract?: boolean; windowBytes?: number } = {}): Framed[] {
  const framer = new NdjsonFramer(options);
  const out: Framed[] = [];
  const points = [...new Set(splits.map((s) => s % (bytes.length + 1)))].sort((a, b) => a - b);
  let at = 0;
  for (const point of points) {
    framer.push(bytes.subarray(at, point), out);
    at = point;
  }
  framer.push(bytes.subarray(at), out);
  framer.end(out);
  return out;
}

function expectWellFormed(entries: Framed[], expectedLines: number[], extract: boolean): void {
  expect(entries.map((e) => e.line)).toEqual(expectedLines);
  for (let i = 1; i < entries.length; i++) expect(entries[i]!.line).toBeGreaterThan(entries[i - 1]!.line);
  for (const entry of entries) {
    if (entry.kind === 'unparseable') {
      expect(typeof entry.message).toBe('string');
      expect(entry.message.length).toBeGreaterThan(0);
      if (entry.column !== undefined) {
        expect(Number.isInteger(entry.column)).toBe(true);
        expect(entry.column).toBeGreaterThanOrEqual(1);
      }
    } else if (entry.kind === 'noise') {
      expect(extract).toBe(true);
    } else {
      expect(entry.kind).toBe('value');
      if (extract) {
        expect(typeof entry.extracted).toBe('boolean');
        expect(typeof entry.value === 'object' && entry.value !== null && !Array.isArray(entry.value)).toBe(true);
      }
    }
  }
}

/** Realistic NDJSON: JSON values (multi-byte and surrogate-heavy strings included) between LF, CRLF and blank lines. */
const separator = fc.constantFrom('\n', '\r\n', '\n\n', '\n \t\n', '\r\n\r\n', '\n\r\n', '\n   \n');
const ndjsonText = fc
  .tuple(
    fc.array(fc.tuple(fc.oneof(fc.jsonValue({ stringUnit: 'binary', maxDepth: 4 }), fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 })), separator), { maxLength: 12 }),
    fc.constantFrom('', '\n', '\r\n', ' '),
  )
  .map(([items, tail]) => items.map(([value, sep]) => JSON.stringify(value) + sep).join('') + tail);

const splitPoints = fc.array(fc.nat(), { maxLength: 30 });

// ---------------------------------------------------------------------------------------------
// 1-3: line-delimited framing

describe('NdjsonFramer properties', () => {
  it('never throws on arbitrary bytes and yields one entry per non-blank line, at its 1-based line', () => {
    fc.assert(
      fc.property(arbitraryBytes, (bytes) => {
        const entries = frame(bytes);
        expectWellFormed(entries, nonBlankLines(bytes), false);
        for (const entry of entries) expect(entry.kind).not.toBe('noise');
      }),
      { numRuns: 300 },
    );
  });

  // Lines are decoded a window at a time (64 KiB); small windows put window edges next to every kind
  // of line here: cut characters, invalid bytes, CR, blank and over-long lines.
  const windowBytes = fc.integer({ min: 0, max: 64 });

  it('chunking does not matter on arbitrary bytes (messages, columns and values included), small --max-line-bytes and windows too', () => {
    fc.assert(
      fc.property(arbitraryBytes, splitPoints, fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }), fc.boolean(), windowBytes, (bytes, splits, maxLineBytes, extract, window) => {
        const options = { ...(maxLineBytes !== undefined && { maxLineBytes }), extract };
        const whole = frame(bytes, [], options);
        expect(frame(bytes, splits, options)).toEqual(whole);
        expect(frame(bytes, splits, { ...options, windowBytes: window })).toEqual(whole);
        // One line a chunk, so one line a window, against one window for the whole input.
        if (!extract) expect(frame(bytes, Array.from({ length: bytes.length }, (_, i) => i).filter((i) => bytes[i - 1] === 0x0a), options)).toEqual(whole);
        // Byte-at-a-time is the most extreme chunking.
        if (bytes.length <= 120) expect(frame(bytes, Array.from({ length: bytes.length }, (_, i) => i), options)).toEqual(whole);
      }),
      { numRuns: 250 },
    );
  });

  it('chunking does not matter on realistic NDJSON, and each value is the parsed line', () => {
    fc.assert(
      fc.property(ndjsonText, splitPoints, windowBytes, (text, splits, window) => {
        const bytes = Buffer.from(text, 'utf8');
        const whole = frame(bytes);
        expect(frame(bytes, splits)).toEqual(whole);
        expect(frame(bytes, splits, { windowBytes: window })).toEqual(whole);
        const expectedLines = nonBlankLines(bytes);
        expectWellFormed(whole, expectedLines, false);
        const lines = text.split('\n');
        for (const entry of whole) {
          expect(entry.kind).toBe('value');
          if (entry.kind === 'value') expect(entry.value).toEqual(JSON.parse(lines[entry.line - 1]!));
        }
      }),
      { numRuns: 200 },
    );
  });

  // Found by this property: a blank line longer than --max-line-bytes used to become an unparseable
  // entry (six spaces with maxLineBytes 3), breaking `records + unparseable + skipped == non-blank lines`.
  it('with a small --max-line-bytes: still one entry per non-blank line, over-long ones named as such', () => {
    const blankHeavy = fc.array(fc.oneof(fc.constantFrom(0x20, 0x09, 0x0d, 0x0a), interestingByte), { maxLength: 200 }).map((b) => Buffer.from(b));
    fc.assert(
      fc.property(blankHeavy, fc.integer({ min: 1, max: 12 }), splitPoints, (bytes, maxLineBytes, splits) => {
        const entries = frame(bytes, splits, { maxLineBytes });
        expect(entries.map((e) => e.line)).toEqual(nonBlankLines(bytes));
        const raw = bytes.toString('latin1').split('\n');
        for (const entry of entries) {
          const line = raw[entry.line - 1]!;
          const tooLong = entry.kind === 'unparseable' && entry.message.startsWith('line is longer than --max-line-bytes');
          // A CRLF's CR is no part of the line: a line is too long by its own bytes alone.
          expect(tooLong).toBe(line.replace(/\r$/, '').length > maxLineBytes);
        }
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('with extract: never throws, one entry per non-blank line, objects only', () => {
    const prefix = fc.constantFrom('', '2026-07-01T10:15:02Z INFO agent result ', 'ctx={"req":7} ', '{"', 'x {"a":', '>> ', '{ "ok": true} ');
    const logLine = fc.oneof(
      fc.tuple(prefix, fc.jsonValue({ maxDepth: 3 })).map(([p, v]) => p + JSON.stringify(v)),
      fc.tuple(prefix, fc.string({ maxLength: 30 })).map(([p, s]) => p + s),
      fc.string({ unit: fc.constantFrom('{', '"', '}', ':', ',', 'a', ' ', '1', '[', ']', '\\'), maxLength: 40 }),
    );
    const text = fc.array(fc.tuple(logLine, separator), { maxLength: 10 }).map((items) => items.map(([l, s]) => l + s).join(''));
    fc.assert(
      fc.property(fc.oneof(text.map((t) => Buffer.from(t, 'utf8')), arbitraryBytes), splitPoints, (bytes, splits) => {
        const entries = frame(bytes, splits, { extract: true });
        expectWellFormed(entries, nonBlankLines(bytes), true);
        expect(frame(bytes, [], { extract: true })).toEqual(entries);
      }),
      { numRuns: 250 },
    );
  });

  it('extractObject never throws and finds an object exactly when the rest of the line is one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ maxLength: 30 })), (prefix, tail) => {
        const text = prefix + (typeof tail === 'string' ? tail : JSON.stringify(tail));
        const extracted = extractObject(text);
        expect(['value', 'noise', 'unparseable']).toContain(extracted.kind);
        if (extracted.kind === 'noise') expect(text).not.toMatch(/\{[ \t]*"/);
        if (extracted.kind === 'value') expect(typeof extracted.value === 'object' && extracted.value !== null && !Array.isArray(extracted.value)).toBe(true);
        if (extracted.kind === 'unparseable') {
          expect(extracted.failure.offset).toBeGreaterThanOrEqual(0);
          expect(extracted.failure.message.length).toBeGreaterThan(0);
        }
        // A non-empty object after a prefix without `{"` is always found (spec section 7, --extract).
        if (typeof tail !== 'string' && tail !== null && typeof tail === 'object' && !Array.isArray(tail) && Object.keys(tail).length > 0 && !prefix.includes('{')) {
          // Prefixed (wrapping log) exactly when text stands before the object.
          expect(extracted).toEqual({ kind: 'value', value: JSON.parse(JSON.stringify(tail)), prefixed: prefix.trim() !== '', at: prefix.length });
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 4: .json documents

/** Lines a value takes when pretty-printed with `indent`. */
function linesOf(value: unknown, indent: number | string): number {
  return JSON.stringify(value, null, indent).split('\n').length;
}

describe('frameDocument properties', () => {
  it('never throws on arbitrary bytes or arbitrary JSON text', () => {
    fc.assert(
      fc.property(fc.oneof(arbitraryBytes, fc.json({ maxDepth: 4 }).map((t) => Buffer.from(t, 'utf8'))), (bytes) => {
        const entries = frameDocument(bytes);
        expect(Array.isArray(entries)).toBe(true);
        for (const entry of entries) {
          expect(entry.line).toBeGreaterThanOrEqual(1);
          expect(entry.line).toBeLessThanOrEqual(Math.max(1, lineCount(bytes)));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a JSON value that is not an array is one value; an array gives one value per element, at the line where it starts', () => {
    const indent = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom('\t', ' ', ''));
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }), fc.array(fc.jsonValue({ maxDepth: 3, stringUnit: 'grapheme' }), { maxLength: 12 }), indent, (single, array, space) => {
        if (!Array.isArray(single)) {
          const text = JSON.stringify(single, null, space);
          // Spread over lines, it tells where its values start (spec section 8.11, field-pretty.test.ts).
          const [entry, ...rest] = frameDocument(Buffer.from(text, 'utf8'));
          expect(rest).toEqual([]);
          const { starts, text: own, textAt, textPlace, ...framed } = entry as Extract<Framed, { kind: 'value' }>;
          expect(framed).toEqual({ kind: 'value', line: 1, value: JSON.parse(text) });
          // The text it was parsed from, for what the value does not keep (duplicate members).
          expect({ own, textAt, textPlace }).toEqual({ own: text, textAt: 0, textPlace: { document: text, at: 0 } });
          expect(starts !== undefined).toBe(text.includes('\n'));
        }
        const text = JSON.stringify(array, null, space);
        const entries = frameDocument(Buffer.from(text, 'utf8'));
        const parsed = JSON.parse(text) as unknown[];
        expect(entries).toHaveLength(array.length);
        entries.forEach((entry, i) => {
          expect(entry.kind).toBe('value');
          if (entry.kind === 'value') expect(entry.value).toEqual(parsed[i]);
          // Each element's own text, at its place in the document.
          if (entry.kind === 'value' && entry.textPlace) expect([JSON.parse(entry.text!), text.slice(entry.textPlace.at, entry.textPlace.at + entry.text!.length)]).toEqual([parsed[i], entry.text]);
        });
        for (let i = 1; i < entries.length; i++) expect(entries[i]!.line).toBeGreaterThanOrEqual(entries[i - 1]!.line);
        // Exact lines: pretty-printed, element i starts after `[` and the lines of the elements before it.
        const pretty = text.includes('\n');
        let expected = pretty ? 2 : 1;
        entries.forEach((entry, i) => {
          expect(entry.line).toBe(expected);
          if (pretty) expected += linesOf(array[i], space);
        });
      }),
      { numRuns: 250 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 5: unwrapping and checking

const anyLineValue = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  { arbitrary: envelopeLike, weight: 2 },
  { arbitrary: callToolResult, weight: 2 },
  { arbitrary: rpcMessage, weight: 2 },
  { arbitrary: transcriptLine, weight: 3 },
  { arbitrary: truncation, weight: 1 },
);
/** Values as framing hands them over: parsed JSON (own `__proto__` keys included when fc makes them). */
const parsedLineValue = anyLineValue.map((v) => JSON.parse(JSON.stringify(v)) as unknown);

const wrappings = ['bare', 'mcp', 'jsonrpc', 'transcript', 'log'];
const ruleIds = new Set(Object.keys(context.severities));

function expectFindings(findings: unknown): void {
  expect(Array.isArray(findings)).toBe(true);
  for (const finding of findings as Record<string, unknown>[]) {
    expect(ruleIds.has(finding['rule'] as string)).toBe(true);
    expect(['error', 'warning']).toContain(finding['severity']);
    expect(typeof finding['message']).toBe('string');
    if (finding['pointer'] !== undefined) expect(finding['pointer']).toMatch(/^(\/.*)?$/s);
  }
}

function expectUnwrapped(unwrapped: Unwrapped): void {
  expect(['record', 'skipped']).toContain(unwrapped.kind);
  expectFindings(unwrapped.findings);
  if (unwrapped.kind === 'record') {
    expect(typeof unwrapped.hasEnvelope).toBe('boolean');
    expect(wrappings).toContain(unwrapped.wrapping);
    if (unwrapped.hasEnvelope) expect(Object.hasOwn(unwrapped, 'envelope')).toBe(true);
    else expect(unwrapped.findings.length).toBeGreaterThan(0);
  }
}

describe('unwrapping and checking properties', () => {
  it('autoUnwrapper never throws and gives a record or a skipped entry for every value; checking never throws', slow, () => {
      fc.assert(
        fc.property(fc.array(parsedLineValue, { minLength: 1, maxLength: 12 }), fc.boolean(), (values, extracted) => {
          const unwrapper = autoUnwrapper(context);
          values.forEach((value, i) => {
            const unwrapped = unwrapper.unwrap({ value, line: i + 1, extracted });
            expectUnwrapped(unwrapped);
            if (unwrapped.kind === 'record' && unwrapped.hasEnvelope) expectFindings(checkEnvelopeWith(context, unwrapped.envelope));
          });
          for (const late of unwrapper.finish()) {
            expect(late.line).toBeGreaterThanOrEqual(1);
            expect(late.line).toBeLessThanOrEqual(values.length);
            expectFindings([late.finding]);
          }
        }),
        { numRuns: 300 },
      );
  });

  it('a rule finds nothing on an envelope without the parts it reads (where it is not run)', () => {
    const skipped = new Map<string, number>();
    fc.assert(
      fc.property(fc.oneof(envelopeLike, fc.jsonValue({ maxDepth: 3 })), (value) => {
        const facts = factsOf(value);
        for (const rule of envelopeRules) {
          if (ruleRunsOn(rule, facts)) continue;
          skipped.set(rule.id, (skipped.get(rule.id) ?? 0) + 1);
          const out: RuleReport[] = [];
          rule.check(facts, context, out);
          expect(out).toEqual([]);
        }
      }),
      { numRuns: 500 },
    );
    // Every rule was left out somewhere, the outcome rules on plain successes and failures too.
    expect([...skipped.keys()].sort()).toEqual(envelopeRules.map((rule) => rule.id).sort());
  });

  it('facts read from a parsed envelope (told it is JSON.parse\'s, or not) equal those read member by member with Object.hasOwn', () => {
    const bare = (value: unknown): unknown => {
      if (typeof value !== 'object' || value === null) return value;
      if (Array.isArray(value)) return value.map(bare);
      // A null prototype takes factsOf's careful path: the reference for its fast one.
      return Object.assign(Object.create(null) as object, Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bare(v)])));
    };
    fc.assert(
      fc.property(fc.oneof(envelopeLike, fc.jsonValue({ maxDepth: 3 })), (value) => {
        const parsed: unknown = JSON.parse(JSON.stringify(value));
        const { value: _fast, ...fast } = factsOf(parsed);
        const { value: _careful, ...careful } = factsOf(bare(parsed));
        // What the pipeline asks for: no prototype check at all.
        const { value: _json, ...json } = factsOf(parsed, true);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(careful));
        expect(JSON.stringify(json)).toBe(JSON.stringify(careful));
        expect(fast.hasResult).toBe(careful.hasResult);
        expect(json.hasResult).toBe(careful.hasResult);
      }),
      { numRuns: 500 },
    );
  });

  it('checkEnvelopeWith never throws on arbitrary JSON values, and a non-object is schema-invalid', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue({ maxDepth: 4 }), envelopeLike, errorLike), (value) => {
        const findings = checkEnvelopeWith(context, value);
        expectFindings(findings);
        if (typeof value !== 'object' || value === null || Array.isArray(value)) expect(findings.some((f) => f.rule === 'schema')).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// 6: accounting end to end

const S = '5f19c9c01a3f';
const goodEnvelope = fc.oneof(
  fc.record({ ok: fc.constant(true), result: fc.oneof(smallObject, fc.constant(null)), sessionId: fc.constantFrom(S, null) }, { requiredKeys: ['ok'] }),
  fc.record({
    ok: fc.constant(false),
    error: fc.record({ code: fc.constantFrom('element-not-found', 'window-not-fonud', 'timeout-elapsed'), category: category, detail: fc.string({ maxLength: 10 }) }),
  }),
);
const inputLine = fc.oneof(
  { arbitrary: goodEnvelope.map((e) => JSON.stringify(e)), weight: 3 },
  { arbitrary: envelopeLike.map((e) => JSON.stringify(e)), weight: 1 },
  {
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 4 }), fc.constantFrom('capture', 'find', 'invoke'), fc.constantFrom('tools/call', 'tools/list'), fc.constantFrom(S, 'other')).map(([id, name, method, sessionId]) =>
      JSON.stringify({ ts: '2026-07-01T10:15:02.123Z', sessionId, direction: 'request', method, payload: { jsonrpc: '2.0', id, method, params: { name, arguments: {} } } }),
    ),
    weight: 2,
  },
  // MCEC's own request line (spec section 8.1): `{name, arguments}`, answered by the next line of its session.
  {
    arbitrary: fc.tuple(fc.constantFrom('capture', 'find', 'invoke'), fc.constantFrom(S, 'other')).map(([name, sessionId]) =>
      JSON.stringify({ ts: '2026-07-01T10:15:02.1234567+02:00', sessionId, direction: 'request', method: 'tools/call', payload: { name, arguments: {} } }),
    ),
    weight: 2,
  },
  {
    arbitrary: fc.tuple(fc.integer({ min: 1, max: 4 }), fc.oneof(goodEnvelope, envelopeLike), fc.boolean(), fc.constantFrom(S, 'other'), fc.boolean()).map(([id, envelope, isError, sessionId, rpcError]) =>
      JSON.stringify({
        ts: '2026-07-01T10:15:02.123Z',
        sessionId,
        direction: 'response',
        method: 'tools/call',
        payload: rpcError ? { jsonrpc: '2.0', id, error: { code: -32000, message: 'boom' } } : { jsonrpc: '2.0', id, result: { content: [{ type: 'image', data: '<redacted base64>' }, { type: 'text', text: JSON.stringify(envelope) }], isError } },
      }),
    ),
    weight: 2,
  },
  { arbitrary: rpcMessage.map((m) => JSON.stringify(m)), weight: 1 },
  { arbitrary: callToolResult.map((m) => JSON.stringify(m)), weight: 1 },
  { arbitrary: fc.constant('{"truncated":"tool-call log size cap reached"}'), weight: 1 },
  { arbitrary: fc.string({ maxLength: 30 }), weight: 2 },
  { arbitrary: fc.constantFrom('{"ok":true,', '{', '  "ok": true,', '}', '[1,', 'null', '42', '"x"', '{"ok":tru}', '\u00e9\u6f22', '{"a":1}x'), weight: 2 },
  { arbitrary: fc.constantFrom('', ' ', '\t', '\r', ' \t\r '), weight: 2 },
);

// Decoding (spec section 7, text encoding; section 3, gzip) must not change what is counted.
const encodings = {
  utf8: (text: string) => Buffer.from(text, 'utf8'),
  'utf8 with BOM': (text: string) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]),
  'utf-16le with BOM': (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
  'utf-16be with BOM': (text: string) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]),
  gzip: (text: string) => gzipSync(Buffer.from(text, 'utf8')),
};
const encoding = fc.oneof(
  { arbitrary: fc.constant('utf8' as const), weight: 4 },
  { arbitrary: fc.constantFrom(...(Object.keys(encodings) as (keyof typeof encodings)[])), weight: 2 },
);

async function* chunksOf(bytes: Buffer, splits: readonly number[]): AsyncGenerator<Buffer> {
  const points = [...new Set(splits.map((s) => s % (bytes.length + 1)))].sort((a, b) => a - b);
  let at = 0;
  for (const point of points) {
    yield bytes.subarray(at, point);
    at = point;
  }
  yield bytes.subarray(at);
}

describe('accounting end to end', () => {
  it('records + unparseable + skipped == non-blank lines, every finding on a line of the input', slow, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(inputLine, fc.constantFrom('\n', '\r\n')), { maxLength: 30, size: 'medium' }), fc.boolean(), encoding, splitPoints, async (lines, finalBreak, encode, splits) => {
          let text = lines.map(([l, s]) => l + s).join('');
          if (!finalBreak && text.endsWith('\n')) text = text.replace(/\r?\n$/, '');
          const bytes = Buffer.from(text, 'utf8');
          const report = await check(['-'], { stdin: chunksOf(encodings[encode](text), splits) }, context);
          const { summary } = report;
          expect(summary.records + summary.unparseable + summary.skipped).toBe(nonBlankLines(bytes).length);
          expect(summary.valid + summary.invalid).toBe(summary.records);
          expect(report.inputFailures).toEqual([]);
          const total = Math.max(1, lineCount(bytes));
          for (const finding of report.findings) {
            expect(finding.location.source).toBe('-');
            expect(finding.location.line).toBeGreaterThanOrEqual(1);
            expect(finding.location.line).toBeLessThanOrEqual(total);
          }
        }),
        { numRuns: 120 },
      );
  });
});

describe('frameDocument at the end of the input', () => {
  it('reports a document cut short where its content ends, not on a line past the last', () => {
    expect(frameDocument(Buffer.from('{\n'))).toEqual([{ kind: 'unparseable', line: 1, column: 2, message: expect.any(String), text: '{\n' }]);
    expect(frameDocument(Buffer.from('{"ok": true,\n\n  \n'))).toMatchObject([{ kind: 'unparseable', line: 1, column: 13 }]);
  });
});

describe('the small-file fast path', () => {
  async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
  }

  it('frames any bytes as the streaming path does, for both framings and any document limit', async () => {
    const bom = fc.constantFrom(Buffer.alloc(0), Buffer.from([0xef, 0xbb, 0xbf]));
    const text = fc.oneof(arbitraryBytes, fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }).chain((values) => fc.integer({ min: 0, max: 2 }).map((indent) => Buffer.from(JSON.stringify(values, null, indent)))));
    await fc.assert(
      fc.asyncProperty(bom, text, fc.constantFrom('json', 'ndjson') as fc.Arbitrary<'json' | 'ndjson'>, fc.constantFrom(undefined, 8), fc.integer({ min: 1, max: 64 }), async (prefix, body, framing, maxDocumentBytes, size) => {
        const bytes = Buffer.concat([prefix, body]);
        const options = maxDocumentBytes === undefined ? {} : { maxDocumentBytes };
        const plain = plainUtf8(bytes);
        if (!plain) return;
        const fast: Framed[] = [];
        const slow: Framed[] = [];
        let fastLines: number | undefined;
        let fastError: unknown;
        try {
          fastLines = frameBuffer(plain, framing, options, fast);
        } catch (error) {
          fastError = error;
        }
        const slowLines = await frameInput((await decodeInput(chunksOf(bytes, size))).chunks, framing, options, slow).catch((error: unknown) => {
          expect(String(error)).toBe(String(fastError));
          return undefined;
        });
        if (slowLines === undefined) return;
        expect(fastError).toBeUndefined();
        expect(fastLines).toBe(slowLines);
        expect(fast).toEqual(slow);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Fingerprints (baselines): the canonical text of a record, by recursion or by an explicit stack

describe('firstSyntaxError: the first error of jsonc-parser\'s strict visit, without its recursion', () => {
  const jsonc = createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser');
  /** The oracle: visit's own first error, as locateParseError asked for it before. */
  function visitFirst(text: string) {
    let first: { code: number; offset: number; length: number } | undefined;
    jsonc.visit(text, { onError: (code, offset, length) => void (first ??= { code, offset, length }) }, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    return first;
  }
  const piece = fc.constantFrom('[', ']', '{', '}', ',', ':', '"a"', '"b', '1', '-', '1e', '-0.5', 'true', 'nul', 'null', 'false', ' ', '\n', '\r\n', '//c', '/*', '/*c*/', '\u0001', '"\\x"', '"\\u12"', '"\u0001"', 'x', '\u00e9', '\uFEFF');
  const nearJson = fc.oneof(
    fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join('')),
    // Real JSON with one character put in, taken out or changed.
    fc.tuple(fc.json({ maxDepth: 4 }), fc.nat(), fc.constantFrom('', ',', ']', '}', '{', '[', ':', '"', 'x', ' ')).map(([text, at, c]) => {
      const i = at % (text.length + 1);
      return at % 3 === 0 ? text.slice(0, i) + c + text.slice(i) : text.slice(0, i) + c + text.slice(i + 1);
    }),
  );

  it('agrees with visit on near-JSON text, code, offset and length, and finds nothing in JSON', () => {
    fc.assert(
      fc.property(nearJson, (text) => {
        expect(firstSyntaxError(text)).toEqual(visitFirst(text));
      }),
      { numRuns: 3000 },
    );
    for (const text of ['{"ok":true}', '[]', ' 1 ', '"a"']) expect(firstSyntaxError(text)).toBeUndefined();
  });

  it('agrees with visit past 32 open containers (the stack holds a bit each, in words of 32)', () => {
    const opener = fc.constantFrom('[', '{"k":');
    fc.assert(
      fc.property(fc.array(opener, { minLength: 20, maxLength: 100 }), fc.nat(), fc.constantFrom('', ']', '}', ',', 'x'), (openers, at, c) => {
        const whole = `${openers.join('')}1${openers.map((o) => (o === '[' ? ']' : '}')).reverse().join('')}`;
        const i = at % (whole.length + 1);
        const text = whole.slice(0, i) + c + whole.slice(i);
        expect(firstSyntaxError(text)).toEqual(visitFirst(text));
      }),
      { numRuns: 500 },
    );
  });

  it("uses jsonc-parser's enum values", () => {
    // Const enums in the package's types: read as the objects they are at run time.
    const enums = jsonc as unknown as Record<'SyntaxKind' | 'ScanError', Record<string, number>>;
    const kinds = enums.SyntaxKind;
    expect(token).toEqual({ openBrace: kinds['OpenBraceToken'], closeBrace: kinds['CloseBraceToken'], openBracket: kinds['OpenBracketToken'], closeBracket: kinds['CloseBracketToken'], comma: kinds['CommaToken'], colon: kinds['ColonToken'], null: kinds['NullKeyword'], true: kinds['TrueKeyword'], false: kinds['FalseKeyword'], string: kinds['StringLiteral'], number: kinds['NumericLiteral'], lineComment: kinds['LineCommentTrivia'], blockComment: kinds['BlockCommentTrivia'], lineBreak: kinds['LineBreakTrivia'], trivia: kinds['Trivia'], unknown: kinds['Unknown'], eof: kinds['EOF'] });
    const scans = enums.ScanError;
    expect(scanError).toEqual({ none: scans['None'], endOfComment: scans['UnexpectedEndOfComment'], endOfString: scans['UnexpectedEndOfString'], endOfNumber: scans['UnexpectedEndOfNumber'], invalidUnicode: scans['InvalidUnicode'], invalidEscape: scans['InvalidEscapeCharacter'], invalidCharacter: scans['InvalidCharacter'] });
    const names = Object.fromEntries(Object.entries(parseErrorCode).map(([key, value]) => [key, jsonc.printParseErrorCode(value as never)]));
    expect(names).toEqual({
      invalidSymbol: 'InvalidSymbol',
      invalidNumberFormat: 'InvalidNumberFormat',
      propertyNameExpected: 'PropertyNameExpected',
      valueExpected: 'ValueExpected',
      colonExpected: 'ColonExpected',
      commaExpected: 'CommaExpected',
      closeBraceExpected: 'CloseBraceExpected',
      closeBracketExpected: 'CloseBracketExpected',
      endOfFileExpected: 'EndOfFileExpected',
      invalidCommentToken: 'InvalidCommentToken',
      endOfString: 'UnexpectedEndOfString',
      endOfNumber: 'UnexpectedEndOfNumber',
      invalidUnicode: 'InvalidUnicode',
      invalidEscape: 'InvalidEscapeCharacter',
      invalidCharacter: 'InvalidCharacter',
    });
  });

  it('takes 100k open brackets without overflowing the stack, where visit cannot', () => {
    const deep = '['.repeat(100_000) + 'x';
    expect(() => visitFirst(deep)).toThrow(RangeError);
    expect(firstSyntaxError(deep)).toEqual({ code: parseErrorCode.invalidSymbol, offset: 100_000, length: 1 });
    expect(firstSyntaxError('{"a":'.repeat(50_000))).toEqual({ code: parseErrorCode.valueExpected, offset: 250_000, length: 0 });
  });
});

describe('canonicalJson', () => {
  it('writes any JSON value as the explicit-stack walk does, members sorted, whatever their order', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6, stringUnit: 'binary' }), (value) => {
        const text = canonicalJson(value);
        expect(text).toBe(canonicalJsonDeep(value));
        // The same value with its members in reverse order reads the same.
        const reversed = JSON.parse(JSON.stringify(value), (_, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v));
        expect(canonicalJson(reversed)).toBe(text);
        // JSON has no -0: the text reads back as the value's own JSON does.
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('sorts member names as Array.prototype.sort does, short arrays and long, in place', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 4, unit: 'binary' }), { maxLength: 40 }), (names) => {
        const expected = [...names].sort();
        const given = [...names];
        expect(sortedNames(given)).toBe(given);
        expect(given).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('writes values nested past the recursion limit, 100k deep included, by the explicit stack', () => {
    for (const depth of [199, 200, 201, 100_000]) {
      let value: unknown = { b: 1, a: [true] };
      for (let d = 0; d < depth; d++) value = d % 2 === 0 ? [value] : { z: value, y: 'x' };
      expect(canonicalJson(value)).toBe(canonicalJsonDeep(value));
    }
    expect(canonicalJson([[{ b: 1, a: '\u2028"' }]])).toBe('[[{"a":"\u2028\\"","b":1}]]');
    expect(fingerprint({ ok: true, b: [1] })).toBe(fingerprint(JSON.parse('{"b":[1],"ok":true}')));
    expect(fingerprint({ ok: true })).toMatch(/^[0-9a-f]{20}$/);
  });

  it('a value past the recursion limits is hashed piece by piece, to the digest of its whole text', () => {
    const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 20);
    // Past 100k values: characters outside the BMP, lone surrogates and escapes fall on every side of
    // the 64 KiB pieces the hash is given.
    const items = ['\u{1F600}x', '\ud800', 'a"\\b', '\u2028', 'plain', 7, null, { b: 'é', a: ['\udfff'] }];
    const wide = Array.from({ length: 150_001 }, (_, i) => (i % 997 === 0 ? 'y'.repeat(i % 5000) : items[i % items.length]));
    expect(fingerprint(wide)).toBe(digest(canonicalJsonDeep(wide)));
    expect(fingerprint({ z: wide, a: 1 })).toBe(digest(canonicalJson({ a: 1, z: wide })));
    let deep: unknown = { b: 1, a: ['\u{1F600}'] };
    for (let d = 0; d < 100_000; d++) deep = d % 2 === 0 ? [deep] : { z: deep, y: 'x' };
    expect(fingerprint(deep)).toBe(digest(canonicalJsonDeep(deep)));
    // Below the limits, the recursive text: the same digest either way.
    expect(fingerprint(items)).toBe(digest(canonicalJsonDeep(items)));
  });
});

describe('walks of untrusted values, one stack entry per open container', () => {
  // Short strings that are never image bytes, and keys that are never `base64`.
  const plain = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? v.slice(0, 20).replace(/^d/i, 'x') : v)).replaceAll('"base64"', '"b64"')) as unknown);
  /** The pointers of `value`'s members that satisfy `marked`, in document order, each before what is inside it. */
  const inOrder = (value: unknown, marked: (v: unknown) => boolean, pointer = '', out: string[] = []): string[] => {
    if (marked(value)) out.push(pointer);
    else if (Array.isArray(value)) value.forEach((v, i) => inOrder(v, marked, `${pointer}/${i}`, out));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) inOrder(v, marked, `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`, out);
    return out;
  };
  /** `value` with `marker` put at random places: in arrays, as members, or in place of a leaf. */
  const sprinkled = (marker: unknown) =>
    fc.tuple(plain, fc.array(fc.nat(), { maxLength: 8 })).map(([value, seeds]) => {
      let root: unknown = { observed: value };
      for (const seed of seeds) {
        const containers = inOrder(root, (v) => v !== null && typeof v === 'object' && v !== marker);
        const at = containers[seed % containers.length]!;
        let node = root as Record<string, unknown> | unknown[];
        for (const part of at.split('/').slice(1)) node = (node as Record<string, unknown>)[part.replaceAll('~1', '/').replaceAll('~0', '~')] as Record<string, unknown>;
        if (Array.isArray(node)) node.splice(seed % (node.length + 1), 0, marker);
        else node[`m${seed}`] = marker;
      }
      return root;
    });

  it('inline-image reports every image in the order the members stand, for any observation', () => {
    const image = `data:image/png;base64,${'iVBORw0KGgo'.repeat(3)}`;
    fc.assert(
      fc.property(sprinkled(image), (observation) => {
        const findings = checkEnvelopeWith(context, { ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'd', lastObservation: observation } });
        const expected = inOrder(observation, (v) => v === image).map((pointer) => `/error/lastObservation${pointer}`);
        expect(findings.filter((f) => f.rule === 'inline-image').map((f) => f.pointer)).toEqual(expected.slice(0, 100));
      }),
      { numRuns: 300 },
    );
  });

  it('firstDifference names the first member, in document order, where two values differ', () => {
    const changed = { changed: true };
    fc.assert(
      fc.property(sprinkled(changed), (value) => {
        // The same value twice, but for the marked members (2 on one side, 1 on the other).
        const one = JSON.parse(JSON.stringify(value), (_, v: unknown) => (v !== null && typeof v === 'object' && (v as { changed?: boolean }).changed === true ? 1 : v)) as unknown;
        const two = JSON.parse(JSON.stringify(value), (_, v: unknown) => (v !== null && typeof v === 'object' && (v as { changed?: boolean }).changed === true ? 2 : v)) as unknown;
        expect(firstDifference(one, two)).toBe(inOrder(value, (v) => v === changed)[0]);
        expect(firstDifference(one, JSON.parse(JSON.stringify(one)))).toBeUndefined();
      }),
      { numRuns: 300 },
    );
    // A difference past a million equal members is found without a stack entry for each.
    const long = Array.from({ length: 1_000_000 }, (_, i) => i);
    expect(firstDifference({ a: long }, { a: [...long.slice(0, -1), -1] })).toBe('/a/999999');
  });
});

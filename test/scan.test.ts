import fc from 'fast-check';
import { visit } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { NdjsonFramer } from '../src/framing/ndjson.js';
import { maxNesting, parseJson } from '../src/framing/nesting.js';
import { envelopePlan, envelopePlanSpec } from '../src/checks/record-plan.js';
import { compilePlan, isJsonLine, isTypeOnly, scan, typeOnly, wholePlan, type PlanSpec, type ScanResult } from '../src/framing/scan.js';
import type { Framed } from '../src/types.js';
import { checkEnvelopeWith } from '../src/checks/check-envelope.js';
import { createCheckContext } from '../src/context.js';

const envelope = envelopePlan({ lastObservation: 'whole' });
const envelopeTypeOnly = envelopePlan({ lastObservation: 'type' });
const envelopeImages = envelopePlan({ lastObservation: 'image' });

/** Today's path: the line framed by NdjsonFramer (which decodes it and runs JSON.parse). */
function framed(line: Buffer, redact = false): Framed {
  const out: Framed[] = [];
  const framer = new NdjsonFramer({ redact });
  framer.push(Buffer.concat([line, Buffer.from('\n')]), out);
  framer.end(out);
  expect(out).toHaveLength(1);
  return out[0]!;
}

/** The verdict on any bytes, LF and a trailing CR included, as decode + parseJson gives it. */
function parsedVerdict(bytes: Buffer): boolean {
  if (!Buffer.from(bytes).equals(Buffer.from(bytes.toString('utf8'), 'utf8'))) return false;
  try {
    parseJson(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

const scanOf = (line: Buffer | string, plan = wholePlan, options?: { quote?: boolean }): ScanResult => {
  const bytes = typeof line === 'string' ? Buffer.from(line) : line;
  return scan(bytes, 0, bytes.length, plan, options);
};

/**
 * The scanner against today's path on one line (no LF, no trailing CR, not blank): the same verdict
 * (the scanner's own, before any confirmation by JSON.parse), and the same column and message, or
 * JSON.parse's value.
 */
function agrees(line: Buffer, redact = false, compareValues = true): void {
  const reference = framed(line, redact);
  expect(isJsonLine(line, 0, line.length)).toBe(reference.kind === 'value');
  const result = scanOf(line, wholePlan, { quote: !redact });
  if (reference.kind === 'value') {
    expect(result.ok).toBe(true);
    if (result.ok && compareValues) expect(result.value).toStrictEqual(reference.value);
  } else {
    expect(reference.kind).toBe('unparseable');
    if (reference.kind !== 'unparseable' || result.ok) throw new Error('verdicts differ');
    expect({ column: result.column, message: result.message, text: result.text }).toEqual({ column: reference.column, message: reference.message, text: reference.text });
  }
}

/** What the plan should build of JSON.parse's value: its stand-ins where it says `type`. */
function underPlan(value: unknown, spec: PlanSpec): unknown {
  if (spec === 'whole') return value;
  if (spec === 'type') {
    if (Array.isArray(value)) return typeOnly.array;
    if (value !== null && typeof value === 'object') return typeOnly.object;
    return value;
  }
  // What an image plan builds depends on the bytes, not the value: 'an image plan builds...' holds it to the rule.
  if (spec === 'image') throw new Error('underPlan: no image plan here');
  if (Array.isArray(value)) return value.map((item) => underPlan(item, spec.items ?? 'whole'));
  if (value === null || typeof value !== 'object') return value;
  const built: Record<string, unknown> = {};
  for (const [name, member] of Object.entries(value)) {
    const plan = spec.members && Object.hasOwn(spec.members, name) ? spec.members[name]! : (spec.rest ?? 'whole');
    Object.defineProperty(built, name, { value: underPlan(member, plan), writable: true, enumerable: true, configurable: true });
  }
  return built;
}

/** Every object and array in `value`, with its members' order and prototype, as JSON.parse makes them. */
function sameShape(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  if (expected === null || typeof expected !== 'object') return;
  if (isTypeOnly(expected)) return void expect(actual).toBe(expected);
  expect(Object.getPrototypeOf(actual)).toBe(Object.getPrototypeOf(expected));
  expect(Object.keys(actual as object)).toEqual(Object.keys(expected));
  for (const key of Object.keys(expected)) sameShape((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]);
}

interface Located {
  duplicates: { pointer: string; name: string; offset: number }[];
  valueOffsets: Map<string, number> | undefined;
}

/** Duplicates and value offsets found by jsonc-parser's visitor, where the envelope plan reports them. */
function locate(text: string): Located {
  const byteOffset = (offset: number) => Buffer.byteLength(text.slice(0, offset));
  const seen = new Map<string, Set<string>>();
  const duplicates: Located['duplicates'] = [];
  let valueOffsets: Map<string, number> | undefined;
  let rootIsObject = false;
  let lastTopName: string | undefined;
  const pointerOf = (path: (string | number)[]): string | undefined => {
    if (!rootIsObject) return undefined;
    if (path.length === 0) return '';
    if (path.length === 1 && path[0] === 'error') return '/error';
    if (path.length === 2 && path[0] === 'warnings' && typeof path[1] === 'number') return `/warnings/${path[1]}`;
    return undefined;
  };
  const valueAt = (offset: number, path: (string | number)[]) => {
    if (rootIsObject && path.length === 1 && lastTopName !== undefined) valueOffsets!.set(lastTopName, byteOffset(offset));
  };
  // A repeated container is a fresh object each time: its names are its own.
  const begin = (path: (string | number)[]) => {
    const pointer = pointerOf(path);
    if (pointer !== undefined) seen.set(pointer, new Set());
  };
  visit(text, {
    onObjectBegin: (offset, _l, _sl, _sc, path) => {
      if (path().length === 0) {
        rootIsObject = true;
        valueOffsets = new Map();
      } else valueAt(offset, path());
      // A warning is an object in the `warnings` array, not the array's own object.
      const p = path();
      if (p.length === 1 && p[0] === 'warnings') return;
      begin(p);
    },
    onArrayBegin: (offset, _l, _sl, _sc, path) => valueAt(offset, path()),
    onLiteralValue: (_v, offset, _l, _sl, _sc, path) => valueAt(offset, path()),
    onObjectProperty: (name, offset, _l, _sl, _sc, path) => {
      const p = path();
      if (p.length === 0) lastTopName = name;
      const pointer = pointerOf(p);
      if (pointer === undefined) return;
      const names = seen.get(pointer)!;
      if (names.has(name)) duplicates.push({ pointer, name, offset: byteOffset(offset) });
      names.add(name);
    },
  });
  return { duplicates, valueOffsets };
}

/** The envelope plan's result on `text` (JSON) against JSON.parse's value and the visitor's places. */
function envelopeAgrees(text: string, lastObservation: 'whole' | 'type' = 'whole'): void {
  const bytes = Buffer.from(text);
  const result = scan(bytes, 0, bytes.length, lastObservation === 'whole' ? envelope : envelopeTypeOnly);
  if (!result.ok) throw new Error(`rejected: ${result.message}`);
  sameShape(result.value, underPlan(JSON.parse(text), envelopePlanSpec({ lastObservation })));
  const located = locate(text);
  expect(result.duplicates).toEqual(located.duplicates);
  expect(result.valueOffsets).toEqual(located.valueOffsets);
}

describe('scan: verdict, column and message as today', () => {
  const accepted = [
    '{}',
    '[]',
    '0',
    '-0',
    '1.5e+10',
    '-12.25E-3',
    '1e400',
    '123456789012345678901234567890',
    '"\\u00e9\\n\\t\\/\\"\\\\\\b\\f\\r"',
    '"\\ud800"',
    '"\\udc00\\ud800x"',
    ' \t{ "a" : [ 1 , 2 , { } , [ ] ] }\t ',
    '{"a":1}\r\r',
    'true',
    'false',
    'null',
    '"raw \u2028 \u2029 \u007f é 😀 \uFFFD"',
    '{"__proto__":{"a":1},"b":2}',
    '{"a":1,"a":2,"b":3,"a":4}',
    '{"1":1,"a":2,"0":3}',
  ];
  for (const text of accepted) it(`accepts ${JSON.stringify(text)}`, () => agrees(Buffer.from(text)));

  const refused: [string, string | Buffer][] = [
    ['an unexpected token', '{"a":}'],
    ['a bare word', 'hello'],
    ['a single quote', "{'a':1}"],
    ['a name that is no string', '{1:2}'],
    ['a missing colon', '{"a" 1}'],
    ['a missing comma', '[1 2]'],
    ['the end inside an object', '{"a":1'],
    ['the end inside an array', '[1,[2'],
    ['the end inside a string', '"abc'],
    ['the end after a backslash', '"abc\\'],
    ['an unknown escape', '"a\\x"'],
    ['a short \\u escape', '"\\u12"'],
    ['a \\u escape with no hex digit', '"\\u12G4"'],
    ['a leading zero', '01'],
    ['a leading zero after a minus', '-01'],
    ['a number ending in a point', '1.'],
    ['a number starting with a point', '.5'],
    ['a lone minus', '-'],
    ['an empty exponent', '1e'],
    ['an exponent sign alone', '1e+'],
    ['a plus sign', '+1'],
    ['hex', '0x10'],
    ['Infinity', 'Infinity'],
    ['NaN', 'NaN'],
    ['a raw tab in a string', '"a\tb"'],
    ['a raw NUL in a string', '"a\u0000b"'],
    ['a raw control character', '{"a":"x\u001fy"}'],
    ['a trailing comma in an array', '[1,]'],
    ['a trailing comma in an object', '{"a":1,}'],
    ['a leading comma', '[,1]'],
    ['a byte order mark', '\uFEFF{}'],
    ['a byte order mark after the value', '{}\uFEFF'],
    ['two values', '{} {}'],
    ['a comment', '{} // done'],
    ['a truncated literal', 'tru'],
    ['a literal with more after it', 'nullx'],
    ['a character past ASCII outside a string', '{é:1}'],
    ['a vertical tab as white space', '\u000b{}'],
    ['a no-break space as white space', '\u00a0{}'],
    ['invalid UTF-8: a lone continuation byte', Buffer.from([0x22, 0x80, 0x22])],
    ['invalid UTF-8: 0xFF', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])],
    ['invalid UTF-8: an overlong slash', Buffer.from([0x22, 0xc0, 0xaf, 0x22])],
    ['invalid UTF-8: an overlong 3-byte form', Buffer.from([0x22, 0xe0, 0x80, 0xaf, 0x22])],
    ['invalid UTF-8: a surrogate encoded in UTF-8', Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22])],
    ['invalid UTF-8: a code point past U+10FFFF', Buffer.from([0x22, 0xf4, 0x90, 0x80, 0x80, 0x22])],
    ['invalid UTF-8: a truncated sequence', Buffer.from([0x22, 0xe2, 0x82, 0x22])],
    ['invalid UTF-8 after a grammar fault', Buffer.from([0x7b, 0x7d, 0x7d, 0x22, 0xff, 0x22])],
    ['invalid UTF-8 outside a string', Buffer.from([0x5b, 0xff, 0x5d])],
    ['UTF-16 without a BOM', Buffer.from('{"ok":true}', 'utf16le')],
  ];
  for (const [what, line] of refused) {
    it(`refuses ${what}`, () => agrees(typeof line === 'string' ? Buffer.from(line) : line));
  }

  it('words a refusal without quoting the line under --redact', () => {
    agrees(Buffer.from('{"secret":"a\\x"}'), true);
    agrees(Buffer.from('{"secret": nope}'), true);
  });

  it('refuses an empty line, as JSON.parse refuses an empty text', () => {
    expect(isJsonLine(Buffer.from('  '), 0, 2)).toBe(false);
    expect(scanOf('').ok).toBe(false);
  });

  it('takes nesting to the limit and refuses one level more where it passes it', () => {
    const deep = (levels: number) => Buffer.from('['.repeat(levels) + ']'.repeat(levels));
    // A value this deep is compared by its verdict: a deep equality would recurse past the stack.
    agrees(deep(maxNesting), false, false);
    agrees(deep(maxNesting + 1));
    // Unclosed: refused where the limit is passed (today's words), not at the end.
    agrees(Buffer.from('{"a":' + '['.repeat(maxNesting + 5)));
  });

  it('reads only bytes [start, end) of a larger buffer', () => {
    const bytes = Buffer.from('xx{"a":[1,2]}{"b":');
    const result = scan(bytes, 2, 13, wholePlan);
    expect(result).toMatchObject({ ok: true, value: { a: [1, 2] } });
    // The same bytes cut inside the value: the bytes after `end` are not read.
    expect(scan(bytes, 2, 12, wholePlan).ok).toBe(false);
    expect(scan(bytes, 8, 9, wholePlan)).toMatchObject({ ok: true, value: 1 });
    expect(isJsonLine(Buffer.from('1 2'), 0, 1)).toBe(true);
  });

  it('reads a Uint8Array that is no Buffer', () => {
    const bytes = new TextEncoder().encode('{"ok":true,"result":{"x":1}}');
    expect(scan(bytes, 0, bytes.length, envelope)).toMatchObject({ ok: true, value: { ok: true, result: {} } });
  });
});

describe('scan: what the plan builds', () => {
  it('builds the envelope members a check reads and a stand-in of result and partialResult', () => {
    const text = '{"ok":false,"result":{"tree":[1,2,3]},"error":{"code":"x","category":"timeout","detail":"d\\"q\\"","partialResult":{"a":1},"lastObservation":{"w":[1]}},"warnings":[{"code":"w","detail":"é"}],"sessionId":"s1"}';
    const result = scanOf(text, envelope);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toStrictEqual({ ok: false, result: {}, error: { code: 'x', category: 'timeout', detail: 'd"q"', partialResult: {}, lastObservation: { w: [1] } }, warnings: [{ code: 'w', detail: 'é' }], sessionId: 's1' });
    const value = result.value as { result: unknown; error: { partialResult: unknown; lastObservation: unknown } };
    expect(isTypeOnly(value.result)).toBe(true);
    expect(Object.isFrozen(value.result)).toBe(true);
    expect(isTypeOnly(value.error.partialResult)).toBe(true);
    expect(isTypeOnly(value.error.lastObservation)).toBe(false);
    const typeOnlyResult = scanOf(text, envelopeTypeOnly);
    expect(typeOnlyResult.ok && (typeOnlyResult.value as typeof value).error.lastObservation).toBe(typeOnly.object);
  });

  it('stands in for an object or array, and builds any other value whole', () => {
    const plan = compilePlan({ rest: 'type' });
    const result = scanOf('{"o":{"a":1},"a":[1],"s":"text","n":-12.5,"t":true,"f":false,"z":null}', plan);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    const value = result.value as Record<string, unknown>;
    expect(value).toStrictEqual({ o: {}, a: [], s: 'text', n: -12.5, t: true, f: false, z: null });
    expect(value['o']).toBe(typeOnly.object);
    expect(value['a']).toBe(typeOnly.array);
  });

  it('validates what it does not build', () => {
    for (const text of ['{"ok":true,"result":{"a":01}}', '{"ok":true,"result":{"a":"\\x"}}', '{"ok":true,"result":[1,]}', '{"ok":true,"result":{}']) {
      const bytes = Buffer.from(text);
      const result = scanOf(bytes, envelopeTypeOnly);
      expect(result.ok).toBe(false);
      agrees(bytes);
    }
  });

  it('takes the last of repeated members, keeps `__proto__` an own member, and reports repeats where the rule looks', () => {
    envelopeAgrees('{"ok":true,"result":{},"ok":false}');
    envelopeAgrees('{"__proto__":{"polluted":true},"ok":true,"__proto__":1}');
    envelopeAgrees('{"ok":false,"error":{"code":"a","code":"b","category":"timeout","detail":"d","__proto__":null,"__proto__":[]},"warnings":[{"code":"w","detail":"d","detail":"e"},{"x":1,"x":2}],"result":{"dup":1,"dup":2}}');
    envelopeAgrees('{"error":{"code":"a"},"error":{"code":"b","code":"c"}}');
    envelopeAgrees('{"sessionId":"s","extra":{"x":1,"x":2},"extra":3,"sessionId":"t"}');
    // The plan's names written with escapes are the same names.
    envelopeAgrees('{"\\u006fk":true,"ok":false,"\\u0065rror":{"c\\u006fde":"x","code":"y"}}');
    const result = scanOf('{"__proto__":{"polluted":true}}', envelope);
    expect(result.ok && Object.getPrototypeOf(result.value)).toBe(Object.prototype);
    expect(result.ok && Object.hasOwn(result.value as object, '__proto__')).toBe(true);
  });

  it('locates the members and the repeated names by byte offsets from the line start', () => {
    const text = '{"ok" : true, "sessionId":"é", "ok":false}';
    const bytes = Buffer.from(`xyz${text}`);
    const result = scan(bytes, 3, bytes.length, envelope);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect([...result.valueOffsets!]).toEqual([
      ['ok', Buffer.byteLength('{"ok" : true, "sessionId":"é", "ok":')],
      ['sessionId', Buffer.byteLength('{"ok" : true, "sessionId":')],
    ]);
    expect(result.duplicates).toEqual([{ pointer: '', name: 'ok', offset: Buffer.byteLength('{"ok" : true, "sessionId":"é", ') }]);
  });

  it('locates nothing when the envelope plan is told not to', () => {
    const result = scanOf('{"ok":true,"ok":false}', envelopePlan({ lastObservation: 'type', valueOffsets: false }));
    expect(result).toMatchObject({ ok: true, value: { ok: false }, valueOffsets: undefined, duplicates: [{ pointer: '', name: 'ok', offset: 11 }] });
  });

  it('keeps the source text of a number the plan marks, as JSON-RPC ids need it', () => {
    const plan = compilePlan({ members: { id: { numberText: true }, params: { members: { requestId: { numberText: true } } } } });
    const result = scanOf('{"id":1.0,"params":{"requestId":12345678901234567890},"id":1e400,"other":7}', plan);
    expect(result).toMatchObject({ ok: true });
    if (!result.ok) return;
    expect(result.numberTexts).toEqual([
      { pointer: '/id', text: '1.0' },
      { pointer: '/params/requestId', text: '12345678901234567890' },
      { pointer: '/id', text: '1e400' },
    ]);
    expect(result.value).toStrictEqual({ id: Infinity, params: { requestId: 12345678901234567890 }, other: 7 });
    const text = scanOf('{"id":"1"}', plan);
    expect(text.ok && text.numberTexts).toEqual([]);
  });

  it('builds a value that is no object whole under an object plan', () => {
    for (const text of ['[{"ok":1,"ok":2}]', '"ok"', '12', 'null', '{"warnings":{"a":1,"a":2},"error":[{"code":1,"code":2}]}']) envelopeAgrees(text);
  });

  it('reuses an object shape only for its own order of names', () => {
    envelopeAgrees('{"ok":true,"sessionId":"a"}');
    envelopeAgrees('{"sessionId":"a","ok":true}');
    envelopeAgrees('{"ok":true,"sessionId":"a","result":{}}');
    envelopeAgrees('{"sessionId":"a","ok":true}');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

/** A JSON text of a member list that may repeat names, with any white space between tokens. */
const space = fc.constantFrom('', ' ', '\t', '  ', '\r', ' \n ');
const name = fc.constantFrom('ok', 'result', 'error', 'warnings', 'sessionId', '__proto__', 'code', 'category', 'detail', 'partialResult', 'lastObservation', 'x', 'é', '1', '', 'o\\u006b', 'a/b~c');
const jsonText = fc.jsonValue().map((value) => JSON.stringify(value));
type Tree = { tree: string };
const { tree } = fc.letrec<Tree>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonText,
    fc.constantFrom('-0', '1e400', '-1E-400', '12345678901234567890', '"\\ud800"', '"\\udc00\\ud83d"', '"\\u0000\\""', '0.1', '"é😀"'),
    fc.array(fc.tuple(space, name, space, space, tie('tree'), space), { maxLength: 6 }).map((members) => `{${members.map(([a, n, b, c, v, d]) => `${a}"${n}"${b}:${c}${v}${d}`).join(',')}}`),
    fc.array(fc.tuple(space, tie('tree'), space), { maxLength: 4 }).map((items) => `[${items.map(([a, v, b]) => `${a}${v}${b}`).join(',')}]`),
  ),
}));
const envelopeText = fc
  .array(fc.tuple(space, name, space, tree, space), { maxLength: 8 })
  .map((members) => `{${members.map(([a, n, b, v, c]) => `${a}"${n}"${b}:${v}${c}`).join(',')}}`);

/** A byte that breaks JSON in an interesting way, or any byte. */
const byte = fc.oneof(fc.constantFrom(...Buffer.from('{}[],:"\\u0123456789.eE+-tfnrl \t\r\n/\'x')), fc.constantFrom(0x00, 0x1f, 0x7f, 0x80, 0xbf, 0xc0, 0xc3, 0xe0, 0xed, 0xef, 0xbb, 0xf0, 0xf4, 0xff), fc.integer({ min: 0, max: 255 }));
const mutation = fc.tuple(fc.constantFrom('insert', 'delete', 'replace'), fc.nat(), byte);

function mutate(bytes: Buffer, mutations: [string, number, number][]): Buffer {
  let out = bytes;
  for (const [kind, at, b] of mutations) {
    const i = out.length === 0 ? 0 : at % (out.length + (kind === 'insert' ? 1 : 0));
    if (kind === 'insert') out = Buffer.concat([out.subarray(0, i), Buffer.from([b]), out.subarray(i)]);
    else if (out.length === 0) continue;
    else if (kind === 'delete') out = Buffer.concat([out.subarray(0, i), out.subarray(i + 1)]);
    else out = Buffer.concat([out.subarray(0, i), Buffer.from([b]), out.subarray(i + 1)]);
  }
  return out;
}

/** A line as a framer hands one over: no LF, no CR at its end, not blank. */
function asLine(bytes: Buffer): Buffer | undefined {
  let line = Buffer.from(bytes.toString('latin1').replaceAll('\n', ' '), 'latin1');
  while (line.length > 0 && line[line.length - 1] === 0x0d) line = line.subarray(0, -1);
  return /^[ \t\r]*$/.test(line.toString('latin1')) ? undefined : line;
}

describe('scan: properties', () => {
  it('builds JSON.parse\'s value of any JSON (fc.jsonValue)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined);
        const result = scanOf(text);
        expect(isJsonLine(Buffer.from(text), 0, Buffer.byteLength(text))).toBe(true);
        expect(result.ok).toBe(true);
        if (result.ok) sameShape(result.value, JSON.parse(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('builds JSON.parse\'s value of any serialized value (fc.anything, lone surrogates and -0 among them)', () => {
    fc.assert(
      fc.property(fc.anything({ withBoxedValues: false, withMap: false, withSet: false, withObjectString: true, withNullPrototype: true, withSparseArray: true, stringUnit: 'binary' }), (value) => {
        const text = JSON.stringify(value);
        if (text === undefined) return;
        const result = scanOf(text);
        expect(result.ok).toBe(true);
        if (result.ok) sameShape(result.value, JSON.parse(text));
      }),
      { numRuns: 600 },
    );
  });

  it('builds the envelope plan\'s parts as JSON.parse gives them, and reports repeats and places as a visitor finds them', () => {
    fc.assert(
      fc.property(envelopeText, fc.constantFrom<'whole' | 'type'>('whole', 'type'), (text, lastObservation) => {
        if (!parsedVerdict(Buffer.from(text))) return;
        envelopeAgrees(text, lastObservation);
      }),
      { numRuns: 1500 },
    );
  });

  it('decides mutated envelopes and JSON as today, with today\'s column and words', () => {
    fc.assert(
      fc.property(fc.oneof(envelopeText, tree), fc.array(mutation, { minLength: 1, maxLength: 3 }), (text, mutations) => {
        const bytes = mutate(Buffer.from(text), mutations);
        expect(isJsonLine(bytes, 0, bytes.length)).toBe(parsedVerdict(bytes));
        const line = asLine(bytes);
        if (line) agrees(line);
        if (isJsonLine(bytes, 0, bytes.length)) {
          const result = scan(bytes, 0, bytes.length, envelopeTypeOnly);
          expect(result.ok).toBe(true);
          if (result.ok) sameShape(result.value, underPlan(JSON.parse(bytes.toString('utf8')), envelopePlanSpec({ lastObservation: 'type' })));
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('builds the same from the line\'s text as from its bytes, the line anywhere in an ASCII window', () => {
    const plans = [wholePlan, envelope, envelopeTypeOnly, envelopeImages];
    fc.assert(
      fc.property(fc.oneof(envelopeText, tree), fc.string({ unit: fc.constantFrom('x', ' ', '\n'), maxLength: 20 }), fc.nat(plans.length - 1), (text, before, which) => {
        const line = Buffer.from(text);
        if (!parsedVerdict(line) || !line.every((byte) => byte < 0x80)) return;
        const window = Buffer.concat([Buffer.from(before), line, Buffer.from('\n')]);
        const from = before.length;
        const plan = plans[which]!;
        const fromBytes = scan(window, from, from + line.length, plan);
        const fromText = scan(window, from, from + line.length, plan, undefined, window.toString('latin1', 0, window.length - 1), from);
        expect(fromText).toStrictEqual(fromBytes);
        if (fromText.ok && fromBytes.ok) sameShape(fromText.value, fromBytes.value);
      }),
      { numRuns: 1500 },
    );
  });

  it('an image plan builds an observation whole wherever the inline-image rule may report in it: the same findings as on JSON.parse\'s value', () => {
    const context = createCheckContext();
    const long = (unit: string) => unit.repeat(200);
    const imageText = fc.constantFrom('data:image/png;base64,iVBORw0KGgo=', 'DATA:text/plain,x', long('QUJD'), `${long('QUJD').slice(0, 76)}\n${long('QUJD').slice(0, 76)}\n${long('QUJD').slice(0, 60)}==`, long('0123456789abcdef'), long('é'), 'd', 'x');
    const { node } = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 0 }), imageText, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('base64', 'detail', 'd', 'png', 'x'), tie('node'), { maxKeys: 3 })),
    }));
    const observation = node.chain((value) =>
      fc.oneof(
        fc.constant(JSON.stringify(value)),
        fc.constant(JSON.stringify({ base64: value })),
        fc.constant(JSON.stringify([{ base64: 1 }, value])),
        // Escapes spell what plain bytes would: a data: URL, the name base64, 200 characters in fewer bytes.
        fc.constant(JSON.stringify({ a: value }).replaceAll('data:', '\\u0064ata:').replaceAll('"base64"', '"\\u0062ase64"')),
        fc.constant(`{"s":"${'\\u0041'.repeat(40)}${'B'.repeat(170)}"}`),
      ),
    );
    let withImages = 0;
    fc.assert(
      fc.property(observation, (text) => {
        const line = `{"ok":false,"error":{"code":"element-stale","category":"stale-element","detail":"d","lastObservation":${text}},"sessionId":"s"}`;
        const bytes = Buffer.from(line);
        const result = scan(bytes, 0, bytes.length, envelopeImages);
        if (!result.ok) throw new Error(`rejected: ${result.message}`);
        const expected = checkEnvelopeWith(context, JSON.parse(line));
        expect(checkEnvelopeWith(context, result.value)).toEqual(expected);
        if (expected.some((finding) => finding.rule === 'inline-image')) withImages++;
      }),
      { numRuns: 1500 },
    );
    // The property saw images to find, not only observations without any.
    expect(withImages).toBeGreaterThan(100);
    const built = (text: string) => (scanOf(`{"ok":false,"error":{"lastObservation":${text}}}`, envelopeImages) as { value: { error: { lastObservation: unknown } } }).value.error.lastObservation;
    expect(built('{"w":{"title":"Notepad","d":[1,"x"]},"at":"2026-07-01"}')).toBe(typeOnly.object);
    expect(built('[{"detail":"no"}]')).toBe(typeOnly.array);
    expect(built('{"shot":"data:image/png;base64,AA=="}')).toEqual({ shot: 'data:image/png;base64,AA==' });
    expect(built('{"png":{"base64":null}}')).toEqual({ png: { base64: null } });
    expect(built('null')).toBeNull();
  });

  it('decides random bytes as today', () => {
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), (list) => {
        const bytes = Buffer.from(list);
        expect(isJsonLine(bytes, 0, bytes.length)).toBe(parsedVerdict(bytes));
        const line = asLine(bytes);
        if (line) agrees(line);
      }),
      { numRuns: 2000 },
    );
  });
});

import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { frameDocument as frameDocumentWithText } from '../src/framing/document.js';
import { NestingError, checkNesting } from '../src/framing/nesting.js';
import { extractObject } from '../src/framing/extract.js';
import { frameInput } from '../src/framing/index.js';
import { NdjsonFramer, hintText } from '../src/framing/ndjson.js';
import { decodeInput } from '../src/sources/decode.js';
import type { Framed } from '../src/types.js';

/**
 * Entries as the tests below compare them: an unparseable one's text (for baselines), and where the
 * values of a pretty-printed document's records start (field-pretty.test.ts), are checked on their own.
 */
function untexted(entries: Framed[]): Framed[] {
  return entries.map((entry) => {
    // A value's text is held for what the value does not keep: the tests of it are 'the text of each value'.
    if (entry.kind === 'value') {
      const { starts: _starts, text: _text, textAt: _textAt, textPlace: _textPlace, ...rest } = entry;
      return rest;
    }
    if (entry.kind !== 'unparseable') return entry;
    const { text: _text, ...rest } = entry;
    return rest;
  });
}

function frameAllWithText(text: string | Buffer, chunkSize = Infinity, maxLineBytes?: number): Framed[] {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const framer = new NdjsonFramer({ maxLineBytes });
  const out: Framed[] = [];
  for (let i = 0; i < bytes.length; i += Math.min(chunkSize, bytes.length)) framer.push(bytes.subarray(i, i + chunkSize), out);
  framer.end(out);
  return out;
}

const frameAll = (text: string | Buffer, chunkSize = Infinity, maxLineBytes?: number) => untexted(frameAllWithText(text, chunkSize, maxLineBytes));
const frameDocument = (bytes: Buffer, options: { redact?: boolean } = {}) => {
  const framed: Framed[] = [];
  frameDocumentWithText(bytes, options, framed);
  return untexted(framed);
};

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function collectBytes(chunks: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts);
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<string> {
  return (await collectBytes(chunks)).toString('utf8');
}

describe('NdjsonFramer', () => {
  it('frames chunks read into one buffer used again, as it frames fresh ones', () => {
    // Large files are read into buffers used again for later chunks: a line held across chunks was
    // a view of the buffer, and the next read wrote over its start.
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ ok: i % 3 !== 0, result: { i, text: 'é→'.repeat(i) } }));
    const text = Buffer.from(`${lines.join('\n')}\n{"ok":true,"cut":`);
    for (const size of [7, 64, 333]) {
      const framer = new NdjsonFramer();
      const out: Framed[] = [];
      const buffer = Buffer.alloc(size);
      for (let i = 0; i < text.length; i += size) {
        const n = text.copy(buffer, 0, i, i + size);
        framer.push(buffer.subarray(0, n), out);
        buffer.fill(0x21);
      }
      framer.end(out);
      expect(untexted(out), `chunks of ${size}`).toEqual(frameAll(text, size));
    }
  });

  it('yields one value per non-blank line, numbering every line', () => {
    const framed = frameAll('{"ok":true}\n\n   \t\n{"ok":false}\n');
    expect(framed).toEqual([
      { kind: 'value', line: 1, value: { ok: true } },
      { kind: 'value', line: 4, value: { ok: false } },
    ]);
  });

  it('reads CRLF as LF and a lone CR as part of the line', () => {
    expect(frameAll('{"a":1}\r\n{"b":2}\r\n').map((f) => f.line)).toEqual([1, 2]);
    const loneCr = frameAll('{"a":1}\r{"b":2}\n');
    expect(loneCr).toHaveLength(1);
    expect(loneCr[0]).toMatchObject({ kind: 'unparseable', line: 1 });
  });

  it('frames a last line without a newline', () => {
    expect(frameAll('{"a":1}\n{"b":2}')).toEqual([
      { kind: 'value', line: 1, value: { a: 1 } },
      { kind: 'value', line: 2, value: { b: 2 } },
    ]);
  });

  it('gives the same entries whatever the chunk size', () => {
    const text = '{"ok":true,"result":{"t":"é漢字😀"}}\n\n{"ok":\n{"x":1}\r\n  \n[1,2]';
    const whole = frameAll(text);
    for (const size of [1, 2, 3, 7, 64]) expect(frameAll(text, size)).toEqual(whole);
  });

  it('reports parse errors with line and 1-based column and goes on', () => {
    const framed = frameAll('{"ok":true}\n{"ok":true,"detail":"cut off\n{"ok":false}\n');
    // V8 and the spec place an unterminated string where the line runs out.
    expect(framed[1]).toEqual({ kind: 'unparseable', line: 2, column: 29, message: 'unterminated string' });
    expect(framed[2]).toMatchObject({ kind: 'value', line: 3 });
  });

  it('places a bad character or escape inside a string at itself, not at the opening quote', () => {
    // Was column 26 (the string's quote) for each, the whole string quoted in the message.
    const framed = frameAll('{"ok":true,"result":{"a":"abcdefghij\u0001klm"}}\n{"ok":true,"result":{"a":"abc\\qdef"}}\n{"ok":true,"result":{"a":"😀\\u12zzdef"}}\n{"a":"\\n\\u00e9\\"\t"}\n');
    expect(framed).toEqual([
      { kind: 'unparseable', line: 1, column: 37, message: 'control character in string, found "\\u0001"' },
      { kind: 'unparseable', line: 2, column: 30, message: 'invalid escape sequence, found "\\\\q"' },
      { kind: 'unparseable', line: 3, column: 29, message: 'invalid \\u escape, found "\\\\u12zz"' },
      // Good escapes are stepped over: the tab after them is the fault.
      { kind: 'unparseable', line: 4, column: 17, message: 'control character in string, found "\\t"' },
    ]);
  });

  it('counts columns in UTF-16 units', () => {
    // 😀 is two UTF-16 units: the stray x is at column 13.
    expect(frameAll('{"a":"😀😀"}x\n')[0]).toMatchObject({ kind: 'unparseable', column: 13, message: 'unexpected "x"' });
  });

  it('marks the lines that look pretty-printed (the run words the first of them)', () => {
    const framed = frameAll('{\n  "ok": true,\n  "result": {}\n}\n{"ok":true,"detail":"cut off\n');
    expect(framed).toHaveLength(5);
    expect(framed.map((f) => (f.kind === 'unparseable' ? f.hint : undefined))).toEqual(['pretty', undefined, undefined, undefined, undefined]);
  });

  it('says when the last record stops inside a value with no line break after it (a writer cut off)', () => {
    const cut = ' (the input ends inside this record, with no line break after it: was it cut off while being written?)';
    for (const chunkSize of [Infinity, 7]) {
      expect(frameAll('{"ok":true}\n{"ok":true,"result":{"a":"x', chunkSize)[1]).toEqual({ kind: 'unparseable', line: 2, column: 28, message: `unterminated string${cut}` });
      expect(frameAll('{"ok":true}\n{"ok":true,"result":{', chunkSize)[1]).toMatchObject({ message: `unexpected end of input: closing brace expected${cut}` });
    }
    // Not when a line break follows (a record cut inside the file), nor for an error before the end.
    expect(frameAll('{"ok":true,"result":{"a":"x\n{"ok":true}\n')[0]).toMatchObject({ message: 'unterminated string' });
    expect(frameAll('{"ok":true}}')[0]).toMatchObject({ message: 'unexpected text after the JSON value, found "}"' });
  });

  it('marks log lines with a prefix before their JSON object (the run words the first of them)', () => {
    const framed = frameAll('2026-07-01T10:15:02Z INFO result {"ok":true,"result":{}}\nINFO {"ok":fals}\n{"ok":true} trailing\n[1, {"a":2}] x\n');
    expect(framed.map((f) => (f.kind === 'unparseable' ? f.hint : f.kind))).toEqual(['prefix', undefined, undefined, undefined]);
    // Only a unit's first hint is worded: the lines after it are not searched again (a log of 300k
    // prefixed lines paid the search on every one).
    const log = frameAll('INFO result {"ok":true}\nINFO result {"ok":false}\n{"a":\n');
    expect(log.map((f) => (f.kind === 'unparseable' ? f.hint : f.kind))).toEqual(['prefix', undefined, undefined]);
  });

  it('reports invalid UTF-8 at the column of the first bad byte', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":"é'), Buffer.from([0xff]), Buffer.from('"}\n{"ok":true}\n')]);
    const framed = frameAll(bytes);
    expect(framed[0]).toEqual({ kind: 'unparseable', line: 1, column: 8, message: 'invalid UTF-8 (byte 0xff)' });
    expect(framed[1]).toMatchObject({ kind: 'value', line: 2 });
  });

  it('reports an over-long line without holding it, and keeps counting lines', () => {
    const long = `{"ok":true,"result":{"x":"${'a'.repeat(300)}"}}`;
    for (const size of [16, 1000]) {
      const framed = frameAll(`{"ok":true}\n${long}\n{"ok":false}\n`, size, 100);
      expect(framed.map((f) => [f.kind, f.line])).toEqual([
        ['value', 1],
        ['unparseable', 2],
        ['value', 3],
      ]);
      expect(framed[1]).toMatchObject({ column: 1, message: expect.stringContaining('--max-line-bytes') });
    }
  });

  it('does not count the CR of a CRLF toward --max-line-bytes, however the bytes are chunked', () => {
    const line = '{"ok":true,"result":{}}';
    // Valid JSON one byte over the limit: refused for its length alone.
    const longer = '{"ok":true,"result":{} }';
    const max = line.length;
    // Small chunks carry each line over a chunk's end; the whole input in one chunk frames them in place.
    for (const size of [...Array.from({ length: max + 4 }, (_, i) => i + 1), Infinity]) {
      const framed = frameAll(`${line}\r\n${longer}\r\n${line}\r`, size, max);
      expect(framed.map((f) => [f.kind, f.line])).toEqual([
        ['value', 1],
        ['unparseable', 2],
        ['value', 3],
      ]);
      expect(framed[1]).toMatchObject({ message: `line is longer than --max-line-bytes (${max} bytes): raise it to read the line` });
    }
  });
});

describe('frameDocument', () => {
  it('gives each element of a pretty-printed array the line where it starts', () => {
    const text = '[\n  {"ok": true,\n   "result": {}},\n\n  {\n    "ok": false\n  },\n  [1], 7, "s"\n]\n';
    const framed = frameDocument(Buffer.from(text));
    expect(framed.map((f) => f.line)).toEqual([2, 5, 8, 8, 8]);
    expect(framed[1]).toEqual({ kind: 'value', line: 5, value: { ok: false } });
  });

  it('the text of each value: its line, the object --extract found, a document element and where it starts', () => {
    const [line] = frameAllWithText('{"ok":true, "ok":false}\r\n');
    expect(line).toMatchObject({ kind: 'value', text: '{"ok":true, "ok":false}' });
    expect(line).not.toHaveProperty('textPlace');
    const out: Framed[] = [];
    const framer = new NdjsonFramer({ extract: true });
    framer.push(Buffer.from('INFO result {"ok":true}\n'), out);
    expect(out[0]).toMatchObject({ text: 'INFO result {"ok":true}', textAt: 12 });
    const text = '[\n  {"ok": true} ,\n  [1, "]"],7\n]';
    const elements: Framed[] = [];
    frameDocumentWithText(Buffer.from(text), {}, elements);
    expect(elements.map((f) => (f.kind === 'value' ? [f.text, f.textPlace] : f))).toEqual([
      ['{"ok": true}', { document: text, at: 4 }],
      ['[1, "]"]', { document: text, at: 21 }],
      ['7', { document: text, at: 30 }],
    ]);
    const single: Framed[] = [];
    frameDocumentWithText(Buffer.from('\n {"ok":true}\n'), {}, single);
    expect(single[0]).toMatchObject({ text: '\n {"ok":true}\n', textAt: 2, textPlace: { document: '\n {"ok":true}\n', at: 0 } });
  });

  it('reads a single object as one record at its first line', () => {
    expect(frameDocument(Buffer.from('\n\n  {"ok":true}\n'))).toEqual([{ kind: 'value', line: 3, value: { ok: true } }]);
  });

  it('keeps __proto__ as an ordinary member', () => {
    const [framed] = frameDocument(Buffer.from('{"__proto__": {"polluted": true}}'));
    expect(framed?.kind === 'value' && Object.keys(framed.value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('reports a broken document once, at the line and column of the error', () => {
    expect(frameDocument(Buffer.from('[\n  {"ok": true},\n  {"ok": tru}\n]'))).toEqual([
      { kind: 'unparseable', line: 3, column: 10, message: 'unexpected "tru"' },
    ]);
  });

  it('parses a broken one-line array whole only once, and reports it where JSON.parse says', () => {
    const text = '[{"ok": true}, {"ok": tru}, {"ok": false}]';
    const parse = vi.spyOn(JSON, 'parse');
    try {
      expect(frameDocument(Buffer.from(text))).toEqual([{ kind: 'unparseable', line: 1, column: 23, message: 'unexpected "tru"' }]);
      // The elements are parsed one by one too, to find the bad one; the whole text only once.
      expect(parse.mock.calls.filter(([arg]) => arg === text)).toHaveLength(1);
    } finally {
      parse.mockRestore();
    }
  });

  it('a log of one record a line saved as .json: one parse error at line 2 that says it is NDJSON', () => {
    const hint = ' (one record a line is NDJSON: --input ndjson reads it so, as does a .jsonl or .ndjson name without --input json)';
    expect(frameDocument(Buffer.from('{"ok": true}\r\n{"ok": false}\n'))).toEqual([
      { kind: 'unparseable', line: 2, column: 1, message: `unexpected text after the JSON value, found "{"${hint}` },
    ]);
    expect(frameDocument(Buffer.from('[1]\n  [2]\n'))[0]).toMatchObject({ line: 2, column: 3, message: `unexpected text after the JSON value, found "["${hint}` });
    // Pretty-printed values one after another (jq .): neither a .json document nor NDJSON. Was the
    // NDJSON advice, which sent the user back to --input json.
    expect(frameDocument(Buffer.from('{\n  "ok": true\n}\n{\n  "ok": false\n}\n'))).toEqual([
      { kind: 'unparseable', line: 4, column: 1, message: 'unexpected text after the JSON value, found "{" (pretty-printed values one after another: a .json file holds one value, and NDJSON one a line: make them one a line with jq -c . and check that)' },
    ]);
    expect(frameAll('{\n  "ok": true\n}\n')[0]).toMatchObject({ line: 1, hint: 'pretty' });
    expect(hintText.pretty).toBe(' (a JSON value spread over several lines? check the file with --input json; several of them one after another: make them one a line with jq -c .)');
    // A comma left out between an array's elements also puts a { at a line's start: no hint (was
    // told it was several values one after another; found by a reviewer).
    expect(frameDocument(Buffer.from('[\n {"ok": true}\n {"ok": false}\n]\n'))).toEqual([{ kind: 'unparseable', line: 3, column: 2, message: 'comma expected, found "{"' }]);
    // Two values on one line, or text after the value, are not that.
    expect(frameDocument(Buffer.from('{"ok": true} {"ok": false}\n'))[0]).toMatchObject({ line: 1, message: 'unexpected text after the JSON value, found "{"' });
    expect(frameDocument(Buffer.from('{"ok": true}\nok\n'))[0]).toMatchObject({ line: 2, message: 'unexpected "ok"' });
  });

  it('yields nothing for a blank document', () => {
    expect(frameDocument(Buffer.from('  \n\t\n'))).toEqual([]);
  });
});

describe('checkNesting: what JSON.parse is not given', () => {
  const refusal = (text: string, nesting: number, elements = 1e9) => {
    try {
      checkNesting(text, nesting, elements);
      return undefined;
    } catch (error) {
      return error instanceof NestingError ? [error.offset, error.message] : error;
    }
  };

  it('refuses at the bracket that passes the depth, not counting those in strings', () => {
    expect(refusal('[{"a":[1]}]', 3)).toBeUndefined();
    expect(refusal('[{"a":[[1]]}]', 3)).toEqual([7, 'nested more than 3 levels deep: too deep to read']);
    expect(refusal('["[[[[\\"[[[", {"\\\\":[]}]', 3)).toBeUndefined();
    // After an escaped backslash the quote ends the string: the brackets after it count.
    expect(refusal('["\\\\", [[[1]]]]', 3)).toEqual([9, 'nested more than 3 levels deep: too deep to read']);
  });

  it('counts members only in a text more than twice as long as their limit, in each container apart', () => {
    expect(refusal('[1,2,3,[4,5]]', 10, 3)).toEqual([6, 'a container of more than 3 members: too large to read']);
    // Three containers of two members at one depth: each is counted from its own bracket.
    expect(refusal('[[1,2],[3,4],[5,6]]', 10, 3)).toBeUndefined();
    expect(refusal('{"a":1,"b":[2,3],"c":4,"d":5}', 10, 4)).toBeUndefined();
    expect(refusal('{"a":1,"b":[2,3],"c":4,"d":5,"e":6}', 10, 4)).toEqual([28, 'a container of more than 4 members: too large to read']);
    expect(refusal('[1,2,3,4]', 10, 5)).toBeUndefined();
  });
});

describe('decodeInput', () => {
  const text = '{"ok":true}\n{"ok":false}\n';

  it('passes UTF-8 through and strips its BOM', async () => {
    expect(await collect((await decodeInput(chunksOf(Buffer.from(text), 5))).chunks)).toBe(text);
    expect(await collect((await decodeInput(chunksOf(Buffer.from(`\uFEFF${text}`), 1))).chunks)).toBe(text);
  });

  it('decodes UTF-16 LE and BE by their BOM', async () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(await collect((await decodeInput(chunksOf(le, 3))).chunks)).toBe(text);
    const be = Buffer.from(le);
    be.swap16();
    expect(await collect((await decodeInput(chunksOf(be, 3))).chunks)).toBe(text);
  });

  it('UTF-16 in any chunking: pairs whole, a lone surrogate and an odd last byte marked as no UTF-8 holds them', async () => {
    // Was: TextDecoder made a lone surrogate U+FFFD, and the record passed (found by an audit helper).
    const odd = '{"a":"😀"}\n{"b":"x\ud800y"}\n{"c":"\udc00"}\n';
    const units = Buffer.from(odd, 'utf16le');
    for (const [bom, body] of [[Buffer.from([0xff, 0xfe]), units], [Buffer.from([0xfe, 0xff]), Buffer.from(units).swap16()]] as const) {
      for (const size of [1, 2, 3, 5, 7, 64]) {
        const decoded = await collectBytes((await decodeInput(chunksOf(Buffer.concat([bom, body, Buffer.from([0x41])]), size))).chunks);
        expect(decoded.toString('latin1'), String(size)).toBe(Buffer.concat([Buffer.from('{"a":"😀"}\n{"b":"x'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('y"}\n{"c":"'), Buffer.from([0xed, 0xb0, 0x80]), Buffer.from('"}\n'), Buffer.from([0xff])]).toString('latin1'));
      }
    }
    const framed = frameAll(Buffer.concat([Buffer.from('{"b":"x'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}\n')]));
    expect(framed).toEqual([{ kind: 'unparseable', line: 1, column: 8, message: 'invalid UTF-8 (byte 0xed): a lone surrogate, U+D800, half of a character' }]);
  });

  it('gunzips by magic bytes, whatever the name', async () => {
    expect(await collect((await decodeInput(chunksOf(gzipSync(`\uFEFF${text}`), 4))).chunks)).toBe(text);
  });

  it('says so when gzip data ends early', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `{"ok":true,"result":{"n":${(i * 7919) % 104729}}}\n`).join('');
    const whole = gzipSync(lines);
    const cut = whole.subarray(0, whole.length >> 1);
    await expect(collect((await decodeInput(chunksOf(cut, 50))).chunks)).rejects.toThrow('gzip data ends early');
  });
});

describe('frameInput', () => {
  it('frames a .json document read in chunks', async () => {
    const framed: Framed[] = [];
    await frameInput(chunksOf(Buffer.from('[{"ok":true},\n{"ok":false}]'), 4), 'json', {}, framed);
    expect(untexted(framed)).toEqual([
      { kind: 'value', line: 1, value: { ok: true } },
      { kind: 'value', line: 2, value: { ok: false } },
    ]);
  });
});

describe('extractObject (--extract)', () => {
  /** What JSON.parse reads while `run` runs: the characters of every text it is given. */
  function charactersParsed(run: () => void): number {
    const parse = vi.spyOn(JSON, 'parse');
    try {
      run();
      return parse.mock.calls.reduce((sum, [text]) => sum + String(text).length, 0);
    } finally {
      parse.mockRestore();
    }
  }

  it('parses a long line full of `{"` that each fail at its end a few times over, not 64', () => {
    // Every start fails only at the end of the line: 64 attempts read it ~64 times (a 2 MB line, 9 s).
    const line = `x {"a":1} ${'{"a":'.repeat(200_000)}`;
    let extracted;
    const parsed = charactersParsed(() => (extracted = extractObject(line)));
    expect(extracted).toMatchObject({ kind: 'unparseable' });
    expect(parsed).toBeLessThan(7 * line.length);
  });

  it('still finds the object after many prefix fragments that fail at once, on a long line', () => {
    const prefix = Array.from({ length: 40 }, (_, i) => `f${i}={"k"`).join(' ');
    const envelope = { ok: true, result: { text: 'x'.repeat(2_000_000) } };
    const extracted = extractObject(`${prefix} ${JSON.stringify(envelope)}`);
    expect(extracted).toMatchObject({ kind: 'value', prefixed: true });
    expect((extracted as { value: unknown }).value).toEqual(envelope);
  });
});

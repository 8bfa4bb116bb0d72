// A .json document over the size limit is cut into its array elements as it streams; these tests
// lower the limit so that small documents take that path, and compare it with the whole-file path.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameDocument as frameDocumentInto } from '../src/framing/document.js';
import { frameInput } from '../src/framing/index.js';
import type { Framed } from '../src/types.js';

/**
 * The document's entries, as the sink they are framed into holds them, without where the values of
 * a record start: a document read whole has them when it spans lines, a streamed one none (spec
 * section 8.11: its records keep their lines; field-pretty.test.ts checks the places).
 */
function frameDocument(bytes: Buffer, options: { redact?: boolean } = {}): Framed[] {
  const framed: Framed[] = [];
  frameDocumentInto(bytes, options, framed);
  return framed.map(untexted);
}

/** An entry without the text its value was parsed from (framing.test.ts tests it). */
function untexted(entry: Framed): Framed {
  if (entry.kind !== 'value') return entry;
  const { starts: _starts, text: _text, textAt: _textAt, textPlace: _textPlace, ...rest } = entry;
  return rest;
}

async function* chunks(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function streamed(text: string, chunkSize: number, maxLineBytes?: number): Promise<Framed[]> {
  const out: Framed[] = [];
  await frameInput(chunks(Buffer.from(text), chunkSize), 'json', { maxDocumentBytes: 1, ...(maxLineBytes !== undefined && { maxLineBytes }) }, out);
  return out.map(untexted);
}

describe('streamed .json arrays', () => {
  it('quote no text of a broken element under --redact, and keep its text for a baseline digest', async () => {
    // Was: quoted under --redact too, in a report that promised to hold no record text.
    const text = '[{"ok":true,"result":{}},\n {"ok":secret}]';
    const out: Framed[] = [];
    await frameInput(chunks(Buffer.from(text), 7), 'json', { maxDocumentBytes: 1, redact: true }, out);
    expect(out[1]).toEqual({ kind: 'unparseable', line: 2, message: 'unexpected character', text: '{"ok":secret}' });
    expect((await streamed(text, 7))[1]).toMatchObject({ message: 'unexpected "secret"' });
  });

  it('give the same values at the same lines as reading the file whole, for any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 12 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 64 }), async (values, indent, size) => {
        const text = JSON.stringify(values, null, indent);
        expect(await streamed(text, size)).toEqual(frameDocument(Buffer.from(text)));
      }),
      { numRuns: 200 },
    );
  });

  // A document read whole finds its elements' lines in one pass over the bytes of the parsed text;
  // the streamer finds them its own way. Any layout: elements mid-line, line breaks before commas,
  // CRLF, and strings full of quotes, backslashes, brackets and multi-byte characters.
  it('agree with reading the file whole on the line of every element, in any layout', async () => {
    const tricky = fc.constantFrom('"', '\\', '[', ']', '{', '}', ',', '\n', 'é', '→', '😀', 'x');
    const element = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.array(tricky, { maxLength: 6 }).map((parts) => ({ s: parts.join(''), a: [parts.join('')] })));
    const gap = fc.constantFrom('', ' ', '\n', '\r\n', '\n  ', ' \n\t', '\n\n');
    const layout = fc.array(fc.tuple(element, gap, gap, fc.integer({ min: 0, max: 2 })), { maxLength: 10 });
    await fc.assert(
      fc.asyncProperty(layout, gap, gap, fc.integer({ min: 1, max: 64 }), async (items, head, tail, size) => {
        const text = `${head}[${items.map(([value, before, after, indent]) => `${before}${JSON.stringify(value, null, indent)}${after}`).join(',')}${tail}]${tail}`;
        const whole = frameDocument(Buffer.from(text));
        expect(whole.every((f) => f.kind === 'value')).toBe(true);
        expect(whole.map((f) => (f.kind === 'value' ? f.value : undefined))).toEqual(JSON.parse(text));
        expect(await streamed(text, size)).toEqual(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('read scalars, strings with escapes and brackets, and nested values', async () => {
    const text = '[\n 1, "a\\"],[", {"b": ["}", 2]},\n true,null ,-0.5e3\n]\n';
    expect(frameDocument(Buffer.from(text))).toEqual(await streamed(text, 3));
    expect(await streamed(text, 3)).toEqual([
      { kind: 'value', line: 2, value: 1 },
      { kind: 'value', line: 2, value: 'a"],[' },
      { kind: 'value', line: 2, value: { b: ['}', 2] } },
      { kind: 'value', line: 3, value: true },
      { kind: 'value', line: 3, value: null },
      { kind: 'value', line: 3, value: -500 },
    ]);
  });

  it('report broken elements at their lines and keep going', async () => {
    const framed = await streamed('[\n{"ok":true},\n{"ok":tru},\n{"ok":false}\n]', 5);
    expect(framed.map((f) => [f.kind, f.line])).toEqual([
      ['value', 2],
      ['unparseable', 3],
      ['value', 4],
    ]);
  });

  it('count a raw line break inside a string (no JSON, but a line all the same)', async () => {
    const text = '[\n"a\nb",\n 1, {"c": "d\ne"},\n2\n]';
    for (const size of [1, 3, 100]) {
      expect((await streamed(text, size)).map((f) => [f.kind, f.line])).toEqual([
        ['unparseable', 2],
        ['value', 4],
        ['unparseable', 4],
        ['value', 6],
      ]);
    }
  });

  it('report an array that is not closed, and text after it', async () => {
    expect((await streamed('[{"ok":true},\n{"ok":', 4)).map((f) => [f.kind, f.line])).toEqual([
      ['value', 1],
      ['unparseable', 2],
    ]);
    expect((await streamed('[1]\n x', 2)).map((f) => [f.kind, f.line])).toEqual([
      ['value', 1],
      ['unparseable', 2],
    ]);
  });

  it('bound an element by --max-line-bytes without holding it', async () => {
    const framed = await streamed(`[{"big":"${'x'.repeat(500)}"},{"ok":true}]`, 7, 100);
    expect(framed[0]).toMatchObject({ kind: 'unparseable', line: 1, message: expect.stringContaining('--max-line-bytes') });
    expect(framed[1]).toEqual({ kind: 'value', line: 1, value: { ok: true } });
  });

  it('refuse a large document that is not an array', async () => {
    await expect(streamed('{"ok":true}', 4)).rejects.toThrow(/is read only when it is an array; write it as NDJSON \(one envelope a line\) and check that instead, with --max-line-bytes above its longest line \(64M unless set\)$/);
  });
});

// `.json` framing (spec sections 3 and 7): the file is one JSON value; an object is one record, an
// array's elements are records (not flattened further) at the line where each starts.
import type { Framed } from '../types.js';
import { JsonArrayStreamer } from './json-array-stream.js';
import { LineIndex } from './line-index.js';
import { locateParseError } from './parse-error.js';
import { firstInvalidUtf8, isUtf8 } from './utf8.js';

export function frameDocument(bytes: Buffer, options: { redact?: boolean } = {}): Framed[] {
  if (!isUtf8(bytes)) {
    const { index } = firstInvalidUtf8(bytes);
    const prefix = bytes.subarray(0, index).toString('utf8');
    const { line, column } = new LineIndex(prefix).position(prefix.length);
    return [{ kind: 'unparseable', line, column, message: `invalid UTF-8 (byte 0x${bytes[index]!.toString(16).padStart(2, '0')})` }];
  }
  let first = 0;
  while (first < bytes.length && isSpace(bytes[first]!)) first++;
  if (first === bytes.length) return [];
  let line = 1;
  for (let i = 0; i < first; i++) if (bytes[i] === 0x0a) line++;
  let last = bytes.length;
  while (isSpace(bytes[last - 1]!)) last--;
  const newline = bytes.indexOf(0x0a, first);
  let text: string | undefined;
  // The syntax error JSON.parse already found in `text`: a document of up to 256 MiB is not parsed
  // a second time to report it.
  let syntaxError: unknown;
  // An array on one line: every element starts on the line of its `[`, so one JSON.parse does, at
  // the speed of the floor. A broken one goes the long way below.
  if (bytes[first] === 0x5b && (newline === -1 || newline >= last)) {
    text = bytes.toString('utf8');
    try {
      const value: unknown = JSON.parse(text);
      if (Array.isArray(value)) return value.map((element: unknown) => ({ kind: 'value', line, value: element }));
    } catch (error) {
      syntaxError = error;
    }
  }
  // An array is cut into its elements on the bytes, each parsed alone at the line where it starts.
  let elements: Framed[] | undefined;
  if (bytes[first] === 0x5b) {
    elements = [];
    const streamer = new JsonArrayStreamer(Number.POSITIVE_INFINITY);
    streamer.push(bytes, elements);
    streamer.end(elements);
    if (elements.every((f) => f.kind === 'value')) return elements;
  }
  // A broken document (array or not) is one unparseable entry, where JSON.parse says (spec section 7).
  text ??= bytes.toString('utf8');
  let value: unknown;
  if (syntaxError === undefined) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      syntaxError = error;
    }
  }
  if (syntaxError !== undefined) {
    const failure = locateParseError(text, syntaxError, !options.redact);
    // Input that ends too early is reported where its content ends, not on a line past its last.
    const { line, column } = new LineIndex(text).position(Math.min(failure.offset, text.trimEnd().length));
    return [{ kind: 'unparseable', line, column, message: failure.message }];
  }
  // The streamer and JSON.parse agree on every array (a property test holds them to it); should they
  // not, the streamer's entries, errors included, are the more precise report.
  if (elements) return elements;
  return [{ kind: 'value', line, value }];
}

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

// `.json` framing (spec sections 3 and 7): the file is one JSON value; an object is one record, an
// array's elements are records (not flattened further) at the line where each starts.
import { loadJsoncParser } from '../lazy.js';
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
  while (first < bytes.length && (bytes[first] === 0x20 || bytes[first] === 0x09 || bytes[first] === 0x0a || bytes[first] === 0x0d)) first++;
  if (first === bytes.length) return [];
  if (bytes[first] === 0x5b) {
    // An array is cut into its elements on the bytes, each parsed alone at the line where it starts:
    // one pass, no second scanner for the lines. A broken array falls through to the one-entry report.
    const framed: Framed[] = [];
    const streamer = new JsonArrayStreamer(Number.POSITIVE_INFINITY);
    streamer.push(bytes, framed);
    streamer.end(framed);
    if (framed.every((f) => f.kind === 'value')) return framed;
  }
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const failure = locateParseError(text, error, !options.redact);
    const { line, column } = new LineIndex(text).position(failure.offset);
    return [{ kind: 'unparseable', line, column, message: failure.message }];
  }
  const index = new LineIndex(text);
  if (!Array.isArray(value)) {
    return [{ kind: 'value', line: index.position(text.length - text.trimStart().length).line, value }];
  }
  const starts = elementOffsets(text);
  return value.map((element: unknown, i) => ({ kind: 'value', line: index.position(starts[i] ?? 0).line, value: element }));
}

/** Start offsets of the top-level array's elements, in order. */
function elementOffsets(text: string): number[] {
  const starts: number[] = [];
  let depth = 0;
  const begin = (offset: number): void => {
    if (depth === 1) starts.push(offset);
  };
  loadJsoncParser().visit(text, {
    onObjectBegin: (offset) => {
      begin(offset);
      depth++;
    },
    onArrayBegin: (offset) => {
      begin(offset);
      depth++;
    },
    onObjectEnd: () => void depth--,
    onArrayEnd: () => void depth--,
    onLiteralValue: (_value, offset) => begin(offset),
  });
  return starts;
}

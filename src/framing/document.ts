// `.json` framing (spec sections 3 and 7): the file is one JSON value; an object is one record, an
// array's elements are records (not flattened further) at the line where each starts.
import { loadJsoncParser } from '../lazy.js';
import type { Framed } from '../types.js';
import { locateParseError } from './parse-error.js';
import { firstInvalidUtf8, isUtf8 } from './utf8.js';

/** Converts UTF-16 offsets of one text to 1-based line and column; only LF breaks lines. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.starts[lo]! + 1 };
  }
}

export function frameDocument(bytes: Buffer, options: { redact?: boolean } = {}): Framed[] {
  if (!isUtf8(bytes)) {
    const { index } = firstInvalidUtf8(bytes);
    const prefix = bytes.subarray(0, index).toString('utf8');
    const { line, column } = new LineIndex(prefix).position(prefix.length);
    return [{ kind: 'unparseable', line, column, message: `invalid UTF-8 (byte 0x${bytes[index]!.toString(16).padStart(2, '0')})` }];
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') return [];
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

// A `.json` file too large to hold (spec section 7: over 256 MiB) is read as a stream when it is
// an array: its elements are cut out of the bytes one by one (strings and nesting tracked, lines
// counted) and each is parsed on its own, at the line where it starts. Memory is bounded by the
// largest element, as it is by the longest line in NDJSON.
import type { Framed } from '../types.js';
import { LineIndex } from './line-index.js';
import type { FramedSink } from './ndjson.js';
import { locateParseError } from './parse-error.js';
import { isUtf8 } from './utf8.js';

const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

export class NotAnArray extends Error {
  override name = 'NotAnArray';
}

type Phase = 'before-array' | 'before-element' | 'after-comma' | 'in-element' | 'after-element' | 'after-array';
type Kind = 'container' | 'string' | 'scalar';
type Step = 'more' | 'ends-with' | 'ends-before';

export class JsonArrayStreamer {
  private phase: Phase = 'before-array';
  private line = 1;
  private kind: Kind = 'scalar';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private parts: Buffer[] = [];
  private partsBytes = 0;
  private tooLarge = false;
  private elementLine = 0;
  private reportedTrailing = false;

  constructor(private readonly maxElementBytes: number) {}

  push(chunk: Buffer, out: FramedSink): void {
    let start = this.phase === 'in-element' ? 0 : -1;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.phase === 'in-element') {
        const step = this.scan(b);
        if (step === 'ends-with') {
          this.take(chunk.subarray(start, i + 1));
          this.finishElement(out);
          start = -1;
          if (b === LF) this.line++;
          continue;
        }
        if (step === 'more') {
          if (b === LF) this.line++;
          continue;
        }
        // A scalar ends at the delimiter, which belongs to what follows.
        this.take(chunk.subarray(start, i));
        this.finishElement(out);
        start = -1;
      }
      this.between(b, out);
      if (this.phase === 'in-element') start = i;
      if (b === LF) this.line++;
    }
    if (this.phase === 'in-element' && start !== -1) this.take(chunk.subarray(start));
  }

  end(out: FramedSink): void {
    if (this.phase === 'before-array') return;
    if (this.phase === 'in-element' && this.kind === 'scalar') this.finishElement(out);
    if (this.phase !== 'after-array') out.push({ kind: 'unparseable', line: this.line, message: 'unexpected end of input: the array is not closed' });
  }

  /** A byte outside any element: brackets, commas, white space, or the first byte of an element. */
  private between(b: number, out: FramedSink): void {
    if (isSpace(b)) return;
    switch (this.phase) {
      case 'before-array':
        if (b !== OPEN_BRACKET) throw new NotAnArray();
        this.phase = 'before-element';
        return;
      case 'after-array':
        if (!this.reportedTrailing) out.push({ kind: 'unparseable', line: this.line, message: 'unexpected text after the JSON array' });
        this.reportedTrailing = true;
        return;
      case 'after-element':
        if (b === COMMA) this.phase = 'after-comma';
        else if (b === CLOSE_BRACKET) this.phase = 'after-array';
        else {
          out.push({ kind: 'unparseable', line: this.line, message: 'comma expected between array elements' });
          this.beginElement(b);
        }
        return;
      default:
        // before-element or after-comma
        if (b === CLOSE_BRACKET && this.phase === 'before-element') this.phase = 'after-array';
        else if (b === CLOSE_BRACKET || b === COMMA) {
          out.push({ kind: 'unparseable', line: this.line, message: b === COMMA ? 'value expected, found ","' : 'trailing comma in the array' });
          if (b === CLOSE_BRACKET) this.phase = 'after-array';
        } else this.beginElement(b);
    }
  }

  private beginElement(first: number): void {
    this.phase = 'in-element';
    this.elementLine = this.line;
    this.parts = [];
    this.partsBytes = 0;
    this.tooLarge = false;
    this.inString = first === QUOTE;
    this.escaped = false;
    this.kind = first === OPEN_BRACE || first === OPEN_BRACKET ? 'container' : first === QUOTE ? 'string' : 'scalar';
    this.depth = this.kind === 'container' ? 1 : 0;
  }

  /** One more byte of the current element (not its first). */
  private scan(b: number): Step {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.kind === 'string') return 'ends-with';
      }
      return 'more';
    }
    if (this.kind === 'scalar') return b === COMMA || b === CLOSE_BRACKET || isSpace(b) ? 'ends-before' : 'more';
    if (b === QUOTE) this.inString = true;
    else if (b === OPEN_BRACE || b === OPEN_BRACKET) this.depth++;
    else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --this.depth === 0) return 'ends-with';
    return 'more';
  }

  private take(part: Buffer): void {
    if (this.tooLarge || part.length === 0) return;
    if (this.partsBytes + part.length > this.maxElementBytes) {
      this.tooLarge = true;
      this.parts = [];
      return;
    }
    // A copy: the chunk it comes from is not ours to keep.
    this.parts.push(Buffer.from(part));
    this.partsBytes += part.length;
  }

  private finishElement(out: FramedSink): void {
    out.push(this.frame());
    this.parts = [];
    this.partsBytes = 0;
    this.phase = 'after-element';
  }

  private frame(): Framed {
    const line = this.elementLine;
    if (this.tooLarge) return { kind: 'unparseable', line, column: 1, message: `array element is longer than --max-line-bytes (${this.maxElementBytes} bytes)` };
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partsBytes);
    if (!isUtf8(bytes)) return { kind: 'unparseable', line, message: 'invalid UTF-8 in this array element' };
    const text = bytes.toString('utf8');
    try {
      return { kind: 'value', line, value: JSON.parse(text) };
    } catch (error) {
      const failure = locateParseError(text, error);
      return { kind: 'unparseable', line: line + new LineIndex(text).position(failure.offset).line - 1, message: failure.message };
    }
  }
}

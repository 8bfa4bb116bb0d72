// A `.json` file too large to hold (spec section 7: over maxDocumentBytes) is read as a stream when it is
// an array: its elements are cut out of the bytes one by one (strings and nesting tracked, lines
// counted) and each is parsed on its own, at the line where it starts. Memory is bounded by the
// largest element, as it is by the longest line in NDJSON.
import type { Framed } from '../types.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, LF, OPEN_BRACE, OPEN_BRACKET, QUOTE, isJsonSpace } from './json-bytes.js';
import { LineIndex } from './line-index.js';
import type { FramedSink } from './ndjson.js';
import { parseJson } from './nesting.js';
import { locateParseError } from './parse-error.js';
import { isUtf8 } from './utf8.js';


export class NotAnArray extends Error {
  override name = 'NotAnArray';
}

type Phase = 'before-array' | 'before-element' | 'after-comma' | 'in-element' | 'after-element' | 'after-array';
type Kind = 'container' | 'string' | 'scalar';

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

  /**
   * `quote`: parse messages may quote the element's text; not under --redact. `within`: the array
   * is a member of a larger value (a report's findings), so that it ends at its closing bracket, and
   * bad UTF-8 in an element reads as JSON.parse of the whole file's decoded text reads it (U+FFFD).
   */
  constructor(
    private readonly maxElementBytes: number,
    private readonly quote = true,
    private readonly within = false,
  ) {}

  /** Whether the array is closed. */
  get closed(): boolean {
    return this.phase === 'after-array';
  }

  /** Takes the next bytes; returns how many it read: all of them, unless `within` and the array closed. */
  push(chunk: Buffer, out: FramedSink): number {
    // Where the current element's bytes begin in this chunk (0: it began in an earlier one).
    let start = this.phase === 'in-element' ? 0 : -1;
    for (let i = 0; i < chunk.length; ) {
      if (this.phase === 'in-element') {
        const end = this.scanElement(chunk, i);
        if (end === -1) break;
        // Framed at once, while the chunk is still the caller's: no copy.
        this.take(chunk.subarray(start, end), false);
        this.finishElement(out);
        start = -1;
        // A scalar ends before its delimiter, which belongs to what follows.
        i = end;
        continue;
      }
      const b = chunk[i]!;
      this.between(b, out);
      if (this.inElement) start = i;
      if (b === LF) this.line++;
      i++;
      if (this.within && this.closed) return i;
    }
    if (this.phase === 'in-element' && start !== -1) this.take(chunk.subarray(start), true);
    return chunk.length;
  }

  /** Whether an element is being read (a getter: between() may just have begun one). */
  private get inElement(): boolean {
    return this.phase === 'in-element';
  }

  end(out: FramedSink): void {
    if (this.phase === 'before-array') return;
    if (this.phase === 'in-element' && this.kind === 'scalar') this.finishElement(out);
    if (this.phase !== 'after-array') out.push({ kind: 'unparseable', line: this.line, message: 'unexpected end of input: the array is not closed' });
  }

  /** A byte outside any element: brackets, commas, white space, or the first byte of an element. */
  private between(b: number, out: FramedSink): void {
    if (isJsonSpace(b)) return;
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

  /**
   * Scans the current element from `chunk[from]` (never its first byte): returns where it ends (one
   * past its last byte), or -1 when it goes on past this chunk. One loop over locals, the state put
   * back at the end: a method call and field writes per byte would slow the streamer down.
   * Every line break inside the element counts, in strings too (where JSON allows none).
   */
  private scanElement(chunk: Buffer, from: number): number {
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;
    let line = this.line;
    const kind = this.kind;
    let end = -1;
    for (let i = from; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (inString) {
        if (b === LF) line++;
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (kind === 'string') {
            end = i + 1;
            break;
          }
        }
      } else if (kind === 'scalar') {
        if (b === COMMA || b === CLOSE_BRACKET || isJsonSpace(b)) {
          end = i;
          break;
        }
      } else if (b === QUOTE) inString = true;
      else if (b === OPEN_BRACE || b === OPEN_BRACKET) depth++;
      else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
        if (--depth === 0) {
          end = i + 1;
          break;
        }
      } else if (b === LF) line++;
    }
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    this.line = line;
    return end;
  }

  private take(part: Buffer, copy: boolean): void {
    if (this.tooLarge || part.length === 0) return;
    if (this.partsBytes + part.length > this.maxElementBytes) {
      this.tooLarge = true;
      this.parts = [];
      return;
    }
    // A part held past this chunk is copied: the chunk it comes from is not ours to keep.
    this.parts.push(copy ? Buffer.from(part) : part);
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
    if (this.tooLarge) return { kind: 'unparseable', line, column: 1, message: `array element is longer than --max-line-bytes (${this.maxElementBytes} bytes): raise it to read the element` };
    const bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.partsBytes);
    if (!this.within && !isUtf8(bytes)) return { kind: 'unparseable', line, message: 'invalid UTF-8 in this array element' };
    const text = bytes.toString('utf8');
    try {
      return { kind: 'value', line, value: parseJson(text), text, textPlace: false };
    } catch (error) {
      // Was quoted under --redact too: the text of a record in a report that promised to hold none.
      const failure = locateParseError(text, error, this.quote);
      return { kind: 'unparseable', line: line + new LineIndex(text).position(failure.offset).line - 1, message: failure.message, text };
    }
  }
}

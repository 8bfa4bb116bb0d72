// Line-delimited framing (spec section 3): one record a line, blank lines skipped but counted, CRLF
// tolerated, a lone CR is not a break. Line numbers are born here. Chunks go in as they arrive and
// every framed entry goes straight to a sink, so a file is never held whole, no async hop is paid per
// line, and each parsed value dies young (batching them made them survive into the old generation).
import type { Framed } from '../types.js';

/** Where framed entries go: an array in tests, the checker in a run. */
export interface FramedSink {
  push(framed: Framed): void;
}
import { extractObject } from './extract.js';
import { locateParseError } from './parse-error.js';
import { firstInvalidUtf8, isUtf8 } from './utf8.js';

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

export const defaultMaxLineBytes = 64 * 1024 * 1024;

/** Added by the run to the first hinted parse error of each input (see src/run.ts). */
export const prettyHint = ' (a JSON value spread over several lines? check the file with --input json)';

export class NdjsonFramer {
  /** Number of line breaks seen so far: the next line is `lines + 1`. */
  private lines = 0;
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** The current line passed --max-line-bytes: its bytes are dropped until its end. */
  private oversize = false;
  private oversizeBlank = true;

  /** Lines ended so far; for a byte range of a file, how many lines it holds. */
  get lineCount(): number {
    return this.lines;
  }

  private readonly maxLineBytes: number;
  private readonly extract: boolean;
  /** Parse messages may quote the offending text; not under --redact. */
  private readonly quote: boolean;

  constructor(options: { maxLineBytes?: number; extract?: boolean; redact?: boolean } = {}) {
    this.maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
    this.extract = options.extract ?? false;
    this.quote = !options.redact;
  }

  push(chunk: Buffer, out: FramedSink): void {
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf(LF, start)) !== -1) {
      this.lines++;
      if (this.carryBytes === 0 && !this.oversize) {
        // The common case reads the line where it lies: no Buffer view is made per line.
        this.frameLine(chunk, start, newline, out);
      } else {
        this.hold(chunk.subarray(start, newline));
        this.flushCarry(out);
      }
      start = newline + 1;
    }
    if (start < chunk.length) this.hold(chunk.subarray(start));
  }

  end(out: FramedSink): void {
    if (this.carryBytes > 0 || this.oversize) {
      this.lines++;
      this.flushCarry(out);
    }
  }

  private hold(part: Buffer): void {
    if (this.oversize) {
      // Dropped bytes are still looked at for blankness: a long blank line is no record at all.
      if (this.oversizeBlank) this.oversizeBlank = isBlank(part, 0, part.length);
      return;
    }
    if (this.carryBytes + part.length > this.maxLineBytes) {
      this.oversize = true;
      this.oversizeBlank = this.carry.every((held) => isBlank(held, 0, held.length)) && isBlank(part, 0, part.length);
      this.carry = [];
      this.carryBytes = 0;
      return;
    }
    this.carry.push(part);
    this.carryBytes += part.length;
  }

  private flushCarry(out: FramedSink): void {
    if (this.oversize) {
      if (!this.oversizeBlank) out.push({ kind: 'unparseable', line: this.lines, column: 1, message: `line is longer than --max-line-bytes (${this.maxLineBytes} bytes)` });
    } else {
      const bytes = this.carry.length === 1 ? this.carry[0]! : Buffer.concat(this.carry, this.carryBytes);
      this.frameLine(bytes, 0, bytes.length, out);
    }
    this.carry = [];
    this.carryBytes = 0;
    this.oversize = false;
  }

  /** Frames the line held in `bytes[start, end)` (its LF excluded). */
  private frameLine(bytes: Buffer, start: number, end: number, out: FramedSink): void {
    const line = this.lines;
    if (end - start > this.maxLineBytes && !isBlank(bytes, start, end)) {
      out.push({ kind: 'unparseable', line, column: 1, message: `line is longer than --max-line-bytes (${this.maxLineBytes} bytes)` });
      return;
    }
    if (end > start && bytes[end - 1] === CR) end--;
    if (isBlank(bytes, start, end)) return;
    const text = bytes.toString('utf8', start, end);
    // Decoding replaces bad bytes with U+FFFD; only then is the (rarer) exact check worth its pass.
    if (text.includes('\uFFFD')) {
      const content = bytes.subarray(start, end);
      if (!isUtf8(content)) {
        const { index, column } = firstInvalidUtf8(content);
        out.push({ kind: 'unparseable', line, column, message: `invalid UTF-8 (byte 0x${content[index]!.toString(16).padStart(2, '0')})` });
        return;
      }
    }
    if (this.extract) {
      const extracted = extractObject(text, this.quote);
      if (extracted.kind === 'value') out.push({ kind: 'value', line, value: extracted.value, extracted: true });
      else if (extracted.kind === 'noise') out.push({ kind: 'noise', line });
      else out.push({ kind: 'unparseable', line, column: extracted.failure.offset + 1, message: extracted.failure.message });
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const failure = locateParseError(text, error, this.quote);
      // Only a line that stops where pretty-printed JSON breaks lines earns the hint, not a cut-off
      // one. Which hinted line is the input's first is decided later: a file may be framed in parts.
      const hint = failure.atEnd && /[{[,:]\s*$/.test(text);
      out.push({ kind: 'unparseable', line, column: failure.offset + 1, message: failure.message, ...(hint && { hint }) });
      return;
    }
    // Outside the try: a fault in the sink is not a syntax error of the line.
    out.push({ kind: 'value', line, value });
  }
}

function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b !== SPACE && b !== TAB && b !== CR) return false;
  }
  return true;
}

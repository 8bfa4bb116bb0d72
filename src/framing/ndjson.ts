// Line-delimited framing (spec section 3): one record a line, blank lines skipped but counted, CRLF
// tolerated, a lone CR is not a break. Line numbers are born here. Chunks go in as they arrive and
// every framed entry goes straight to a sink, so a file is never held whole, no async hop is paid per
// line, and each parsed value dies young (batched, they would survive into the old generation).
import { constants } from 'node:buffer';
import type { Framed, ParseHint } from '../types.js';

/** Where framed entries go: an array in tests, the checker in a run. */
export interface FramedSink {
  push(framed: Framed): void;
  /**
   * The input's first parse error, framed already, deserves `hint` after all (spec section 8.8: most
   * of its first lines are log lines with a prefix), unless an earlier one was given a hint.
   */
  hintFirstError?(hint: ParseHint): void;
}
import { extractObject } from './extract.js';
import { serverTag } from './log-shapes.js';
import { parseJson } from './nesting.js';
import { locateParseError } from './parse-error.js';
import { invalidUtf8Fault, isAscii, isUtf8, type DecodedFrom } from './utf8.js';
import { scan, wholePlan, type ScanOptions, type ScanPlan } from './scan.js';

/**
 * Which values a plan that builds in part does not serve, told by the stage that reads them: `'line'`,
 * this value is built whole; `'input'`, this one and the input's next lines are (the reference path).
 */
export type BuiltWhole = (value: unknown) => 'line' | 'input' | undefined;

/** For the reference path and the whole plan, which build every line whole anyway. */
const nothingMore: BuiltWhole = () => undefined;

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

export const defaultMaxLineBytes = 64 * 1024 * 1024;

/**
 * A line is parsed from one string, and V8 holds no string longer than this (2^29 - 24 UTF-16
 * units in Node 20): under a longer limit such a line would fail its whole input ("Cannot create a
 * string longer than..."), every record after it unchecked. A UTF-8 line of this many bytes
 * decodes to at most this many units, so every line under the limit fits.
 */
export const maxLineBytesLimit = constants.MAX_STRING_LENGTH;

/** Text decoded at a time: under V8's large-object size, so that a window dies in the young generation. */
const defaultWindowBytes = 64 * 1024;

/** Said of an input's last line when it stops inside a value with no LF after it. */
const cutOffText = '(the input ends inside this record, with no line break after it: was it cut off while being written?)';

/** Added by the run to the first hinted parse error of each input (see src/run.ts). */
export const hintText: Record<ParseHint, string> = {
  // Several such values one after another (what `jq .` writes) are no .json document either: the
  // first advice alone led to --input json, whose own advice led back here.
  pretty: ' (a JSON value spread over several lines? check the file with --input json; several of them one after another: make them one a line with jq -c .)',
  prefix: ' (log lines with a prefix before their JSON? --extract finds the object in each line)',
};

export class NdjsonFramer {
  /** Number of line breaks seen so far: the next line is `lines + 1`. */
  private lines = 0;
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** The current line passed --max-line-bytes: its bytes are dropped until its end. */
  private oversize = false;
  private oversizeBlank = true;
  /** The line being framed is the input's last and has no LF after it. */
  private unterminated = false;
  /**
   * A hint was given: a unit's findings word only its first (FindingStore keeps one), so later
   * failing lines are not searched again (a search costs a parse attempt per candidate).
   */
  private hinted = false;
  /** A parse error was framed: only the first one's line is searched for the prefix hint. */
  private errorSeen = false;
  /**
   * Spec section 8.8: the input's first 100 non-blank lines are looked at (until a verdict), and
   * those of them that fail in a prefix, before a candidate object later on the line, counted
   * (failsInPrefix); more than half of them such, and the input's first parse error says to use
   * --extract. (Its first line is often no JSON at all: Claude Desktop's "Initializing server...".)
   */
  private looking: boolean;
  private looked = 0;
  private failedInPrefix = 0;

  /** Lines ended so far; for a byte range of a file, how many lines it holds. */
  get lineCount(): number {
    return this.lines;
  }

  private readonly maxLineBytes: number;
  private readonly extract: boolean;
  /** Parse messages may quote the offending text; not under --redact. */
  private readonly quote: boolean;

  /** Bytes decoded at a time; tests lower it, to put window edges among every kind of line. */
  private readonly windowBytes: number;
  /** The input's encoding before decoding, when it was not UTF-8. */
  private readonly decodedFrom: DecodedFrom | undefined;
  /**
   * What the scanner builds of a line (the checks' plan); undefined: the reference path, which
   * decodes the line and parses it whole (as it does a wrapped input's lines, from its first wrapped one).
   */
  private plan: ScanPlan | undefined;
  /** Which values the plan's partial build does not serve (FramingOptions.builtWhole). */
  private readonly builtWhole: BuiltWhole;
  /** What the scanner words a refusal with: made once, not per line. */
  private readonly scanOptions: ScanOptions;

  /**
   * `inputStart` false: a later byte range of a file, whose lines are not the input's first 100 (its
   * first parse error may still be the input's: the run decides, src/run.ts).
   */
  constructor(options: { maxLineBytes?: number; extract?: boolean; redact?: boolean; windowBytes?: number; decodedFrom?: DecodedFrom; inputStart?: boolean; plan?: ScanPlan; builtWhole?: BuiltWhole } = {}) {
    this.decodedFrom = options.decodedFrom;
    this.plan = options.extract ? undefined : options.plan;
    // A plan that builds in part would hand on a wrapping unbuilt where its envelope is.
    if (this.plan !== undefined && this.plan !== wholePlan && options.builtWhole === undefined) throw new Error('a scan plan that builds in part needs builtWhole');
    this.builtWhole = options.builtWhole ?? nothingMore;
    this.looking = !options.extract && options.inputStart !== false;
    this.maxLineBytes = options.maxLineBytes ?? defaultMaxLineBytes;
    this.windowBytes = options.windowBytes ?? defaultWindowBytes;
    this.extract = options.extract ?? false;
    this.quote = !options.redact;
    this.scanOptions = { quote: this.quote, ...(this.decodedFrom && { decodedFrom: this.decodedFrom }) };
  }

  push(chunk: Buffer, out: FramedSink): void {
    let start = 0;
    if (this.carryBytes > 0 || this.oversize) {
      // The line begun in an earlier chunk ends at this chunk's first LF.
      const newline = chunk.indexOf(LF);
      if (newline === -1) return this.hold(chunk);
      this.lines++;
      this.hold(chunk.subarray(0, newline));
      this.flushCarry(out);
      start = newline + 1;
    }
    const last = chunk.lastIndexOf(LF);
    if (last >= start) {
      if (this.extract) this.frameEach(chunk, start, last, out);
      else this.frameWindows(chunk, start, last, out);
      start = last + 1;
    }
    if (start < chunk.length) this.hold(chunk.subarray(start));
  }

  /** Frames the lines in `chunk[start, last]` (`last` is an LF), decoding each on its own. */
  private frameEach(chunk: Buffer, start: number, last: number, out: FramedSink): void {
    for (let newline = chunk.indexOf(LF, start); newline !== -1 && newline <= last; newline = chunk.indexOf(LF, start)) {
      this.lines++;
      this.frameLine(chunk, start, newline, out);
      start = newline + 1;
    }
  }

  /**
   * Frames the lines in `chunk[start, last]` (`last` is an LF), decoding them a window of about 64
   * KiB at a time: one decode per window costs less than one per line.
   * A window is decoded only when it is ASCII, so a line's text is at its bytes' offsets; each line
   * is parsed from a slice of the window's text. Values JSON.parse makes are copies, so nothing keeps
   * a window alive, and a window stays small enough to die young; a parse error is described from a
   * string of the line's own, since its message may quote it.
   *
   * Only an ASCII window is decoded whole. One character past U+00FF makes V8 store a whole string
   * two bytes a character, and JSON.parse reads such text more slowly: one such line would slow
   * every line of its window. A window with any byte past ASCII is decoded line by line, so that
   * only its lines that need it are two-byte.
   */
  private frameWindows(chunk: Buffer, start: number, last: number, out: FramedSink): void {
    while (start <= last) {
      let end = start + this.windowBytes >= last ? last : chunk.lastIndexOf(LF, start + this.windowBytes);
      if (end < start) end = chunk.indexOf(LF, start);
      if (!isAscii(chunk.subarray(start, end))) {
        this.frameEach(chunk, start, end, out);
        start = end + 1;
        continue;
      }
      // ASCII is valid UTF-8: frameLine skips the invalid-UTF-8 check for a line it gets the text of.
      // One character a byte, so a line's text is at its bytes' offsets: one search a line, not two.
      const text = chunk.toString('latin1', start, end);
      for (let from = start; ; ) {
        const newline = chunk.indexOf(LF, from);
        this.lines++;
        this.frameLine(chunk, from, newline, out, text, from - start, newline - start);
        if (newline === end) break;
        from = newline + 1;
      }
      start = end + 1;
    }
  }

  end(out: FramedSink): void {
    if (this.carryBytes > 0 || this.oversize) {
      this.lines++;
      this.unterminated = true;
      this.flushCarry(out);
      this.unterminated = false;
    }
    // An input of fewer than 100 non-blank lines: more than half of those it has.
    if (this.looking && this.failedInPrefix * 2 > this.looked) out.hintFirstError?.('prefix');
    this.looking = false;
  }

  /** One more non-blank line of the input's first 100, when still looking. */
  private look(): void {
    if (!this.looking) return;
    if (this.looked === 100) this.looking = false;
    else this.looked++;
  }

  private hold(part: Buffer): void {
    if (this.oversize) {
      // Dropped bytes are still looked at for blankness: a long blank line is no record at all.
      if (this.oversizeBlank) this.oversizeBlank = isBlank(part, 0, part.length);
      return;
    }
    // One byte over the limit is still held: it may be the CR of a CRLF, which is no part of the line.
    if (this.carryBytes + part.length > this.maxLineBytes + 1) {
      this.oversize = true;
      this.oversizeBlank = this.carry.every((held) => isBlank(held, 0, held.length)) && isBlank(part, 0, part.length);
      this.carry = [];
      this.carryBytes = 0;
      return;
    }
    // A copy: a file is read into buffers used again for the next chunks (fresh ones each cost page
    // faults), so a chunk's bytes are its own only until the next one is asked for.
    this.carry.push(Buffer.from(part));
    this.carryBytes += part.length;
  }

  private flushCarry(out: FramedSink): void {
    if (this.oversize) {
      if (!this.oversizeBlank) {
        this.look();
        this.errorSeen = true;
        out.push({ kind: 'unparseable', line: this.lines, column: 1, message: `line is longer than --max-line-bytes (${this.maxLineBytes} bytes): raise it to read the line` });
      }
    } else {
      const bytes = this.carry.length === 1 ? this.carry[0]! : Buffer.concat(this.carry, this.carryBytes);
      this.frameLine(bytes, 0, bytes.length, out);
    }
    this.carry = [];
    this.carryBytes = 0;
    this.oversize = false;
  }

  /**
   * Frames the line held in `bytes[start, end)` (its LF excluded); `window[from, to)` is its text
   * when the caller decoded it already, which only an ASCII window is (so it holds no bad byte).
   */
  private frameLine(bytes: Buffer, start: number, end: number, out: FramedSink, window?: string, from = 0, to = 0): void {
    const line = this.lines;
    if (end > start && bytes[end - 1] === CR) end--, to--;
    if (end - start > this.maxLineBytes && !isBlank(bytes, start, end)) {
      this.look();
      this.errorSeen = true;
      out.push({ kind: 'unparseable', line, column: 1, message: `line is longer than --max-line-bytes (${this.maxLineBytes} bytes): raise it to read the line` });
      return;
    }
    if (isBlank(bytes, start, end)) return;
    this.look();
    if (this.plan !== undefined) return this.scanLine(bytes, start, end, out, window, from, to);
    const text = window === undefined ? bytes.toString('utf8', start, end) : window.slice(from, to);
    // Decoding replaces bad bytes with U+FFFD; only then is the (rarer) exact check worth its pass.
    if (window === undefined && text.includes('\uFFFD')) {
      const content = bytes.subarray(start, end);
      if (!isUtf8(content)) {
        const { column, message } = invalidUtf8Fault(content, this.decodedFrom);
        this.errorSeen = true;
        out.push({ kind: 'unparseable', line, column, message, text: content.toString('latin1') });
        return;
      }
    }
    if (this.extract) {
      const extracted = extractObject(text, this.quote);
      // Wrapping `log` is the object after a prefix (spec section 3); a line that is one alone is bare.
      if (extracted.kind === 'value') {
        const pairingKey = extracted.prefixed ? serverTag(text.slice(0, extracted.at)) : undefined;
        out.push({ kind: 'value', line, value: extracted.value, extracted: extracted.prefixed, ...(pairingKey !== undefined && { pairingKey }), text, textAt: extracted.at });
      } else if (extracted.kind === 'noise') out.push({ kind: 'noise', line });
      else out.push({ kind: 'unparseable', line, column: extracted.failure.offset + 1, message: extracted.failure.message, text });
      return;
    }
    let value: unknown;
    try {
      value = parseJson(text);
    } catch (error) {
      // A string of the line's own: a message quoting a slice of the window would keep it alive.
      const own = window === undefined ? text : bytes.toString('utf8', start, end);
      const failure = locateParseError(own, error, this.quote);
      return this.parseError(own, failure.offset, failure.message, failure.atEnd, out);
    }
    // Outside the try: a fault in the sink is not a syntax error of the line.
    out.push({ kind: 'value', line, value, text });
  }

  /**
   * frameLine's work past blank and over-long lines, by the scanner: the verdict, words and column
   * are the reference path's, and so is the value wherever the checks read it.
   */
  private scanLine(bytes: Buffer, start: number, end: number, out: FramedSink, window: string | undefined, from: number, to: number): void {
    const line = this.lines;
    let plan = this.plan!;
    let scanned = scan(bytes, start, end, plan, this.scanOptions, window, from);
    if (!scanned.ok) {
      if (scanned.invalidUtf8) {
        this.errorSeen = true;
        out.push({ kind: 'unparseable', line, column: scanned.column, message: scanned.message, text: scanned.text });
        return;
      }
      return this.parseError(scanned.text, scanned.column - 1, scanned.message, scanned.atEnd, out);
    }
    const rebuild = plan === wholePlan ? undefined : this.builtWhole(scanned.value);
    if (rebuild !== undefined) {
      // A wrapped input's next lines go to the reference path (src/unwrap/built-whole.ts).
      if (rebuild === 'input') this.plan = undefined;
      plan = wholePlan;
      scanned = scan(bytes, start, end, plan, undefined, window, from);
      if (!scanned.ok) throw new Error('the scanner took a line it then refused');
    }
    const text = window === undefined ? bytes.toString('utf8', start, end) : window.slice(from, to);
    // The envelope plan reports a name repeated in the envelope, its error or a warning.
    if (plan !== wholePlan && scanned.duplicates.length === 0) out.push({ kind: 'value', line, value: scanned.value, text, noDuplicates: true });
    else out.push({ kind: 'value', line, value: scanned.value, text });
  }

  /** A line that is no JSON: `own` is its text, `offset` where it fails (UTF-16 units). */
  private parseError(own: string, offset: number, message: string, atEnd: boolean, out: FramedSink): void {
    const line = this.lines;
    const firstError = !this.errorSeen;
    this.errorSeen = true;
    if (this.looking && own.length <= 64 * 1024 && failsInPrefix(own, offset) && ++this.failedInPrefix * 2 > 100) {
      // More than half of the first 100 non-blank lines, whatever the rest hold.
      this.looking = false;
      out.hintFirstError?.('prefix');
    }
    // What a crashed writer leaves: the last record stops mid-value, with no line break after it.
    if (this.unterminated && atEnd) {
      out.push({ kind: 'unparseable', line, column: offset + 1, message: `${message} ${cutOffText}`, text: own });
      return;
    }
    // Only a line that stops where pretty-printed JSON breaks lines earns the hint, not a cut-off
    // one. Which hinted line is the input's first is decided later: a file may be framed in parts.
    const hint = this.hinted ? undefined : parseHint(own, atEnd, firstError);
    if (hint) this.hinted = true;
    out.push({ kind: 'unparseable', line, column: offset + 1, message, text: own, ...(hint && { hint }) });
  }
}

function isBlank(bytes: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const b = bytes[i];
    if (b !== SPACE && b !== TAB && b !== CR) return false;
  }
  return true;
}

const candidate = /\{[ \t]*"/;

/**
 * The line failed in a prefix, before a candidate object later on it (`{"`, or `{` + blanks + `"`,
 * spec section 8.7). Spec section 8.8 says "at column 1"; a timestamp fails a little later (the year
 * parses as a number: column 5), and is as much a prefix. A line that opens a container is JSON gone
 * wrong, not a prefix.
 */
function failsInPrefix(line: string, offset: number): boolean {
  const first = line.trimStart()[0];
  if (first === '{' || first === '[' || first === '\u001e') return false;
  const found = candidate.exec(line);
  return found !== null && offset < found.index;
}

/**
 * `2026-07-01T10:15:02Z INFO result {"ok":true}` in a .log file fails JSON.parse as "unexpected text
 * after the JSON value, found "-0"" (the year parses as a number), which says nothing of the
 * prefix. Asked only of lines JSON.parse rejected, and of log-line sizes: the search may parse the rest of the line from each of 64 `{"`. The prefix hint
 * is the input's first parse error's only (spec section 8.8); the run's own count of its first lines
 * gives it otherwise.
 */
function parseHint(line: string, atEnd: boolean, firstError: boolean): ParseHint | undefined {
  if (atEnd && /[{[,:]\s*$/.test(line)) return 'pretty';
  if (!firstError) return undefined;
  const first = line.trimStart()[0];
  // A record separator (jq --seq) before the object has a message of its own.
  return first !== '{' && first !== '[' && first !== '\u001e' && line.length <= 64 * 1024 && extractObject(line, false).kind === 'value' ? 'prefix' : undefined;
}

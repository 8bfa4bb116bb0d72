// Reads a JSON report for `merge` a piece at a time. Findings are most of a report, and a report
// read whole is held several times over: its bytes, its text and JSON.parse's objects. Here its findings are cut out of the bytes one by
// one (src/framing/json-array-stream.ts), each parsed and checked on its own against the report
// schema's definition of a finding, and handed on; the rest of the report, small, is parsed whole
// with `"findings": []` in their place, and checked by the caller.
//
// Only a file that reads the same either way is streamed: a regular file, in UTF-8 (a BOM skipped),
// one object whose `reportVersion` comes before its `findings`, as in every report `check` writes.
// Anything else (a pipe, which cannot be read again; a baseline; a report with its members in
// another order; UTF-16) is left to be read whole, before any finding is handed on. At the first
// thing wrong (a syntax error, a finding the schema refuses) the caller reads the file whole too,
// for the message that says where, in the words it always used.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { UsageError } from './errors.js';
import { JsonArrayStreamer } from './framing/json-array-stream.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE, isJsonSpace } from './framing/json-bytes.js';
import type { FramedSink } from './framing/ndjson.js';
import { hasUtf8Bom, utf16Of } from './sources/decode.js';
import type { Framed } from './types.js';

export type StreamedReport =
  /** The report but the findings streamed: those are `[]` in it, and each went to `take`. */
  | { kind: 'report'; head: unknown }
  /** Not one to stream: nothing went to `take`. */
  | { kind: 'whole' }
  /** Something is wrong, and some findings may have gone to `take`: the whole file says what. */
  | { kind: 'invalid' };

const readBytes = 1024 * 1024;

/**
 * Smaller reports are read whole: the byte loop runs in V8's interpreter until it is hot, so a small
 * report reads faster whole.
 */
const streamedFrom = 1024 * 1024;
/** Keys longer than this are none of the three the reader looks for. */
const longestKey = 16;

/** Follows the report's top-level object byte by byte, outside its findings, which a streamer takes. */
class ReportScanner implements FramedSink {
  /** The bytes of the report but its findings, copied (the read buffer is used again). */
  readonly head: Buffer[] = [];
  state: 'reading' | 'whole' | 'invalid' = 'reading';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private ended = false;
  /** At depth 1, the next string is a key. */
  private expectKey = false;
  /** The bytes of the key being read, while it may still be one the reader looks for. */
  private key: number[] | undefined;
  private lastKey = '';
  /** The top-level member whose value begins at the next byte that is not white space. */
  private member: string | undefined;
  private sawReportVersion = false;
  private findings: JsonArrayStreamer | undefined;
  private streamed = false;

  constructor(
    private readonly path: string,
    private readonly isFinding: (value: unknown) => boolean,
    private readonly take: (finding: unknown) => void,
  ) {}

  /** A finding cut out by the streamer. */
  push(framed: Framed): void {
    if (this.state !== 'reading') return;
    if (framed.kind === 'value' && this.isFinding(framed.value)) this.take(framed.value);
    else this.state = 'invalid';
  }

  feed(chunk: Buffer): void {
    // Where the head's bytes in this chunk begin; -1 while the findings are being read.
    let from = this.findings ? -1 : 0;
    for (let i = 0; i < chunk.length && this.state === 'reading'; ) {
      if (this.findings) {
        i += this.findings.push(chunk.subarray(i), this);
        if (!this.findings.closed) return;
        this.findings = undefined;
        from = i;
        continue;
      }
      const b = chunk[i]!;
      if (this.member === 'findings' && b === OPEN_BRACKET && this.depth === 1) {
        if (!this.sawReportVersion) {
          this.state = 'whole';
          return;
        }
        if (this.streamed) throw new UsageError(`report ${this.path} holds "findings" twice: a report has one list of findings`);
        this.head.push(Buffer.from(chunk.subarray(from, i)), Buffer.from('[]'));
        this.member = undefined;
        this.streamed = true;
        // The streamer takes the brackets too.
        this.findings = new JsonArrayStreamer(Number.POSITIVE_INFINITY, true, true);
        continue;
      }
      this.step(b);
      i++;
    }
    if (from !== -1 && this.state === 'reading') this.head.push(Buffer.from(chunk.subarray(from)));
  }

  private step(b: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === BACKSLASH) this.escaped = true;
      else if (b === QUOTE) {
        this.inString = false;
        if (this.key) this.lastKey = String.fromCharCode(...this.key);
        this.key = undefined;
        return;
      }
      if (this.key && this.key.push(b) > longestKey) this.key = undefined;
      return;
    }
    if (isJsonSpace(b)) return;
    if (this.ended || (this.depth === 0 && b !== OPEN_BRACE)) {
      this.state = 'invalid';
      return;
    }
    if (this.depth === 1 && this.member !== undefined) this.member = undefined;
    switch (b) {
      case QUOTE:
        this.inString = true;
        this.lastKey = '';
        if (this.depth === 1 && this.expectKey) (this.key = []), (this.expectKey = false);
        return;
      case COLON:
        if (this.depth !== 1) return;
        this.member = this.lastKey;
        if (this.lastKey === 'reportVersion') this.sawReportVersion = true;
        // A baseline is read whole; a report with its key is no report (and its findings were taken).
        if (this.lastKey === 'baselineVersion') this.state = this.streamed ? 'invalid' : 'whole';
        return;
      case COMMA:
        if (this.depth === 1) this.expectKey = true;
        return;
      case OPEN_BRACE:
      case OPEN_BRACKET:
        if (++this.depth === 1) this.expectKey = true;
        return;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        if (--this.depth === 0) this.ended = true;
        return;
    }
  }

  /** After the last byte: a file that ended inside the object, or held none, is wrong. */
  finish(): void {
    if (this.state === 'reading' && (!this.ended || this.findings !== undefined)) this.state = 'invalid';
  }
}

/**
 * Streams the findings of the report at `path` to `take`, each one `isFinding` accepts. A file
 * whose object holds `findings` twice is refused (UsageError): JSON.parse takes the last of them,
 * the stream the first.
 */
export function streamReport(
  path: string,
  isFinding: (value: unknown) => boolean,
  take: (finding: unknown) => void,
  // Tests stream small files, a few bytes at a time, to put chunk edges everywhere.
  { chunkBytes = readBytes, fromBytes = streamedFrom }: { chunkBytes?: number; fromBytes?: number } = {},
): StreamedReport {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    // Said by the whole read, in its words (`cannot read report PATH: ...`).
    return { kind: 'whole' };
  }
  try {
    // A pipe (`merge <(...)`, /dev/stdin) cannot be read again, whole, when the stream stops.
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size < fromBytes) return { kind: 'whole' };
    const scanner = new ReportScanner(path, isFinding, take);
    const buffer = Buffer.allocUnsafe(Math.max(chunkBytes, 4));
    for (let first = true; scanner.state === 'reading'; first = false) {
      let read: number;
      try {
        read = readSync(fd, buffer, 0, first ? buffer.length : chunkBytes, null);
      } catch {
        return { kind: 'invalid' };
      }
      if (read === 0) break;
      let chunk = buffer.subarray(0, read);
      if (first && utf16Of(chunk) !== undefined) return { kind: 'whole' };
      if (first && hasUtf8Bom(chunk)) chunk = chunk.subarray(3);
      scanner.feed(chunk);
    }
    scanner.finish();
    if (scanner.state !== 'reading') return { kind: scanner.state };
    const text = Buffer.concat(scanner.head).toString('utf8');
    try {
      return { kind: 'report', head: JSON.parse(text) };
    } catch {
      return { kind: 'invalid' };
    }
  } finally {
    closeSync(fd);
  }
}

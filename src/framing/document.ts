// `.json` framing (spec sections 3 and 7): the file is one JSON value; an object is one record, an
// array's elements are records (not flattened further) at the line where each starts. A document
// spread over lines and read whole also tells where each value of its records starts (8.11,
// value-starts.ts); an array streamed element by element (json-array-stream.ts) does not: its
// bytes are gone by the time a record is checked.
import { JsonArrayStreamer } from './json-array-stream.js';
import type { FramedSink } from './ndjson.js';
import { COMMA, isJsonSpace } from './json-bytes.js';
import { skipBlank, valueEnd } from './member-text.js';
import type { TextPlace } from '../types.js';
import { LineIndex } from './line-index.js';
import { NestingError, maxNesting, parseJson, tooDeep } from './nesting.js';
import { locateParseError } from './parse-error.js';
import { Uint32List } from './uint32-list.js';
import { RecordValueStarts } from './value-starts.js';
import { invalidUtf8Fault, isUtf8, type DecodedFrom } from './utf8.js';

/**
 * Frames the document into `sink`, entry by entry, so that a large array is never held as all its
 * entries (and the line of each) at once before the first is checked.
 */
export function frameDocument(bytes: Buffer, options: { redact?: boolean; decodedFrom?: DecodedFrom }, sink: FramedSink): void {
  if (!isUtf8(bytes)) {
    const { index, message } = invalidUtf8Fault(bytes, options.decodedFrom);
    const prefix = bytes.subarray(0, index).toString('utf8');
    const { line, column } = new LineIndex(prefix).position(prefix.length);
    return sink.push({ kind: 'unparseable', line, column, message });
  }
  let first = 0;
  while (first < bytes.length && isJsonSpace(bytes[first]!)) first++;
  if (first === bytes.length) return;
  let line = 1;
  for (let i = 0; i < first; i++) if (bytes[i] === 0x0a) line++;
  let last = bytes.length;
  while (isJsonSpace(bytes[last - 1]!)) last--;
  const newline = bytes.indexOf(0x0a, first);
  let text: string | undefined;
  // The syntax error JSON.parse already found in `text`: a document of up to maxDocumentBytes is
  // not parsed a second time to report it.
  let syntaxError: unknown;
  // An array is parsed whole, at the speed of the floor; on one line every element starts on the
  // line of its `[`, on several a pass over the bytes finds where each starts. A broken one goes
  // the long way below.
  if (bytes[first] === 0x5b) {
    text = bytes.toString('utf8');
    try {
      // That pass comes first, and finds nesting JSON.parse is not given as it goes, so parseJson
      // skips its own scan for depth (`depthChecked`, nesting.ts).
      const starts = newline === -1 || newline >= last ? undefined : new Uint32List();
      const lines = starts && elementLines(bytes, first, line, starts);
      const value: unknown = parseJson(text, lines !== undefined);
      if (Array.isArray(value)) {
        const elements = new ElementTexts(text, first);
        // Indexed: code run once per small file is not optimised enough to take an array iterator's results away.
        if (lines === undefined) {
          for (let k = 0; k < value.length; k++) sink.push({ kind: 'value', line, value: value[k], ...elements.next() });
          return;
        }
        if (lines.length === value.length) {
          for (let k = 0; k < value.length; k++) sink.push({ kind: 'value', line: lines.at(k), value: value[k], starts: new RecordValueStarts(bytes, starts!.at(k), lines.at(k)), ...elements.next() });
          return;
        }
      }
    } catch (error) {
      syntaxError = error;
    }
    // The streamer and JSON.parse agree on every array (a property test holds them to it); should
    // they not, the streamer's entries, errors included, are the more precise report.
    if (syntaxError === undefined) return streamElements(bytes, options, sink);
    // An array JSON.parse refused is cut into its elements on the bytes, each parsed alone at the
    // line where it starts: when every one reads, those are the records. Counted first, and framed
    // again to be handed on: entries held until the last is known would take the memory of them all. One
    // refused for its nesting or size is not: its elements would be refused again, or read only to
    // end as the one parse error the document is.
    if (!(syntaxError instanceof NestingError)) {
      let values = true;
      streamElements(bytes, options, { push: (framed) => void (values &&= framed.kind === 'value') });
      if (values) return streamElements(bytes, options, sink);
    }
  }
  // A broken document (array or not) is one unparseable entry, where JSON.parse says (spec section 7).
  text ??= bytes.toString('utf8');
  let value: unknown;
  if (syntaxError === undefined) {
    try {
      value = parseJson(text);
    } catch (error) {
      syntaxError = error;
    }
  }
  if (syntaxError !== undefined) {
    const failure = locateParseError(text, syntaxError, !options.redact);
    // Input that ends too early is reported where its content ends, not on a line past its last.
    const { line, column } = new LineIndex(text).position(Math.min(failure.offset, text.trimEnd().length));
    return sink.push({ kind: 'unparseable', line, column, message: failure.message + ndjsonHint(text, failure.offset), text });
  }
  // Spread over lines, its findings sit at the members they point at (spec section 8.11); on one line
  // they stay at the record's line.
  const starts = newline === -1 || newline >= last ? undefined : new RecordValueStarts(bytes, first, line);
  // Leading blanks are bytes of one character each: `first` is an offset in the text too.
  const place = { document: text, at: 0 };
  sink.push(starts ? { kind: 'value', line, value, starts, text, textAt: first, textPlace: place } : { kind: 'value', line, value, text, textAt: first, textPlace: place });
}

/** The texts of the elements of the array at `text[open]` (which JSON.parse accepted), one after another. */
class ElementTexts {
  private i: number;

  constructor(
    private readonly text: string,
    open: number,
  ) {
    this.i = skipBlank(text, open + 1);
  }

  /** The next element's text, and where it starts in the document. */
  next(): { text: string; textPlace: TextPlace } {
    const { text } = this;
    const from = this.i;
    const to = valueEnd(text, from);
    this.i = skipBlank(text, to);
    if (text.charCodeAt(this.i) === COMMA) this.i = skipBlank(text, this.i + 1);
    return { text: text.slice(from, to), textPlace: { document: text, at: from } };
  }
}

/** The array's elements into `sink`, each parsed alone at the line where it starts. */
function streamElements(bytes: Buffer, options: { redact?: boolean }, sink: FramedSink): void {
  const streamer = new JsonArrayStreamer(Number.POSITIVE_INFINITY, !options.redact);
  streamer.push(bytes, sink);
  streamer.end(sink);
}

/**
 * A second value starting a line after the first is a log of one record a line saved as `.json`:
 * the file is one parse error at line 2, and the message says what it is instead.
 */
function ndjsonHint(text: string, offset: number): string {
  if (!(/\n[ \t\r]*$/.test(text.slice(Math.max(0, offset - 64), offset)) && /^[{[]/.test(text.slice(offset, offset + 1)))) return '';
  // Only after a whole value: a comma left out between two elements of an array also puts a { at a
  // line's start, and is not several values one after another. That takes parsing what comes
  // before once more: only up to hintParseBytes, a log's worth of it.
  if (offset > hintParseBytes || !parses(text.slice(0, offset))) return '';
  // The first value spread over lines (what `jq .` writes) is no NDJSON either: that advice would
  // lead back to --input json's. Only the first 64 KiB are looked at, as a line of a log is shorter.
  const first = text.slice(0, Math.min(offset, 64 * 1024)).trim();
  return first.includes('\n')
    ? ' (pretty-printed values one after another: a .json file holds one value, and NDJSON one a line: make them one a line with jq -c . and check that)'
    : ' (one record a line is NDJSON: --input ndjson reads it so, as does a .jsonl or .ndjson name without --input json)';
}

const hintParseBytes = 16 * 1024 * 1024;

function parses(text: string): boolean {
  try {
    parseJson(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The line on which each element of the array at `bytes[open]` starts, `line` being that of its `[`,
 * and into `starts` its byte offset, from which its findings' places are looked for (value-starts.ts:
 * a push an element here costs less than a second pass over the bytes once a record asks);
 * throws NestingError at an element nested past what JSON.parse is given (nesting.ts). Run before
 * JSON.parse, its lines are used only for bytes JSON.parse then accepts, so nothing is checked:
 * brackets balance and no string holds a raw line break. One pass with locals only, so that a large
 * array is framed about as fast as the same lines as NDJSON; the element-by-element streamer below
 * is the slow path.
 */
function elementLines(bytes: Buffer, open: number, line: number, starts: Uint32List): Uint32List {
  const lines = new Uint32List();
  // The array's own bracket is one level: an element nested past maxNesting - 1 is refused.
  const deepest = maxNesting - 1;
  // Nesting inside the current element: 0 between the array's elements.
  let depth = 0;
  // After the `[` or a `,` between elements: the next byte that is not blank starts one.
  let expecting = true;
  for (let i = open + 1; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x0a) {
      line++;
      continue;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0d) continue;
    if (expecting) {
      if (b === 0x5d) break;
      lines.push(line);
      starts.push(i);
      expecting = false;
    }
    if (b === 0x22) {
      // To the closing quote; a backslash takes the byte after it along (UTF-8 continuation bytes
      // are never a quote or a backslash). Bounded all the same: a fault here must not hang a run.
      for (i++; i < bytes.length && bytes[i] !== 0x22; i++) if (bytes[i] === 0x5c) i++;
    } else if (b === 0x7b || b === 0x5b) {
      if (++depth > deepest) throw tooDeep(bytes.toString('utf8', 0, i).length);
    } else if (b === 0x7d || b === 0x5d) {
      if (depth === 0) break;
      depth--;
    } else if (b === 0x2c && depth === 0) expecting = true;
  }
  return lines;
}


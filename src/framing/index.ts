// Picks the framing for an input and runs it over its decoded chunks.
import { InputDataError, InputEndsEarly } from '../sources/decode.js';
import { frameDocument } from './document.js';
import { JsonArrayStreamer, NotAnArray } from './json-array-stream.js';
import { NdjsonFramer, defaultMaxLineBytes, type BuiltWhole, type FramedSink } from './ndjson.js';
import type { DecodedFrom } from './utf8.js';
import type { ScanPlan } from './scan.js';

export type InputMode = 'auto' | 'json' | 'ndjson';
export const inputModes: readonly InputMode[] = ['auto', 'json', 'ndjson'];
export type Framing = 'json' | 'ndjson';

export const maxDocumentBytes = 256 * 1024 * 1024;

/** `.json` (also `.json.gz`) is one document; everything else, stdin included, is line-delimited. */
export function framingFor(name: string | undefined, mode: InputMode): Framing {
  if (mode !== 'auto') return mode;
  return name !== undefined && /\.json(\.gz)?$/i.test(name) ? 'json' : 'ndjson';
}

export interface FramingOptions {
  maxLineBytes?: number;
  /** Find the JSON object inside prefixed log lines (line-delimited inputs only). */
  extract?: boolean;
  /** No raw text in parse-error messages (--redact). */
  redact?: boolean;
  /** A `.json` document larger than this is streamed (arrays) or refused; tests lower it. */
  maxDocumentBytes?: number;
  /** What the input was decoded from, when not UTF-8: its faults are worded as that encoding's. */
  decodedFrom?: DecodedFrom;
  /** What the scanner builds of a line-delimited input's lines (src/checks/record-plan.ts); absent: the reference path. */
  plan?: ScanPlan;
  /** Which of those lines the plan does not serve, built whole (src/unwrap/built-whole.ts); needed with a plan that builds in part. */
  builtWhole?: BuiltWhole;
}

export type { FramedSink } from './ndjson.js';

function tooLargeDocument(limit: number): InputDataError {
  return new InputDataError(`a .json document over ${Math.round(limit / 1024 / 1024)} MiB is read only when it is an array; write it as NDJSON (one envelope a line) and check that instead, with --max-line-bytes above its longest line (64M unless set)`);
}

/**
 * Frames a whole input already in memory (UTF-8, no BOM) into `sink`, without an async hop: for a
 * small file the async generators, not the work, would be most of its cost. Returns the number of
 * lines read, as frameInput does.
 */
export function frameBuffer(bytes: Buffer, framing: Framing, options: FramingOptions, sink: FramedSink): number {
  if (framing === 'ndjson') {
    const framer = new NdjsonFramer(options);
    framer.push(bytes, sink);
    framer.end(sink);
    return framer.lineCount;
  }
  const limit = options.maxDocumentBytes ?? maxDocumentBytes;
  if (bytes.length <= limit) {
    frameDocument(bytes, options, sink);
    return 0;
  }
  const streamer = new JsonArrayStreamer(options.maxLineBytes ?? defaultMaxLineBytes, !options.redact);
  try {
    streamer.push(bytes, sink);
  } catch (error) {
    throw error instanceof NotAnArray ? tooLargeDocument(limit) : error;
  }
  streamer.end(sink);
  return 0;
}

/** Frames every entry of the input into `sink`, in order; returns the number of lines read. */
export async function frameInput(chunks: AsyncIterable<Buffer>, framing: Framing, options: FramingOptions, sink: FramedSink): Promise<number> {
  if (framing === 'ndjson') {
    const framer = new NdjsonFramer(options);
    try {
      for await (const chunk of chunks) framer.push(chunk, sink);
    } catch (error) {
      // A .gz cut short ends where a plain file cut short would: its last line, cut off with it, is
      // a parse error that says so. (Not after Ctrl-C, nor
      // after corrupt data, whose last decoded piece ends wherever zlib stopped.)
      if (error instanceof InputEndsEarly) framer.end(sink);
      throw error;
    }
    framer.end(sink);
    return framer.lineCount;
  }
  const limit = options.maxDocumentBytes ?? maxDocumentBytes;
  const parts: Buffer[] = [];
  let length = 0;
  let streamer: JsonArrayStreamer | undefined;
  try {
    for await (const chunk of chunks) {
      if (streamer) {
        streamer.push(chunk, sink);
        continue;
      }
      parts.push(chunk);
      length += chunk.length;
      if (length > limit) {
        // Too large to hold: from here on, an array is cut into its elements as it streams past.
        streamer = new JsonArrayStreamer(options.maxLineBytes ?? defaultMaxLineBytes, !options.redact);
        for (const part of parts.splice(0)) streamer.push(part, sink);
      }
    }
  } catch (error) {
    // A .json.gz cut short, as a .jsonl.gz: what was decoded is framed (a document cut off is a
    // parse error where its text ends).
    if (error instanceof InputEndsEarly) {
      if (streamer) streamer.end(sink);
      else frameDocument(Buffer.concat(parts, length), options, sink);
    }
    throw error instanceof NotAnArray ? tooLargeDocument(limit) : error;
  }
  if (streamer) streamer.end(sink);
  else frameDocument(Buffer.concat(parts, length), options, sink);
  // Line offsets matter only for byte ranges, and a .json document is never split.
  return 0;
}

// Picks the framing for an input and runs it over its decoded chunks.
import { InputDataError } from '../sources/decode.js';
import { frameDocument } from './document.js';
import { NdjsonFramer, type FramedSink } from './ndjson.js';

export type InputMode = 'auto' | 'json' | 'ndjson';
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
}

export type { FramedSink } from './ndjson.js';

/** Frames every entry of the input into `sink`, in order; returns the number of lines read. */
export async function frameInput(chunks: AsyncIterable<Buffer>, framing: Framing, options: FramingOptions, sink: FramedSink): Promise<number> {
  if (framing === 'ndjson') {
    const framer = new NdjsonFramer(options);
    for await (const chunk of chunks) framer.push(chunk, sink);
    framer.end(sink);
    return framer.lineCount;
  }
  const parts: Buffer[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    length += chunk.length;
    if (length > maxDocumentBytes) {
      throw new InputDataError(`a .json document over ${maxDocumentBytes / 1024 / 1024} MiB is not read whole; write it as NDJSON (one envelope a line) and check that instead`);
    }
    parts.push(chunk);
  }
  for (const framed of frameDocument(Buffer.concat(parts, length), options)) sink.push(framed);
  // Line offsets matter only for byte ranges, and a .json document is never split.
  return 0;
}

// What today's line path says of a line that is no JSON (ndjson.ts's frameLine): invalid UTF-8 first,
// then parseJson's refusal (nesting.ts) or JSON.parse's, worded by locateParseError. The scanner asks
// it only for a line it rejected, so the words and column are today's by construction, and the
// grammar's own verdict is confirmed by JSON.parse before a line is called unparseable.
import { parseJson } from './nesting.js';
import { locateParseError } from './parse-error.js';
import { invalidUtf8Fault, isUtf8, type DecodedFrom } from './utf8.js';

export interface ScanOptions {
  /** Parse messages may quote the offending text; false under --redact. */
  quote?: boolean;
  /** The input's encoding before decoding, when it was not UTF-8. */
  decodedFrom?: DecodedFrom;
}

/** A line that is no JSON, as the framer reports it. */
export interface ScanReject {
  ok: false;
  /** 1-based, in UTF-16 code units of the line's text. */
  column: number;
  message: string;
  /** The text ended before the value did (what the framer's cut-off and pretty-print hints read). */
  atEnd: boolean;
  /** The line is no UTF-8 (its text is then the bytes read as latin1, as the framer keeps it). */
  invalidUtf8: boolean;
  /** The line's text, for baselines and the HTML report. */
  text: string;
}

/**
 * Today's verdict on bytes [start, end): a ScanReject, or the value JSON.parse gives when it takes
 * the text after all (which the scanner's tests hold never to happen).
 */
export function describeLine(bytes: Buffer, start: number, end: number, options: ScanOptions = {}): ScanReject | { ok: true; value: unknown } {
  const content = bytes.subarray(start, end);
  if (!isUtf8(content)) {
    const { column, message } = invalidUtf8Fault(content, options.decodedFrom);
    return { ok: false, column, message, atEnd: false, invalidUtf8: true, text: content.toString('latin1') };
  }
  const text = content.toString('utf8');
  try {
    return { ok: true, value: parseJson(text) };
  } catch (error) {
    const failure = locateParseError(text, error, options.quote ?? true);
    return { ok: false, column: failure.offset + 1, message: failure.message, atEnd: failure.atEnd, invalidUtf8: false, text };
  }
}

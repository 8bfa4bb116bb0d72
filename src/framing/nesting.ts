// JSON.parse of a text the data chose, within what V8 can hold. V8 parses any depth without
// recursion, but takes memory for every level, once per worker thread: a line of `[` within
// --max-line-bytes would take gigabytes. An array of more elements than V8's largest (134,217,725)
// ends the process with a fatal error. Such texts are refused before they are parsed, as a parse
// error at the place that passes the limit.
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COMMA, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-bytes.js';

/** Containers nested deeper than this are not parsed: an envelope is a few levels deep, and 100k-deep data must still read. */
export const maxNesting = 1_000_000;

/** Elements of one container, at most: below V8's largest array, with room to spare. */
export const maxElements = 100_000_000;

/** A text refused before JSON.parse: a SyntaxError, as JSON.parse's are, with the offset of the place. */
export class NestingError extends SyntaxError {
  constructor(
    message: string,
    /** In UTF-16 code units from the text's start. */
    readonly offset: number,
  ) {
    super(message);
  }
}

/** The refusal of a text whose containers nest past `nesting` at `offset`. */
export function tooDeep(offset: number, nesting = maxNesting): NestingError {
  return new NestingError(`nested more than ${nesting.toLocaleString('en-US')} levels deep: too deep to read`, offset);
}

/**
 * JSON.parse, but for a text nested deeper than maxNesting or with a container of more than
 * maxElements members, which throws NestingError. A text shorter than the limits cannot pass them,
 * so nearly every text costs one comparison more; a longer one a scan.
 * `depthChecked`: the caller's own pass over the text refused too-deep nesting already, so only a
 * text long enough to hold too many members is scanned.
 */
export function parseJson(text: string, depthChecked = false): unknown {
  if (text.length > (depthChecked ? 2 * maxElements : maxNesting)) checkNesting(text);
  return JSON.parse(text);
}

/** Throws NestingError where `text` passes either limit (tests give it small ones). */
export function checkNesting(text: string, nesting = maxNesting, elements = maxElements): void {
  // Members are counted only where a container could hold too many: past twice the limit in length.
  const counts = text.length > 2 * elements ? new Uint32Array(nesting + 1) : undefined;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // To the string's closing quote, found natively (faster than a character loop): one after an
      // odd run of backslashes is escaped. Unterminated: JSON.parse says so.
      for (;;) {
        const quote = text.indexOf('"', i + 1);
        if (quote === -1) return;
        let backslashes = 0;
        while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
        i = quote;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > nesting) throw tooDeep(i, nesting);
      if (counts) counts[depth] = 0;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      // Below 0 only in a text JSON.parse rejects anyway.
      if (depth > 0) depth--;
    } else if (counts && c === COMMA && depth > 0 && ++counts[depth]! >= elements) {
      throw new NestingError(`a container of more than ${elements.toLocaleString('en-US')} members: too large to read`, i);
    }
  }
}

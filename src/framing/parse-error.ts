// Where and why a text is not JSON. JSON.parse is the fast path everywhere; only when it fails is the
// text scanned again, by jsonc-parser's strict visitor, to name the first error and its offset in
// words a person reads ("unterminated string") rather than V8's.
import type { printParseErrorCode } from 'jsonc-parser';
import { loadJsoncParser } from '../lazy.js';
import { NestingError } from './nesting.js';
import { Uint32List } from './uint32-list.js';
import { utf16WithoutBom } from './utf8.js';

export interface ParseFailure {
  /** Offset in UTF-16 code units from the start of the text. */
  offset: number;
  message: string;
  /** True when the text ended before the value did (a value spread over several lines). */
  atEnd: boolean;
}

const messages: Record<ReturnType<typeof printParseErrorCode>, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'property name expected',
  ValueExpected: 'value expected',
  ColonExpected: 'colon expected',
  CommaExpected: 'comma expected',
  CloseBraceExpected: 'closing brace expected',
  CloseBracketExpected: 'closing bracket expected',
  EndOfFileExpected: 'unexpected text after the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid \\u escape',
  InvalidEscapeCharacter: 'invalid escape sequence',
  InvalidCharacter: 'control character in string',
  '<unknown ParseErrorCode>': 'invalid JSON',
};

/** Describes why `text` (which JSON.parse rejected with `error`) is not JSON. */
export function locateParseError(text: string, error: unknown, quote = true): ParseFailure {
  // Refused before JSON.parse read it (nesting.ts): the text may be JSON, and is not scanned again.
  if (error instanceof NestingError) return { offset: error.offset, message: error.message, atEnd: false };
  const { printParseErrorCode: codeName } = loadJsoncParser();
  const found = firstSyntaxError(text);
  if (found) {
    const inString = inStringCodes.has(codeName(found.code)) ? faultInString(text, found) : undefined;
    if (inString) return { offset: inString.offset, message: quote ? `${inString.message}, found ${JSON.stringify(inString.token)}` : inString.message, atEnd: false };
    const base = messages[codeName(found.code)];
    const atEnd = found.offset >= trimmedLength(text);
    const token = text.slice(found.offset, found.offset + Math.min(found.length, 20));
    let message = base;
    if (base.startsWith('unterminated')) message = base;
    // Invisible when quoted, and what joining files that each start with one leaves mid-stream.
    else if (token.startsWith('\uFEFF')) message = 'unexpected byte order mark (U+FEFF): were files that each start with one joined together?';
    // What `jq --seq` and other RFC 7464 writers put before each record.
    else if (token.startsWith('\u001e') && found.offset === text.length - text.trimStart().length)
      message = 'unexpected record separator (U+001E): a JSON text sequence (RFC 7464, jq --seq)? Records are one a line without it: drop --seq, or strip it with tr -d \'\\036\'';
    // What UTF-16 without its byte order mark reads as: every other byte a NUL.
    else if (token.startsWith('\u0000') && isUtf16Shaped(text, found.offset)) message = utf16WithoutBom;
    // What Python's repr and hand-written JSON put in place of a string (spec section 8.12).
    else if (token.startsWith("'")) message = quote ? `${singleQuotes}, found ${JSON.stringify(token)}` : singleQuotes;
    else if (found.code === 1 && token !== '') message = quote ? `unexpected ${JSON.stringify(token)}` : base;
    else if (atEnd) message = `unexpected end of input: ${base}`;
    else if (token !== '' && quote) message = `${base}, found ${JSON.stringify(token)}`;
    // A second record after a lone CR: the input's lines end the way classic Mac OS ended them.
    if (codeName(found.code) === 'EndOfFileExpected' && /\r[ \t]*$/.test(text.slice(0, found.offset))) message += ' (lines end in CR alone: records must be separated by LF or CRLF)';
    // An unterminated string or comment is found where the input runs out, as V8 reports it.
    const offset = base.startsWith('unterminated') ? found.offset + found.length : found.offset;
    return { offset, message, atEnd: atEnd || base.startsWith('unterminated') };
  }
  return fromV8(text, error);
}

const singleQuotes = 'JSON strings and member names take double quotes';

// jsonc-parser's SyntaxKind, ScanError and ParseErrorCode: const enums, which an isolated module
// cannot read from its declarations (a test holds these to the package's values).
export const token = { openBrace: 1, closeBrace: 2, openBracket: 3, closeBracket: 4, comma: 5, colon: 6, null: 7, true: 8, false: 9, string: 10, number: 11, lineComment: 12, blockComment: 13, lineBreak: 14, trivia: 15, unknown: 16, eof: 17 } as const;
export const scanError = { none: 0, endOfComment: 1, endOfString: 2, endOfNumber: 3, invalidUnicode: 4, invalidEscape: 5, invalidCharacter: 6 } as const;
export const parseErrorCode = {
  invalidSymbol: 1,
  invalidNumberFormat: 2,
  propertyNameExpected: 3,
  valueExpected: 4,
  colonExpected: 5,
  commaExpected: 6,
  closeBraceExpected: 7,
  closeBracketExpected: 8,
  endOfFileExpected: 9,
  invalidCommentToken: 10,
  endOfString: 12,
  endOfNumber: 13,
  invalidUnicode: 14,
  invalidEscape: 15,
  invalidCharacter: 16,
} as const;

const scanErrorCodes: Record<number, number> = {
  [scanError.invalidUnicode]: parseErrorCode.invalidUnicode,
  [scanError.invalidEscape]: parseErrorCode.invalidEscape,
  [scanError.endOfNumber]: parseErrorCode.endOfNumber,
  [scanError.endOfString]: parseErrorCode.endOfString,
  [scanError.invalidCharacter]: parseErrorCode.invalidCharacter,
};

export interface SyntaxFault {
  code: number;
  offset: number;
  length: number;
}

/**
 * The first error jsonc-parser's strict `visit` reports, found on its scanner's tokens with a stack
 * of open containers instead of its recursive descent, which a line of deep `[` would take past the
 * call stack ("Maximum call stack size exceeded"), failing the whole input. The grammar is visit's up to its first error (a property test compares the two), which is
 * all a message needs; undefined for JSON.
 */
export function firstSyntaxError(text: string): SyntaxFault | undefined {
  const scanner = loadJsoncParser().createScanner(text, false);
  let fault: SyntaxFault | undefined;
  const fail = (code: number): void => {
    fault ??= { code, offset: scanner.getTokenOffset(), length: scanner.getTokenLength() };
  };
  // The next token that is not blank; comments and unknown characters are errors on the way.
  const next = (): number => {
    for (;;) {
      const kind = scanner.scan();
      const scanned = scanErrorCodes[scanner.getTokenError()];
      if (scanned !== undefined) fail(scanned);
      if (kind === token.lineComment || kind === token.blockComment) fail(parseErrorCode.invalidCommentToken);
      else if (kind === token.unknown) fail(parseErrorCode.invalidSymbol);
      else if (kind !== token.trivia && kind !== token.lineBreak) return kind;
    }
  };
  // Open containers, innermost last: 1 for an object. (A Uint32List, not a boolean[], which a text
  // of enough `[` would take past V8's largest array, a fatal error.)
  const open = new Uint32List();
  let kind = next();
  if (kind === token.eof) fail(parseErrorCode.valueExpected);
  // Each turn reads one value where one is due (after `[`, `,` or `:`, or at the start), then the
  // separators and closing brackets after it, up to where the next value is due.
  while (fault === undefined) {
    if (kind === token.openBracket || kind === token.openBrace) {
      const isObject = kind === token.openBrace;
      open.push(isObject ? 1 : 0);
      kind = next();
      if (fault) break;
      if (kind === (isObject ? token.closeBrace : token.closeBracket)) {
        open.pop();
        kind = next();
      } else if (kind === token.eof) fail(isObject ? parseErrorCode.closeBraceExpected : parseErrorCode.closeBracketExpected);
      // A comma before the first member: the value it should follow is missing.
      else if (kind === token.comma) fail(parseErrorCode.valueExpected);
      else {
        if (isObject) kind = property(kind);
        continue;
      }
    } else if (kind === token.string || kind === token.number || kind === token.null || kind === token.true || kind === token.false) {
      if (kind === token.number && Number.isNaN(Number(scanner.getTokenValue()))) fail(parseErrorCode.invalidNumberFormat);
      kind = next();
    } else {
      fail(parseErrorCode.valueExpected);
    }
    if (fault) break;
    // After a value: close what it ends, until a comma asks for the next one.
    for (;;) {
      if (open.length === 0) {
        if (kind !== token.eof) fail(parseErrorCode.endOfFileExpected);
        return fault;
      }
      const isObject = open.last() === 1;
      if (kind === (isObject ? token.closeBrace : token.closeBracket)) {
        open.pop();
        kind = next();
        if (fault) return fault;
        continue;
      }
      if (kind === token.eof) fail(isObject ? parseErrorCode.closeBraceExpected : parseErrorCode.closeBracketExpected);
      else if (kind !== token.comma) fail(parseErrorCode.commaExpected);
      else {
        kind = next();
        if (!fault && isObject) kind = property(kind);
      }
      break;
    }
  }
  return fault;

  /** A member's name and colon; returns the token where its value is due. */
  function property(kind: number): number {
    if (kind !== token.string) {
      fail(parseErrorCode.propertyNameExpected);
      return kind;
    }
    kind = next();
    if (kind !== token.colon) {
      fail(parseErrorCode.colonExpected);
      return kind;
    }
    return next();
  }
}

/** NULs at every other character around `offset`: text of UTF-16 units read as bytes. */
function isUtf16Shaped(text: string, offset: number): boolean {
  const from = offset - (offset % 2 === 0 ? 0 : 1);
  let nuls = 0;
  let seen = 0;
  for (let i = from; i < Math.min(text.length, from + 16); i += 2, seen++) if (text.charCodeAt(i) === 0 || text.charCodeAt(i + 1) === 0) nuls++;
  // One pair only in a line of its own: the NUL a UTF-16LE file's last line break leaves after it.
  return nuls === seen && (seen >= 2 || text.length <= 2);
}

const inStringCodes = new Set<string>(['InvalidCharacter', 'InvalidEscapeCharacter', 'InvalidUnicode']);
const simpleEscapes = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/**
 * jsonc-parser files a bad character or escape at the start of its string: `"abcdefghij\u0001klm"`
 * is a parse error at the opening quote, 11 columns before the byte to fix. The string's own first
 * fault is found here, and the message is the fault's (a control character, an escape, a \u).
 */
function faultInString(text: string, found: { offset: number; length: number }): { offset: number; message: string; token: string } | undefined {
  if (text[found.offset] !== '"') return undefined;
  const end = found.offset + found.length;
  for (let i = found.offset + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) return { offset: i, message: messages.InvalidCharacter, token: text[i]! };
    if (c !== 0x5c) continue;
    const next = text[i + 1];
    if (next === 'u') {
      if (/^[0-9a-fA-F]{4}/.test(text.slice(i + 2, i + 6))) {
        i += 5;
        continue;
      }
      return { offset: i, message: messages.InvalidUnicode, token: text.slice(i, Math.min(i + 6, end)) };
    }
    if (next === undefined || i + 1 >= end) return undefined;
    if (!simpleEscapes.has(next)) return { offset: i, message: messages.InvalidEscapeCharacter, token: text.slice(i, i + 2) };
    i++;
  }
  return undefined;
}

function trimmedLength(text: string): number {
  return text.trimEnd().length;
}

// jsonc-parser accepts a few texts JSON.parse rejects (e.g. lone surrogate quirks); V8's own message
// and position are the fallback.
function fromV8(text: string, error: unknown): ParseFailure {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : 0;
  // V8 quotes the input (`Unexpected token '}', "{"a":}" is not valid JSON`): keep its first clause only.
  const clause = message.replace(/ in JSON at position \d+.*$/s, '').replace(/, ".*$/s, '');
  return { offset, message: clause, atEnd: offset >= trimmedLength(text) };
}

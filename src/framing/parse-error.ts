// Where and why a text is not JSON. JSON.parse is the fast path everywhere; only when it fails is the
// text scanned again, by jsonc-parser's strict visitor, to name the first error and its offset in
// words a person reads ("unterminated string") rather than V8's.
import type { printParseErrorCode } from 'jsonc-parser';
import { loadJsoncParser } from '../lazy.js';

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
  const { printParseErrorCode: codeName, visit } = loadJsoncParser();
  let found: { code: number; offset: number; length: number } | undefined;
  visit(
    text,
    {
      onError(code, offset, length) {
        found ??= { code, offset, length };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
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

const inStringCodes = new Set<string>(['InvalidCharacter', 'InvalidEscapeCharacter', 'InvalidUnicode']);
const simpleEscapes = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);

/**
 * jsonc-parser files a bad character or escape at the start of its string: `"abcdefghij\u0001klm"`
 * was a parse error at the opening quote, 11 columns before the byte to fix. The string's own first
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

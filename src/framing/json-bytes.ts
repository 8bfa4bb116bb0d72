// The bytes JSON's structure is made of, for the code that follows it on bytes rather than parsing
// it: a large `.json` array cut into elements (json-array-stream.ts), a document's element lines
// (document.ts), a report's findings read one at a time (src/report-reader.ts), nesting too deep to
// parse (nesting.ts).
export const LF = 0x0a;
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_BRACKET = 0x5b;
export const CLOSE_BRACKET = 0x5d;
export const OPEN_BRACE = 0x7b;
export const CLOSE_BRACE = 0x7d;

/** JSON's white space: space, tab, LF, CR. */
export function isJsonSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
}

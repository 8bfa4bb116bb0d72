import { isAscii, isUtf8 } from 'node:buffer';

export { isAscii, isUtf8 };

/**
 * The first byte of `bytes` that is not part of a well-formed UTF-8 sequence, and the column
 * (1-based, UTF-16 units) it would have. Only called on the error path, after isUtf8 said no.
 */
export function firstInvalidUtf8(bytes: Uint8Array): { index: number; column: number } {
  let index = 0;
  let column = 1;
  while (index < bytes.length) {
    const length = sequenceLength(bytes, index);
    if (length === 0) return { index, column };
    column += length === 4 ? 2 : 1;
    index += length;
  }
  return { index, column };
}

/** What UTF-16 without its byte order mark reads as (parse-error.ts names it too, of ASCII text). */
export const utf16WithoutBom = 'unexpected NUL (U+0000): UTF-16 without a byte order mark? It is read as UTF-16 only after one: save the file as UTF-8, or as UTF-16 with a BOM';

/**
 * Why `bytes` (which isUtf8 refused) are no UTF-8, and where: UTF-16 without a byte order mark is
 * told by its NUL bytes (spec section 8.12), whatever characters it holds: its first non-ASCII
 * character taken for a bad UTF-8 byte would be a word of no help. It is not decoded: a BOM says
 * what a file is, a guess does not.
 */
export function invalidUtf8Fault(bytes: Uint8Array, from?: DecodedFrom): { index: number; column: number; message: string } {
  const nul = from ? -1 : utf16Nul(bytes);
  if (nul !== -1) return { index: nul, column: Buffer.from(bytes.buffer, bytes.byteOffset, nul).toString('utf8').length + 1, message: utf16WithoutBom };
  const { index, column } = firstInvalidUtf8(bytes);
  return { index, column, message: invalidUtf8Message(bytes, index, from) };
}

/**
 * The first NUL of text whose first 16 pairs of bytes hold a NUL on one side in at least half of
 * them (the high byte of each ASCII character: JSON's punctuation and member names), or -1.
 */
function utf16Nul(bytes: Uint8Array): number {
  const end = Math.min(bytes.length, 32) & ~1;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < end; i += 2) {
    if (bytes[i] === 0) even++;
    if (bytes[i + 1] === 0) odd++;
  }
  const pairs = end / 2;
  return pairs > 0 && 2 * Math.max(even, odd) >= pairs ? bytes.indexOf(0) : -1;
}

/** The encoding an input was decoded from into the UTF-8 framing reads, when it was not UTF-8. */
export type DecodedFrom = 'UTF-16LE' | 'UTF-16BE';

/**
 * Why the byte at `index` (as firstInvalidUtf8 found it) is no UTF-8: its value, and, for ED A0-BF
 * xx, the lone surrogate those bytes encode (what CESU-8 or WTF-8 writers put in a UTF-8 file). Of
 * an input decoded from UTF-16 (`from`), whose faults decoding marks with such bytes, the fault is
 * the UTF-16 one: a lone surrogate, or an odd byte at the end (marked 0xFF).
 */
export function invalidUtf8Message(bytes: Uint8Array, index: number, from?: DecodedFrom): string {
  const byte = `byte 0x${bytes[index]!.toString(16).padStart(2, '0')}`;
  const [b0, b1, b2] = [bytes[index]!, bytes[index + 1], bytes[index + 2]];
  // The byte is named only of UTF-8 text: of UTF-16 it is the marker decoding wrote, not the file's.
  const invalid = from ? `invalid ${from}` : `invalid UTF-8 (${byte})`;
  if (b0 === 0xed && b1 !== undefined && b1 >= 0xa0 && b1 <= 0xbf && b2 !== undefined && b2 >= 0x80 && b2 <= 0xbf) {
    const unit = ((b0 & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
    return `${invalid}: a lone surrogate, U+${unit.toString(16).toUpperCase()}, half of a character`;
  }
  if (from && b0 === 0xff) return `${invalid}: the file ends in an odd byte, half of a 2-byte unit`;
  return `invalid ${from ?? 'UTF-8'} (${byte})`;
}

// Returns the length of the well-formed sequence at `i`, or 0 (RFC 3629 table 3-7 ranges).
function sequenceLength(b: Uint8Array, i: number): number {
  const b0 = b[i]!;
  if (b0 < 0x80) return 1;
  const cont = (k: number, lo = 0x80, hi = 0xbf): boolean => i + k < b.length && b[i + k]! >= lo && b[i + k]! <= hi;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

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

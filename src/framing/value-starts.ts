// Where the values of a record in a pretty-printed `.json` document start (spec section 8.11): a
// finding sits at the member it points at, not at the line where its record starts. Line numbers
// are still born here, in framing; the checker asks for the places of its findings' pointers.
//
// Framing notes where each record starts (document.ts) and nothing more: a record that has no finding
// with a pointer (nearly all of them) costs one small object. Asked, a record is walked once on its bytes, and only
// the containers on the way to an asked pointer are entered (the rest skipped bracket by bracket),
// so a large record with two findings makes two or three pointer strings, not one per value. The
// document's bytes are the caller's only while it is framed (check-unit.ts reads small files into a
// buffer it reuses): a record's places are asked for while it is pushed, never later.
import type { ValuePlace, ValueStarts } from '../types.js';
import { childPointer } from '../json-pointer.js';
import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, COLON, COMMA, LF, OPEN_BRACE, OPEN_BRACKET, QUOTE, isJsonSpace } from './json-bytes.js';

/** The places of one record's values: the value at byte `start` of the document, on `line`. */
export class RecordValueStarts implements ValueStarts {
  constructor(
    private readonly bytes: Buffer,
    private readonly start: number,
    private readonly line: number,
  ) {}

  find(pointers: readonly string[]): ReadonlyMap<string, ValuePlace> {
    return new Walk(this.bytes, this.start, this.line).find(pointers);
  }
}

/** One past the closing quote of the string whose opening quote is at `i`. */
function stringEnd(bytes: Buffer, i: number): number {
  for (i++; i < bytes.length && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
  return i + 1;
}

/** UTF-16 units of the UTF-8 bytes [from, to): one per sequence, two for a 4-byte one. */
function utf16Units(bytes: Buffer, from: number, to: number): number {
  let units = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
  }
  return units;
}

/** `pointers` and every pointer above them: the containers a walk to them enters. */
function ancestorsOf(pointers: readonly string[]): Set<string> {
  const above = new Set<string>();
  for (const pointer of pointers) {
    for (let end = pointer.lastIndexOf('/'); end !== -1; end = pointer.lastIndexOf('/', end - 1)) {
      const parent = pointer.slice(0, end);
      if (above.has(parent)) break;
      above.add(parent);
    }
  }
  return above;
}

interface Open {
  pointer: string;
  array: boolean;
  index: number;
}

/** A walk over one record, the value at byte `i` of the document, on `line`. */
class Walk {
  /** The UTF-16 units of the current line up to byte `counted`. */
  private counted: number;
  private units = 0;

  constructor(
    private readonly bytes: Buffer,
    private i: number,
    private line: number,
  ) {
    this.counted = i === 0 ? 0 : bytes.lastIndexOf(LF, i - 1) + 1;
  }

  /**
   * The place of each of `pointers` (relative to the record) that the record holds, and of every
   * value above them, which is where a pointer to a missing member ends up (its parent's `{`).
   */
  find(pointers: readonly string[]): ReadonlyMap<string, ValuePlace> {
    const found = new Map<string, ValuePlace>();
    const wanted = new Set(pointers);
    const above = ancestorsOf(pointers);
    // An explicit stack: a record may nest as deep as JSON.parse was given (nesting.ts).
    const stack: Open[] = [];
    const { bytes } = this;
    let pointer = '';
    for (;;) {
      this.space();
      if (wanted.has(pointer) || above.has(pointer)) found.set(pointer, this.place());
      const b = bytes[this.i]!;
      if ((b === OPEN_BRACE || b === OPEN_BRACKET) && above.has(pointer)) {
        this.i++;
        this.space();
        const close = bytes[this.i];
        if (close === CLOSE_BRACE || close === CLOSE_BRACKET) this.i++;
        else {
          const open: Open = { pointer, array: b === OPEN_BRACKET, index: 0 };
          stack.push(open);
          pointer = this.next(open);
          continue;
        }
      } else if (stack.length === 0) return found; // the record itself, not entered: nothing below is asked for
      else this.skipValue();
      // After a value: close the containers it ends, up to the next member.
      for (;;) {
        const top = stack.at(-1);
        if (!top) return found;
        this.space();
        if (bytes[this.i++] === COMMA) {
          top.index++;
          pointer = this.next(top);
          break;
        }
        stack.pop();
      }
    }
  }

  /** The pointer of `open`'s next member or element, the bytes read up to its value. */
  private next(open: Open): string {
    if (open.array) return childPointer(open.pointer, open.index);
    this.space();
    const from = this.i;
    const to = stringEnd(this.bytes, from);
    const raw = this.bytes.toString('utf8', from + 1, to - 1);
    const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
    this.i = to;
    this.space();
    if (this.bytes[this.i] === COLON) this.i++;
    return childPointer(open.pointer, key);
  }

  /** Past the value at `i`, counting the lines of a container it skips. */
  private skipValue(): void {
    const { bytes } = this;
    const b = bytes[this.i]!;
    if (b === QUOTE) {
      this.i = stringEnd(bytes, this.i);
      return;
    }
    if (b !== OPEN_BRACE && b !== OPEN_BRACKET) {
      while (this.i < bytes.length && !isJsonSpace(bytes[this.i]!) && bytes[this.i] !== COMMA && bytes[this.i] !== CLOSE_BRACE && bytes[this.i] !== CLOSE_BRACKET) this.i++;
      return;
    }
    let depth = 0;
    for (; this.i < bytes.length; this.i++) {
      const c = bytes[this.i]!;
      if (c === QUOTE) this.i = stringEnd(bytes, this.i) - 1;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (--depth === 0) {
          this.i++;
          return;
        }
      } else if (c === LF) this.newLine(this.i);
    }
  }

  private space(): void {
    const { bytes } = this;
    while (this.i < bytes.length && isJsonSpace(bytes[this.i]!)) {
      if (bytes[this.i] === LF) this.newLine(this.i);
      this.i++;
    }
  }

  private newLine(at: number): void {
    this.line++;
    this.counted = at + 1;
    this.units = 0;
  }

  /** The 1-based line and column (UTF-16 units) of `i`, counting on from the last place asked on this line. */
  private place(): ValuePlace {
    this.units += utf16Units(this.bytes, this.counted, this.i);
    this.counted = this.i;
    return { line: this.line, column: this.units + 1 };
  }
}
